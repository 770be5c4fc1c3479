"""Docstrings from the doc model: the file's style detected, text rendered in it, and written with
libcst so that nothing but the docstring changes, on real files of installed packages."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docbot.docmodel import DocModel, Example, ParameterDoc, RaisesDoc
from docbot.docstrings.text import DocstringStyle, doctest_lines, render_docstring
from docbot.docstrings.writer import detect_style, docstring_literal, set_docstring, write_docstring
from docbot.facts.function import Facts, extract_facts
from tests.support.docmodel_samples import deposit, good_deposit

Def = ast.FunctionDef | ast.AsyncFunctionDef

# Real files, not ours, each written in one style by its authors (installed with docbot's own deps).
REAL_FILES = [
    ("langchain_core.runnables.graph_mermaid", DocstringStyle.GOOGLE),
    ("pydantic.fields", DocstringStyle.GOOGLE),
    ("hypothesis.internal.conjecture.providers", DocstringStyle.NUMPY),
    ("hypothesis.strategies._internal.utils", DocstringStyle.NUMPY),
    ("jinja2.filters", DocstringStyle.REST),
    ("jinja2.utils", DocstringStyle.REST),
]


def _real_source(module: str) -> str:
    path = Path(importlib.import_module(module).__file__ or "")
    return path.read_bytes().decode("utf-8")


def _targets(tree: ast.Module) -> list[tuple[str, Def]]:
    """(qualname, node) of module functions and methods of (nested) classes, in file order."""
    found: list[tuple[str, Def]] = []

    def walk(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.append((prefix + node.name, node))
            elif isinstance(node, ast.ClassDef):
                walk(node.body, f"{prefix}{node.name}.")

    walk(tree.body, "")
    return found


def _facts(source: str, qualname: str, node: Def) -> Facts:
    lines = source.splitlines(keepends=True)
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return extract_facts("".join(lines[first - 1 : node.end_lineno]), qualname)


def _model_for(facts: Facts, tricky: bool) -> DocModel:
    notes = 'Paths like C:\\temp\\new and a """quoted""" word.' if tricky else "Thread-safe."
    return DocModel(
        summary=f"Do what {facts.name} does.",
        description="Longer text.\nOn two lines.",
        parameters=tuple(ParameterDoc(name=p.starred_name, description=f"The {p.name}.")
                         for p in facts.documentable_parameters),
        returns="The result." if facts.returns_value else "",
        raises=tuple(RaisesDoc(type=r.exception, message=r.message or "") for r in facts.propagated_raises),
        examples=(Example(code=f"x = {facts.name}\nfor i in range(2):\n    print(i)", output="0\n\n1"),),
        notes=notes,
    )


def _offset(source: str, line: int, col: int) -> int:
    """Character offset of an ast (line, utf-8 byte column) position."""
    lines = source.splitlines(keepends=True)
    return sum(len(x) for x in lines[: line - 1]) + len(lines[line - 1].encode()[:col].decode())


def _docstring_span(source: str, node: Def) -> tuple[int, int] | None:
    first = node.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        assert first.end_lineno is not None and first.end_col_offset is not None
        return _offset(source, first.lineno, first.col_offset), _offset(source, first.end_lineno,
                                                                           first.end_col_offset)
    return None


def _changed_region(old: str, new: str) -> tuple[int, int, int]:
    """(start, old end, new end) of the one contiguous region where ``old`` and ``new`` differ."""
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    tail = 0
    while tail < min(len(old), len(new)) - start and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return start, len(old) - tail, len(new) - tail


def _without_docstring(tree: ast.Module, qualname: str) -> str:
    for name, node in _targets(tree):
        if name == qualname and ast.get_docstring(node, clean=False) is not None:
            node.body = node.body[1:] or [ast.Pass()]
    return ast.dump(tree)


def _check_only_the_docstring_changed(old: str, new: str, qualname: str, node: Def, expected: str) -> None:
    start, old_end, new_end = _changed_region(old, new)
    span = _docstring_span(old, node)
    if span is None:  # inserted: nothing of the old file is gone, only whole new lines came in
        assert start == old_end, old[start:old_end]
        inserted = new[start:new_end]
        assert inserted.strip().startswith(('"""', 'r"""')) and inserted.count("\n") >= 1
    else:  # replaced: the only old bytes that changed lie inside the old docstring
        assert span[0] <= start and old_end <= span[1], (span, start, old_end)
    new_tree, old_tree = ast.parse(new), ast.parse(old)
    target = dict(_targets(new_tree))[qualname]
    assert ast.get_docstring(target) == expected
    assert _without_docstring(new_tree, qualname) == _without_docstring(old_tree, qualname)


@pytest.mark.parametrize(("module", "style"), REAL_FILES)
def test_real_files_round_trip_with_only_the_docstring_changed(module: str, style: DocstringStyle) -> None:
    source = _real_source(module)
    assert detect_style(source) is style
    targets = _targets(ast.parse(source))
    names = [name for name, _ in targets]
    targets = [t for t in targets if names.count(t[0]) == 1]  # overloads and properties: tested below
    with_doc = [t for t in targets if _docstring_span(source, t[1])][:2]
    without_doc = [t for t in targets if not _docstring_span(source, t[1])][:2]
    assert with_doc and len(with_doc + without_doc) >= 3
    for index, (qualname, node) in enumerate(with_doc + without_doc):
        facts = _facts(source, qualname, node)
        model = _model_for(facts, tricky=index % 2 == 1)
        new = write_docstring(source, qualname, model, facts)
        _check_only_the_docstring_changed(source, new, qualname, node, render_docstring(model, facts, style))
        if index == 0:
            assert set_docstring(new, qualname, render_docstring(model, facts, style)) == new  # idempotent


SYNTHETIC = {
    "no docstring, a comment first": "def f(a):\n    # keep me\n    return a\n",
    "single-quoted docstring": "def f(a):\n    'old'\n    return a\n",
    "raw docstring": 'def f(a):\n    r"""old \\d"""\n    return a\n',
    "concatenated docstring": 'def f(a):\n    "old" "er"\n    return a\n',
    "bytes first is no docstring": 'def f(a):\n    b"not a doc"\n    return a\n',
    "async": "async def f(a):\n    return a\n",
    "tabs": "class C:\n\tdef f(self, a):\n\t\treturn a\n",
    "decorated, multi-line signature": "@cache\ndef f(\n    a,\n):  # trailing\n    return a\n",
}


@pytest.mark.parametrize("case", sorted(SYNTHETIC))
def test_synthetic_shapes(case: str) -> None:
    source = SYNTHETIC[case]
    qualname = "C.f" if case == "tabs" else "f"
    node = dict(_targets(ast.parse(source)))[qualname]
    facts = _facts(source, qualname, node)
    model = _model_for(facts, tricky=True)
    new = write_docstring(source, qualname, model, facts, DocstringStyle.GOOGLE)
    _check_only_the_docstring_changed(source, new, qualname, node,
                                      render_docstring(model, facts, DocstringStyle.GOOGLE))


def test_tab_indented_docstring_uses_the_files_tabs() -> None:
    new = set_docstring(SYNTHETIC["tabs"], "C.f", "Summary.\n\nMore.")
    assert '\t\t"""Summary.\n\n\t\tMore.\n\t\t"""\n\t\treturn a\n' in new


def test_a_body_indented_unlike_the_file_keeps_its_own_indent() -> None:
    source = "class C:\n    def f(self):\n      return 1\n"
    assert set_docstring(source, "C.f", "Doc.\n\nMore.") == (
        'class C:\n    def f(self):\n      """Doc.\n\n      More.\n      """\n      return 1\n')
    source = "def g():\n    pass\nclass C:\n  def f(self):\n    return 1\n"  # the class body is the odd one
    assert set_docstring(source, "C.f", "Doc.\n\nMore.").endswith(
        '  def f(self):\n    """Doc.\n\n    More.\n    """\n    return 1\n')


def test_nested_class_method_and_first_of_two_definitions() -> None:
    source = ("class A:\n    class B:\n        def m(self):\n            pass\n"
              "    @property\n    def p(self):\n        return 1\n    @p.setter\n    def p(self, v):\n        pass\n")
    new = set_docstring(set_docstring(source, "A.B.m", "M."), "A.p", "P.")
    assert '        def m(self):\n            """M."""\n            pass\n' in new
    getter_then_setter = ('    def p(self):\n        """P."""\n        return 1\n'
                          '    @p.setter\n    def p(self, v):\n        pass\n')
    assert getter_then_setter in new


def test_overload_stubs_are_passed_over_for_the_implementation() -> None:
    source = ("@overload\ndef f(a: int) -> int: ...\n@typing.overload\ndef f(a: str) -> str: ...\n"
              "def f(a):\n    return a\n")
    assert set_docstring(source, "f", "Doc.") == source.replace("def f(a):\n", 'def f(a):\n    """Doc."""\n')


def test_one_line_function_gets_a_block() -> None:
    new = set_docstring("def f(a): return a  # why\nx = 1\n", "f", "Doc.")
    assert new == 'def f(a):\n    """Doc."""\n    return a  # why\nx = 1\n'


def test_crlf_file_stays_crlf() -> None:
    source = "import os\r\n\r\ndef f(a):\r\n    return a\r\n"
    new = set_docstring(source, "f", "Summary.\n\nMore text.")
    assert "\n" not in new.replace("\r\n", "")
    assert new == 'import os\r\n\r\ndef f(a):\r\n    """Summary.\r\n\r\n    More text.\r\n    """\r\n    return a\r\n'


def test_unknown_function_is_an_error() -> None:
    with pytest.raises(ValueError, match="no function g"):
        set_docstring("def f():\n    pass\n", "g", "Doc.")


@settings(max_examples=300, deadline=None, database=None)
@given(text=st.text(st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from('\\"\'\n '), max_size=60)
       .map(str.strip).filter(bool), indent=st.sampled_from(["", "    ", "\t", "        "]))
def test_docstring_literal_holds_any_text(text: str, indent: str) -> None:
    literal = docstring_literal(text, indent)
    module = ast.parse(f"def f():\n{indent or ' '}{literal}\n{indent or ' '}pass\n")
    function = module.body[0]
    assert isinstance(function, ast.FunctionDef)
    assert ast.get_docstring(function) == inspect.cleandoc(text)


@pytest.mark.parametrize(("text", "literal"), [
    ("One line.", '"""One line."""'),
    ("Two\n\nlines", '"""Two\n\n    lines\n    """'),
    ("A back\\slash", 'r"""A back\\slash"""'),
    ('Ends with a "quote"', '"""Ends with a "quote\\""""'),
    ('Has """ and \\', '"""Has \\"\\"\\" and \\\\"""'),
])
def test_docstring_literal_choices(text: str, literal: str) -> None:
    assert docstring_literal(text, "    ") == literal


GOOGLE_DEPOSIT = '''Add money to the account.

Args:
    amount: how much
    memo: a note
    **tags: labels

Returns:
    the new balance

Raises:
    ValueError: "amount must be positive" when amount <= 0
    errors.MemoError: "memo too long: {len(memo)} characters" when memo and len(memo) > 80
    AccountFrozen: when the account is frozen

Examples:
    >>> print(acct.deposit(5))
    5'''

NUMPY_DEPOSIT = '''Add money to the account.

Parameters
----------
amount : float
    how much
memo : str
    a note
**tags
    labels

Returns
-------
float
    the new balance

Raises
------
ValueError
    "amount must be positive" when amount <= 0
errors.MemoError
    "memo too long: {len(memo)} characters" when memo and len(memo) > 80
AccountFrozen
    when the account is frozen

Examples
--------
>>> print(acct.deposit(5))
5'''

REST_DEPOSIT = '''Add money to the account.

:param amount: how much
:param memo: a note
:param tags: labels
:returns: the new balance
:raises ValueError: "amount must be positive" when amount <= 0
:raises errors.MemoError: "memo too long: {len(memo)} characters" when memo and len(memo) > 80
:raises AccountFrozen: when the account is frozen

>>> print(acct.deposit(5))
5'''


@pytest.mark.parametrize(("style", "expected"), [
    (DocstringStyle.GOOGLE, GOOGLE_DEPOSIT), (DocstringStyle.NUMPY, NUMPY_DEPOSIT), (DocstringStyle.REST, REST_DEPOSIT),
])
def test_render_in_each_style(style: DocstringStyle, expected: str) -> None:
    text = render_docstring(good_deposit(), deposit(), style)
    assert text == expected
    file = "def deposit(self, amount, *, memo='', **tags):\n" + "    " + docstring_literal(text, "    ") + "\n"
    assert detect_style(file) is style  # what docbot writes reads back as the same style


def test_invented_parameters_never_reach_a_docstring() -> None:
    model = DocModel(summary="S.", parameters=(ParameterDoc(name="ghost", description="boo"),))
    assert "ghost" not in render_docstring(model, extract_facts("def f(a):\n    pass\n", "f"), DocstringStyle.GOOGLE)


@pytest.mark.parametrize(("code", "output", "expected"), [
    ("f(1)", "2", ">>> f(1)\n2"),
    ("x = 1\nprint(x)", "", ">>> x = 1\n>>> print(x)"),
    ("for i in range(2):\n    print(i)", "0\n\n1", ">>> for i in range(2):\n...     print(i)\n0\n<BLANKLINE>\n1"),
    ("not python (", "", ">>> not python ("),
    ("a = (1,\n     2)", "", ">>> a = (1,\n...      2)"),
])
def test_doctest_lines(code: str, output: str, expected: str) -> None:
    assert doctest_lines(Example(code=code, output=output)) == expected


@pytest.mark.parametrize(("source", "style"), [
    ("x = 1\n", DocstringStyle.GOOGLE),  # nothing to go by: Google
    ('def f():\n    """Args:\n        a: b\n    """\n', DocstringStyle.GOOGLE),
    ('def f():\n    """:param a: b\n    :returns: c\n    """\n', DocstringStyle.REST),
    ('def f():\n    """X.\n\n    Parameters\n    ----------\n    a : int\n    """\n', DocstringStyle.NUMPY),
    ('# Args:\n# :param a: in a comment, not a docstring\ndef f():\n    """Returns:\n        x\n    """\n',
     DocstringStyle.GOOGLE),
    ('def f(:\n    """:param a: b"""\n', DocstringStyle.REST),  # unparsable: the raw text decides
])
def test_detect_style(source: str, style: DocstringStyle) -> None:
    assert detect_style(source) is style


GEN = extract_facts("def count(n: int) -> Iterator[int]:\n    yield n\n", "count")
NONE = extract_facts("def log(message) -> None:\n    print(message)\n", "log")


@pytest.mark.parametrize(("style", "label"), [
    (DocstringStyle.GOOGLE, "Yields:\n    the numbers"), (DocstringStyle.NUMPY, "Yields\n------\nIterator[int]\n"),
    (DocstringStyle.REST, ":yields: the numbers"),
])
def test_a_generator_yields(style: DocstringStyle, label: str) -> None:
    assert label in render_docstring(DocModel(summary="S.", returns="the numbers"), GEN, style)


def test_none_annotation_is_not_a_return_type_and_undescribed_parameters_are_left_out() -> None:
    model = DocModel(summary="S.", returns="nothing useful", parameters=(ParameterDoc(name="message"),))
    assert render_docstring(model, NONE, DocstringStyle.NUMPY) == "S.\n\nReturns\n-------\nobject\n    nothing useful"
    assert "message" not in render_docstring(model, NONE, DocstringStyle.GOOGLE)


def test_an_empty_model_still_gives_a_docstring() -> None:
    assert render_docstring(DocModel(summary="  "), NONE, DocstringStyle.GOOGLE) == "log"
