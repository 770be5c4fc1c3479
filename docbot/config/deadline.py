"""The time budget as a deadline: a function in flight past it stops at its next model call.

Finishing the function in flight is what made a 20 s budget run 38 s, so the check sits where the
loop spends its time: a LangChain callback that runs before every model call (the same hook the
recorder uses; ``docbot.loop.runner.DeadlineCallback``, kept there so a run with nothing to document
imports no model code) raises ``DeadlineReached``; ``docbot.run.pipeline`` records that function as skipped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


class DeadlineReached(Exception):
    """The time budget ran out before a model call; the function is left to CI."""


@dataclass(frozen=True)
class Deadline:
    """``budget_s`` seconds after ``started`` on ``clock``."""

    started: float
    budget_s: float
    clock: Callable[[], float]

    def passed(self) -> bool:
        return self.clock() - self.started > self.budget_s

    def reason(self) -> str:
        return f"time budget of {self.budget_s:g}s reached; left to CI"
