"""The layout's rules on docbot's real import graph: no cycles, fronts on top and apart. The checker is
shown to catch each rule's violation on small graphs, and on a copy of docbot with one import added."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.import_graph import (cycles, front_violations, import_graph, imports_of, modules_under,
                                        room_graph, starts_git)

DOCBOT = Path(__file__).parents[1] / "docbot"
GRAPH = import_graph(DOCBOT)


def test_the_graph_is_read() -> None:
    # Guards the tests below against passing on an empty or misread graph.
    assert {"docbot.plan", "docbot.scan.repo"} <= GRAPH["docbot.run.pipeline"]
    assert "docbot.fronts.common" in GRAPH["docbot.fronts.hook"]
    assert "docbot.facts.function" in GRAPH["docbot.loop.runner"]  # a late import, inside a function


def test_docbot_has_no_import_cycles() -> None:
    assert cycles(GRAPH) == []


def test_fronts_sit_on_top_and_apart() -> None:
    assert front_violations(GRAPH) == []


def test_rooms_have_no_import_cycles() -> None:
    """Folders along the data path: no folder (or loose module) imports one that imports it back."""
    rooms = room_graph(GRAPH)
    assert {"docbot.git", "docbot.scan", "docbot.sandbox", "docbot.apidocs"} <= set(rooms)  # read, not empty
    assert cycles(rooms) == []


def test_at_most_eight_loose_modules() -> None:
    """The loose modules at ``docbot/`` are the shared vocabulary; everything else lives in a folder."""
    loose = sorted(p.name for p in DOCBOT.glob("*.py") if p.name != "__init__.py")
    assert 0 < len(loose) <= 8, loose


def test_only_the_git_folder_starts_git() -> None:
    starting = {name: lines for name, file in modules_under(DOCBOT).items()
                if (lines := starts_git(file.read_text(encoding="utf-8"))) and not name.startswith("docbot.git.")}
    assert starting == {}
    assert starts_git((DOCBOT / "git" / "runner.py").read_text(encoding="utf-8"))  # the rule sees the runner


@pytest.mark.parametrize("source, expected", [
    ('subprocess.run(["git", "status"])', [1]),
    ('subprocess.run(("git", *args), cwd=root)', [1]),
    ('run = ["gitk", "x"]\nlabel = "git"', []),  # another program; the word alone
    ('run_git(top, "status")', []),  # through the runner
])
def test_git_command_lines_are_seen(source: str, expected: list[int]) -> None:
    assert starts_git(source) == expected


def test_use_cases_do_not_import_each_other() -> None:
    assert "docbot.check" not in GRAPH["docbot.run.pipeline"] and "docbot.run.pipeline" not in GRAPH["docbot.check"]


KNOWN = ["docbot", "docbot.check", "docbot.plan", "docbot.fronts", "docbot.fronts.cli", "docbot.fronts.common",
         "docbot.verify", "docbot.verify.findings"]


@pytest.mark.parametrize("source, module, expected", [
    ("import docbot.plan", "docbot.check", {"docbot.plan"}),
    ("from docbot import plan", "docbot.check", {"docbot.plan"}),
    ("from docbot.plan import ModuleDocs", "docbot.check", {"docbot.plan"}),
    ("from docbot.fronts import cli", "docbot.check", {"docbot.fronts.cli"}),
    ("from docbot.fronts.cli import main", "docbot.check", {"docbot.fronts.cli"}),
    ("def f():\n    from docbot.fronts.cli import main\n", "docbot.check", {"docbot.fronts.cli"}),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from docbot.plan import X\n", "docbot.check",
     {"docbot.plan"}),
    ("from .findings import Finding", "docbot.verify", {"docbot.verify.findings"}),  # relative, in a package
    ("from . import plan", "docbot.check", {"docbot.plan"}),
    ("from .common import guarded", "docbot.fronts.cli", {"docbot.fronts.common"}),
    ("import json\nfrom pathlib import Path", "docbot.check", set()),  # not ours
    ("from docbot.check import x", "docbot.check", set()),  # itself
])
def test_imports_are_resolved_to_modules(source: str, module: str, expected: set[str]) -> None:
    assert imports_of(source, module, KNOWN, is_package=module in ("docbot", "docbot.verify")) == expected


@pytest.mark.parametrize("graph, expected", [
    ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
    ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
    ({"a": {"a"}}, [["a"]]),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b", "c"}, "b": {"c"}, "c": set()}, []),  # a diamond is no cycle
    ({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}}, [["a", "b"], ["c", "d"]]),
])
def test_cycles_are_found(graph: dict[str, set[str]], expected: list[list[str]]) -> None:
    assert cycles(graph) == expected


@pytest.mark.parametrize("graph, expected", [
    ({"docbot.run.pipeline": {"docbot.plan"},
      "docbot.fronts.cli": {"docbot.run.pipeline", "docbot.fronts.common"}}, []),
    ({"docbot.fronts.hook": {"docbot.fronts.common", "docbot.fronts.console"}}, []),
    ({"docbot.run.pipeline": {"docbot.fronts.console"}},
     ["docbot.run.pipeline imports the front docbot.fronts.console"]),
    ({"docbot.run.pipeline": {"docbot.fronts.cli"}}, ["docbot.run.pipeline imports the front docbot.fronts.cli"]),
    ({"docbot.fronts.hook": {"docbot.fronts.cli"}}, ["docbot.fronts.hook imports the front docbot.fronts.cli"]),
    ({"docbot.fronts.console": {"docbot.fronts.action"}},
     ["docbot.fronts.console imports the front docbot.fronts.action"]),
    ({"docbot.fronts_extra": {"docbot.fronts.cli"}},  # a name that merely starts like the package
     ["docbot.fronts_extra imports the front docbot.fronts.cli"]),
])
def test_front_rules(graph: dict[str, set[str]], expected: list[str]) -> None:
    assert [problem.split(";")[0] for problem in front_violations(graph)] == expected


@pytest.mark.parametrize("file, line, rule", [
    ("run/pipeline.py", "from docbot.fronts import cli", "front"),
    ("fronts/hook.py", "from docbot.fronts.cli import settings_from", "front"),
    ("plan.py", "from docbot.run import pipeline", "cycle"),
    ("git/runner.py", "from docbot.scan import targets", "room cycle"),
])
def test_one_added_import_breaks_the_layout(tmp_path: Path, file: str, line: str, rule: str) -> None:
    copy = tmp_path / "docbot"
    shutil.copytree(DOCBOT, copy, ignore=shutil.ignore_patterns("__pycache__"))
    with open(copy / file, "a", encoding="utf-8") as handle:
        handle.write(f"\n{line}\n")
    graph = import_graph(copy)
    found = {"front": front_violations, "cycle": cycles, "room cycle": lambda g: cycles(room_graph(g))}[rule](graph)
    assert found
    original = import_graph(DOCBOT)
    assert front_violations(original) == [] and cycles(original) == [] and cycles(room_graph(original)) == []


# verify's rooms, each with the rooms it may import (docs/design.md#layout): reading knows nothing of judging,
# the checks nothing of a whole project.
VERIFY_ROOMS = {"findings": set(), "read": set(), "checks": {"findings", "read"},
                "project": {"findings", "read", "checks"}}


def verify_room(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["docbot", "verify"] else None


def verify_violations(graph: dict[str, set[str]]) -> list[str]:
    found = []
    for module, targets in sorted(graph.items()):
        here = verify_room(module)
        for target in sorted(targets):
            there = verify_room(target)
            if here and there and there != here and there not in VERIFY_ROOMS.get(here, set()):
                found.append(f"{module} imports {target}")
    return found


def test_verifys_rooms_import_only_downward() -> None:
    assert {verify_room(m) for m in GRAPH} >= set(VERIFY_ROOMS)  # the rooms are read, not empty
    assert verify_violations(GRAPH) == []
    assert verify_violations({"docbot.verify.read.examples": {"docbot.verify.checks.examples"}}) == [
        "docbot.verify.read.examples imports docbot.verify.checks.examples"]
    assert verify_violations({"docbot.verify.checks.page": {"docbot.verify.project.report"}}) != []
