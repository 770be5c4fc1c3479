"""Events: what the core tells the fronts, and the sinks that show them.

Nodes and the orchestration emit ``Event`` values; they never print. A front picks a sink:
a rich console, JSON lines, or GitHub Actions annotations.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, TextIO

# Event kinds used across docbot (kept here so fronts can switch on them exhaustively).
ROUND = "round"  # a scorecard after one critique: data has round, accuracy, completeness, score, ...
ROUTE = "route"  # the router's decision: data has decision ("revise"/"adjudicate") and reason
WARNING = "warning"  # something worth a human look that does not stop the run
SUMMARY = "summary"  # one function done: data has qualname, curve, rounds, exit_reason, tokens
PROGRESS = "progress"  # orchestration progress: data has index, total, qualname
RESULT = "result"  # one function's result value (updated / unchanged / skipped / failed)
INFO = "info"


@dataclass(frozen=True)
class Event:
    kind: str
    message: str = ""
    data: dict[str, Any] = field(default_factory=dict)


EventSink = Callable[[Event], None]


def discard(_event: Event) -> None:
    """A sink that drops everything (library use, tests that do not look)."""


class JsonLinesSink:
    """One JSON object per event, for machines (``--json``)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stdout

    def __call__(self, event: Event) -> None:
        self.stream.write(json.dumps({"event": event.kind, "message": event.message, **event.data}) + "\n")
        self.stream.flush()
