"""A stated return type against what the code returns (docbot/verify/checks/return_types.py, return_check.py).

Each inference rule and each claim form has a case that fails on a one-line bug, and each has a guard: an
answer that is not complete is unknown, and text about something else's return is not a claim.
"""

from __future__ import annotations

import textwrap

import pytest

from docbot.facts.function import extract_facts
from docbot.verify.checks.page import check_doc
from docbot.verify.checks.returns import check_return_type, return_type_claims, stated_type
from docbot.verify.checks.return_types import NUMERIC, returned_types, shown


def _module(body: str) -> str:
    return textwrap.dedent(body).lstrip("\n")


@pytest.mark.parametrize("source, qualname, expected", [
    # 1. an annotation of builtin value types wins
    ("def f(x) -> str | None:\n    return g(x)\n", "f", {"str", "NoneType"}),
    ("from typing import Any\ndef f(x) -> dict[str, Any]:\n    return g(x)\n", "f", {"dict"}),
    ("from typing import Optional\ndef f(x) -> Optional[bytes]:\n    return g(x)\n", "f", {"bytes", "NoneType"}),
    ("def f(x) -> 'list[int]':\n    return g(x)\n", "f", {"list"}),
    ("class A: pass\ndef f() -> A:\n    return A()\n", "f", None),  # another class: unknown
    # 2. the syntax of each return
    ("def f(x):\n    if x:\n        return 'a'\n    return [1]\n", "f", {"str", "list"}),
    ("def f(x):\n    return f'{x}!'\n", "f", {"str"}),
    ("def f(x):\n    return x > 1\n", "f", {"bool"}),
    ("def f(x):\n    return not x\n", "f", {"bool"}),
    ("def f(x):\n    return {k: 1 for k in x}\n", "f", {"dict"}),
    ("def f(x):\n    return str(x) if x else None\n", "f", {"str", "NoneType"}),
    ("def f(x):\n    return len(x)\n", "f", {"int"}),
    ("def f(x):\n    if x:\n        return 1\n", "f", {"int", "NoneType"}),  # falls off the end
    ("def f(x):\n    if x:\n        return 1\n    return\n", "f", {"int", "NoneType"}),
    ("def f(x):\n    return x + 'a'\n", "f", None),  # arithmetic is not guessed
    ("def f(x):\n    return x or 'a'\n", "f", None),  # one operand unknown
    ("def f(x, y):\n    return '%s, line %d' % (x, y)\n", "f", {"str"}),  # printf-style formatting
    ("def f(x):\n    return b'<%s>' % x\n", "f", {"bytes"}),
    ("def f(x, y):\n    return x % y\n", "f", None),  # a number's modulo, or anything's
    ("def f(x):\n    return 5 % x\n", "f", None),
    # arithmetic with a number: a number of some type (calendar.leapdays), never a str, list or dict
    ("def f(a, b):\n    return (b//4 - a//4) - (b//100 - a//100) + (b//400 - a//400)\n", "f", set(NUMERIC)),
    ("def f(x):\n    return x / 2\n", "f", set(NUMERIC)), ("def f(x):\n    return 2 ** x\n", "f", set(NUMERIC)),
    ("def f(x):\n    return -(x - 1)\n", "f", set(NUMERIC)), ("def f(x):\n    return 1.5 - x\n", "f", set(NUMERIC)),
    ("def f(x):\n    return x * 2\n", "f", None),  # a list repeated, or a str
    ("def f(x):\n    return (x - 1) * 2\n", "f", set(NUMERIC)),  # ... but not when both sides are numbers
    ("def f(x):\n    return x + 1\n", "f", None), ("def f(x):\n    return (x - 1) % 2\n", "f", set(NUMERIC)),
    ("def f(x):\n    return x % 2\n", "f", None),  # a str's formatting
    ("def f(x, y):\n    return x - y\n", "f", None),  # two sets' difference
    ("def f(x):\n    return -x\n", "f", None), ("def f(x):\n    return 'a' * 2\n", "f", None),
    ("def f(x, n):\n    return sorted(x)[:n]\n", "f", {"list"}),  # a slice of a builtin sequence: its type
    ("def f(x):\n    return [x, 1][1:]\n", "f", {"list"}),
    ("def f(x):\n    return sorted(x)[0]\n", "f", None),  # an item is not the sequence's type
    # 3. jedi, complete answers only
    ("from io import StringIO\ndef f():\n    out = StringIO()\n    return out.getvalue()\n", "f", {"str"}),
    ("def f():\n    out = ''\n    return out[:-1]\n", "f", {"str"}),
    ("def f(x):\n    return x\n\ndef g():\n    return f('a')\n", "f", None),  # no guess from call sites
    ("from somewhere import g\ndef f(x):\n    if x:\n        return 1\n    return g(x)\n", "f", None),
    ("class A: pass\ndef f():\n    return A()\n", "f", None),
    ("from collections import OrderedDict\ndef f():\n    return OrderedDict()\n", "f", None),
    # what is not inferred at all
    ("def f(x):\n    yield x\n", "f", None),
    ("async def f(x):\n    return 'a'\n", "f", None),
    ("def f(x):\n    print(x)\n", "f", None),
    # methods and overloads: the implementation, found by its qualname
    ("from typing import overload\nclass C:\n    @overload\n    def m(self, x: int) -> int: ...\n"
     "    def m(self, x):\n        return [x]\n", "C.m", {"list"}),
    ("def f():\n    return 'é' if True else 'ü'\n", "f", {"str"}),  # columns in characters, not bytes
])
def test_returned_types(source: str, qualname: str, expected: set[str] | None) -> None:
    found = returned_types(source, qualname)
    assert (set(found) if found is not None else None) == expected


@pytest.mark.parametrize("phrase, expected", [
    ("a list of Python dictionaries", "list"),
    ("a Python dictionary", "dictionary"),
    ("a whole string", "string"),
    ("string if None", "string"),
    ("a JSON formatted `str`", "str"),
    ("True/False whether it matches", "bool"),
    ("1 if the list is empty", None),
    ("the length of the list", None),
    ("the list's size", None),
    ("the value", None),
])
def test_stated_type(phrase: str, expected: str | None) -> None:
    assert stated_type(phrase) == expected


@pytest.mark.parametrize("doc, expected", [
    ("- `output=None`: File-like object to write to; returns string if None.", ["string"]),
    ("Parse XML input into a list of Python dictionaries.", ["list"]),
    ("### parse()\n\nParse XML input into a Python dictionary.", ["dictionary"]),
    ("It returns a dict mapping names to ids.", ["dict"]),
    ("The function returns a dict.", ["dict"]),
    ("`parse()` returns a dict.", ["dict"]),
    ("`dumps()` returns a string.", []),  # another function's return
    ("The callback function returns a string.", []),
    ("- the table is returned as a whole string", ["string"]),
    ("Returns:\n    list of lines\n", ["list"]),
    ("## Returns\n\n`str`: the text\n", ["str"]),
    # not a claim about the function's own return
    ("- `force_list=None`: a callable that receives (path, key, value) and returns True/False.", []),
    ("A hook which returns a list of names.", []),
    ("This does not return a list.", []),
    ("Returns 1 if the list is empty.", []),
    ("Convert a Python dictionary back into XML.", []),
    ("```python\nreturn 'a list'\n```\n", []),  # code is not prose
])
def test_return_type_claims(doc: str, expected: list[str]) -> None:
    assert [word for word, _text in return_type_claims(doc, "parse")] == expected


MODULE = _module('''
    def render(rows):
        out = ""
        for row in rows:
            out += str(row) + "\\n"
        return out[:-1]

    def count(rows) -> int:
        return len(rows)

    def flag(rows):
        return bool(rows)

    class Table:
        def __init__(self, rows):
            self.rows = rows
''')


@pytest.mark.parametrize("qualname, doc, fatal", [
    ("render", "Draw the rows.\n\n- the table is returned as a list of lines\n", True),
    ("render", "Draw the rows.\n\n- the table is returned as a whole string\n", False),
    ("render", "Render the rows into a list of strings.\n", True),
    ("count", "Returns a float.\n", False),  # a float claim admits an int
    ("count", "Returns a string.\n", True),
    ("flag", "Returns an integer.\n", False),  # bool is an int
    ("flag", "Returns a dictionary.\n", True),
    ("Table.__init__", "Returns a list.\n", False),  # the call returns the instance: not this check's business
])
def test_check_return_type(qualname: str, doc: str, fatal: bool) -> None:
    source = _function_source(MODULE, qualname)
    facts = extract_facts(source, qualname)
    findings = check_return_type(doc, facts, MODULE)
    assert [f.check for f in findings if f.fatal] == (["wrong_return_type"] if fatal else [])


@pytest.mark.parametrize("doc, message", [
    ("Returns a dictionary.\n", "the code returns a number"),  # calendar.leapdays, in the loop's benchmark
    ("Returns a list or None.\n", "the code returns a number"),
])
def test_arithmetic_is_a_number_and_no_container(doc: str, message: str) -> None:
    module = "def leapdays(y1, y2):\n    y1 -= 1\n    return (y2//4 - y1//4) - (y2//100 - y1//100)\n"
    facts = extract_facts(module, "leapdays")
    (finding,) = check_return_type(doc, facts, module)
    assert finding.message.endswith(message)
    for fine in ("Returns an int.\n", "Returns a float.\n", "Returns a number.\n", "Returns the count.\n"):
        assert check_return_type(fine, facts, module) == []
    assert shown(frozenset({"NoneType", "str"})) == "None or str"


def test_the_finding_names_what_the_code_returns() -> None:
    facts = extract_facts(_function_source(MODULE, "render"), "render")
    (finding,) = check_return_type("Returns a list.\n", facts, MODULE)
    assert "returns a list" in finding.message and finding.message.endswith("the code returns str")


def test_without_the_module_nothing_is_inferred() -> None:
    source = _function_source(MODULE, "count")
    assert not [f for f in check_doc("Returns a string.\n", source, "count") if f.check == "wrong_return_type"]
    assert [f.check for f in check_doc("Returns a string.\n", source, "count", module_source=MODULE)
            if f.check == "wrong_return_type"] == ["wrong_return_type"]


def _function_source(module: str, qualname: str) -> str:
    import ast

    tree = ast.parse(module)
    body = tree.body
    node: ast.AST | None = None
    for part in qualname.split("."):
        node = next(n for n in body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name == part)
        body = node.body
    segment = ast.get_source_segment(module, node, padded=True)
    assert segment is not None
    return textwrap.dedent(segment)


def test_one_jedi_query_does_not_blind_the_next() -> None:
    """The module's one shared jedi script answered nothing for `wrap` once `fill` (which calls it) was asked;
    an empty answer is asked again of a fresh script (issue 29: every method's return type was unknown after)."""
    import inspect

    source = inspect.getsource(textwrap)
    asked = [returned_types(source, q) for q in ("TextWrapper.wrap", "TextWrapper.fill", "TextWrapper.wrap", "wrap")]
    assert asked == [frozenset({"list"}), frozenset({"str"}), frozenset({"list"}), frozenset({"list"})]
