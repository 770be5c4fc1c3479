"""The values that flow between stages: a target function, what happened to it, and a run's report.

Data flows one way: diff -> targets -> facts -> loop -> results -> writers. These three types
(``Target``, ``FunctionResult``, ``RunReport``) are the contract between the stages, so they live
apart from any one of them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

ChangeKind = Literal["added", "modified", "deleted", "unchanged"]
Status = Literal["updated", "unchanged", "skipped", "failed"]


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

    @property
    def key(self) -> str:
        return f"{self.module}.{self.qualname}"

    @property
    def approved(self) -> bool:
        return self.exit_reason == "approved" and not self.fatal_issues

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "key": self.key, "approved": self.approved}


def score_curve(scores: list[int]) -> str:
    """``[72, 85, 96]`` -> ``"72 → 85 → 96"``."""
    return " → ".join(str(s) for s in scores) if scores else "—"


@dataclass
class RunReport:
    """Everything one ``docbot run`` did: per-function results, files written, files skipped."""

    results: list[FunctionResult] = field(default_factory=list)
    written: list[str] = field(default_factory=list)  # repo-relative doc files created/changed/removed
    scan_errors: list[str] = field(default_factory=list)  # e.g. "pkg/bad.py: syntax error at line 3"
    base: str = ""
    head: str = ""

    def count(self, status: Status) -> int:
        return sum(1 for r in self.results if r.status == status)

    @property
    def approved(self) -> int:
        return sum(1 for r in self.results if r.approved)

    def summary_line(self) -> str:
        parts = [f"{self.count(s)} {s}" for s in ("updated", "unchanged", "skipped", "failed")]
        return f"docbot: {len(self.results)} functions: " + ", ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {"results": [r.to_json() for r in self.results], "written": self.written,
                "scan_errors": self.scan_errors, "base": self.base, "head": self.head,
                "approved": self.approved, "summary": self.summary_line()}
