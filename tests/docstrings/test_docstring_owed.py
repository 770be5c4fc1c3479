"""Issue 30 item 7 and 8 on the docstring path, run for real (git repositories, the scripted documenter, the real
docstring phase): a run killed in its docstring phase is finished by the next one with no model call; a
documented repository that turns write_docstrings on gets its docstrings from the result cache; a read-only
source is a clean refusal, never a traceback."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from docbot.check import check_report
from docbot.config.settings import Settings
from docbot.docstrings import apply as apply_module
from docbot.run import with_docstrings as step
from docbot.run.pipeline import run_docs
from docbot.scan.repo import DiffSpec
from tests.support.events import CollectingSink
from tests.support.git_repo import GitRepo
from tests.support.scripted import Scripted

MODULES = {f"pkg/m{i}.py": f"def f{i}(x):\n    return x + {i}\n\n\ndef g{i}(x):\n    return x * {i}\n"
           for i in range(6)}
ALL = DiffSpec(all=True)


def _repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "")
    for path, text in MODULES.items():
        repo.write(path, text)
    return repo.commit("code")


def _docstrings(repo: GitRepo) -> dict[str, int]:
    """How many functions of each module have a docstring."""
    return {path: sum(ast.get_docstring(n) is not None for n in ast.parse(repo.read(path)).body
                      if isinstance(n, ast.FunctionDef)) for path in MODULES}


def _run(repo: GitRepo, scripted: Scripted, settings: Settings) -> step.Documented:
    original = step.run_docs

    def scripted_run(*args: object, **kwargs: object) -> object:
        return original(*args, documenter_factory=scripted.factory, **kwargs)  # type: ignore[arg-type]

    step.run_docs = scripted_run  # type: ignore[assignment]
    try:
        return step.run_with_docstrings(settings, repo.root, ALL, (), CollectingSink())
    finally:
        step.run_docs = original


def test_a_run_killed_in_its_docstring_phase_is_finished_by_the_next(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    repo, settings = _repo(tmp_path), Settings(write_docstrings=True, cache=False)
    real, files = apply_module._apply_file, []

    def killed_after_two(*args: object, **kwargs: object) -> None:
        if len(files) == 2:
            raise KeyboardInterrupt  # the signal lands between two files
        files.append(args[1])
        real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(apply_module, "_apply_file", killed_after_two)
    with pytest.raises(KeyboardInterrupt):
        _run(repo, Scripted(), settings)
    assert sorted(_docstrings(repo).values()) == [0, 0, 0, 0, 2, 2]  # the old bug's state: 4 modules without
    assert check_report(settings, repo.root, ALL).stale == []  # and check calls every doc current
    monkeypatch.setattr(apply_module, "_apply_file", real)
    again = Scripted()
    done = _run(repo, again, settings)
    assert again.calls == [] and done.docstrings is not None  # no model call: the journal holds the doc models
    assert set(_docstrings(repo).values()) == {2}, done.docstrings.lines()
    assert check_report(settings, repo.root, ALL).stale == []  # the markers follow the new sources
    assert _run(repo, Scripted(), settings).docstrings.written == []  # type: ignore[union-attr]  # nothing owed


def test_turning_write_docstrings_on_in_a_documented_repository_writes_them(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    first = Scripted()
    run_docs(Settings(), repo.root, ALL, (), CollectingSink(), documenter_factory=first.factory, use_cache=True)
    repo.commit("docs, written before docstrings were on")
    assert len(first.calls) == 12 and set(_docstrings(repo).values()) == {0}
    done = _run(repo, Scripted(), Settings(write_docstrings=True))
    assert done.docstrings is not None and len(done.docstrings.written) == 6, done.docstrings.lines()
    assert set(_docstrings(repo).values()) == {2}


def test_without_a_cached_doc_model_the_owed_docstrings_are_named(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    run_docs(Settings(), repo.root, ALL, (), CollectingSink(), documenter_factory=Scripted().factory)
    events = CollectingSink()
    original = step.run_docs
    step.run_docs = lambda *a, **k: original(*a, documenter_factory=Scripted().factory, **k)  # type: ignore
    try:
        step.run_with_docstrings(Settings(write_docstrings=True), repo.root, ALL, (), events)
    finally:
        step.run_docs = original
    said = [e.message for e in events.events if "owed a docstring" in getattr(e, "message", "")]
    assert len(said) == 1 and "12 function(s)" in said[0]


def test_a_read_only_source_is_left_alone(tmp_path: Path) -> None:
    """Its mode says so (docbot's rename would replace it, as root too): refused for that file, by name."""
    repo = _repo(tmp_path)
    before = repo.read("pkg/m0.py")
    (repo.root / "pkg/m0.py").chmod(0o444)
    done = _run(repo, Scripted(), Settings(write_docstrings=True, cache=False))
    assert done.docstrings is not None and len(done.docstrings.written) == 5
    assert "pkg/m0.py: f0: the file cannot be written (the file is read-only); docbot leaves it alone: make it " \
        "writable and run docbot again" in done.docstrings.kept
    assert repo.read("pkg/m0.py") == before and (repo.root / "pkg/m0.py").stat().st_mode & 0o777 == 0o444


def test_a_source_docbot_may_not_write_is_a_clean_refusal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The write as the OS refuses it for a read-only file (this suite may run as root, which modes do not
    stop): the PermissionError the rename raises is a refusal for that file, the others are written."""
    repo = _repo(tmp_path)
    real = apply_module.paths.write_atomic

    def refused(path: Path, data: object, **kwargs: object) -> bool:
        if Path(path).name == "m0.py":
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, data, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(apply_module.paths, "write_atomic", refused)
    done = _run(repo, Scripted(), Settings(write_docstrings=True, cache=False))
    assert done.docstrings is not None and len(done.docstrings.written) == 5
    assert [why for why in done.docstrings.kept if "m0.py" in why] == [
        "pkg/m0.py: f0: the file cannot be written (Permission denied); docbot leaves it alone: make it writable "
        "and run docbot again",
        "pkg/m0.py: g0: the file cannot be written (Permission denied); docbot leaves it alone: make it writable "
        "and run docbot again"]
