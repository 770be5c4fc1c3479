"""Showing events to a person: scorecards, router decisions, summaries (used by the fronts only)."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from rich.console import Console
from rich.markup import escape

from docbot import events
from docbot.results import score_curve


def _tokens(tokens: dict[str, dict[str, Any]]) -> str:
    return ", ".join(f"{role.lower()} {int(t['in'])}→{int(t['out'])} tok {t['seconds']:.1f}s"
                     for role, t in sorted(tokens.items()))


class ConsoleSink:
    """Renders events for a terminal; colour only when the stream is a terminal."""

    def __init__(self, stream: TextIO | None = None, verbose: bool = True) -> None:
        self.console = Console(file=stream or sys.stderr, highlight=False, soft_wrap=True)
        self.verbose = verbose

    def __call__(self, event: events.Event) -> None:
        handler = getattr(self, f"_on_{event.kind}", None)
        if handler is not None:
            handler(event)
        elif self.verbose:
            self.console.print(escape(event.message))

    def _on_round(self, event: events.Event) -> None:
        d = event.data
        self.console.print(
            f"[bold]{escape(d['qualname'])}[/] round {d['round']}: accuracy {d['accuracy']} · completeness "
            f"{d['completeness']} · score [bold]{d['score']}[/]/{d['bar']} · fatal {len(d['fatal_issues'])}")
        for issue in d["fatal_issues"]:
            self.console.print(f"    [red]fatal:[/] {escape(issue)}")
        if d.get("critical_fix"):
            self.console.print(f"    feedback: {escape(d['critical_fix'])}")

    def _on_route(self, event: events.Event) -> None:
        d = event.data
        self.console.print(f"    → {d['decision']} ({escape(d['reason'])})")

    def _on_warning(self, event: events.Event) -> None:
        self.console.print(f"[yellow]warning:[/] {escape(event.message)}")

    def _on_summary(self, event: events.Event) -> None:
        d = event.data
        self.console.print(
            f"[bold]{escape(d['qualname'])}[/]: {score_curve(d['scores'])} (bar {d['bar']}) · "
            f"{d['rounds']} round(s) · exit: {d['exit_reason']}"
            + (f" · [red]{len(d['fatal_issues'])} fatal issue(s) standing[/]" if d["fatal_issues"] else ""))
        if d.get("tokens"):
            self.console.print(f"    {_tokens(d['tokens'])}")

    def _on_progress(self, event: events.Event) -> None:
        d = event.data
        self.console.print(f"[dim][{d['index']}/{d['total']}][/] {escape(d['qualname'])}")

    def _on_result(self, event: events.Event) -> None:
        d = event.data
        status = d.get("status", "")
        colour = {"updated": "green", "unchanged": "dim", "skipped": "yellow", "failed": "red"}.get(status, "")
        reason = f" ({escape(d['reason'])})" if d.get("reason") else ""
        self.console.print(f"[{colour}]{status}[/] {escape(d.get('key', ''))}{reason}" if colour
                           else escape(event.message))

    def _on_info(self, event: events.Event) -> None:
        if self.verbose:
            self.console.print(f"[dim]{escape(event.message)}[/]")
