"""Planning without a model: targets per module, and which modules' doc files a run looks at."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.apidocs.pages import render_doc_file
from docbot.apidocs.disk import documented_modules
from docbot.plan import group_by_module, modules_in_scope
from docbot.scan.repo import DiffSpec
from docbot.results import ChangeKind, Target


def target(module: str, qualname: str, kind: ChangeKind = "modified", lineno: int = 1) -> Target:
    return Target(module, qualname, f"{module}.py", lineno, lineno + 1, kind, f"def {qualname}(): ...\n")


@pytest.mark.parametrize("targets, expected", [
    ([], {}),
    ([target("b", "f"), target("a", "g"), target("b", "h")], {"b": [("f", "modified"), ("h", "modified")],
                                                              "a": [("g", "modified")]}),
    # One target per name: a live definition wins over a deleted one, whichever comes first.
    ([target("a", "f", "deleted"), target("a", "f", "added")], {"a": [("f", "added")]}),
    ([target("a", "f", "added"), target("a", "f", "deleted")], {"a": [("f", "added")]}),
    ([target("a", "f", "deleted"), target("a", "f", "deleted", lineno=9)], {"a": [("f", "deleted")]}),
])
def test_group_by_module(targets: list[Target], expected: dict[str, list[tuple[str, str]]]) -> None:
    grouped = group_by_module(targets)
    assert list(grouped) == list(expected)  # modules in first-seen order
    assert {m: [(t.qualname, t.kind) for t in ts] for m, ts in grouped.items()} == expected


def _docs(root: Path) -> None:
    folder = root / "docs" / "api"
    folder.mkdir(parents=True)
    (folder / "gone.md").write_text(render_doc_file("gone", {"f": ("abc", "## f\n")}), encoding="utf-8")
    (folder / "kept.md").write_text(render_doc_file("kept", {"g": ("abc", "## g\n")}), encoding="utf-8")
    (folder / "handwritten.md").write_text("# Notes\n\nWritten by a person.\n", encoding="utf-8")


@pytest.mark.parametrize("spec, paths, expected", [
    (DiffSpec(all=True), (), ["kept", "gone"]),  # a whole-tree run also looks at docs of vanished modules
    (DiffSpec(all=True), ("pkg",), ["kept"]),  # ... but not when limited to some paths
    (DiffSpec(staged=True), (), ["kept"]),  # nor for a diff
])
def test_modules_in_scope(tmp_path: Path, spec: DiffSpec, paths: tuple[str, ...], expected: list[str]) -> None:
    _docs(tmp_path)
    by_module = {"kept": [target("kept", "g")]}
    assert list(modules_in_scope(by_module, "docs/api", tmp_path, spec, paths)) == expected


def test_documented_modules_ignores_files_a_person_wrote(tmp_path: Path) -> None:
    _docs(tmp_path)
    assert list(documented_modules(tmp_path, "docs/api", exclude=set())) == ["gone", "kept"]
    assert list(documented_modules(tmp_path, "docs/api", exclude={"kept"})) == ["gone"]
    assert list(documented_modules(tmp_path / "elsewhere", "docs/api", exclude=set())) == []
