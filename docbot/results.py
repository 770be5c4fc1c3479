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
Status = Literal["updated", "unchanged", "skipped", "failed"]


class SectionStatus(StrEnum):
    """Whether a written section passed the gate; recorded in its marker (``status=approved score=97``).

    An unapproved section is the loop's best attempt after deterministic repair: it contains no
    contradiction docbot's checks found, but the critic never passed it (docs/design.md#gate).
    """

    APPROVED = "approved"
    UNAPPROVED = "unapproved"


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
    """What happened to one target. One failure never loses the others' results."""

    module: str
    qualname: str
    status: Status
    reason: str = ""  # why skipped / the error when failed / "" otherwise
    path: str = ""  # source file
    doc_path: str = ""  # docs/api file the section lives in (when written)
    markdown: str = ""  # the final documentation section body
    scores: list[int] = field(default_factory=list)  # the score curve, one per critique
    rounds: int = 0
    exit_reason: str = ""  # approved / attempts / regression
    fatal_issues: list[str] = field(default_factory=list)  # still standing at the end
    bar: int = 95
    tokens: dict[str, dict[str, float]] = field(default_factory=dict)  # role -> {in, out, seconds, calls}
    removed: bool = False  # the function is gone and its section was dropped (reason says "removed")
    approval: SectionStatus | None = None  # for a section written by this run (or read back from its marker)
    repairs: tuple[str, ...] = ()  # what deterministic repair removed or replaced, one line each
    doc_model: DocModel | None = None  # the final typed doc the section was rendered from

    @property
    def key(self) -> str:
        return f"{self.module}.{self.qualname}"

    @property
    def approved(self) -> bool:
        return self.exit_reason == "approved" and not self.fatal_issues

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        del data["removed"]  # the JSON report says so in ``reason``, as it always has
        data["approval"] = self.approval.value if self.approval else None
        data["repairs"] = list(self.repairs)
        data["doc_model"] = self.doc_model.model_dump(mode="json") if self.doc_model is not None else None
        return {**data, "key": self.key, "approved": self.approved}

    @classmethod
    def removed_section(cls, module: str, qualname: str, path: str = "") -> FunctionResult:
        """A deleted function whose section ``docbot run`` drops."""
        return cls(module, qualname, "updated", reason="removed", path=path, removed=True)


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

    def count(self, status: Status) -> int:
        return sum(1 for r in self.results if r.status == status)

    @property
    def approved(self) -> int:
        return sum(1 for r in self.results if r.approved)

    @property
    def unapproved(self) -> list[FunctionResult]:
        """The sections this run wrote that the gate did not approve (their marker says so)."""
        return [r for r in self.results if r.status == "updated" and r.approval is SectionStatus.UNAPPROVED]

    def exit_code(self) -> int:
        """``docbot run``'s exit code (docs/design.md#exit-codes): 1 when a function failed, else 6 when a
        section was written unapproved, else 0 (every function approved, current, removed or skipped)."""
        if self.count("failed"):
            return errors.FINDINGS
        return errors.UNAPPROVED if self.unapproved else 0

    def summary_line(self) -> str:
        parts = [f"{self.count(s)} {s}" for s in ("updated", "unchanged", "skipped", "failed")]
        return f"docbot: {plural(len(self.results), 'function')}: " + ", ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {"results": [r.to_json() for r in self.results], "written": self.written,
                "scan_errors": [str(e) for e in self.scan_errors], "base": self.base, "head": self.head,
                "notices": [n.to_json() for n in self.notices],
                "approved": self.approved, "summary": self.summary_line()}


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
