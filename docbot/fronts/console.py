"""Showing events to a person: scorecards, router decisions, summaries, and the hook's progress on the
terminal (used by the fronts only)."""

from __future__ import annotations

import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TextIO, assert_never

from rich.console import Console
from rich.markup import escape

from docbot import events
from docbot.results import FunctionResult, Outcome, plural, score_curve


def _tokens(tokens: dict[str, dict[str, Any]]) -> str:
    """Each role's calls, tokens and time, after the function's calls in all (a clean first draft: 2)."""
    calls = sum(int(t.get("calls", 0)) for t in tokens.values())
    return f"{calls} model call{'s' * (calls != 1)}: " + ", ".join(
        f"{role.lower()} {int(t.get('calls', 0))}× {int(t['in'])}→{int(t['out'])} tok {t['seconds']:.1f}s"
        for role, t in sorted(tokens.items()))


def no_color(env: Mapping[str, str]) -> bool:
    """https://no-color.org: any non-empty NO_COLOR turns every style off."""
    return bool(env.get("NO_COLOR"))


class ConsoleSink:
    """Renders events for a terminal; styles only when the stream is a terminal and NO_COLOR is unset.

    ``verbose`` adds what the code checks found in each draft; ``quiet`` keeps only warnings and
    functions that did not end well (``docbot -q``). Under ``quiet`` the warnings of one function's loop
    (a round's feedback replaced, an answer that did not parse: 11 lines for one SmolLM2 function) and its
    repairs are each said in one line when the function ends.
    """

    def __init__(self, stream: TextIO | None = None, verbose: bool = True, *, quiet: bool = False,
                 env: Mapping[str, str] | None = None, force_terminal: bool | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        env = os.environ if env is None else env
        # rich's own NO_COLOR support drops colours but keeps bold and dim; no colour system drops all.
        self.console = Console(file=stream or sys.stderr, highlight=False, soft_wrap=True,
                               force_terminal=force_terminal, color_system=None if no_color(env) else "auto")
        self.verbose = verbose
        self.quiet = quiet
        # A live bar only where a person watches: a terminal, not CI (its log would keep every frame), and
        # not under NO_COLOR (the bar redraws with cursor escapes, which such a terminal asked to do without).
        live = self.console.is_terminal and not _in_ci(env) and not no_color(env)
        self.progress = RunProgress(self.console, clock) if live else None
        self.estimate = Estimate(clock)
        self.held: dict[str, list[str]] = {}  # quiet: a function's loop warnings, until its result

    def __call__(self, event: events.Event) -> None:
        if self.quiet and isinstance(event, events.WarningEvent) and event.qualname:
            self.held.setdefault(event.qualname, []).append(event.message)
            return
        if self.quiet and isinstance(event, events.ResultEvent) and event.result.qualname in self.held:
            held = self.held.pop(event.result.qualname)
            said = held[0] if len(held) == 1 else gist(held) + "; without -q each is shown"
            self.console.print(f"[yellow]warning:[/] {escape(event.result.key)}: {escape(said)}")
        if self.quiet and not _matters_when_quiet(event):
            return
        match event:  # exhaustive: a new kind of event fails mypy here until it is rendered
            case events.RoundEvent():
                self._on_round(event)
            case events.RouteEvent():
                self.console.print(f"    → {event.decision} ({escape(event.reason)})")
            case events.WarningEvent():
                self.console.print(f"[yellow]warning:[/] {escape(event.message)}")
            case events.SummaryEvent():
                self._on_summary(event.result)
            case events.ProgressEvent():
                self._on_progress(event)
            case events.ResultEvent():
                self._on_result(event.result)
                if self.progress:
                    self.progress.finished_one()
            case events.InfoEvent():
                if self.verbose:
                    self.console.print(f"[dim]{escape(event.message)}[/]")
            case _:
                assert_never(event)

    def _on_progress(self, event: events.ProgressEvent) -> None:
        if self.progress:
            self.progress.started(event)
            return
        left = self.estimate.left(event.index, event.total)
        self.console.print(f"[dim][{event.index}/{event.total}][/] {escape(event.qualname)}"
                           + (f" [dim](about {left} left)[/]" if left else ""))

    def _on_round(self, event: events.RoundEvent) -> None:
        d = event.entry
        self.console.print(
            f"[bold]{escape(event.qualname)}[/] round {d['round']}: accuracy {d['accuracy']} · completeness "
            f"{d['completeness']} · score [bold]{d['score']}[/]/{event.bar} · fatal {len(d['fatal_issues'])}")
        for issue in d["fatal_issues"]:
            self.console.print(f"    [red]fatal:[/] {escape(issue)}")
        if d["critical_fix"]:
            self.console.print(f"    feedback: {escape(d['critical_fix'])}")

    def _on_summary(self, r: FunctionResult) -> None:
        self.console.print(
            f"[bold]{escape(r.qualname)}[/]: {score_curve(r.scores)} (bar {r.bar}) · "
            f"{plural(r.rounds, 'round')} · exit: {r.exit_reason}"
            + (f" · [red]{plural(len(r.fatal_issues), 'fatal issue')} standing[/]" if r.fatal_issues else ""))
        if r.tokens:
            self.console.print(f"    {_tokens(r.tokens)}")

    def _on_result(self, r: FunctionResult) -> None:
        colour = {"updated": "green", "unchanged": "dim", "skipped": "yellow", "failed": "red"}[r.status]
        reason = f" ({escape(r.reason)})" if r.reason else ""
        # "updated" alone would read as a doc docbot vouches for: say when the gate never passed it.
        unapproved = r.outcome is Outcome.UNAPPROVED  # the finish step's decision, read, never recomputed
        gate = f" [yellow]unapproved[/]: {escape(r.why().removeprefix('not approved: '))}; check it before relying " \
               "on it" if unapproved else ""
        self.console.print(f"[{colour}]{r.status}[/] {escape(r.key)}{reason}{gate}")
        if unapproved and self.quiet and len(r.repairs) > QUIET_REPAIRS:
            self.console.print(f"    repaired: {escape(gist(r.repairs, 'repair'))}")
        for repair in r.repairs if unapproved and (not self.quiet or len(r.repairs) <= QUIET_REPAIRS) else ():
            self.console.print(f"    repaired: {escape(repair)}")


QUIET_REPAIRS = 2  # under -q, more repairs than this are said in one line


def gist(messages: Iterable[str], noun: str = "loop warning") -> str:
    """Many messages as one line: how many, and each kind once with its count, first seen first
    ("3 loop warnings: degenerate feedback replaced by a generic fix ×2, doc model could not be parsed")."""
    kinds = Counter(_kind(m) for m in messages)
    total = sum(kinds.values())
    return f"{plural(total, noun)}: " + ", ".join(k + (f" ×{n}" if n > 1 else "") for k, n in kinds.items())


def _kind(message: str) -> str:
    """What a message says without its particulars: the round, the attempt, indices, counts, quoted parts."""
    kind = re.sub(r"^round \d+: ", "", message).split(": ", 1)[0].split(" (", 1)[0]
    return re.sub(r"\[\d+\]| \d+/\d+|\b\d+ ", "", kind).strip()


def _in_ci(env: Mapping[str, str]) -> bool:
    return env.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _duration(seconds: float) -> str:
    minutes, secs = divmod(round(seconds), 60)
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


class Estimate:
    """Time left from the mean time per function so far; nothing before the first function is done."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.started: float | None = None

    def left(self, index: int, total: int) -> str:
        now = self.clock()
        if self.started is None:
            self.started = now
        done = index - 1
        return _duration((now - self.started) / done * (total - done)) if done > 0 else ""


class RunProgress:
    """rich's progress bar for a long run: function i of n, elapsed, and an estimate of the time left.
    Lines printed meanwhile go above it; it goes away when the last function's result is in."""

    def __init__(self, console: Console, clock: Callable[[], float]) -> None:
        self.console = console
        self.clock = clock
        self.bar: Any = None
        self.task: Any = None
        self.total = 0
        self.finished = 0

    def started(self, event: events.ProgressEvent) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
        from rich.progress import TimeRemainingColumn

        if self.bar is None:
            self.bar = Progress(TextColumn("docbot"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                                TimeRemainingColumn(), TextColumn("{task.description}"), console=self.console,
                                transient=True, get_time=self.clock)
            self.task = self.bar.add_task("", total=event.total)
            self.bar.start()
        self.total = event.total
        self.bar.update(self.task, completed=event.index - 1, description=escape(event.qualname))

    def finished_one(self) -> None:
        self.finished += 1
        if self.bar is not None:
            self.bar.update(self.task, completed=self.finished)
            if self.finished >= self.total:
                self.close()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def _matters_when_quiet(event: events.Event) -> bool:
    if isinstance(event, events.ResultEvent):
        return event.result.outcome in (Outcome.FAILED, Outcome.SKIPPED, Outcome.UNAPPROVED)
    return isinstance(event, events.WarningEvent)

# Progress on the user's terminal while pre-commit buffers the hook's output. pre-commit shows a
# hook's output only when the hook ends, so a long run looked hung. Where the terminal itself can be
# reached (/dev/tty writable, and not CI, whose logs keep the buffered output anyway) one line per step
# goes there: function i of n, the round, the time so far. The buffered output stays the record.


def _open_tty() -> TextIO:
    return open("/dev/tty", "w", encoding="utf-8")  # noqa: SIM115 -- the caller closes it


def open_tty(env: Mapping[str, str], opener: Callable[[], TextIO] = _open_tty) -> TextIO | None:
    """The user's terminal for writing, or None in CI or where there is none."""
    if env.get("CI", "").lower() not in ("", "0", "false"):
        return None
    try:
        return opener()
    except OSError:  # no controlling terminal (a GUI git client, a daemon): no progress, nothing wrong
        return None


class TtyProgress:
    """An event sink writing ``docbot: function 2 of 5 (pkg.mod.f), round 3, 41s`` lines."""

    def __init__(self, stream: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.clock = clock
        self.started = clock()
        self.position = ""

    def __call__(self, event: events.Event) -> None:
        if isinstance(event, events.ProgressEvent):
            self.position = f"function {event.index} of {event.total} ({event.key})"
            self._show("")
        elif isinstance(event, events.RoundEvent) and self.position:
            self._show(f", round {event.entry['round']}")

    def _show(self, extra: str) -> None:
        self.stream.write(f"docbot: {self.position}{extra}, {self.clock() - self.started:.0f}s\n")
        self.stream.flush()


DEMO_MODEL_NOTE = ("the demo plays every role with its one bundled model (SmolLM2-135M), so its critic grades its "
                   "own writing; on your code, give each role its own model (README: With real models).")


def for_demo(sink: events.EventSink) -> events.EventSink:
    """The demo's events, its one-model warning said as the demo's choice: preflight tells a user to
    give each role its own model, but in the demo the user chose nothing."""

    def emit(event: events.Event) -> None:
        if isinstance(event, events.WarningEvent) and " use the same model (" in event.message:
            event = events.WarningEvent(DEMO_MODEL_NOTE)
        sink(event)

    return emit


def tee(*sinks: events.EventSink) -> events.EventSink:
    """One sink that hands every event to each of ``sinks`` in turn."""

    def emit(event: events.Event) -> None:
        for sink in sinks:
            sink(event)

    return emit
