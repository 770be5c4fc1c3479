"""The router's exits, one at a time, in the order of docs/design.md#router (each row fails a wrong
implementation)."""

from __future__ import annotations

import pytest

from docbot.loop.router import route_after_critic
from docbot.config.settings import Settings


def state(score: int, *, revise_count: int = 0, fatal: list[str] | None = None,
          previous: int | None = None, issues: list[str] | None = None) -> dict:
    trajectory = ([{"score": previous}] if previous is not None else []) + [{"score": score}]
    return {"score": score, "revise_count": revise_count, "fatal_issues": fatal or [], "trajectory": trajectory,
            "round": revise_count + 1, "issues": issues or []}


UNREACHABLE = Settings(quality_score_bar=100, stop_on_regression=False, max_attempts=3)
DEFAULT = Settings()  # bar 95, 4 attempts, stall detection on, adjudicate when_needed
WHEN_NEEDED = Settings(adjudicate="when_needed")
ALWAYS = Settings(adjudicate="always")

CASES = [
    # (name, settings, state, expected decision, expected reason)
    ("attempts alone: unreachable bar, stall off", UNREACHABLE, state(60, revise_count=3, previous=90),
     "adjudicate", "attempts"),
    ("below attempts with unreachable bar keeps revising even on a drop", UNREACHABLE,
     state(60, revise_count=2, previous=90), "revise", "below the bar"),
    ("fatal issues force a revision even above the bar", DEFAULT, state(99, fatal=["wrong type"]),
     "revise", "fatal issues stand"),
    ("fatal issues with the attempts limit reached must end", DEFAULT,
     state(99, revise_count=4, fatal=["wrong type"]), "adjudicate", "attempts"),
    ("approved exactly at the bar", ALWAYS, state(95), "adjudicate", "approved"),
    ("by default a clean first round is approved without the adjudicator", DEFAULT, state(95), "finish",
     "approved"),
    ("one below the bar revises", DEFAULT, state(94), "revise", "below the bar"),
    ("strict regression exits", DEFAULT, state(80, revise_count=1, previous=81), "adjudicate", "regression"),
    ("a tie continues (a <= implementation fails here)", DEFAULT, state(80, revise_count=1, previous=80),
     "revise", "below the bar"),
    ("regression after improvement", DEFAULT, state(70, revise_count=2, previous=85), "adjudicate",
     "regression"),
    ("improvement continues", DEFAULT, state(85, revise_count=1, previous=70), "revise", "below the bar"),
    ("stall detection off ignores a drop", Settings(stop_on_regression=False),
     state(70, revise_count=2, previous=85), "revise", "below the bar"),
    ("approval beats regression when the score passes", Settings(quality_score_bar=90),
     state(92, revise_count=1, previous=97), "adjudicate", "approved"),
    ("first round has no previous score", DEFAULT, state(10), "revise", "below the bar"),
    ("adjudicate always: a clean first round still goes to the adjudicator", ALWAYS, state(97), "adjudicate",
     "approved"),
    ("when_needed: a clean first round skips the adjudicator", WHEN_NEEDED, state(97), "finish", "approved"),
    ("when_needed: an issue left needs the adjudicator", WHEN_NEEDED, state(97, issues=["vague"]), "adjudicate",
     "approved"),
    ("when_needed: approved after a revision needs the adjudicator", WHEN_NEEDED,
     state(97, revise_count=1, previous=80), "adjudicate", "approved"),
    ("when_needed: below the bar still revises", WHEN_NEEDED, state(90), "revise", "below the bar"),
]


@pytest.mark.parametrize("name,settings,loop_state,decision,reason", CASES, ids=[c[0] for c in CASES])
def test_route(name: str, settings: Settings, loop_state: dict, decision: str, reason: str) -> None:
    assert route_after_critic(loop_state, settings) == (decision, reason)
