"""The loop's state and the critic's schema.

State is plain data (strings, ints, lists, dicts) so it can be streamed, recorded and checkpointed
without custom types: a doc model travels as its ``model_dump()``. ``trajectory`` and ``calls`` append:
every node adds to them, none rewrites them. Every key but ``route`` is set by ``new_state`` before
the first node runs, so the nodes index the state and the defaults live in one place.
"""

# No ``from __future__ import annotations`` here: ``NotRequired`` must be evaluated for the TypedDict's
# ``__required_keys__`` to be right at run time.
import operator
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from pydantic import BaseModel, Field, field_validator

from docbot.results import CallRecord, TrajectoryEntry

# "finish" skips the adjudicator (``adjudicate: when_needed`` and a clean first round).
Decision = Literal["revise", "adjudicate", "finish"]
ModelData = dict[str, Any]  # a DocModel's model_dump()


class Drafted(TypedDict):
    """A draft as it was judged: the model and the fatal issues of its round (the code checks', then all)."""

    model: ModelData
    truth_issues: list[str]
    fatal_issues: list[str]


class LoopState(TypedDict):
    # What is being documented (set once, by the caller).
    qualname: str
    module: str
    source: str
    facts: str  # extracted facts, rendered for the prompt
    examples: dict[str, Any] | None  # ExampleContext fields, or None: do not run examples
    current: str  # the function's section as it stands (a person may have edited it), "" when none
    module_source: str  # the whole module's text, for the checks only the source decides; "" when unknown

    # The current round.
    round: int  # 1 for the first draft, +1 per revision
    revise_count: int
    model: ModelData | None  # the current draft as a doc model; None when the writer's answer never parsed
    draft: str  # the current draft rendered: the page the critic reads
    truth_issues: list[str]  # contradictions the code checks found in the current draft (fatal)
    gaps: list[str]  # what the current draft leaves out (for the reviser; never blocking)
    accuracy: int
    completeness: int
    score: int
    issues: list[str]
    critical_fix: str
    fatal_issues: list[str]  # truth issues + the critic's quoted claims, for the current draft

    # Across rounds.
    best_model: ModelData | None  # None until a draft scores above best_score with no fatal issue
    best_score: int
    # The best-scoring draft of any round, clean or not: what ships when no draft was clean (docs/design.md#best-draft).
    best_any: Drafted | None
    best_any_score: int
    route: NotRequired[Decision]  # set by the router before anything reads it
    exit_reason: str  # a results.ExitReason value (set by the router), "" until it exits
    adjudicated: ModelData | None  # the adjudicator's model, None when it gave none or was not asked
    trajectory: Annotated[list[TrajectoryEntry], operator.add]  # one entry per critique
    calls: Annotated[list[CallRecord], operator.add]  # one entry per model call
    warnings: Annotated[list[str], operator.add]

    # The result.
    final_model: ModelData | None
    final_markdown: str
    final_fatal: list[str]
    approval: str  # the finish step's decision, a results.SectionStatus value; "" until the finish node ran
    repairs: list[str]  # what deterministic repair changed in the final model


def new_state(qualname: str, module: str, source: str, facts: str, examples: dict[str, Any] | None,
              current: str = "", module_source: str = "") -> LoopState:
    """The state before the first draft: what is documented, and every other key at its start value."""
    return {"qualname": qualname, "module": module, "source": source, "facts": facts, "examples": examples,
            "current": current, "module_source": module_source, "round": 0, "revise_count": 0, "model": None,
            "draft": "", "truth_issues": [], "gaps": [], "accuracy": 0, "completeness": 0, "score": 0, "issues": [],
            "critical_fix": "", "fatal_issues": [], "best_model": None, "best_score": -1, "best_any": None,
            "best_any_score": -1, "exit_reason": "",
            "adjudicated": None, "trajectory": [], "calls": [], "warnings": [], "final_model": None,
            "final_markdown": "", "final_fatal": [], "approval": "", "repairs": []}


class FatalClaim(BaseModel):
    """A statement on the page the critic says is false. It blocks approval only if ``quote`` is on the page."""

    quote: str = Field(default="", description="The false words, copied exactly from the documentation.")
    problem: str = Field(default="", description="What the code really does.")


class Critique(BaseModel):
    """What the critic returns. Field descriptions travel to the model as tiny prompts."""

    technical_accuracy: int = Field(
        ge=0, le=100,
        description="0-100. Start at 100 and deduct only for statements in the documentation that you can "
                    "quote and that contradict the source code.")
    completeness: int = Field(
        ge=0, le=100,
        description="0-100. Start at 100 and deduct for each missing element: summary, every "
                    "parameter, return value, every raised exception, a runnable example.")
    issues: list[str] = Field(
        default_factory=list,
        description="Concrete problems in the documentation, each quoting the text it is about.")
    fatal_issues: list[FatalClaim] = Field(
        default_factory=list,
        description="Only statements that are false about the code, each with the exact words quoted. "
                    "Empty list if there are none.")
    critical_fix: str = Field(
        default="",
        description="The single most important correction, as one instruction to the writer.")
    verdict: Literal["pass", "fail"] | None = Field(
        default=None, description="Your opinion only; it does not decide anything.")

    @field_validator("fatal_issues", mode="before")
    @classmethod
    def _text_claims(cls, value: Any) -> Any:
        """A claim given as plain text keeps whatever it quotes inside its own text (see verify.quotes)."""
        if isinstance(value, list):
            return [{"quote": "", "problem": item} if isinstance(item, str) else item for item in value]
        return value
