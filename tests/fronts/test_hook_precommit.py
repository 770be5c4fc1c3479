"""The real `pre-commit` running this repository's hooks against a temporary repo, as a new user would.

The hook repository is a committed copy of this checkout, so the test works whatever state the
working tree is in. pre-commit builds the hook's virtualenv with `pip install .` once per test session.
"""

from __future__ import annotations

import json

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from docbot.scan.repo import DiffSpec
from tests.support.fakes import critique
from tests.support.git_repo import GitRepo
from tests.support.recording import record_answers

REPO = Path(__file__).parents[2]
PRE_COMMIT = [sys.executable, "-m", "pre_commit"]

CALC_V1 = '''def add(a, b):
    """Add two numbers."""
    return a + b


def _helper(x):
    return x
'''
CALC_PRIVATE_CHANGE = CALC_V1.replace("return x", "return x * 2")
CALC_V2 = CALC_PRIVATE_CHANGE.replace("return a + b", "return b + a")
DOC = json.dumps({"summary": "Add two numbers.",
                  "parameters": [{"name": "a", "description": "first number"},
                                 {"name": "b", "description": "second number"}],
                  "returns": "the sum `b + a`."})  # a writer's doc model


def hook_repository(tmp_path: Path) -> tuple[Path, str]:
    """A committed copy of this checkout's hook-relevant files."""
    hooks = GitRepo(tmp_path / "docbot-hooks")
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml"):
        shutil.copy(REPO / name, hooks.root / name)
    shutil.copytree(REPO / "docbot", hooks.root / "docbot", ignore=shutil.ignore_patterns("__pycache__"))
    hooks.commit("hooks")
    return hooks.root, hooks.sha()


def precommit_config(hook_repo: Path, rev: str, replay: Path | None) -> str:
    args = f"args: [--replay, '{replay}']" if replay else "args: []"
    return (f"repos:\n- repo: {hook_repo}\n  rev: {rev}\n  hooks:\n  - id: docbot\n    {args}\n"
            "  - id: docbot-check\n")


def commit(repo: GitRepo, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "commit", "-q", "-m", "change"], cwd=repo.root, env=env, capture_output=True,
                          text=True, timeout=900)


@pytest.mark.slow
def test_precommit_hooks_document_then_pass(tmp_path: Path) -> None:
    hook_repo, rev = hook_repository(tmp_path)
    user = GitRepo(tmp_path / "user")
    user.write("calc.py", CALC_V1).write("config.json", '{"run_examples": false}\n')
    user.write(".pre-commit-config.yaml", precommit_config(hook_repo, rev, None)).commit("start")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "GIT_CONFIG_GLOBAL": os.devnull,
           "GIT_CONFIG_NOSYSTEM": "1", "OLLAMA_HOST": "127.0.0.1:9"}  # port 9: any model call would fail
    installed = subprocess.run([*PRE_COMMIT, "install"], cwd=user.root, env=env, capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr

    # A commit touching no public function passes, with no model server anywhere.
    user.write("calc.py", CALC_PRIVATE_CHANGE).stage("calc.py")
    done = commit(user, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not (user.root / "docs").exists()

    # Changing a public function writes its doc and fails the commit, naming the file to stage.
    recording = tmp_path / "answers.jsonl"
    user.write("calc.py", CALC_V2).stage("calc.py")
    results = record_answers(user.root, DiffSpec(staged=True), recording, [DOC], [critique(97, 96)], [DOC])
    assert [r.status for r in results] == ["updated"]
    user.write(".pre-commit-config.yaml", precommit_config(hook_repo, rev, recording)).stage(".pre-commit-config.yaml")
    done = commit(user, env)
    output = done.stdout + done.stderr  # git shows the hook's output on stderr
    assert done.returncode != 0, output
    assert "docs/api/calc.md" in output and "git add" in output and "1 updated" in output
    written = user.read("docs/api/calc.md")
    assert "<!-- docbot:section add hash=" in written and "Add two numbers." in written

    # Re-staged with the docs, the same commit passes both hooks.
    user.stage("docs/api/calc.md")
    done = commit(user, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert user.read("docs/api/calc.md") == written
    assert "docs/api/calc.md" in user.git("show", "--name-only", "HEAD")
