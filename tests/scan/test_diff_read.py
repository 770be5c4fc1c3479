"""One reading of a diff serves the hook's three questions (docs/design.md#speed): the paths it names,
the screen and the check. The reading must answer each as asking git again would, and be used only for
the spec it was read for. The processes it saves: tests/test_lazy_imports.py (PUBLIC_EDIT_GIT)."""

from __future__ import annotations

from pathlib import Path


from docbot.scan.repo import DiffSpec, read_diff, scan
from tests.support.git_repo import GitRepo

STAGED = DiffSpec(staged=True)
CODE = "def f(x):\n    return x\n\n\ndef g(y):\n    return y\n"


def _changed_repo(root: Path) -> tuple[GitRepo, str]:
    """A staged change of every kind: a modified, an added, a renamed and a deleted module."""
    repo = GitRepo(root).write("a.py", CODE).write("b.py", CODE).write("c.py", CODE)
    base = repo.commit("start").sha()
    repo.write("a.py", CODE.replace("return x", "return x + 1")).write("new.py", CODE).write("notes.txt", "n\n")
    repo.stage("a.py", "new.py", "notes.txt")
    repo.git("mv", "b.py", "moved.py")
    repo.git("rm", "-q", "c.py")
    return repo, base


def test_the_read_paths_are_what_git_names(tmp_path: Path) -> None:
    # a modification, an addition and a rename's new side are kept; a deletion and a rename's old side are gone
    kept_and_gone = ({"a.py", "new.py", "moved.py"}, {"b.py", "c.py"})
    repo, base = _changed_repo(tmp_path)
    assert read_diff(tmp_path, STAGED).paths() == kept_and_gone
    head = repo.commit("change").sha()
    assert read_diff(tmp_path, DiffSpec(base=base, head=head)).paths() == kept_and_gone

def _keys(found: object) -> list[tuple[str, str, str]]:
    return [(t.path, t.qualname, t.kind) for t in found.targets]


def test_a_scan_given_the_reading_finds_what_a_scan_of_its_own_does(tmp_path: Path) -> None:
    _changed_repo(tmp_path)
    alone = scan(tmp_path, STAGED)
    shared = read_diff(tmp_path, STAGED)
    assert _keys(scan(tmp_path, STAGED, diff=shared)) == _keys(alone) and _keys(alone)
    assert _keys(scan(tmp_path, STAGED, diff=shared)) == _keys(alone)  # the blobs it kept read the same twice


def test_a_reading_of_another_spec_is_not_used(tmp_path: Path) -> None:
    repo, _ = _changed_repo(tmp_path)
    (tmp_path / "a.py").write_text(CODE.replace("def g", "def h"))  # the working tree differs from the index
    staged = read_diff(tmp_path, STAGED)
    worktree = DiffSpec()
    assert _keys(scan(tmp_path, worktree, diff=staged)) == _keys(scan(tmp_path, worktree))
    assert ("a.py", "h", "added") in _keys(scan(tmp_path, worktree, diff=staged))

