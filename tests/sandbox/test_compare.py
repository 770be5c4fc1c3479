"""The comparison rules of docbot/sandbox/compare.py, one table per rule: each row fails on a wrong rule."""

from __future__ import annotations

import pytest

from docbot.sandbox.compare import line_matches, literal, output_matches, value_matches, values_equal

# Rule 1: exact text after trailing-whitespace normalisation; inner whitespace and lines count.
TEXT = [
    ("total: 3", "total: 3   ", True),
    ("\nline one\nline two\n\n", "line one\nline two", True),
    ("name   qty\napple    3", "name   qty\napple  3", False),  # a misaligned table is different
    ("a  b", "a b", False),
    ("a\nb", "a b", False),
    ("a\nb", "a\nb\nc", False),
    # what a terminal and doctest make of whitespace: a tab to the next 8-column stop, <BLANKLINE>, a shared indent
    ("name    qty", "name\tqty", True),
    ("name qty", "name\tqty", False),  # a tab is the spaces to its stop, not any whitespace
    ("a\n<BLANKLINE>\nb", "a\n\nb", True),
    ("a\n<BLANKLINE>\nb", "a\nb", False),
    ("    total: 3\n    left: 1", "total: 3\nleft: 1", True),  # an output block indented in a list
    ("    total: 3\n  left: 1", "total: 3\nleft: 1", False),  # only the indent every line shares
]

# Rule 2: ``...`` stands for any text.
ELLIPSIS = [
    ("<Account ...>", "<Account at 0x7f3a>", True),
    ("[1, 2, ...]", "[1, 2, 3, 4]", True),
    ("start ... end", "start middle END", False),
]

# Rule 3: equal values when both sides are literals.
VALUES = [
    ("{'b': 2, 'a': 1}", "{'a': 1, 'b': 2}", True),
    ("frozenset({3, 1})", "frozenset({1, 3})", True),
    ("frozenset({3, 1})", "frozenset({1, 4})", False),
    ("{3, 1, 2}", "{1, 2, 3}", True),
    ("set()", "set()", True),
    ("0.1+0.2", "0.30000000000000004", True),
    ("0.30000000000000004", "0.30000000000000004", True),
    ("[1, 2]", "(1, 2)", False),
    ("{'a': [1, 2]}", "{'a': [2, 1]}", False),
]

# Rule 4: numbers; an integer claim is exact.
NUMBERS = [
    ("110", "110.00000000000001", False),
    ("110", "110.0", True),
    ("110", "111", False),
    ("110.25", "110.25000000000001", True),
    ("0.33", "0.3333333333333333", True),
    ("0.34", "0.3333333333333333", False),
    ("True", "1", False),
    ("[110]", "[110.00000000000001]", False),
]

# Rule 5: tolerance only between numbers, never inside strings.
IN_LINES = [
    ("Total: 110.25 EUR", "Total: 110.25000000000001 EUR", True),
    ("Total: 110.25 EUR", "Total: 110.25 USD", False),
    ("'1.0 x 10⁰'", "'1.00 x 10⁰'", False),
    ("value '1.0' and 2.50", "value '1.00' and 2.5", False),
    ("value '1.0' and 2.50", "value '1.0' and 2.5", True),
    ("count 110", "count 110.00000000000001", False),
]

# Rule 6: a string's repr against the same string printed.
STRINGS = [
    ("hello", "'hello'", True),
    ("'hello'", "'hullo'", False),
]


@pytest.mark.parametrize("want, got, equal", TEXT + ELLIPSIS + VALUES + NUMBERS + IN_LINES + STRINGS)
def test_output_matches(want: str, got: str, equal: bool) -> None:
    assert output_matches(want, got) is equal


@pytest.mark.parametrize("want, got, equal", [
    ("x = 1.50", "x = 1.5", True),
    ("x = 1.50", "x  = 1.5", False),
    ("'a' 1", "'b' 1", False),
])
def test_line_matches(want: str, got: str, equal: bool) -> None:
    assert line_matches(want, got) is equal


# Rule 7: a returned value against the stated text.
@pytest.mark.parametrize("actual, want, equal", [
    (frozenset({1, 3}), "frozenset({3, 1})", True),
    (110.00000000000001, "110", False),
    (110.0, "110", True),
    (True, "True", True),
    (1, "True", False),
    (0.1 + 0.2, "0.30000000000000004", True),
    ("1.00 x 10⁰", "'1.0 x 10⁰'", False),
    ({"b": 1, "a": 2}, "{'a': 2, 'b': 1}", True),
    ([1, 2, 3, 4], "[1, 2, ...]", True),  # doctest's ellipsis in a stated value, not Python's Ellipsis
    ([1, 3, 3, 4], "[1, 2, ...]", False),
    ([1, 2, Ellipsis], "[1, 2, ...]", True),
])
def test_value_matches(actual: object, want: str, equal: bool) -> None:
    assert value_matches(actual, want) is equal


@pytest.mark.parametrize("text, value, ok", [
    ("frozenset({1, 2})", frozenset({1, 2}), True),
    ("set()", set(), True),
    ("1 + 2 * 3", 7, True),
    ("'a' * 3", None, False),  # arithmetic only between numbers: no string or memory bombs
    ("__import__('os')", None, False),
    ("{**x}", None, False),
    ("[1, {'a': (2, 3)}]", [1, {"a": (2, 3)}], True),
])
def test_literal_evaluates_nothing_but_literals(text: str, value: object, ok: bool) -> None:
    assert literal(text) == (value, ok)


def test_values_equal_keeps_bool_and_int_apart_deep_inside() -> None:
    assert values_equal({"a": [1, 2.0]}, {"a": [1, 2]})
    assert not values_equal({"a": [True]}, {"a": [1]})
