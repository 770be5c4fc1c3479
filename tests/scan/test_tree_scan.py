"""``check --all`` streams: the tree is scanned and planned a module at a time, with the same targets and the
same report as the whole-tree scan held at once (docs/design.md#speed). Real git repositories in tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot import check as check_module
from docbot.apidocs.pages import render_doc_file, source_hash
from docbot.check import check_report
from docbot.plan import PLAN_DEFAULTS, plan_modules
from docbot.scan import tree
from docbot.scan.repo import DiffSpec, scan
from docbot.scan.targets import public_functions
from tests.support.git_repo import GitRepo

ALL = DiffSpec(all=True)
F = "def {0}(x):\n    return x\n"


def _document(repo: GitRepo, path: str, module: str, edit: str = "") -> None:
    functions = public_functions(repo.read(path), module, path)
    sections = {f.qualname: (source_hash(f.source + edit), f"## {f.qualname}\n\nDoc.") for f in functions}
    repo.write(f"docs/api/{module}.md", render_doc_file(module, sections))


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    """Public and private modules, a re-export, a file that does not parse, a module with two paths (a move
    out of src/), a documented module gone and a stale section."""
    repo = GitRepo(tmp_path).write("pkg/__init__.py", "from pkg._impl import shown\n")
    repo.write("pkg/_impl.py", F.format("shown") + F.format("hidden"))
    repo.write("pkg/_other.py", F.format("unseen")).write("pkg/a.py", F.format("one") + F.format("two"))
    repo.write("pkg/bad.py", "def f(:\n").write("pkg/m.py", F.format("old"))
    repo.write("src/pkg/m.py", F.format("new")).write("pkg/b.py", "class K:\n    def run(self):\n        pass\n")
    repo.write("gone.py", F.format("lost"))
    _document(repo, "pkg/a.py", "pkg.a", edit="# edited")  # both sections stale
    _document(repo, "gone.py", "gone")
    repo.delete("gone.py")
    return repo.commit("files")


@pytest.mark.parametrize("declared, outside", [(False, False), (True, False), (True, True)])
def test_the_module_scans_hold_the_targets_of_the_whole_tree_scan(repo: GitRepo, declared: bool,
                                                                   outside: bool) -> None:
    if declared:  # pyproject.toml names the package: the rest is outside it, unless scan_outside_package
        repo.write("pyproject.toml", '[project]\nname = "x"\n[tool.setuptools]\npackages = ["pkg"]\n').commit("toml")
    whole = scan(repo.root, ALL, outside_package=outside)
    parts = list(tree.scan_modules(repo.root, outside_package=outside))
    assert any(t.path.startswith("src/") for t in whole.targets) == (outside or not declared)  # the case is real
    assert [t.to_json() for part in parts for t in part.targets] == [t.to_json() for t in whole.targets]
    assert [e.path for part in parts for e in part.errors] == [e.path for e in whole.errors]
    assert [path for part in parts for path in part.sources] == list(whole.sources)
    assert all(len({t.module for t in part.targets}) <= 1 for part in parts)  # one module each


@pytest.mark.parametrize("paths", [(), ("pkg",)])
def test_check_all_reports_what_the_held_plan_reports(repo: GitRepo, paths: tuple[str, ...]) -> None:
    held = plan_modules(scan(repo.root, ALL, paths), PLAN_DEFAULTS, repo.root, ALL, paths)
    stale = [e for module in held for e in check_module._stale_in_module(module)]
    report = check_report(PLAN_DEFAULTS, repo.root, ALL, paths, index=False)
    assert report.stale == stale
    assert {(e.qualname, e.status) for e in stale} >= {("one", "stale"), ("two", "stale"), ("shown", "missing")}
    assert ("lost" in {e.qualname for e in stale}) == (not paths)  # the gone module: only for the whole tree


def test_each_module_is_judged_before_the_next_file_is_parsed(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    """What is held at any time is one module's targets: parses and judgements alternate, not all parses first."""
    events: list[str] = []
    parse, judge = tree._file_targets, check_module._stale_in_module

    def parsed(top: Path, path: str, *args: object) -> object:
        events.append("parse")
        return parse(top, path, *args)  # type: ignore[arg-type]

    def judged(module: object) -> object:
        events.append("judge")
        return judge(module)  # type: ignore[arg-type]

    monkeypatch.setattr(tree, "_file_targets", parsed)
    monkeypatch.setattr(check_module, "_stale_in_module", judged)
    check_report(PLAN_DEFAULTS, repo.root, ALL, index=False)
    first_judged = events.index("judge")
    assert 0 < first_judged < events.count("parse")  # a module judged while files remain unparsed
    assert events[:3] == ["parse", "parse", "judge"]  # pkg/__init__.py: nothing to judge; pkg/_impl.py: judged
