"""``open_git`` asks git for a checkout's top once per folder and process (docs/design.md#speed), and
never answers from memory what git would now answer otherwise."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from docbot.errors import RepoError
from docbot.git.runner import open_git
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
