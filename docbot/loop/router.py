"""The router: a pure function of the state and settings, deciding whether the loop goes on.

The order of the rules matters (docs/design.md#router): the attempts bound ends every loop, even one
with fatal issues standing; a fatal issue forces a revision even at a passing score; a tie continues.
"""

from __future__ import annotations

from docbot.loop.state import Decision, LoopState
from docbot.config.settings import Settings


def previous_score(state: LoopState) -> int | None:
    """The score of the critique before the current one (the trajectory's last entry is current)."""
    trajectory = state["trajectory"]
    return trajectory[-2]["score"] if len(trajectory) >= 2 else None


def _nothing_to_adjudicate(state: LoopState, settings: Settings) -> bool:
    """``adjudicate: when_needed`` and a first draft approved with no concern left: the adjudicator is skipped."""
    return (settings.adjudicate == "when_needed" and state["round"] == 1 and not state["issues"]
            and not state["fatal_issues"])


def route_after_critic(state: LoopState, settings: Settings) -> tuple[Decision, str]:
    """Return the decision and why: ``approved``, ``attempts`` and ``regression`` are exit reasons.

    An approved draft goes to the adjudicator, or straight to the finish when it is not needed.
    """
    if state["revise_count"] >= settings.max_attempts:
        return "adjudicate", "attempts"
    if state["fatal_issues"]:
        return "revise", "fatal issues stand"
    score = state["score"]
    if score >= settings.quality_score_bar:
        return ("finish" if _nothing_to_adjudicate(state, settings) else "adjudicate"), "approved"
    before = previous_score(state)
    if settings.stop_on_regression and before is not None and score < before:
        return "adjudicate", "regression"
    return "revise", "below the bar"
