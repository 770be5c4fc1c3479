"""``docbot run`` writes each function into the page of the public module users import (griffe's reading of
the re-exports, as ``docbot pages`` names its pages), moves sections from a page named after a private
module there, markers and all, and ``docbot check`` finds them in their new place (docs/design.md#docs-files)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.apidocs import pages
from docbot.check import check_report
from docbot.config.settings import Settings
from docbot.run.pipeline import run_docs
from docbot.scan.repo import DiffSpec
from tests.support.events import CollectingSink
from tests.support.git_repo import GitRepo
from tests.support.scripted import Scripted

FUNCS = "def asdict(inst):\n    return dict(inst)\n\n\ndef astuple(inst):\n    return tuple(inst)\n"
MAKE = "def define(cls):\n    return cls\n"
COMPAT = "def helper(x):\n    return x\n"
INIT = ("from pkg._funcs import asdict, astuple\nfrom pkg._make import define\nfrom pkg.sub._impl import run\n\n"
        "__all__ = ['asdict', 'astuple', 'define', 'run']\n")
GEO = "def area(w, h):\n    return w * h\n"


def _repo(tmp_path: Path) -> GitRepo:
    return (GitRepo(tmp_path / "repo").write("pkg/__init__.py", INIT).write("pkg/_funcs.py", FUNCS)
            .write("pkg/_make.py", MAKE).write("pkg/_compat.py", COMPAT).write("pkg/geo.py", GEO)
            .write("pkg/sub/__init__.py", "from pkg.sub._impl import run\n")
            .write("pkg/sub/_impl.py", "def run(x):\n    return x\n").commit("code"))


def _run(repo: GitRepo, scripted: Scripted | None = None) -> list[str]:
    report = run_docs(Settings(), repo.root, DiffSpec(all=True), (), CollectingSink(),
                      documenter_factory=(scripted or Scripted()).factory)
    return sorted(report.written)


def _keys(repo: GitRepo, page: str) -> list[str]:
    return list(pages.parse_doc_file(repo.read(f"docs/api/{page}.md")).sections)


def test_a_fresh_run_writes_one_page_per_public_module_path(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    assert _run(repo) == ["docs/api/index.md", "docs/api/pkg.geo.md", "docs/api/pkg.md"]
    # pkg.sub._impl.run: where griffe finds users import it (pkg, over pkg.sub), not its nearest public parent;
    # pkg._compat.helper: nothing re-exports it, so it is no API (docs/design.md#public-functions)
    assert _keys(repo, "pkg") == ["pkg._funcs:asdict", "pkg._funcs:astuple", "pkg._make:define", "pkg.sub._impl:run"]
    assert _keys(repo, "pkg.geo") == ["area"]  # a public module is its own page, its markers as before
    text = repo.read("docs/api/pkg.md")
    assert text.startswith("# pkg\n")
    assert "<!-- docbot:section asdict hash=" in text and " module=pkg._funcs " in text
    assert '<a id="pkg._funcs.asdict"></a>' in text  # the anchor names the code, as docbot pages links it
    assert "pkg._funcs.md#" not in repo.read("docs/api/index.md")
    assert "](pkg.md#pkg._funcs.asdict)" in repo.read("docs/api/index.md")


def test_check_finds_the_sections_on_the_public_page_and_a_rerun_writes_nothing(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    _run(repo)
    repo.commit("docs")
    found = check_report(Settings(), repo.root, DiffSpec(all=True))
    assert (found.stale, found.index) == ([], None)
    assert _run(repo) == []


@pytest.mark.parametrize("edit, expected", [
    ({"pkg/_funcs.py": FUNCS.replace("return dict(inst)", "return dict(list(inst))")},
     [("asdict", "stale", "docs/api/pkg.md")]),
    ({"pkg/_make.py": MAKE + "\n\ndef frozen(cls):\n    return cls\n",
      "pkg/__init__.py": INIT.replace("import define", "import define, frozen")},
     [("frozen", "missing", "docs/api/pkg.md")]),
    ({"pkg/_funcs.py": "def asdict(inst):\n    return dict(inst)\n"}, [("astuple", "orphaned", "docs/api/pkg.md")]),
])
def test_check_judges_each_section_on_the_shared_page(tmp_path: Path, edit: dict[str, str],
                                                      expected: list[tuple[str, str, str]]) -> None:
    repo = _repo(tmp_path)
    _run(repo)
    for path, text in edit.items():
        repo.write(path, text)
    repo.commit("edit")
    found = check_report(Settings(), repo.root, DiffSpec(all=True), index=False)
    assert [(e.qualname, e.status, e.doc_path) for e in found.stale] == expected


def test_a_merge_for_one_module_leaves_the_others_sections_on_the_page(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    _run(repo)
    before = pages.parse_doc_file(repo.read("docs/api/pkg.md")).sections
    repo.write("pkg/_make.py", MAKE.replace("return cls", "return cls  # same")).commit("edit")
    repo.write("pkg/_make.py", MAKE.replace("return cls", "return (cls)")).stage("pkg/_make.py")
    report = run_docs(Settings(), repo.root, DiffSpec(staged=True), (), CollectingSink(),
                      documenter_factory=Scripted().factory)
    assert report.written == ["docs/api/pkg.md"]  # the index lists no hashes: unchanged
    after = pages.parse_doc_file(repo.read("docs/api/pkg.md")).sections
    assert list(after) == list(before)
    assert {k: s for k, s in after.items() if k != "pkg._make:define"} == \
        {k: s for k, s in before.items() if k != "pkg._make:define"}
    assert after["pkg._make:define"].hash != before["pkg._make:define"].hash


LEGACY = """# pkg._funcs

A note a person wrote about this module.

<!-- docbot:section asdict hash={h} status=unapproved score=62 -->
<a id="pkg._funcs.asdict"></a>

## `asdict`

Their approved words.

<!-- docbot:end asdict -->
"""


def _legacy(repo: GitRepo, intro: bool = True) -> GitRepo:
    text = LEGACY.format(h=pages.source_hash("def asdict(inst):\n    return dict(inst)\n"))
    if not intro:
        text = text.replace("A note a person wrote about this module.\n\n", "")
    return repo.write("docs/api/pkg._funcs.md", text).commit("old docs")


@pytest.mark.parametrize("intro, legacy_left", [(True, "# pkg._funcs\n\nA note a person wrote about this module.\n"),
                                                 (False, None)])
def test_a_page_named_after_a_private_module_is_moved_with_its_markers(tmp_path: Path, intro: bool,
                                                                       legacy_left: str | None) -> None:
    repo = _legacy(_repo(tmp_path), intro)
    scripted = Scripted()
    written = _run(repo, scripted)
    assert "docs/api/pkg._funcs.md" in written and "docs/api/pkg.md" in written
    assert "asdict" not in scripted.calls  # current where it was: moved, not rewritten
    moved = pages.parse_doc_file(repo.read("docs/api/pkg.md")).sections["pkg._funcs:asdict"]
    assert "Their approved words." in moved.body and (moved.status, moved.score) == (pages.SectionStatus.UNAPPROVED, 62)
    legacy = repo.root / "docs/api/pkg._funcs.md"
    assert (legacy.read_text() if legacy.exists() else None) == legacy_left  # the person's text stays, once
    assert repo.read("docs/api/pkg.md").count("Their approved words.") == 1
    repo.commit("moved")
    found = check_report(Settings(), repo.root, DiffSpec(all=True))
    assert (found.stale, found.index) == ([], None)
    assert [(u.qualname, u.doc_path) for u in found.unapproved] == [("asdict", "docs/api/pkg.md")]
    assert _run(repo) == []  # moved once


def test_before_the_move_check_still_finds_the_old_page(tmp_path: Path) -> None:
    repo = _legacy(_repo(tmp_path))
    found = check_report(Settings(), repo.root, DiffSpec(all=True), index=False)
    assert "asdict" not in [e.qualname for e in found.stale]  # not missing: its section is where it was
    assert "astuple" in [e.qualname for e in found.stale]


def test_a_page_edited_during_the_run_keeps_the_legacy_page_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    from docbot.apidocs import disk

    repo = _legacy(_repo(tmp_path))
    real = disk.write_text
    monkeypatch.setattr(disk, "write_text", lambda root, rel, text, read_as: False if rel == "docs/api/pkg.md"
                        else real(root, rel, text, read_as=read_as))
    _run(repo)
    assert "Their approved words." in repo.read("docs/api/pkg._funcs.md")  # never lost


def test_a_public_module_never_loads_griffe(tmp_path: Path) -> None:
    import sys

    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/geo.py", GEO).commit("code")
    sys.modules.pop("griffe", None)
    _run(repo)
    assert "griffe" not in sys.modules


def test_docstrings_find_a_private_modules_section_on_the_public_page(tmp_path: Path) -> None:
    from docbot.docstrings.apply import apply_docstrings

    repo = _repo(tmp_path)
    settings = Settings(write_docstrings=True)
    report = run_docs(settings, repo.root, DiffSpec(all=True), (), CollectingSink(),
                      documenter_factory=Scripted().factory)
    done = apply_docstrings(repo.root, settings, report.results)
    assert '"""Compute asdict for the caller.' in repo.read("pkg/_funcs.py")  # found its section, by its key
    assert "docs/api/pkg.md" in done.docs  # the markers now name the source with its docstring
    assert check_report(Settings(), repo.root, DiffSpec(all=True), index=False).stale == []


@pytest.mark.parametrize("count", [2, 3, 5])
def test_a_shared_page_is_written_by_one_shard_only(tmp_path: Path, count: int) -> None:
    from docbot.run.shards import Shard

    repo = _repo(tmp_path)
    writers = []
    for index in range(1, count + 1):
        report = run_docs(Settings(), repo.root, DiffSpec(all=True), (), CollectingSink(),
                          documenter_factory=Scripted().factory, shard=Shard(index, count))
        if "docs/api/pkg.md" in report.written:
            writers.append(index)
            assert {r.module for r in report.results if r.doc_path == "docs/api/pkg.md"} == \
                {"pkg._funcs", "pkg._make", "pkg.sub._impl"}
    assert len(writers) == 1


@pytest.mark.parametrize("path, old, new", [
    ("pkg/_funcs.py", "return dict(inst)", "return dict(list(inst))"),  # its page is its nearest public parent
    ("pkg/sub/_impl.py", "return x", "return (x)"),  # its page is two levels up (pkg, not pkg.sub)
])
def test_the_hooks_check_of_a_documented_private_module_loads_no_griffe(tmp_path: Path, path: str, old: str,
                                                                         new: str) -> None:
    from tests.test_lazy_imports import probe

    repo = _repo(tmp_path)
    _run(repo)
    repo.commit("docs")
    repo.write(path, repo.read(path).replace(old, new)).stage(path)
    exit_code, imported = probe(repo.root, "hook", ["--check", path], ("griffe",))
    assert (exit_code, imported) == (1, [])  # 1: stale on the public page, found there without griffe


def test_control_the_first_check_of_a_private_module_asks_griffe(tmp_path: Path) -> None:
    from tests.test_lazy_imports import probe

    repo = _repo(tmp_path)
    repo.write("pkg/_funcs.py", FUNCS.replace("return dict(inst)", "return dict(list(inst))")).stage("pkg/_funcs.py")
    assert probe(repo.root, "hook", ["--check", "pkg/_funcs.py"], ("griffe",)) == (1, ["griffe"])
