"""The time budget is a deadline: the function in flight stops at its next model call (docs/design.md#fronts)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from docbot import events
from docbot.config.deadline import Deadline, DeadlineReached
from docbot.loop.runner import DeadlineCallback, documenter_for
from docbot.scan.repo import DiffSpec
from docbot.run.pipeline import run_docs
from docbot.config.settings import Settings
from tests.support.fakes import critique, doc, scripted_models
from tests.support.git_repo import GitRepo


@pytest.mark.parametrize(("now", "passed"), [(10.0, False), (12.0, False), (12.5, True)])
def test_deadline_passes_only_after_the_budget(now: float, passed: bool) -> None:
    assert Deadline(10.0, 2.0, lambda: now).passed() is passed


def test_the_callback_refuses_model_calls_past_the_deadline() -> None:
    now = [0.0]
    callback = DeadlineCallback(Deadline(0.0, 5.0, lambda: now[0]))
    callback.on_chat_model_start({}, [])
    callback.on_llm_start({}, [])
    now[0] = 6.0
    with pytest.raises(DeadlineReached, match="time budget of 5s reached; left to CI"):
        callback.on_chat_model_start({}, [])
    with pytest.raises(DeadlineReached):
        callback.on_llm_start({}, [])


def test_a_function_in_flight_stops_at_its_next_model_call(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path).write("m.py", "def f(x):\n    return x\n\n\ndef g(y):\n    return y\n")
    repo.commit("start")
    models = scripted_models([doc("f"), doc("f"), doc("g")], [critique(60, 60), critique(97, 97)], [doc("f")])
    ticks = itertools.count()  # every look at the clock is one second later
    clock = lambda: float(next(ticks))  # noqa: E731
    settings = Settings(time_budget_s=3.5, run_examples=False)
    # clock: 0 the run starts, 1 before building the documenter, 2 before f, 3 the writer's call (in
    # time), 4 the critic's call (past the deadline).
    documenter = documenter_for(models, settings, repo.root, events.discard, Deadline(0.0, 3.5, clock))
    report = run_docs(settings, repo.root, DiffSpec(all=True), (), events.discard, clock=clock,
                      documenter_factory=lambda: documenter)
    statuses = [(r.qualname, r.status, r.reason) for r in report.results]
    assert statuses == [("f", "skipped", "time budget of 3.5s reached; left to CI"),
                        ("g", "skipped", "time budget of 3.5s reached; left to CI")]
    assert len(models.generator.seen) == 1 and models.critic.seen == []  # type: ignore[attr-defined]
    assert report.written == []


def test_past_the_deadline_before_any_work_no_model_is_built(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path).write("m.py", "def f(x):\n    return x\n").commit("start")
    ticks = itertools.count(step=10)

    def unreachable() -> None:
        raise AssertionError("the documenter (and its server) must not be built past the deadline")

    report = run_docs(Settings(time_budget_s=5, run_examples=False), repo.root, DiffSpec(all=True), (),
                      events.discard, clock=lambda: float(next(ticks)), documenter_factory=unreachable)
    assert [(r.qualname, r.status) for r in report.results] == [("f", "skipped")]
