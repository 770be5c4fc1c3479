"""End to end on a real reST-docstring project: sortedcontainers 2.4.0 (Apache-2.0; its 30 kB sdist is
committed in ``data/``, as ``pip download --no-deps --no-binary :all: sortedcontainers==2.4.0`` gives it),
made into a git repo, documented by ``docbot run --all --write-docstrings`` with a scripted loop whose
drafts never pass. Every hand-written docstring is byte-identical afterwards and only suggested; the
functions that had none get one, in the project's reST style; no other byte changes."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

import pytest

from docbot.docstrings.existing import existing_docstring
from docbot.fronts.cli import main
from docbot.run import pipeline as run_module
from docbot.scan.targets import public_functions
from tests.docstrings.test_docstring_apply import _undo
from tests.support.git_repo import GitRepo
from tests.support.scripted import Scripted

SDIST = Path(__file__).parent / "data" / "sortedcontainers-2.4.0.tar.gz"
MODULES = ("sortedcontainers/sortedlist.py", "sortedcontainers/sortedset.py", "sortedcontainers/sorteddict.py")


def _project(tmp_path: Path) -> GitRepo:
    with tarfile.open(SDIST) as archive:
        archive.extractall(tmp_path / "sdist", filter="data")
    top = tmp_path / "sdist" / "sortedcontainers-2.4.0"
    repo = GitRepo(tmp_path / "repo")
    for rel in ("sortedcontainers/__init__.py", *MODULES, "setup.py", "LICENSE"):
        repo.write_bytes(rel, (top / rel).read_bytes())
    repo.commit("sortedcontainers 2.4.0 as released")
    # A contributor adds a function without a docstring: the one kind the release itself lacks.
    added = "\n\ndef first_of(iterable, key=None):\n    return min(iterable, key=key)\n"
    return repo.write("sortedcontainers/sortedset.py", repo.read("sortedcontainers/sortedset.py") + added)


def _functions(text: str, path: str) -> dict[str, str]:
    module = path[:-3].replace("/", ".")
    return {t.qualname: t.source for t in public_functions(text, module, path)}


def test_nothing_approved_leaves_every_human_docstring_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    repo = _project(tmp_path)
    before = {path: repo.read(path) for path in MODULES}
    functions = {path: _functions(text, path) for path, text in before.items()}
    never_passes = {q: 40 for names in functions.values() for q in names}
    monkeypatch.chdir(repo.root)
    monkeypatch.setattr(run_module, "_default_factory", lambda *args: Scripted(unapproved=never_passes).factory)
    assert main(["run", "--all", "--json", "--write-docstrings"]) == 6  # written, unapproved
    report = json.loads(capsys.readouterr().out)["docstrings"]
    suggested = {(s["path"], s["qualname"]) for s in report["suggested"]}
    hand = {(path, q) for path, names in functions.items() for q, src in names.items() if existing_docstring(src)}
    bare = {(path, q) for path, names in functions.items() for q, src in names.items() if not existing_docstring(src)}
    assert len(hand) > 50 and bare  # a real project: most of its API documented by hand
    assert suggested == hand  # each only suggested
    for path in MODULES:
        after_text = repo.read(path)
        after = _functions(after_text, path)
        assert all(after[q] == functions[path][q] for p, q in hand if p == path)  # byte-identical
        inserted = [q for p, q in bare if p == path]
        assert _undo(before[path], after_text, inserted) == before[path]  # nothing else changed
        for q in inserted:
            doc = existing_docstring(after[q]) or ""
            assert "Args:" not in doc and "----------" not in doc  # reST, as the project writes them
            params = [p for p in after[q].split("(", 1)[1].split(")")[0].split(",") if p.strip() not in ("self", "")]
            assert not params or ":param " in doc, (q, doc)
    assert repo.git("status", "--porcelain", "--untracked-files=all").count(".tmp") == 0
