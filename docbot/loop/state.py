"""The loop's state and the critic's schema.

State is plain data (strings, ints, lists, dicts) so it can be streamed, recorded and checkpointed
without custom types. ``trajectory`` and ``calls`` append: every node adds to them, none rewrites them.
Every key but ``route`` is set by ``new_state`` before the first node runs, so the nodes index the
state and the defaults live in one place.
"""

# No ``from __future__ import annotations`` here: ``NotRequired`` must be evaluated for the TypedDict's
# ``__required_keys__`` to be right at run time.
import operator
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from pydantic import BaseModel, Field

from docbot.records import CallRecord, TrajectoryEntry

Decision = Literal["revise", "adjudicate"]


class LoopState(TypedDict):
    # What is being documented (set once, by the caller).
    qualname: str
    module: str
    source: str
    facts: str  # extracted facts, rendered for the prompt
    examples: dict[str, Any] | None  # ExampleContext fields, or None: do not run examples

    # The current round.
    round: int  # 1 for the first draft, +1 per revision
    revise_count: int
    draft: str
    truth_issues: list[str]  # fatal findings of the code checks on the current draft
    accuracy: int
    completeness: int
    score: int
    issues: list[str]
    critical_fix: str
    fatal_issues: list[str]  # truth issues + the critic's, for the current draft

    # Across rounds.
    best_draft: str  # "" until a draft scores above best_score with no fatal issue
    best_score: int
    route: NotRequired[Decision]  # set by the router before anything reads it
    exit_reason: str  # approved / attempts / regression
    trajectory: Annotated[list[TrajectoryEntry], operator.add]  # one entry per critique
    calls: Annotated[list[CallRecord], operator.add]  # one entry per model call
    warnings: Annotated[list[str], operator.add]

    # The result.
    final_markdown: str
    final_fatal: list[str]


def new_state(qualname: str, module: str, source: str, facts: str, examples: dict[str, Any] | None) -> LoopState:
    """The state before the first draft: what is documented, and every other key at its start value."""
    return {"qualname": qualname, "module": module, "source": source, "facts": facts, "examples": examples,
            "round": 0, "revise_count": 0, "draft": "", "truth_issues": [], "accuracy": 0, "completeness": 0,
            "score": 0, "issues": [], "critical_fix": "", "fatal_issues": [], "best_draft": "", "best_score": -1,
            "exit_reason": "", "trajectory": [], "calls": [], "warnings": [], "final_markdown": "",
            "final_fatal": []}


class Critique(BaseModel):
    """What the critic returns. Field descriptions travel to the model as tiny prompts."""

    technical_accuracy: int = Field(
        ge=0, le=100,
        description="0-100. Start at 100 and deduct only for statements in the documentation that you can "
                    "quote and that contradict the source code.")
    completeness: int = Field(
        ge=0, le=100,
        description="0-100. Start at 100 and deduct for each missing element: summary, signature, every "
                    "parameter, return value, every raised exception, a runnable example.")
    issues: list[str] = Field(
        default_factory=list,
        description="Concrete problems in the documentation, each quoting the text it is about.")
    fatal_issues: list[str] = Field(
        default_factory=list,
        description="Only statements that are false about the code: wrong exception type, misquoted error "
                    "message, wrong example output, invented parameter. Empty list if there are none.")
    critical_fix: str = Field(
        default="",
        description="The single most important correction, as one instruction to the writer.")
    verdict: Literal["pass", "fail"] | None = Field(
        default=None, description="Your opinion only; it does not decide anything.")
