"""The claim reader: which typed claims each statement of a doc makes, and about which one object
(docs/design.md#claims). A claim whose subject does not resolve to exactly one object is not made."""

from __future__ import annotations

import pytest

from docbot.verify.read.claim_units import Form, markdown_units, rst_units
from docbot.verify.read.claims import Kind, markdown_claims, rst_claims


class Names:
    """A toy API: ``f``, ``connect``, ``Client`` (its ``__init__``); ``pkg.gone`` is known not to exist."""

    keys = {"f": "f", "pkg.f": "f", "connect": "connect", "Client": "Client.__init__"}

    def subject(self, written: str) -> str | None:
        return self.keys.get(written.split("(")[0].strip("`~"))

    def missing(self, written: str) -> bool:
        return written.split("(")[0] == "pkg.gone"


def claims(doc: str, passage: str | None = None) -> set[tuple[str, str, str, str]]:
    return {(c.kind.value, c.subject, c.parameter, c.value) for c in markdown_claims(doc, Names(), lambda _l: passage)}


@pytest.mark.parametrize("doc, expected", [
    # defaults in prose, the parameter named in code
    ("`f()` is fast. `timeout` defaults to 5.", {("default", "f", "timeout", "5")}),
    ("By default, `mode` is `'r'` in `f()`.", {("default", "f", "mode", "'r'")}),
    ("`f()` uses `mode='r'` by default.", {("default", "f", "mode", "'r'")}),
    ("The `retries` argument of `connect()` defaults to `3`.",
     {("default", "connect", "retries", "3"), ("takes", "connect", "retries", "")}),
    # a parameter the syntax ties to its function
    ("`connect()` accepts an optional `timeout` argument.", {("takes", "connect", "timeout", "")}),
    ("Pass `retries=3` to `connect()`.", {("takes", "connect", "retries", "")}),
    ("Call `connect(host, port=80)`.", {("takes", "connect", "port", "")}),
    # types, returns, exceptions
    ("`f()` returns a dict.", {("returns_type", "f", "", "dict")}),
    ("`f()` returns `None` if empty.", {("returns_value", "f", "", "None")}),
    ("`f()` returns `None`.", {("returns_value", "f", "", "None")}),  # the sentence's period after the span
    ("`f()` returns `True`.", {("returns_value", "f", "", "True")}),
    # a return stated in other words (the phrasings of issue 29's plants on idna's README and chardet's usage.rst)
    ("Calling `f()` gives back a dictionary.", {("returns_type", "f", "", "dictionary")}),
    ("The result of `f()` is a string.", {("returns_type", "f", "", "string")}),
    ("The return value of `f(x)` is always `None`.", {("returns_value", "f", "", "None")}),
    ("Calling `f()` raises `KeyError` if missing.", {("raises", "f", "", "KeyError")}),
    ("In `f()`, `mode` defaults to `'r'`.", {("default", "f", "mode", "'r'")}),
    ("`f()` raises `KeyError` if missing.", {("raises", "f", "", "KeyError")}),
    ("If missing, a `KeyError` is raised by `f()`.", {("raises", "f", "", "KeyError")}),
    ("`x` must be an integer when you call `f()`.", {("type", "f", "x", "integer")}),
    ("`path` (str) is read by `f()`.", {("type", "f", "path", "str")}),
    ("`Client()` takes a `retries` parameter.", {("takes", "Client.__init__", "retries", "")}),
    ("`pkg.gone` is the old name.", {("exists", "pkg.gone", "", "pkg.gone")}),
])
def test_each_statement_makes_its_claims(doc: str, expected: set[tuple[str, str, str, str]]) -> None:
    assert claims(doc) == expected


@pytest.mark.parametrize("doc", [
    "A callback that returns a dict is accepted by `f()`.",  # the verb's subject is the callback
    "`f()` never raises `KeyError`.",  # negated
    "`f()` does not return a list.",
    "Your hook should raise `StopIteration` to stop `f()`.",  # another subject
    "`f()` and `connect()` return a dict.",  # two objects: which one?
    "`other.thing()` returns a dict.",  # not ours
    "`retry_state` argument is an object of `Client` class.",  # whose argument, it does not say
    "`r.json()` returns a dict.",  # a callable the API does not know
    "`f()` raises `ValueError` when handling `KeyError`.",  # KeyError is the one caught
    "The result of `f()` is not a list.",  # negated
    "The result of `f()` is cached.",  # no type
    "`f()` gives back control to the event loop.",  # no type
    "A hook that gives back a dict is passed to `f()`.",  # the hook's return
    "The result of `other.thing()` is a dict.",  # not ours
])
def test_a_statement_about_another_subject_or_none_makes_no_claim(doc: str) -> None:
    assert {c for c in claims(doc) if c[0] != "raises" or c[3] != "ValueError"} == set()


def test_a_statement_naming_nothing_is_about_the_passage_and_only_there() -> None:
    assert claims("It returns a dict.", passage="f") == {("returns_type", "f", "", "dict")}
    assert claims("It returns a dict.", passage=None) == set()
    # a heading names the subject for the passage under it
    assert claims("## `connect()`\n\nIt returns a dict.\n") == {("returns_type", "connect", "", "dict")}


@pytest.mark.parametrize("doc, one, expected", [
    # one function's docstring: a bare verb's subject is the function, whatever the sentence before names
    ("Tabs are expanded with `str.expandtabs()`. Raises `KeyError` if missing.", True,
     {("raises", "f", "", "KeyError")}),
    ("See also `other.g()`. Returns a dict.", True, {("returns_type", "f", "", "dict")}),
    # a doc about many objects: the sentence before may be what it is about, so no claim
    ("Tabs are expanded with `str.expandtabs()`. Raises `KeyError` if missing.", False, set()),
    # a pronoun goes on referring to the sentence before
    ("See also `other.g()`. It returns a dict.", True, set()),
    # a bare verb in a list is its lead's (`connect()` raises these)
    ("`connect()` raises:\n\n- Raises `KeyError` if missing\n", True, {("raises", "connect", "", "KeyError")}),
    # the sentence's own name still decides
    ("See also `other.g()`. Returns what `connect()` gives.", True, set()),
])
def test_a_bare_verb_in_one_functions_doc_is_about_that_function(doc: str, one: bool,
                                                                 expected: set[tuple[str, ...]]) -> None:
    found = {(c.kind.value, c.subject, c.parameter, c.value)
             for c in markdown_claims(doc, Names(), lambda _l: "f", one=one)}
    assert found == expected


def test_an_exception_is_what_is_raised_never_the_subject() -> None:
    assert claims("## `f()`\n\n- raises `ValidationError` on failure\n") == {("raises", "f", "", "ValidationError")}


@pytest.mark.parametrize("doc, expected", [
    ("`f()` takes these arguments:\n\n| Argument | Default |\n| --- | --- |\n| `lo` | `0` |\n",
     {("takes", "f", "lo", ""), ("default", "f", "lo", "0")}),
    # a Default column's plain "None" means no default; a description's "(default 7)" is a default
    ("**Parameters**\n\n| Name | Type | Default | Description |\n| --- | --- | --- | --- |\n"
     "| `lo` | `int` | None | the bound (default 7) |\n",
     {("takes", "f", "lo", ""), ("type", "f", "lo", "int"), ("default", "f", "lo", "7")}),
    ("**Parameters**\n\n- `a` (int): the a. Defaults to 3.\n",
     {("takes", "f", "a", ""), ("type", "f", "a", "int"), ("default", "f", "a", "3")}),
    ("`f()` options:\n\n`mode`\n: Defaults to `'r'`.\n", {("takes", "f", "mode", ""), ("default", "f", "mode", "'r'")}),
    ("```python\ndef f(a, b: str = 'q') -> int\n```\n",
     {("takes", "f", "a", ""), ("takes", "f", "b", ""), ("default", "f", "b", "'q'"), ("type", "f", "b", "str"),
      ("returns_type", "f", "", "int")}),
])
def test_tables_lists_definitions_and_signatures_state_their_items(doc: str, expected: set[tuple[str, ...]]) -> None:
    assert claims(doc, passage="f") == expected


@pytest.mark.parametrize("doc, expected", [
    # the row's name is the parameter, though the package has a function `f` too (databricks-sdk's README: a table
    # of WorkspaceClient's arguments whose row `google_credentials` shares its name with a function)
    ("`connect()` takes:\n\n| Argument | Description |\n| --- | --- |\n| `f` | the f |\n",
     {("takes", "connect", "f", "")}),
    ("`f` defaults to 3.", {("default", "connect", "f", "3")}),
    ("`connect()` options:\n\n`f`\n: Defaults to `'r'`.\n",
     {("takes", "connect", "f", ""), ("default", "connect", "f", "'r'")}),
    # written as a call, the name is still the function the statement is about
    ("`f()` takes a `retries` parameter.", {("takes", "f", "retries", "")}),
    ("In `f()`, `f` defaults to `2`.", {("default", "f", "f", "2")}),
])
def test_a_name_stated_as_a_parameter_is_not_the_subject(doc: str, expected: set[tuple[str, ...]]) -> None:
    assert claims(doc, passage="connect") == expected


def test_a_list_items_later_paragraph_is_still_the_items() -> None:
    doc = "- `a`: the a.\n\n  Defaults to 3.\n\n- `b`: the b.\n\nAfter the list.\n"
    forms = {u.text: u.form for u in markdown_units(doc)}
    assert forms["Defaults to 3."] is Form.BULLET and forms["After the list."] is Form.PROSE
    assert forms["`a`: the a."] is Form.BULLET


def test_an_examples_own_definition_is_no_signature() -> None:
    doc = "```python\ndef f(request):\n    return 1\n```\n\n```python\ndef f(request): ...\n```\n"
    assert [u.line for u in markdown_units(doc) if u.form is Form.SIGNATURE] == [6]


RST = """Usage
=====

.. function:: connect(host, port=80)

   Opens it. Raises :exc:`OSError` on failure.

   :param host: the host
   :type host: str
   :raises ValueError: if bad

``timeout`` : float, default 5
    The timeout.

.. list-table::
   :header-rows: 1

   * - Argument
     - Default
   * - ``lo``
     - ``2``
"""


def test_rst_directives_fields_definitions_and_tables_are_read_with_docutils() -> None:
    found = {(c.kind.value, c.subject, c.parameter, c.value, c.line) for c in rst_claims(RST, Names(), lambda _l: "f")}
    assert {("default", "connect", "port", "80", 3), ("raises", "connect", "", "OSError", 5),
            ("type", "connect", "host", "str", 8), ("raises", "connect", "", "ValueError", 9),
            ("default", "f", "timeout", "5", 11), ("type", "f", "timeout", "float", 11),
            ("default", "f", "lo", "2", 19)} <= found


def test_rst_units_keep_the_lines_a_person_sees() -> None:
    lines = {u.text: u.line for u in rst_units(RST)}
    assert lines["Opens it."] == 5 and lines["The timeout."] == 11


def test_claim_kinds_are_the_issues_seven() -> None:
    assert {k.value for k in Kind} == {"exists", "takes", "default", "type", "raises", "returns_type",
                                        "returns_value"}


@pytest.mark.parametrize("rst, subjects", [
    pytest.param(".. class:: MyTrait\n\n   .. method:: validate(obj, value)\n\n      Check it.\n",
                 ["MyTrait", "MyTrait.validate(obj, value)"],
                 id="traitlets: a method nested in a class directive is the class's"),
    pytest.param(".. class:: MyTrait\n\n   Text.\n\n.. function:: validate(obj, value)\n\n   Check it.\n",
                 ["MyTrait", "validate(obj, value)"],
                 id="a function after the class directive, not in it, is the module's"),
    pytest.param(".. class:: A\n\n   .. method:: B.run(x)\n", ["A", "B.run(x)"],
                 id="a qualified name stays as written"),
])
def test_a_directive_nested_in_a_class_is_the_class_s(rst: str, subjects: list[str]) -> None:
    assert [u.subject for u in rst_units(rst) if u.form is Form.SIGNATURE] == subjects  # each read once
