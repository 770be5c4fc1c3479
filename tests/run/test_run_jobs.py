"""``docbot run`` with ``jobs`` > 1 (docs/design.md#jobs): functions really run at once, no server gets
more than its slots, and what is written and reported is the same whatever order they finish in."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from docbot.scan.repo import DiffSpec
from docbot.results import FunctionResult, RunReport, Target
from docbot.run.pipeline import run_docs
from docbot.run.jobs import Slots
from docbot.config.settings import Settings
from tests.support.events import CollectingSink
from tests.support.git_repo import GitRepo

NAMES = [f"f{i}" for i in range(6)]
SOURCE = "".join(f"def {name}(x):\n    return x + {i}\n\n\n" for i, name in enumerate(NAMES))
WAIT = 20.0  # seconds before a scripted wait gives up: reached only when the functions did not overlap


class ReversingDocumenter:
    """Each function finishes only after the one after it: the completion order is the plan order reversed,
    which can only happen when they all run at once. Its answer depends on the target alone."""

    def __init__(self) -> None:
        self.done = {name: threading.Event() for name in NAMES}
        self.finished: list[str] = []
        self.lock = threading.Lock()

    def factory(self) -> Callable[[Target], FunctionResult]:
        return self.document

    def document(self, target: Target, current: str = "") -> FunctionResult:
        index = NAMES.index(target.qualname)
        if index + 1 < len(NAMES):
            assert self.done[NAMES[index + 1]].wait(WAIT), "the functions did not run at once"
        with self.lock:
            self.finished.append(target.qualname)
        self.done[target.qualname].set()
        return FunctionResult(target.module, target.qualname, "updated", scores=[96], rounds=1,
                              exit_reason="approved", markdown=f"## `{target.qualname}`\n\nAdds {index}.")


class SerialDocumenter(ReversingDocumenter):
    def document(self, target: Target, current: str = "") -> FunctionResult:
        self.done[NAMES[NAMES.index(target.qualname) + 1]].set() if target.qualname != NAMES[-1] else None
        return super().document(target)


def run(repo: GitRepo, documenter: ReversingDocumenter, **settings: object) -> RunReport:
    return run_docs(Settings.model_validate(settings), repo.root, DiffSpec(all=True), (), CollectingSink(),
                    documenter_factory=documenter.factory)


def repo_at(path: Path) -> GitRepo:
    return GitRepo(path).write("pkg/__init__.py", "").write("pkg/m.py", SOURCE).commit("m")


def test_files_and_results_do_not_depend_on_the_completion_order(tmp_path: Path) -> None:
    serial_repo, parallel_repo = repo_at(tmp_path / "serial"), repo_at(tmp_path / "parallel")
    serial = run(serial_repo, SerialDocumenter())
    reversing = ReversingDocumenter()
    parallel = run(parallel_repo, reversing, jobs=len(NAMES), jobs_per_server=len(NAMES))
    assert reversing.finished == NAMES[::-1]  # they ran at once and finished backwards
    doc = "docs/api/pkg.m.md"
    assert (parallel_repo.root / doc).read_bytes() == (serial_repo.root / doc).read_bytes()
    assert [r.to_json() for r in parallel.results] == [r.to_json() for r in serial.results]
    assert [r.qualname for r in parallel.results] == NAMES


class Counting:
    """Counts how many functions are inside the documenter at once; each waits (up to a second) until
    ``expected`` are inside, so a limit that lets more in shows, and one that lets fewer in too."""

    def __init__(self, expected: int) -> None:
        self.expected = expected
        self.inside = self.most = 0
        self.lock = threading.Lock()
        self.gate = threading.Event()

    def factory(self) -> Callable[[Target], FunctionResult]:
        return self.document

    def document(self, target: Target, current: str = "") -> FunctionResult:
        with self.lock:
            self.inside += 1
            self.most = max(self.most, self.inside)
            if self.inside >= self.expected:
                self.gate.set()
        self.gate.wait(1.0)
        with self.lock:
            self.inside -= 1
        return FunctionResult(target.module, target.qualname, "updated", markdown=f"## `{target.qualname}`")


@pytest.mark.parametrize("settings, most", [
    ({"jobs": 6, "jobs_per_server": 2}, 2),
    ({"jobs": 6, "jobs_per_server": 3}, 3),
    ({"jobs": 2, "jobs_per_server": 4}, 2),
    ({"jobs": 1}, 1),
    ({"jobs": 6, "backend": "embedded"}, 1),  # one model in this process: never two calls at once
])
def test_no_server_gets_more_than_its_slots(tmp_path: Path, settings: dict[str, object], most: int) -> None:
    counting = Counting(most)
    report = run_docs(Settings.model_validate(settings), repo_at(tmp_path).root, DiffSpec(all=True), (),
                      CollectingSink(), documenter_factory=counting.factory)
    assert report.count("updated") == len(NAMES) and counting.most == most


def test_roles_on_two_servers_hold_a_slot_on_each() -> None:
    settings = Settings.model_validate({"base_url": "http://a:1", "model_registry": {
        "GENERATOR": "g", "CRITIC": {"model": "c", "base_url": "http://b:2"}, "ADJUDICATOR": "j"}})
    assert Slots(settings).servers == ["ollama http://a:1", "ollama http://b:2"]
