"""Events: what the core tells the fronts, and the sinks that show them.

Nodes and the orchestration emit ``Event`` values; they never print. A front picks a sink:
a rich console, JSON lines, or GitHub Actions annotations. Each kind of event is one small frozen
class with a ``kind`` from ``EventKind``, so a front can ``match`` on them exhaustively; ``to_json``
is what ``--json`` prints after ``event`` and ``message``.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Callable, ClassVar, TextIO

from docbot.results import TrajectoryEntry
from docbot.results import DocNotice, FunctionResult, ScanError


class EventKind(StrEnum):
    ROUND = "round"  # a scorecard after one critique
    ROUTE = "route"  # the router's decision
    WARNING = "warning"  # something worth a human look that does not stop the run
    SUMMARY = "summary"  # one function done
    PROGRESS = "progress"  # orchestration progress: the next target
    RESULT = "result"  # one function's result value (updated / unchanged / skipped / failed)
    INFO = "info"  # what the code checks found in a draft


@dataclass(frozen=True)
class RoundEvent:
    """One critique's scorecard: the trajectory entry, for which function, against which bar."""

    kind: ClassVar[EventKind] = EventKind.ROUND
    qualname: str
    bar: int
    entry: TrajectoryEntry

    @property
    def message(self) -> str:
        return f"round {self.entry['round']}: score {self.entry['score']}/{self.bar}"

    def to_json(self) -> dict[str, Any]:
        return {"qualname": self.qualname, "bar": self.bar, **self.entry}


@dataclass(frozen=True)
class RouteEvent:
    kind: ClassVar[EventKind] = EventKind.ROUTE
    decision: str  # revise / adjudicate / finish (the adjudicator skipped)
    reason: str
    round: int
    qualname: str

    @property
    def message(self) -> str:
        return f"router: {self.decision} ({self.reason})"

    def to_json(self) -> dict[str, Any]:
        return {"decision": self.decision, "reason": self.reason, "round": self.round, "qualname": self.qualname}


@dataclass(frozen=True)
class WarningEvent:
    """A warning; the optional fields say what it is about (a round, a scan error, a doc file notice)."""

    kind: ClassVar[EventKind] = EventKind.WARNING
    message: str
    qualname: str | None = None
    round: int | None = None
    error: str | None = None  # a parse error or a scan error, as text
    notice: DocNotice | None = None

    @classmethod
    def about(cls, notice: DocNotice) -> WarningEvent:
        return cls(notice.describe(), notice=notice)

    @classmethod
    def scan(cls, error: ScanError) -> WarningEvent:
        return cls(str(error), error=str(error))

    def to_json(self) -> dict[str, Any]:
        fields = {"round": self.round, "qualname": self.qualname, "error": self.error}
        return {**{k: v for k, v in fields.items() if v is not None},
                **(self.notice.to_json() if self.notice else {})}


@dataclass(frozen=True)
class SummaryEvent:
    """One function done: its score curve, rounds, exit reason and cost."""

    kind: ClassVar[EventKind] = EventKind.SUMMARY
    result: FunctionResult

    @property
    def message(self) -> str:
        return f"{self.result.qualname}: {self.result.exit_reason}"

    def to_json(self) -> dict[str, Any]:
        r = self.result
        return {"qualname": r.qualname, "module": r.module, "scores": r.scores, "rounds": r.rounds,
                "exit_reason": r.exit_reason, "bar": r.bar, "fatal_issues": r.fatal_issues, "tokens": r.tokens}


@dataclass(frozen=True)
class ProgressEvent:
    kind: ClassVar[EventKind] = EventKind.PROGRESS
    index: int  # 1-based
    total: int
    module: str
    qualname: str

    @property
    def key(self) -> str:
        return f"{self.module}.{self.qualname}"

    @property
    def message(self) -> str:
        return f"[{self.index}/{self.total}] {self.key}"

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "total": self.total, "module": self.module, "qualname": self.qualname}


@dataclass(frozen=True)
class ResultEvent:
    kind: ClassVar[EventKind] = EventKind.RESULT
    result: FunctionResult

    @property
    def message(self) -> str:
        r = self.result
        return f"{r.key}: {r.status}" + (f" ({r.reason})" if r.reason else "")

    def to_json(self) -> dict[str, Any]:
        return self.result.to_json()


@dataclass(frozen=True)
class InfoEvent:
    """The code checks found fatal issues in a draft."""

    kind: ClassVar[EventKind] = EventKind.INFO
    qualname: str
    round: int
    fatal_issues: list[str]

    @property
    def message(self) -> str:
        return f"code checks found {len(self.fatal_issues)} fatal issue(s)"

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "qualname": self.qualname, "fatal_issues": self.fatal_issues}


Event = RoundEvent | RouteEvent | WarningEvent | SummaryEvent | ProgressEvent | ResultEvent | InfoEvent
EventSink = Callable[[Event], None]


def discard(_event: Event) -> None:
    """A sink that drops everything (library use, tests that do not look)."""


class JsonLinesSink:
    """One JSON object per event, for machines (``--json``)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stdout

    def __call__(self, event: Event) -> None:
        self.stream.write(json.dumps({"event": event.kind.value, "message": event.message,
                                      **event.to_json()}) + "\n")
        self.stream.flush()
