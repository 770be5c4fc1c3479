"""What the loop records: one entry per critique (the trajectory) and one per model call.

These are the shapes of the ``--json`` round events and of the trajectories kept for a run; they
are TypedDicts, not classes, because they travel as JSON exactly as they are.
"""

from __future__ import annotations

from typing import TypedDict


class CallRecord(TypedDict):
    """One model call: who answered, in which round, what it cost."""

    role: str
    round: int
    tokens_in: int
    tokens_out: int
    seconds: float


class TrajectoryEntry(TypedDict):
    """One critique of one draft, and the calls that produced the draft and the critique."""

    round: int
    accuracy: int
    completeness: int
    score: int
    issues: list[str]
    fatal_issues: list[str]
    critical_fix: str
    parsed: bool
    draft_chars: int
    draft_head: str
    calls: list[CallRecord]
