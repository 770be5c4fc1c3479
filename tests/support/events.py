"""A sink that keeps every event, for tests that look at what the core emitted."""

from __future__ import annotations

from docbot.events import Event, EventKind


class CollectingSink:
    """Keeps every event, in order."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def __call__(self, event: Event) -> None:
        self.events.append(event)

    def of_kind(self, kind: EventKind) -> list[Event]:
        return [e for e in self.events if e.kind == kind]
