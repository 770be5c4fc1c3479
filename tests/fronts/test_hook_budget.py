"""The real `pre-commit` running the `docbot` hook with no model server: it fails the commit by
default, passes it with `when_no_server: skip`, and passes when the time budget left everything to CI."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.support.git_repo import GitRepo
from tests.fronts.test_hook_precommit import CALC_V1, CALC_V2, PRE_COMMIT, commit, hook_repository


def _config(hook_repo: Path, rev: str) -> str:
    return f"repos:\n- repo: {hook_repo}\n  rev: {rev}\n  hooks:\n  - id: docbot\n"


def _attempt(user: GitRepo, env: dict[str, str], config: str) -> tuple[int, str, int]:
    """Stage ``config`` with the change; the hook's verbose output (pre-commit hides a passing hook's
    output otherwise), then a real `git commit`'s exit code."""
    user.write("config.json", config).stage("config.json", "calc.py")
    shown = subprocess.run([*PRE_COMMIT, "run", "--verbose", "docbot"], cwd=user.root, env=env,
                           capture_output=True, text=True, timeout=900)
    return shown.returncode, shown.stdout + shown.stderr, commit(user, env).returncode


@pytest.mark.slow
def test_without_a_server_the_hook_fails_or_leaves_the_docs_to_ci(tmp_path: Path) -> None:
    hook_repo, rev = hook_repository(tmp_path)
    user = GitRepo(tmp_path / "user")
    user.write("calc.py", CALC_V1).write("config.json", '{"run_examples": false}\n')
    user.write(".pre-commit-config.yaml", _config(hook_repo, rev)).commit("start")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "GIT_CONFIG_GLOBAL": os.devnull,
           "GIT_CONFIG_NOSYSTEM": "1", "OLLAMA_HOST": "127.0.0.1:9", "CI": "true"}  # port 9: no server there
    installed = subprocess.run([*PRE_COMMIT, "install"], cwd=user.root, env=env, capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    user.write("calc.py", CALC_V2)

    code, output, committed = _attempt(user, env, '{"run_examples": false}\n')
    assert (code, committed) == (1, 1) and "exit code: 3" in output, output  # the default: the commit fails

    code, output, committed = _attempt(user, env, '{"run_examples": false, "when_no_server": "skip"}\n')
    assert (code, committed) == (0, 0), output
    assert "docbot: no model server answered; the docs are left to CI (when_no_server: skip)." in output

    user.write("calc.py", CALC_V1)  # the public function changes back: again a doc to write
    code, output, committed = _attempt(user, env, '{"run_examples": false, "time_budget_s": 1e-9}\n')
    assert (code, committed) == (0, 0), output  # nothing started in time, no server contacted
    assert "docbot: 1 function left to CI (time budget): calc.add" in output
