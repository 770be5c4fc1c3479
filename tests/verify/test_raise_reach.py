"""An exception a doc ties to a parameter, against the raise sites about it (docbot/verify/checks/raise_reach.py)."""

from __future__ import annotations

import ast
import textwrap

import pytest

from docbot.verify.checks.page import check_doc
from docbot.verify.checks.raise_reach import may_be_subclass, only_passed_on, parameter_raises

MODULE = textwrap.dedent('''
    class AppError(Exception):
        pass


    class LimitError(AppError):
        pass


    def make_safe(parse_float):
        if parse_float is float:
            return float

        def safe(text):
            value = parse_float(text)
            if isinstance(value, (dict, list)):
                raise ValueError("parse_float must not return dicts or lists")
            return value

        return safe


    def loads(text, *, parse_float=float):
        if not isinstance(text, str):
            raise TypeError("text must be str")
        parse_float = make_safe(parse_float)
        return _parse(text, parse_float)


    def _parse(text, parse_float):
        return {"text": text}


    def get(mapping, key):
        if not isinstance(key, str):
            raise TypeError(f"key must be str, not {key!r}")
        return mapping[key]


    def to_int(value, base=10):
        return int(value, base=base)


    def limit(amount):
        if amount > 10:
            raise LimitError("amount over the limit")
        return amount
''')


def _source(name: str) -> str:
    node = next(n for n in ast.parse(MODULE).body if isinstance(n, ast.FunctionDef) and n.name == name)
    segment = ast.get_source_segment(MODULE, node)
    assert segment is not None
    return segment


@pytest.mark.parametrize("function, doc, fatal_kinds", [
    ("loads", "A `TypeError` will be raised if `parse_float` produces illegal types.", ["wrong_exception_type"]),
    ("loads", "A `ValueError` will be raised if `parse_float` produces illegal types.", []),
    ("loads", "A `TypeError` is raised if `text` is not a string.", []),  # the function's own raise about it
    ("loads", "A `TypeError` is raised if `text` or `parse_float` is wrong.", []),  # two parameters: not judged
    ("get", "Raises `KeyError` if `key` is missing.\n\nRaises `TypeError` if `key` is not a str.", []),  # a note
    ("limit", "Raises `AppError` if `amount` is over the limit.", []),  # LimitError derives from it
    ("limit", "Raises `ValueError` if `amount` is over the limit.", ["wrong_exception_type"]),  # reported once
])
def test_a_type_tied_to_a_parameter(function: str, doc: str, fatal_kinds: list[str]) -> None:
    findings = check_doc(f"# `{function}`\n\n{doc}\n", _source(function), function, module_source=MODULE)
    assert [f.check for f in findings if f.fatal] == fatal_kinds


def test_the_finding_says_where_the_code_raises() -> None:
    (finding,) = [f for f in check_doc("A `TypeError` will be raised if `parse_float` returns a dict.\n",
                                       _source("loads"), "loads", module_source=MODULE) if f.fatal]
    assert "ValueError" in finding.message and "make_safe.safe" in finding.message


def test_without_the_module_the_callee_is_not_followed() -> None:
    findings = check_doc("A `TypeError` will be raised if `parse_float` produces illegal types.\n",
                         _source("loads"), "loads")
    assert not [f for f in findings if f.fatal]


@pytest.mark.parametrize("function, param, types", [
    ("loads", "parse_float", ["ValueError"]),  # through the callee's nested wrapper
    ("loads", "text", ["TypeError"]),
    ("get", "key", ["TypeError"]),
    ("get", "mapping", []),
    ("limit", "amount", ["LimitError"]),
])
def test_parameter_raises(function: str, param: str, types: list[str]) -> None:
    assert [r.raise_.type_name for r in parameter_raises(MODULE, _source(function), param)] == types


@pytest.mark.parametrize("raised, stated, expected", [
    ("LimitError", "AppError", True),
    ("LimitError", "Exception", True),
    ("LimitError", "ValueError", False),
    ("ForeignError", "AppError", True),
    ("UnicodeDecodeError", "ValueError", True),
    ("ValueError", "TypeError", False),
    ("ForeignError", "ValueError", True),  # bases unknown: it may derive from it
])
def test_may_be_subclass(raised: str, stated: str, expected: bool) -> None:
    assert may_be_subclass(raised, stated, MODULE) is expected


@pytest.mark.parametrize("raised, stated, expected", [("LimitError", "AppError", True),
                                                      ("ForeignError", "AppError", False)])
def test_known_subclass_only(raised: str, stated: str, expected: bool) -> None:
    assert may_be_subclass(raised, stated, MODULE, unknown=False) is expected


@pytest.mark.parametrize("function, param, expected", [
    ("loads", "parse_float", True),  # passed to calls and reassigned only
    ("loads", "text", True),  # isinstance() only looks at it
    ("to_int", "value", False),  # int(value) acts on it
    ("to_int", "base", False),  # a keyword of int()
    ("get", "key", False),  # mapping[key]
    ("limit", "amount", False),  # amount > 10
])
def test_only_passed_on(function: str, param: str, expected: bool) -> None:
    assert only_passed_on(_source(function), param) is expected
