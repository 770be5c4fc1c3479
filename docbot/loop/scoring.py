"""The loop's arithmetic, in code rather than asked of a model: the score, and the feedback guard.

A small critic does not calibrate, so it only gives the two sub-scores; their mean, rounded half up,
is computed here (docs/design.md#critic-and-score). A critic's fix can also degenerate into a run
of repeated tokens; such a fix is replaced by a generic one before it reaches the reviser
(docs/design.md#feedback-guard).
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

GENERIC_FIX = ("Re-verify the documentation line by line against the source and correct the weakest "
               "section.")


def round_half_up(value: float) -> int:
    """94.5 -> 95 (Python's round() gives banker's rounding: round(94.5) == 94)."""
    return int(Decimal(str(value)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def net_score(accuracy: int, completeness: int) -> int:
    return round_half_up((accuracy + completeness) / 2)


def is_degenerate(fix: str) -> bool:
    """Empty, made of very few distinct characters, or a long run of one or two repeated words."""
    text = fix.strip()
    if not text:
        return True
    if len(set(re.sub(r"\s", "", text))) <= 3:
        return True  # "../../../", "!!!!!", "-- -- --"
    words = text.lower().split()
    if len(words) >= 6 and len(set(words)) <= 2:
        return True
    # A run of the same one- or two-word unit repeated six times or more anywhere in the text.
    return bool(re.search(r"(\b\S+(?:\s+\S+)?\b)(?:\s+\1){5,}", text.lower()))


def guard_fix(fix: str) -> tuple[str, bool]:
    """The fix to hand the reviser, and whether it was replaced."""
    return (GENERIC_FIX, True) if is_degenerate(fix) else (fix.strip(), False)
