"""``open_git`` asks git for a checkout's top once per folder and process (docs/design.md#speed), and
never answers from memory what git would now answer otherwise."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from docbot.errors import RepoError
from docbot.git.runner import open_git, open_git_at_head
from tests.support.git_repo import GitRepo


def test_a_removed_checkout_is_not_remembered(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r").write("m.py", "").commit("first")
    assert open_git(repo.root).top == repo.root.resolve()
    shutil.rmtree(repo.root / ".git")
    with pytest.raises(RepoError, match="not inside a git repository"):
        open_git(repo.root)


def test_a_subfolder_is_asked_each_time(tmp_path: Path) -> None:
    # A subfolder's answer is not kept: it changes when the subfolder becomes a checkout of its own.
    repo = GitRepo(tmp_path / "r").write("sub/m.py", "").commit("first")
    assert open_git(repo.root / "sub").top == repo.root.resolve()
    GitRepo(repo.root / "sub")
    assert open_git(repo.root / "sub").top == (repo.root / "sub").resolve()


def test_the_git_location_variables_are_part_of_the_question(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # GIT_DIR names another checkout's git folder: git's answer (the current folder as the top) is not the cached one.
    one, two = GitRepo(tmp_path / "one").commit("first"), GitRepo(tmp_path / "two").commit("first")
    assert open_git(one.root).top == one.root.resolve()
    monkeypatch.setenv("GIT_DIR", str(two.root / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(two.root))
    assert open_git(one.root).top == two.root.resolve()


@pytest.mark.parametrize("commits, folder", [(True, ""), (False, ""), (True, "sub"), (False, "sub")])
def test_the_top_and_head_come_together_and_as_each_alone(tmp_path: Path, commits: bool, folder: str) -> None:
    """One process for both (the hook's screen); asked again once the top is known (only HEAD is asked then),
    the answer is the same, and it is what open_git and rev-parse give alone."""
    repo = GitRepo(tmp_path / "r").write("sub/m.py", "")
    if commits:
        repo.commit("first")
    expected = (repo.root.resolve(), repo.sha() if commits else None)
    for _ in range(2):  # unknown top, then the remembered one (for the top folder)
        found, head = open_git_at_head(repo.root / folder)
        assert (found.top, head) == expected
        assert found.top == open_git(repo.root / folder).top


def test_the_pair_outside_a_checkout_is_open_gits_complaint(tmp_path: Path) -> None:
    with pytest.raises(RepoError, match="not inside a git repository"):
        open_git_at_head(tmp_path)
    GitRepo(tmp_path / "bare").git("init", "-q", "--bare", str(tmp_path / "b.git"))
    with pytest.raises(RepoError, match="bare git repository"):
        open_git_at_head(tmp_path / "b.git")
    with pytest.raises(RepoError, match="no such folder"):
        open_git_at_head(tmp_path / "gone")
