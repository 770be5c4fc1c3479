"""pre-commit's batches (docs/design.md#hook-batches): the writing hook stays ``require_serial``, the
read-only check hook runs as several processes over slices of the files, and their verdicts add up to
the one-process verdict.

pre-commit runs a hook that is not ``require_serial`` as several processes in parallel, each over a
slice of the file names (``xargs`` with one partition per CPU, at least 4 files each).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from docbot.events import discard
from docbot.scan.repo import DiffSpec
from docbot.results import FunctionResult, Target
from docbot.run.pipeline import run_docs
from docbot.config.settings import Settings
from tests.support.git_repo import GitRepo
from tests.support.manifests import ROOT, load_yaml
from tests.fronts.test_hook_precommit import PRE_COMMIT, hook_repository

MODULES = 12  # with 2 or more CPUs, pre-commit splits the 13 files into at least 2 batches
HINT = "docbot: run the `docbot` hook"


def test_the_writing_hook_is_serial_and_the_check_is_not() -> None:
    hooks = {hook["id"]: hook for hook in load_yaml(ROOT / ".pre-commit-hooks.yaml")}
    # Two batches would both remove a deleted file's sections from one doc file, both rewrite
    # docs/api/index.md, and each keep jobs_per_server on its own (docs/design.md#hook-batches).
    assert hooks["docbot"]["require_serial"] is True
    assert hooks["docbot-check"].get("require_serial", False) is False
    assert hooks["docbot"]["pass_filenames"] is True and hooks["docbot-check"]["pass_filenames"] is True


def _documented(target: Target, current: str = "") -> FunctionResult:
    return FunctionResult(target.module, target.qualname, "updated", scores=[96], rounds=1, exit_reason="approved",
                          markdown=f"## `{target.qualname}`\n\nAdds a constant to `x`.")


def _source(i: int, constant: int) -> str:
    return f"def f{i}(x):\n    return x + {constant}\n"


def _docs(repo: GitRepo) -> dict[str, bytes]:
    return {str(p.relative_to(repo.root)): p.read_bytes() for p in sorted((repo.root / "docs").rglob("*"))
            if p.is_file()}


@pytest.mark.slow
def test_the_check_hook_in_batches_gives_the_serial_verdict(tmp_path: Path) -> None:
    hook_repo, rev = hook_repository(tmp_path)
    user = GitRepo(tmp_path / "user").write("pkg/__init__.py", "")
    for i in range(MODULES):
        user.write(f"pkg/m{i}.py", _source(i, i))
    user.commit("code")
    run_docs(Settings(), user.root, DiffSpec(all=True), (), discard, documenter_factory=lambda: _documented)
    user.write(".pre-commit-config.yaml",
               f"repos:\n- repo: {hook_repo}\n  rev: {rev}\n  hooks:\n  - id: docbot-check\n").commit("documented")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "GIT_CONFIG_GLOBAL": os.devnull,
           "GIT_CONFIG_NOSYSTEM": "1", "OLLAMA_HOST": "127.0.0.1:9"}  # port 9: any model call would fail
    env.pop("PRE_COMMIT_NO_CONCURRENCY", None)

    def check() -> subprocess.CompletedProcess[str]:
        return subprocess.run([*PRE_COMMIT, "run", "docbot-check", "--all-files", "--verbose"], cwd=user.root,
                              env=env, capture_output=True, text=True, timeout=900)

    current = check()
    assert current.returncode == 0, current.stdout + current.stderr  # every batch passes its slice
    docs = _docs(user)
    for i in range(MODULES):  # every function changes: every batch has stale ones to report
        user.write(f"pkg/m{i}.py", _source(i, i + 100))
    stale = check()
    output = stale.stdout + stale.stderr
    assert stale.returncode != 0, output
    assert output.count(HINT) >= 2, output  # one hint per process: pre-commit did split the files
    assert all(f"pkg.m{i}.f{i}: " in output for i in range(MODULES)), output
    assert _docs(user) == docs  # read-only: no batch wrote a doc
