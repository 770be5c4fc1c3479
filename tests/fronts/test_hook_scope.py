"""The hooks look at what pre-commit names: refs, filenames, --all-files (docs/design.md#hook-scope).

The table drives ``hook_scope`` with a fake "what changed"; the last test runs the real ``pre-commit``
in its three invocations against a temporary repository.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from docbot.fronts.hook import hook_scope
from docbot.scan.repo import DiffSpec, read_diff
from tests.support.git_repo import GitRepo
from tests.fronts.test_hook_precommit import PRE_COMMIT, hook_repository

RANGE_ENV = {"PRE_COMMIT_FROM_REF": "base", "PRE_COMMIT_TO_REF": "head"}
STAGED = DiffSpec(staged=True)
RANGE = DiffSpec(base="base", head="head")


def fake_changed(spec: DiffSpec) -> tuple[set[str], set[str]]:
    return ({"a.py", "b.py"}, {"gone.py"}) if spec.staged else ({"r.py"}, {"r_gone.py"})


@pytest.mark.parametrize(("env", "filenames", "expected"), [
    ({}, [], (STAGED, ())),                                         # run by hand: the staged diff
    ({}, ["a.py"], (STAGED, ("a.py", "gone.py"))),                  # a commit: its files, deletions kept
    ({}, ["a.py", "b.py"], (STAGED, ("a.py", "b.py", "gone.py"))),
    ({}, ["a.py", "c.py"], (DiffSpec(all=True), ("a.py", "c.py"))),  # --all-files: not all staged
    (RANGE_ENV, [], (RANGE, ())),
    (RANGE_ENV, ["r.py"], (RANGE, ("r.py", "r_gone.py"))),
    (RANGE_ENV, ["other.py"], (RANGE, ("other.py", "r_gone.py"))),  # a range never turns into --all
    ({"PRE_COMMIT_FROM_REF": "base"}, ["a.py"], (STAGED, ("a.py", "gone.py"))),  # both refs or none
    ({}, ["a.py", "a.pyi", "tool"], (STAGED, ("a.py", "gone.py"))),  # types: [python] passes these too
    ({}, ["a.pyi"], (STAGED, ("gone.py",))),                        # a deletion is still followed
    (RANGE_ENV, ["x.pyi"], (RANGE, ("r_gone.py",))),
])
def test_hook_scope(env: dict[str, str], filenames: list[str],
                    expected: tuple[DiffSpec, tuple[str, ...]] | None) -> None:
    assert hook_scope(env, filenames, fake_changed) == expected


def test_no_python_source_named_and_nothing_gone_means_nothing_to_do() -> None:
    assert hook_scope({}, ["a.pyi"], lambda spec: ({"a.py"}, set())) is None
    assert hook_scope({}, ["a.pyi"], lambda spec: ({"a.py"}, {"b.py"})) == (STAGED, ("b.py",))


def test_the_diffs_paths_split_kept_from_gone(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path).write("a.py", "x = 1\n").write("b.py", "y = 1\n").write("c.py", "z = 1\n")
    base = repo.commit("start").sha()
    repo.write("a.py", "x = 2\n").write("notes.txt", "n\n").stage("a.py", "notes.txt")
    repo.git("mv", "b.py", "moved.py")
    repo.git("rm", "-q", "c.py")
    assert read_diff(tmp_path, STAGED).paths() == ({"a.py", "moved.py"}, {"b.py", "c.py"})
    head = repo.commit("change").sha()
    assert read_diff(tmp_path, DiffSpec(base=base, head=head)).paths() == ({"a.py", "moved.py"}, {"b.py", "c.py"})


def _config(hook_repo: Path, rev: str) -> str:
    return (f"repos:\n- repo: {hook_repo}\n  rev: {rev}\n  hooks:\n  - id: docbot-check\n"
            "    exclude: ^skip/\n")


def _run(repo: GitRepo, env: dict[str, str], *args: str) -> tuple[int, str]:
    done = subprocess.run([*PRE_COMMIT, "run", *args], cwd=repo.root, env=env, capture_output=True, text=True,
                          timeout=900)
    return done.returncode, done.stdout + done.stderr


@pytest.mark.slow
def test_real_precommit_checks_what_it_names(tmp_path: Path) -> None:
    hook_repo, rev = hook_repository(tmp_path)
    user = GitRepo(tmp_path / "user")
    user.write("config.json", '{"run_examples": false}\n').write(".pre-commit-config.yaml", _config(hook_repo, rev))
    base = user.write("keep.py", "def old():\n    return 1\n").commit("start").sha()
    user.write("new.py", "def fresh():\n    return 2\n").write("skip/x.py", "def ignored():\n    return 3\n")
    head = user.commit("more").sha()
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "GIT_CONFIG_GLOBAL": os.devnull,
           "GIT_CONFIG_NOSYSTEM": "1"}

    code, output = _run(user, env, "--all-files", "docbot-check")
    assert code == 1, output
    assert "keep.old" in output and "new.fresh" in output and "ignored" not in output

    code, output = _run(user, env, "--from-ref", base, "--to-ref", head, "docbot-check")
    assert code == 1, output
    assert "new.fresh" in output and "keep.old" not in output and "ignored" not in output
    assert f"docbot run --base {base} --head {head}" in output

    user.write("staged.py", "def pending():\n    return 4\n").stage("staged.py")
    code, output = _run(user, env, "docbot-check")
    assert code == 1, output
    assert "staged.pending" in output and "new.fresh" not in output and "keep.old" not in output
