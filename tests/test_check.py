"""``docbot check``: fresh / stale / missing / orphaned, on real temporary git repositories, no model."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.check import StaleEntry, check_docs
from docbot.apidocs.pages import render_doc_file, source_hash
from docbot.events import EventKind
from docbot.scan.repo import DiffSpec
from docbot.config.settings import Settings
from docbot.scan.targets import public_functions
from tests.support.events import CollectingSink
from tests.support.git_repo import GitRepo
from tests.support.samples import GEO

DOC = "docs/api/pkg.geo.md"
ALL = DiffSpec(all=True)
LAST_COMMIT = DiffSpec(base="HEAD~1")


def _document(repo: GitRepo, path: str, module: str, skip: tuple[str, ...] = ()) -> None:
    """Write a current doc file for ``path`` by hand (the check must not depend on docbot run)."""
    functions = public_functions(repo.read(path), module, path)
    sections = {f.qualname: (source_hash(f.source), f"## {f.qualname}\n\nDoc.") for f in functions
                if f.qualname not in skip}
    repo.write(f"docs/api/{module}.md", render_doc_file(module, sections))


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/geo.py", GEO)
    _document(repo, "pkg/geo.py", "pkg.geo")
    return repo.commit("geo and its docs")


def _check(repo: GitRepo, spec: DiffSpec, sink: CollectingSink | None = None) -> list[tuple[str, str, int, str]]:
    entries = check_docs(Settings(), repo.root, spec, emit=sink or CollectingSink())
    return [(e.qualname, e.status, e.lineno, e.doc_path) for e in entries]


def test_fresh_docs_pass(repo: GitRepo) -> None:
    assert _check(repo, ALL) == []


def test_body_edit_makes_that_function_stale(repo: GitRepo) -> None:
    repo.write("pkg/geo.py", GEO.replace("6 * r", "6.28 * r")).commit("edit")
    assert _check(repo, ALL) == [("perimeter", "stale", 6, DOC)]
    assert _check(repo, LAST_COMMIT) == [("perimeter", "stale", 6, DOC)]


def test_docstring_edit_is_stale_but_crlf_line_ends_are_not(repo: GitRepo) -> None:
    repo.write("pkg/geo.py", GEO.replace("Area of", "The area of")).commit("docstring")
    assert _check(repo, ALL) == [("area", "stale", 1, DOC)]
    repo.write("pkg/geo.py", GEO, newline="\r\n").commit("crlf")  # back to the documented text, CRLF
    assert _check(repo, ALL) == []


def test_new_function_is_missing(repo: GitRepo) -> None:
    repo.write("pkg/geo.py", GEO + "\n    def grow(self):\n        return 1\n").commit("method")
    assert _check(repo, ALL) == [("Shape.grow", "missing", 14, DOC)]
    assert _check(repo, LAST_COMMIT) == [("Shape.grow", "missing", 14, DOC)]


def test_undocumented_module_is_missing_everywhere(repo: GitRepo) -> None:
    repo.write("pkg/tool.py", "def run():\n    pass\n").commit("tool")
    assert _check(repo, ALL) == [("run", "missing", 1, "docs/api/pkg.tool.md")]


def test_deleted_function_leaves_an_orphaned_section(repo: GitRepo) -> None:
    repo.write("pkg/geo.py", GEO.replace("def perimeter(r):\n    return 6 * r\n\n\n", "")).commit("drop")
    assert _check(repo, ALL) == [("perimeter", "orphaned", 0, DOC)]
    assert _check(repo, LAST_COMMIT) == [("perimeter", "orphaned", 0, DOC)]


def test_function_made_private_is_orphaned_even_in_a_base_range(repo: GitRepo) -> None:
    repo.write("pkg/geo.py", GEO.replace("def area(", "def _area(")).commit("private")
    assert _check(repo, LAST_COMMIT) == [("area", "orphaned", 0, DOC)]


def test_deleted_module_leaves_every_section_orphaned(repo: GitRepo) -> None:
    repo.delete("pkg/geo.py").commit("gone")
    expected = [(q, "orphaned", 0, DOC) for q in ("area", "perimeter", "Shape.scale")]
    assert _check(repo, ALL) == expected
    assert _check(repo, LAST_COMMIT) == expected


def test_base_range_only_judges_changed_functions(repo: GitRepo) -> None:
    repo.write("pkg/other.py", "def undocumented():\n    pass\n").commit("other")
    repo.write("pkg/geo.py", GEO.replace("return k", "return k * 2")).commit("scale")
    assert _check(repo, LAST_COMMIT) == [("Shape.scale", "stale", 11, DOC)]
    assert [q for q, *_ in _check(repo, ALL)] == ["Shape.scale", "undocumented"]


def test_stale_missing_and_orphaned_together_with_paths(repo: GitRepo) -> None:
    edited = GEO.replace("return 3 * r * r", "return 3.14 * r * r").replace(
        "def perimeter(r):\n    return 6 * r\n", "def diameter(r):\n    return 2 * r\n")
    repo.write("pkg/geo.py", edited).write("lib/x.py", "def x():\n    pass\n").commit("mixed")
    entries = check_docs(Settings(), repo.root, ALL, ["pkg"])
    assert [(e.qualname, e.status) for e in entries] == [
        ("area", "stale"), ("diameter", "missing"), ("perimeter", "orphaned")]
    assert entries[0] == StaleEntry("pkg.geo", "area", "pkg/geo.py", 1, "stale", DOC)


def test_a_file_that_does_not_parse_is_reported_not_judged(repo: GitRepo) -> None:
    repo.write("pkg/geo.py", GEO + "\ndef broken(:\n").commit("broken")
    sink = CollectingSink()
    assert _check(repo, ALL, sink) == []
    assert _check(repo, LAST_COMMIT, sink) == []
    warnings = [e.message for e in sink.of_kind(EventKind.WARNING)]
    assert len(warnings) == 2 and all(w.startswith("pkg/geo.py: cannot parse") for w in warnings)


def test_hand_written_files_in_the_docs_folder_are_not_orphans(repo: GitRepo) -> None:
    repo.write("docs/api/index.md", "# API\n\nSee the modules.\n").commit("index")
    assert _check(repo, ALL) == []


@pytest.mark.parametrize("entry,text", [
    (StaleEntry("pkg.geo", "area", "pkg/geo.py", 3, "stale", DOC),
     "pkg/geo.py:3: pkg.geo.area: doc is stale (the code changed since) (docs/api/pkg.geo.md)"),
    (StaleEntry("pkg.geo", "grow", "pkg/geo.py", 14, "missing", DOC),
     "pkg/geo.py:14: pkg.geo.grow: has no doc section (docs/api/pkg.geo.md)"),
    (StaleEntry("pkg.geo", "gone", "pkg/geo.py", 0, "orphaned", DOC),
     "pkg/geo.py: pkg.geo.gone: doc section documents a function that no longer exists (docs/api/pkg.geo.md)"),
    (StaleEntry("old", "f", "", 0, "orphaned", "docs/api/old.md"),
     "old.f: doc section documents a function that no longer exists (docs/api/old.md)"),
])
def test_describe(entry: StaleEntry, text: str) -> None:
    assert entry.describe() == text


def test_whole_tree_check_of_2000_documented_functions_is_current(tmp_path: Path) -> None:
    # Its speed is a benchmark's business (python -m bench.bench_targets: check --all against the
    # ast.parse floor), not a test's: a wall-clock bound fails on a loaded machine and proves nothing.
    repo = GitRepo(tmp_path / "big")
    body = "".join(f"def f{i}(x):\n    return x + {i}\n\n\n" for i in range(20))
    for n in range(100):
        repo.write(f"pkg/m{n}.py", body)
        _document(repo, f"pkg/m{n}.py", f"pkg.m{n}")
    repo.commit("100 modules, 2000 functions")
    assert _check(repo, ALL) == []


def test_a_stale_entry_holds_no_instance_dict() -> None:
    """``check --all`` holds one entry per undocumented function until it reports (108,000 at 5,000 stdlib
    files): slots, not a ``__dict__`` each (issue 32: 103 -> 99 MiB peak there)."""
    entry = StaleEntry("pkg.mod", "f", "pkg/mod.py", 3, "missing", "docs/api/pkg.mod.md")
    assert not hasattr(entry, "__dict__") and entry.describe().endswith("has no doc section (docs/api/pkg.mod.md)")
