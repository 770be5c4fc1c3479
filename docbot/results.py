"""The values that flow between stages: a target function, what happened to it, and a run's report.

Data flows one way: diff -> targets -> facts -> loop -> results -> writers. These types
(``Target``, ``ScanError``, ``FunctionResult``, ``RunReport``, ``DocNotice``) are the contract between
the stages, so they live apart from any one of them. So do the loop's records (``CallRecord``,
``TrajectoryEntry``): TypedDicts, not classes, because they travel as JSON exactly as they are.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from docbot import errors

if TYPE_CHECKING:  # pydantic stays out of the paths that never build a doc (docs/design.md#speed)
    from docbot.docmodel import DocModel

# What the loop records: one entry per critique (the trajectory) and one per model call.


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


ChangeKind = Literal["added", "modified", "deleted", "unchanged"]


class Status(StrEnum):
    """What ``docbot run`` did with a function's doc: the JSON report's ``status`` (schema_version 1).

    A StrEnum, so a member equals its string (``Status.UPDATED == "updated"``) and older callers and
    reports keep working. *Whether* a written section is to be trusted is the ``Outcome``, not this."""

    UPDATED = "updated"  # a section was written (or, for a deleted function, dropped)
    UNCHANGED = "unchanged"
    SKIPPED = "skipped"
    FAILED = "failed"


StatusWord = Literal["updated", "unchanged", "skipped", "failed"]


class ExitReason(StrEnum):
    """Why the loop stopped revising (docbot.loop.router): the critic passed a draft, the rounds ran
    out, or the score fell. Only ``APPROVED`` can lead to an approved section, and only when nothing
    fatal stands at the finish (docs/design.md#gate)."""

    APPROVED = "approved"
    ATTEMPTS = "attempts"
    REGRESSION = "regression"


class SectionStatus(StrEnum):
    """Whether a written section passed the gate; recorded in its marker (``status=approved score=97``).

    An unapproved section is the loop's best attempt after deterministic repair: it contains no
    contradiction docbot's checks found, but the critic never passed it (docs/design.md#gate).
    """

    APPROVED = "approved"
    UNAPPROVED = "unapproved"


class Outcome(StrEnum):
    """How one function ended: the one word every reader uses (the JSON report's ``outcome``, the
    console, the PR comment, the annotations, the exit code). It is decided once: by the loop's finish
    step for a section the loop wrote (docbot.loop.finish), by the run for the others; no reader
    recomputes it from scores or exit reasons (docs/design.md#gate)."""

    APPROVED = "approved"  # written, and the gate passed it
    UNAPPROVED = "unapproved"  # written, but the gate never passed it: a person should check it
    UNREVIEWED = "unreviewed"  # written by a documenter that gives no verdict (a test double, a hand-made report)
    REMOVED = "removed"  # the function is gone and its section was dropped
    UNCHANGED = "unchanged"  # the doc was already current
    SKIPPED = "skipped"  # not documented this time (time budget, a file that does not parse)
    FAILED = "failed"  # nothing usable: the old section stays

    @property
    def written(self) -> bool:
        """A section this run wrote (approved or not)."""
        return self in (Outcome.APPROVED, Outcome.UNAPPROVED, Outcome.UNREVIEWED)


class Cause(StrEnum):
    """Why a section ended unapproved, in the words the console, the comment and the annotations use."""

    CONTRADICTIONS = "contradictions"  # something on the page was shown false (named in fatal_issues/repairs)
    BELOW_BAR = "below_bar"  # nothing shown false, but the critic never passed a draft


_OUTCOME_OF_STATUS = {Status.UNCHANGED: Outcome.UNCHANGED, Status.SKIPPED: Outcome.SKIPPED,
                      Status.FAILED: Outcome.FAILED}
_OUTCOME_OF_APPROVAL = {SectionStatus.APPROVED: Outcome.APPROVED, SectionStatus.UNAPPROVED: Outcome.UNAPPROVED,
                        None: Outcome.UNREVIEWED}
_APPROVAL_OF_OUTCOME = {Outcome.APPROVED: SectionStatus.APPROVED, Outcome.UNAPPROVED: SectionStatus.UNAPPROVED}


@dataclass(frozen=True)
class Target:
    """One public function or method that docbot documents.

    ``source`` is the function's own text (decorators included) as it stands in the new blob, or in
    the old blob for a deleted function. ``lineno``/``end_lineno`` are 1-based and inclusive.
    """

    module: str  # dotted module name, e.g. "pkg.sub.mod"
    qualname: str  # "func" or "Class.method"
    path: str  # repo-relative POSIX path of the file
    lineno: int
    end_lineno: int
    kind: ChangeKind
    source: str

    @property
    def key(self) -> str:
        return f"{self.module}.{self.qualname}"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class ScanError:
    """A file the scan could not read or parse: reported, and its module's docs are left alone."""

    path: str  # repo-relative POSIX path
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class SourceParseError(ValueError):
    """A file that cannot be parsed. Callers report it (``skipped``) and carry on with the other files."""

    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}: cannot parse (line {line}): {message}")
        self.path = path
        self.line = line
        self.message = message

    @property
    def skipped(self) -> ScanError:
        return ScanError(self.path, f"cannot parse (line {self.line}): {self.message}")


@dataclass(frozen=True)
class FunctionResult:
    """What happened to one target. One failure never loses the others' results.

    ``outcome`` is the word every reader uses. The loop's finish step decides it (docbot.loop.runner
    passes it in); otherwise it follows from ``status`` (failed, skipped, unchanged) and, for a written
    section, from ``approval`` (the gate's word as the marker records it; none: ``unreviewed``).
    ``__post_init__`` settles both, so ``outcome`` and ``approval`` can never disagree."""

    module: str
    qualname: str
    status: Status | StatusWord  # always a Status once built; the word is accepted for callers' ease
    reason: str = ""  # why skipped / the error when failed / "" otherwise ("removed" for a dropped section)
    path: str = ""  # source file
    doc_path: str = ""  # docs/api file the section lives in (when written)
    markdown: str = ""  # the final documentation section body
    scores: list[int] = field(default_factory=list)  # the score curve, one per critique
    rounds: int = 0
    exit_reason: ExitReason | Literal[""] = ""  # "" when the loop did not run
    fatal_issues: list[str] = field(default_factory=list)  # still standing at the end
    bar: int = 95
    tokens: dict[str, dict[str, float]] = field(default_factory=dict)  # role -> {in, out, seconds, calls}
    approval: SectionStatus | None = None  # the gate's word on a section written by this run (its marker's)
    repairs: tuple[str, ...] = ()  # what deterministic repair removed or replaced, one line each
    doc_model: DocModel | None = None  # the final typed doc the section was rendered from
    warnings: tuple[str, ...] = ()  # the loop's own troubles (parse retries, degenerate feedback): log, not PR
    outcome: Outcome | None = None  # None only before __post_init__ settles it

    def __post_init__(self) -> None:
        status = Status(self.status)
        # A failed, skipped or unchanged status is its own outcome (``replace(result, status="failed")``
        # carries the old outcome along: the status wins). For a written section the gate's word, as
        # its marker records it, wins over a carried outcome (``replace(result, approval=...)``).
        outcome = _OUTCOME_OF_STATUS.get(status)
        if outcome is None:
            given = Outcome(self.outcome) if self.outcome is not None else None
            if given in _OUTCOME_OF_STATUS.values():
                raise ValueError(f"{self.module}.{self.qualname}: outcome {given} needs status {given}, not {status}")
            if given is Outcome.REMOVED or (given is not None and self.approval is None):
                outcome = given
            else:
                outcome = _OUTCOME_OF_APPROVAL[self.approval]
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "outcome", outcome)
        object.__setattr__(self, "approval", _APPROVAL_OF_OUTCOME.get(outcome))
        if self.exit_reason:
            object.__setattr__(self, "exit_reason", ExitReason(self.exit_reason))

    @property
    def key(self) -> str:
        return f"{self.module}.{self.qualname}"

    @property
    def ended(self) -> Outcome:
        """``outcome``, typed as settled (it is never None after construction)."""
        assert self.outcome is not None
        return self.outcome

    @property
    def approved(self) -> bool:
        return self.outcome is Outcome.APPROVED

    @property
    def removed(self) -> bool:
        return self.outcome is Outcome.REMOVED

    @property
    def cause(self) -> Cause | None:
        """Why an unapproved section is unapproved; None for every other outcome. Contradictions when
        one still stands, or when a draft reached the bar or the critic passed one (then only what was
        shown false can have stopped it: repair removed those, and ``repairs`` names them); else below
        the bar. So a score that passed is never reported as "below the bar"."""
        if self.outcome is not Outcome.UNAPPROVED:
            return None
        reached = bool(self.scores) and max(self.scores) >= self.bar
        if self.fatal_issues or reached or self.exit_reason == ExitReason.APPROVED:
            return Cause.CONTRADICTIONS
        return Cause.BELOW_BAR

    def why(self) -> str:
        """One plain sentence: why a person should check this section ("" unless it is unapproved)."""
        if self.cause is Cause.CONTRADICTIONS:
            named = (self.fatal_issues or list(self.repairs) or ["a contradiction docbot's checks found"])[0]
            more = len(self.fatal_issues or self.repairs) - 1
            return f"not approved: it contradicted the code ({named}{f'; +{more} more' if more > 0 else ''})"
        if self.cause is Cause.BELOW_BAR:
            best = f" (best score {max(self.scores)}, bar {self.bar})" if self.scores else ""
            return f"not approved: the reviewer never passed a draft{best}"
        return ""

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["status"] = str(self.status)
        data["exit_reason"] = str(self.exit_reason)
        data["approval"] = self.approval.value if self.approval else None
        data["outcome"] = self.ended.value
        data["cause"] = self.cause.value if self.cause else None
        data["repairs"] = list(self.repairs)
        data["warnings"] = list(self.warnings)
        data["doc_model"] = self.doc_model.model_dump(mode="json") if self.doc_model is not None else None
        return {**data, "key": self.key, "approved": self.approved}

    @classmethod
    def removed_section(cls, module: str, qualname: str, path: str = "") -> FunctionResult:
        """A deleted function whose section ``docbot run`` drops (the JSON report keeps saying
        ``status: updated, reason: removed``, as schema_version 1 always has)."""
        return cls(module, qualname, Status.UPDATED, reason="removed", path=path, outcome=Outcome.REMOVED)


def score_curve(scores: list[int]) -> str:
    """``[72, 85, 96]`` -> ``"72 → 85 → 96"``."""
    return " → ".join(str(s) for s in scores) if scores else "—"


@dataclass
class RunReport:
    """Everything one ``docbot run`` did: per-function results, files written, files skipped."""

    results: list[FunctionResult] = field(default_factory=list)
    written: list[str] = field(default_factory=list)  # repo-relative doc files created/changed/removed
    scan_errors: list[ScanError] = field(default_factory=list)
    base: str = ""
    head: str = ""
    notices: list[DocNotice] = field(default_factory=list)  # what was kept, refused or removed in docs/api
    shard: tuple[int, int] | None = None  # (index, count) of a ``run --shard I/N`` job, for ``docbot merge``

    def count(self, status: Status | str) -> int:
        return sum(1 for r in self.results if r.status == status)

    def outcomes(self, outcome: Outcome) -> list[FunctionResult]:
        return [r for r in self.results if r.outcome is outcome]

    @property
    def approved(self) -> int:
        return sum(1 for r in self.results if r.approved)

    @property
    def unapproved(self) -> list[FunctionResult]:
        """The sections this run wrote that the gate did not approve (their marker says so)."""
        return self.outcomes(Outcome.UNAPPROVED)

    def exit_code(self) -> errors.ExitCode:
        """``docbot run``'s exit code (docs/design.md#exit-codes): 1 when a function failed, else 6 when a
        section was written unapproved, else 0 (every function approved, current, removed or skipped)."""
        return errors.outcome_code(failed=bool(self.outcomes(Outcome.FAILED)), unapproved=bool(self.unapproved))

    def hook_exit_code(self, sources_written: bool = False) -> errors.ExitCode:
        """The ``docbot`` hook's code, by pre-commit's rule: files written (docs, or docstrings into sources) fail
        the attempt so the person stages them, as a failed function does; functions skipped by the time budget
        pass (they are left to CI), and so does an unapproved section (the hook says so by name)."""
        return errors.outcome_code(failed=bool(self.count("failed")), findings=bool(self.written) or sources_written)

    def summary_line(self) -> str:
        parts = [f"{self.count(s)} {s}" for s in ("updated", "unchanged", "skipped", "failed")]
        return f"docbot: {plural(len(self.results), 'function')}: " + ", ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {"results": [r.to_json() for r in self.results], "written": self.written,
                "scan_errors": [str(e) for e in self.scan_errors], "base": self.base, "head": self.head,
                "notices": [n.to_json() for n in self.notices],
                "approved": self.approved, "summary": self.summary_line(),
                **({"shard": {"index": self.shard[0], "count": self.shard[1]}} if self.shard else {})}


def plural(count: int, noun: str) -> str:
    """``1 function``, ``0 functions``, ``2 functions`` (English nouns that take an s)."""
    return f"{count} {noun}" + ("" if count == 1 else "s")


class NoticeKind(StrEnum):
    """Something done to, or refused for, a doc file that a person should hear about."""

    EDITED_DURING_RUN = "edited_during_run"  # the file changed while docbot worked: kept, nothing written
    DUPLICATE_SECTION = "duplicate_section"  # a function has two sections: the later copy is left as it is
    SECTIONS_REMOVED = "sections_removed"  # docbot's sections removed; the text a person wrote is kept
    FILE_REMOVED = "file_removed"  # nothing but docbot's sections was in the file: it is removed


@dataclass(frozen=True)
class DocNotice:
    """One notice about one doc file, naming the functions it concerns."""

    kind: NoticeKind
    doc_path: str
    qualnames: tuple[str, ...] = ()

    def describe(self) -> str:
        names = ", ".join(self.qualnames) or "no function"
        return {
            NoticeKind.EDITED_DURING_RUN: f"{self.doc_path} was edited while docbot ran: kept your version and "
                                          f"wrote nothing for {names}; run docbot again to update it.",
            NoticeKind.DUPLICATE_SECTION: f"{self.doc_path} has more than one section for {names}: docbot keeps "
                                          "the first up to date and leaves the other copies as they are; delete them.",
            NoticeKind.SECTIONS_REMOVED: f"removed docbot's sections for {names} from {self.doc_path}; the text "
                                         "a person wrote there is kept.",
            NoticeKind.FILE_REMOVED: f"removed {self.doc_path}: nothing but docbot's sections ({names}) was in it.",
        }[self.kind]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "doc_path": self.doc_path, "qualnames": list(self.qualnames),
                "message": self.describe()}
