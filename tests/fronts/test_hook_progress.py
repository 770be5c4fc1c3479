"""The hook's progress on the user's terminal, and its words for what is left to CI."""

from __future__ import annotations

import io
from typing import TextIO

import pytest

from docbot import events
from docbot.fronts.hook import _report as hook_report
from docbot.fronts.console import TtyProgress, open_tty, tee
from docbot.results import FunctionResult, RunReport, plural


def _tty() -> TextIO:
    return io.StringIO()


def _no_tty() -> TextIO:
    raise OSError(6, "No such device or address")


@pytest.mark.parametrize(("env", "opener", "opened"), [
    ({}, _tty, True),
    ({"CI": "true"}, _tty, False),     # CI logs keep the buffered output; no terminal to show it on
    ({"CI": "1"}, _tty, False),
    ({"CI": "false"}, _tty, True),
    ({"CI": ""}, _tty, True),
    ({}, _no_tty, False),              # no controlling terminal: no progress, no error
])
def test_open_tty(env: dict[str, str], opener: object, opened: bool) -> None:
    assert (open_tty(env, opener) is not None) is opened  # type: ignore[arg-type]


def _round(n: int) -> events.RoundEvent:
    entry = {"round": n, "score": 80, "accuracy": 80, "completeness": 80, "fatal_issues": [], "critical_fix": ""}
    return events.RoundEvent("f", 95, entry)  # type: ignore[arg-type]


def test_progress_shows_function_i_of_n_round_and_elapsed() -> None:
    stream, now = io.StringIO(), [100.0]
    progress = TtyProgress(stream, clock=lambda: now[0])
    progress(_round(1))  # before any function: nothing to say where it is
    now[0] = 103.0
    progress(events.ProgressEvent(2, 5, "pkg.mod", "f"))
    now[0] = 141.4
    progress(_round(3))
    progress(events.WarningEvent("ignored here"))
    assert stream.getvalue().splitlines() == ["docbot: function 2 of 5 (pkg.mod.f), 3s",
                                              "docbot: function 2 of 5 (pkg.mod.f), round 3, 41s"]


def test_tee_hands_every_event_to_each_sink() -> None:
    first: list[events.Event] = []
    second: list[events.Event] = []
    event = events.WarningEvent("w")
    tee(first.append, second.append)(event)
    assert first == [event] and second == [event]


@pytest.mark.parametrize(("count", "text"), [(0, "0 functions"), (1, "1 function"), (2, "2 functions")])
def test_plural(count: int, text: str) -> None:
    assert plural(count, "function") == text


def _report(*statuses: str, written: bool = False) -> RunReport:
    results = [FunctionResult("m", f"f{i}", s) for i, s in enumerate(statuses)]  # type: ignore[arg-type]
    return RunReport(results=results, written=["docs/api/m.md"] if written else [])


@pytest.mark.parametrize(("report", "code"), [
    (_report("skipped", "skipped"), 0),             # only budget-skipped left: the commit passes
    (_report("unchanged", "skipped"), 0),
    (_report("updated", "skipped", written=True), 1),  # docs to stage first
    (_report("failed", "skipped"), 1),
    (_report(), 0),
])
def test_hook_exit_code(report: RunReport, code: int, capsys: pytest.CaptureFixture[str]) -> None:
    hook_report(report)
    assert report.hook_exit_code() == code
    skipped = sum(r.status == "skipped" for r in report.results)
    assert ("left to CI (time budget)" in capsys.readouterr().out) is bool(skipped)
