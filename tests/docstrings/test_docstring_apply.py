"""``--write-docstrings`` end to end: a real ``docbot run`` (scripted documenter) over real files from
installed packages (Google, NumPy, reST), then the docstrings written into them. Undoing the docstring
changes must give back the original file byte for byte; the markers follow the new source hashes."""

from __future__ import annotations

import ast
import importlib
import os
import textwrap
from pathlib import Path

import pytest

from docbot.run import pipeline as run_module
from docbot.check import check_docs
from docbot.docstrings.apply import apply_docstrings
from docbot.docstrings.existing import directives, existing_docstring
from docbot.docstrings.text import DocstringStyle, render_docstring
from docbot.facts.function import extract_facts
from docbot.fronts import hook
from docbot.scan.repo import DiffSpec
from docbot.results import RunReport
from docbot.run.pipeline import run_docs
from docbot.config.settings import Settings
from docbot.scan.targets import public_functions
from tests.support.events import CollectingSink
from tests.support.git_repo import GitRepo
from tests.support.samples import GEO
from tests.support.scripted import Scripted, model_for

REAL = [("langchain_core.output_parsers.list", DocstringStyle.GOOGLE),
        ("hypothesis.strategies._internal.utils", DocstringStyle.NUMPY),
        ("jinja2.utils", DocstringStyle.REST)]
PATH = "pkg/real.py"


def _real(module: str) -> bytes:
    return Path(importlib.import_module(module).__file__ or "").read_bytes()


def _chosen(source: str) -> list[str]:
    """Two functions with a docstring and two without (fewer if the file has fewer), in file order."""
    found = public_functions(source, "pkg.real", PATH)
    names = [t.qualname for t in found]
    unique = [t for t in found if names.count(t.qualname) == 1]
    documented = [t for t in unique if ast.get_docstring(_node(t.source)) is not None][:2]
    bare = [t for t in unique if ast.get_docstring(_node(t.source)) is None][:2]
    assert documented and bare, "the file must show both a replaced and an inserted docstring"
    return [t.qualname for t in found if t in documented + bare]


def _node(source: str) -> ast.FunctionDef | ast.AsyncFunctionDef:
    node = ast.parse(textwrap.dedent(source)).body[0]
    assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    return node


def _docstring_spans(source: str) -> dict[str, tuple[int, int] | int]:
    """qualname -> (start, end) character offsets of its docstring, or the offset of its body's first line."""
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def at(line: int, col: int) -> int:
        return starts[line - 1] + len(lines[line - 1].encode()[:col].decode())

    spans: dict[str, tuple[int, int] | int] = {}

    def walk(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = node.body[0]
                if ast.get_docstring(node, clean=False) is not None:
                    assert first.end_lineno is not None and first.end_col_offset is not None
                    spans[prefix + node.name] = (at(first.lineno, first.col_offset),
                                                 at(first.end_lineno, first.end_col_offset))
                else:
                    spans[prefix + node.name] = starts[first.lineno - 1]
            elif isinstance(node, ast.ClassDef):
                walk(node.body, f"{prefix}{node.name}.")

    walk(ast.parse(source).body, "")
    return spans


def _undo(old: str, new: str, names: list[str]) -> str:
    """``new`` with each named function's docstring put back as it was in ``old`` (or taken out)."""
    old_spans, new_spans = _docstring_spans(old), _docstring_spans(new)
    for name in sorted(names, key=lambda n: _start(new_spans[n]), reverse=True):
        span = new_spans[name]
        assert isinstance(span, tuple), f"{name} has no docstring after the write"
        before = old_spans[name]
        if isinstance(before, tuple):
            new = new[:span[0]] + old[before[0]:before[1]] + new[span[1]:]
        else:  # inserted as a line of its own: take the whole line out
            line_start = new.rindex("\n", 0, span[0]) + 1
            line_end = new.index("\n", span[1]) + 1
            new = new[:line_start] + new[line_end:]
    return new


def _start(span: tuple[int, int] | int) -> int:
    return span[0] if isinstance(span, tuple) else span


def _documented(repo: GitRepo, scripted: Scripted) -> RunReport:
    return run_docs(Settings(), repo.root, DiffSpec(all=True), (), CollectingSink(),
                    documenter_factory=scripted.factory)


@pytest.mark.parametrize(("module", "style"), REAL)
def test_real_files_get_their_docstrings_and_nothing_else_changes(tmp_path: Path, module: str,
                                                                   style: DocstringStyle) -> None:
    original = _real(module)
    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write_bytes(PATH, original).commit("real")
    names = _chosen(original.decode())
    assert len(names) >= 3, names
    report = _documented(repo, Scripted(only=names))
    applied = apply_docstrings(repo.root, Settings(), report.results)
    assert applied.written == [PATH] and applied.kept == []
    assert applied.docs == ["docs/api/pkg.real.md", "docs/api/.docstrings.json"]
    new = (repo.root / PATH).read_bytes().decode()
    assert _undo(original.decode(), new, names).encode() == original  # every other byte as it was
    found = {t.qualname: t for t in public_functions(new, "pkg.real", PATH)}
    before = {t.qualname: t for t in public_functions(original.decode(), "pkg.real", PATH)}
    for name in names:
        model, facts = model_for(found[name]), extract_facts(found[name].source, name)
        kept = directives(existing_docstring(before[name].source))  # jinja2's ``.. versionadded::`` stays
        assert ast.get_docstring(_node(found[name].source)) == render_docstring(model, facts, style, kept)
    # The docstrings are part of the sources now, and the markers say so: the docs are still current.
    stale = [e.qualname for e in check_docs(Settings(), repo.root, DiffSpec(all=True)) if e.qualname in names]
    assert stale == []
    assert {r.qualname: r.status for r in _documented(repo, Scripted(only=names)).results
            if r.qualname in names} == dict.fromkeys(names, "unchanged")


def test_a_function_changed_meanwhile_is_not_written_and_the_others_are(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/geo.py", GEO).commit("geo")
    report = _documented(repo, Scripted())
    edited = GEO.replace("6 * r", "6.28 * r")
    repo.write("pkg/geo.py", edited)  # a person changes perimeter after docbot documented it
    applied = apply_docstrings(repo.root, Settings(), report.results)
    assert applied.kept == ["pkg/geo.py: perimeter: the function changed since docbot documented it; "
                            "run docbot again"]
    new = repo.read("pkg/geo.py")
    assert "return 6.28 * r" in new and '"""Compute perimeter' not in new and '"""Compute area' in new
    assert _undo(edited, new, ["area", "Shape.scale"]) == edited


def test_an_unreadable_or_vanished_source_is_left_alone(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/geo.py", GEO).commit("geo")
    report = _documented(repo, Scripted())
    (repo.root / "pkg/geo.py").write_bytes(GEO.encode("utf-16"))
    assert apply_docstrings(repo.root, Settings(), report.results).written == []
    os.remove(repo.root / "pkg/geo.py")
    applied = apply_docstrings(repo.root, Settings(), report.results)
    assert applied.written == [] and all("the file is gone" in line for line in applied.kept)


def test_a_source_edited_during_the_write_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/geo.py", GEO).commit("geo")
    report = _documented(repo, Scripted())
    from docbot.docstrings import apply as docstring_apply

    real = docstring_apply.set_docstring

    def and_a_person_saves(*args: object, **kwargs: object) -> str:
        (repo.root / "pkg/geo.py").write_text(GEO + "\n# saved meanwhile\n")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(docstring_apply, "set_docstring", and_a_person_saves)
    applied = apply_docstrings(repo.root, Settings(), report.results)
    assert applied.written == [] and repo.read("pkg/geo.py") == GEO + "\n# saved meanwhile\n"
    assert applied.kept and all("edited while docbot ran" in line for line in applied.kept)


def test_the_hook_fails_and_lists_the_sources_it_wrote_docstrings_into(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/geo.py", GEO).commit("geo")
    repo.write("config.json", '{"write_docstrings": true}').write("pkg/tool.py", "def run(x):\n    return x\n")
    repo.stage("pkg/tool.py")
    monkeypatch.chdir(repo.root)
    monkeypatch.setattr(run_module, "_default_factory", lambda *args: Scripted().factory)
    assert hook.main([]) == 1
    out = capsys.readouterr().out
    assert "docbot wrote docstrings into these sources" in out and "  pkg/tool.py" in out
    assert repo.read("pkg/tool.py").startswith('def run(x):\n    """Compute run for the caller.')
    assert repo.read("pkg/geo.py") == GEO  # not in the commit: untouched
    repo.stage("pkg/tool.py", "docs/api")
    assert hook.main([]) == 0  # the second attempt: everything current, nothing written


def test_run_write_docstrings_flag_through_the_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from docbot.fronts.cli import main

    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/geo.py", GEO).commit("geo")
    monkeypatch.chdir(repo.root)
    monkeypatch.setattr(run_module, "_default_factory", lambda *args: Scripted().factory)
    assert main(["run", "--all", "--json"]) == 0
    assert "docstrings" not in json.loads(capsys.readouterr().out) and repo.read("pkg/geo.py") == GEO  # off
    repo.write("pkg/geo.py", GEO.replace("6 * r", "6.28 * r"))
    assert main(["run", "--all", "--json", "--write-docstrings"]) == 0
    written = json.loads(capsys.readouterr().out)["docstrings"]
    assert written == {"written": ["pkg/geo.py"], "kept": [], "suggested": [], "facts": [],
                       "docs": ["docs/api/pkg.geo.md", "docs/api/.docstrings.json"]}
    assert '    """Compute perimeter for the caller.' in repo.read("pkg/geo.py")
    # unchanged by this run, but documented before write_docstrings was on: owed its docstring, which the
    # result cache's doc model gives with no model call (issue 30)
    assert '"""Compute area' in repo.read("pkg/geo.py")
    assert main(["check"]) == 0
