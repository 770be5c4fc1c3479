"""Comparison rules that mutation testing found unguarded (issue 23, item 6), one table per rule.

Each row fails on a one-line bug in docbot/sandbox/compare.py (or the child's judgement built on it): a
``return False`` that becomes ``True``, a length check dropped, one side of "repr or str" dropped, the
tolerance moved by a factor of two.
"""

from __future__ import annotations

from typing import Any

import pytest

from docbot.sandbox import child
from docbot.sandbox.compare import line_matches, numbers_equal, output_matches, value_matches


class _Shown:
    """A value whose repr and str differ, as most objects' do (``Decimal('1.10')`` / ``1.10``)."""

    def __init__(self, as_repr: str, as_str: str) -> None:
        self._repr, self._str = as_repr, as_str

    def __repr__(self) -> str:
        return self._repr

    def __str__(self) -> str:
        return self._str


# A stated value that is not a literal and does not evaluate (`# -> banana`) is a claim, and a mismatch
# unless the value shows as that text; it evaluates only where the example ran (compare.py, rule 7).
NOT_EVALUATED: list[tuple[Any, str, dict[str, Any] | None, bool]] = [
    (3, "banana", {}, False),  # NameError where the example ran: not equal
    (3, "banana", None, False),  # no namespace to evaluate in: not equal
    (3, "banana", {"banana": 3}, True),  # the name the example defined: equal
    (4, "banana", {"banana": 3}, False),
    ("banana", "banana", {}, True),  # the string printed is its text
    (3, "banana(", {}, False),  # a SyntaxError is not equal either
]


@pytest.mark.parametrize("actual, want, namespace, equal", NOT_EVALUATED)
def test_a_stated_value_that_does_not_evaluate_is_a_mismatch(actual: Any, want: str,
                                                             namespace: dict[str, Any] | None, equal: bool) -> None:
    assert value_matches(actual, want, namespace) is equal


def test_the_child_reports_an_unevaluable_stated_value_as_a_mismatch() -> None:
    step = {"expect": "value", "want": "banana", "target": ""}
    assert child._judge(step, 3, "", [], {})["status"] == "mismatch"
    assert child._judge(step, "banana", "", [], {})["status"] == "ok"


# A prefix of the real output is not the output, in either direction; only an explicit `...` stands for more.
PREFIX = [
    ("total 3", "total 3 items", False),
    ("total 3 items", "total 3", False),
    ("total 3.0", "total 3.0 items", False),  # a line with numbers is compared piece by piece: all pieces
    ("'a' 1", "'a' 1 'b'", False),
    ("total 3 ...", "total 3 items", True),
    ("a ... c", "a b c d", False),  # the ellipsis matches the whole text, not a prefix of it
    ("a ... c", "a b c", True),
    ("total 3", "total 3\nitems 4", False),  # the first lines of the output are not the output
    ("total 3\nitems 4", "total 3", False),
]


@pytest.mark.parametrize("want, got, equal", PREFIX)
def test_a_prefix_is_not_the_output(want: str, got: str, equal: bool) -> None:
    assert output_matches(want, got) is equal
    if "..." not in want and "\n" not in want + got:
        assert line_matches(want, got) is equal


@pytest.mark.parametrize("stated, actual, equal", [
    ("invalid rate", "invalid rate: -1", False),
    ("invalid rate: -1", "invalid rate", False),
    ("'invalid rate: -1'", "invalid rate: -1", True),
    ("invalid rate: -1.0", "invalid rate: -1.00000000001", True),
    # the first line of a message with detail below it (jsonschema's validate.rst)
    ("'-12' is not a 'ipv4'", "'-12' is not a 'ipv4'\n\nFailed validating 'format' in schema:\n    {}", True),
    ("'-13' is not a 'ipv4'", "'-12' is not a 'ipv4'\n\nFailed validating 'format' in schema:\n    {}", False),
    ("'-12' is not", "'-12' is not a 'ipv4'\n\nFailed validating", False),
    ("'-12' is not a 'ipv4'", "'-12' is not a 'ipv4'\nand more on the next line", False),  # no detail below
    # quotes are the message's own: joserfc's guide kept `"HS384"` after its code changed to `'HS384'`
    ('Algorithm of "HS384" is not recommended', "Algorithm of 'HS384' is not recommended", False),
])
def test_a_prefix_of_an_exception_message_is_not_its_message(stated: str, actual: str, equal: bool) -> None:
    assert child._same_message(stated, actual) is equal


# Repr or str: a value matches when the stated text is its repr, or its str (what print shows); each side
# alone, for a stated literal and for a stated text that is not one.
REPR_OR_STR = [
    (_Shown("R(1)", "one"), "R(1)", True),  # the repr
    (_Shown("R(1)", "one"), "one", True),  # the str
    (_Shown("R(1)", "one"), "two", False),
    (_Shown("[1, 2]", "1.10"), "[1, 2]", True),  # a literal claim the value is not equal to: its repr
    (_Shown("[1, 2]", "1.10"), "1.10", True),  # the same, its str (Decimal('1.10') against "1.10")
    (_Shown("[1, 2]", "1.10"), "1.1", False),  # text, not the value: 1.10 is not shown as 1.1
]


@pytest.mark.parametrize("actual, want, equal", REPR_OR_STR)
def test_repr_or_str(actual: Any, want: str, equal: bool) -> None:
    assert value_matches(actual, want) is equal


STATED = 1234.56789012345  # digits enough that rounding to the digits shown is no wider than 1e-9

# 1e-9, relative for a large number and absolute near zero: just inside passes, just outside fails.
TOLERANCE = [
    (STATED * (1 + 0.9e-9), STATED, None, True),
    (STATED * (1 + 1.1e-9), STATED, None, False),
    (STATED * (1 - 0.9e-9), STATED, None, True),
    (STATED * (1 - 1.1e-9), STATED, None, False),
    (0.9e-9, 0.0, "0.000000000000", True),
    (1.1e-9, 0.0, "0.000000000000", False),
]


@pytest.mark.parametrize("actual, stated, shown, equal", TOLERANCE)
def test_the_tolerance_is_1e_9(actual: float, stated: float, shown: str | None, equal: bool) -> None:
    assert numbers_equal(actual, stated, shown) is equal
    assert output_matches(shown or repr(stated), repr(actual)) is equal
