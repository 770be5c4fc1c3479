"""A long run shows where it is: a live bar with an estimate on a terminal; plain lines with an estimate
elsewhere; nothing of it under ``-q`` or in CI's log; and the demo's one-model warning as the demo's own."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

from docbot import events
from docbot.fronts.console import DEMO_MODEL_NOTE, ConsoleSink, Estimate, for_demo
from docbot.results import FunctionResult


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def feed(sink: ConsoleSink, clock: Clock, total: int = 3) -> None:
    for index in range(1, total + 1):
        sink(events.ProgressEvent(index, total, "pkg.geo", f"f{index}"))
        clock.now += 60.0  # a minute per function
        sink(events.ResultEvent(FunctionResult("pkg.geo", f"f{index}", "updated")))


def run_on(*, terminal: bool, env: dict[str, str], quiet: bool = False) -> str:
    stream, clock = io.StringIO(), Clock()
    sink = ConsoleSink(stream, verbose=False, quiet=quiet, env=env, force_terminal=terminal, clock=clock)
    feed(sink, clock)
    return stream.getvalue()


def test_a_terminal_gets_rich_progress_bar_with_counts() -> None:
    shown = run_on(terminal=True, env={})
    assert "━" in shown and "0/3" in shown  # rich's bar and its M/N column
    assert "[1/3]" not in shown  # the bar replaces the plain lines


@pytest.mark.parametrize("terminal, env", [(False, {}), (True, {"CI": "true"}), (True, {"NO_COLOR": "1"})])
def test_a_log_gets_plain_lines_with_the_time_left(terminal: bool, env: dict[str, str]) -> None:
    shown = run_on(terminal=terminal, env=env)
    assert "━" not in shown
    lines = [line for line in re.sub(r"\x1b\[[0-9;]*m", "", shown).splitlines() if line.startswith("[")]
    assert lines == ["[1/3] f1", "[2/3] f2 (about 2m00s left)", "[3/3] f3 (about 1m00s left)"]


@pytest.mark.parametrize("terminal", [True, False])
def test_quiet_shows_no_progress(terminal: bool) -> None:
    shown = run_on(terminal=terminal, env={}, quiet=True)
    assert "━" not in shown and "[1/3]" not in shown and "f1" not in shown


@pytest.mark.parametrize("index, total, elapsed, left", [
    (1, 10, 0.0, ""),  # nothing done yet: no guess
    (2, 10, 30.0, "4m30s"),  # 30 s for one, nine to go
    (5, 5, 40.0, "10s"),
])
def test_the_estimate_is_the_mean_time_so_far_times_what_is_left(index: int, total: int, elapsed: float,
                                                                  left: str) -> None:
    clock = Clock()
    estimate = Estimate(clock)
    estimate.left(1, total)
    clock.now += elapsed
    assert estimate.left(index, total) == left


def test_the_demo_speaks_of_its_own_model() -> None:
    seen: list[events.Event] = []
    same = "writer, critic and adjudicator use the same model (smollm2): give each role its own model in config.json."
    for_demo(seen.append)(events.WarningEvent(same))
    for_demo(seen.append)(events.WarningEvent("something else"))
    assert [e.message for e in seen if isinstance(e, events.WarningEvent)] == [DEMO_MODEL_NOTE, "something else"]
    assert "demo" in DEMO_MODEL_NOTE and "config.json" not in DEMO_MODEL_NOTE


@pytest.mark.parametrize("module, name", [("docbot.fronts.hook", "docbot-hook"),
                                          ("docbot.fronts.action", "docbot-action"),
                                          ("docbot.fronts.cli", "docbot")])
def test_every_entry_point_has_version(module: str, name: str) -> None:
    from docbot import __version__

    done = subprocess.run([sys.executable, "-m", module, "--version"], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout.strip()) == (0, f"{name} {__version__}")


def test_a_function_s_summary_counts_its_model_calls() -> None:
    from docbot.fronts.console import _tokens

    line = _tokens({"GENERATOR": {"in": 900, "out": 200, "seconds": 1.25, "calls": 1},
                    "CRITIC": {"in": 1200, "out": 80, "seconds": 0.5, "calls": 1}})
    assert line.startswith("2 model calls: ") and "critic 1× 1200→80 tok 0.5s" in line
    assert _tokens({"CRITIC": {"in": 1, "out": 1, "seconds": 0.0, "calls": 1}}).startswith("1 model call: ")
