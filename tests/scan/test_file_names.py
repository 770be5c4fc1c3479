"""Issue 22 item 6 (names): a module or function whose name starts with a non-ASCII letter is documented
like any other (its anchor is its Unicode dotted name), and Python files that are not importable modules
(``spa ce.py``, ``-rf.py``, ``class.py``) are skipped as non-API once, with a notice, instead of failing
every run."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.apidocs.pages import parse_doc_file
from docbot.apidocs.render import anchor
from docbot.check import check_report
from docbot.config.settings import Settings
from docbot.events import EventKind
from docbot.run.pipeline import run_docs
from docbot.scan.repo import DiffSpec, scan
from docbot.scan.targets import importable
from tests.run.test_cache import ModelFake
from tests.support.events import CollectingSink
from tests.support.git_repo import GitRepo

ALL = DiffSpec(all=True)


@pytest.mark.parametrize("path, expected", [
    ("pkg/good.py", True), ("pkg/ünï.py", True), ("src/pkg/__init__.py", True), ("über.py", True),
    ("pkg/spa ce.py", False), ("pkg/-rf.py", False), ("pkg/class.py", False), ("my-pkg/m.py", False),
    ("pkg/1st.py", False),
])
def test_which_files_are_importable_modules(path: str, expected: bool) -> None:
    assert importable(path) is expected


def test_a_unicode_name_has_an_anchor() -> None:
    assert anchor("pkg.ünï", "über") == "pkg.ünï.über"
    with pytest.raises(ValueError):
        anchor("pkg.spa ce", "f")


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "")
    for name, function in (("ünï", "über"), ("spa ce", "f"), ("-rf", "g"), ("good", "ok")):
        repo.write(f"pkg/{name}.py", f"def {function}(a):\n    return a\n")
    return repo.commit("names")


def test_non_importable_files_are_skipped_once_with_a_notice(repo: GitRepo) -> None:
    found = scan(repo.root, ALL)
    assert sorted(t.key for t in found.targets) == ["pkg.good.ok", "pkg.ünï.über"]
    assert found.skipped == ["pkg/-rf.py", "pkg/spa ce.py"] and found.errors == []
    sink = CollectingSink()
    report = run_docs(Settings(), repo.root, ALL, (), sink, documenter_factory=ModelFake().factory)
    warnings = [str(getattr(e, "message", "")) for e in sink.of_kind(EventKind.WARNING)]
    assert [w for w in warnings if "not an importable module name" in w] == [
        "pkg/-rf.py: not an importable module name, so its functions are not API; skipped",
        "pkg/spa ce.py: not an importable module name, so its functions are not API; skipped"]
    assert {r.key: r.status for r in report.results} == {"pkg.good.ok": "updated", "pkg.ünï.über": "updated"}
    text = repo.read("docs/api/pkg.ünï.md")
    assert '<a id="pkg.ünï.über"></a>' in text and list(parse_doc_file(text).sections) == ["über"]
    assert check_report(Settings(), repo.root, ALL).stale == []  # and the gate is then satisfied


def test_a_diff_skips_them_too(repo: GitRepo) -> None:
    repo.write("pkg/spa ce.py", "def f(a):\n    return a + 1\n").write("pkg/ünï.py", "def über(a):\n    return 1\n")
    found = scan(repo.root, DiffSpec())
    assert [t.key for t in found.targets] == ["pkg.ünï.über"] and found.skipped == ["pkg/spa ce.py"]
