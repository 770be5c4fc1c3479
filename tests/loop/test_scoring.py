"""The score arithmetic and the degenerate-feedback guard, as tables."""

from __future__ import annotations

import pytest

from docbot.loop.scoring import GENERIC_FIX, guard_fix, net_score, round_half_up

ROUNDING = [(94.5, 95), (95.5, 96), (94.4, 94), (0.5, 1), (100.0, 100), (72.5, 73)]


@pytest.mark.parametrize("value,expected", ROUNDING)
def test_round_half_up_not_bankers(value: float, expected: int) -> None:
    assert round_half_up(value) == expected


@pytest.mark.parametrize("accuracy,completeness,expected", [(94, 95, 95), (90, 91, 91), (0, 0, 0), (100, 99, 100)])
def test_net_score_is_the_rounded_mean(accuracy: int, completeness: int, expected: int) -> None:
    assert net_score(accuracy, completeness) == expected


GUARD = [
    ("", True),
    ("   \n ", True),
    ("../" * 200, True),
    ("!!!!!!!!", True),
    ("fix fix fix fix fix fix fix", True),
    ("the docs the docs the docs the docs the docs the docs", True),
    ("Please " + "check this " * 12, True),
    ("Quote the exact ValueError message from the source.", False),
    ("Add the missing `periods_per_year` row to the parameter table.", False),
    ("ok ok", True),  # two distinct characters is no feedback
    ("Fix typo.", False),  # short but real
]


@pytest.mark.parametrize("fix,degenerate", GUARD)
def test_degenerate_fix_is_replaced(fix: str, degenerate: bool) -> None:
    replaced_fix, replaced = guard_fix(fix)
    assert replaced is degenerate
    assert replaced_fix == (GENERIC_FIX if degenerate else fix.strip())
