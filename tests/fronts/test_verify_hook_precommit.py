"""The ``docbot-verify`` hook under the real ``pre-commit``, in a temporary git repository.

The hook is this repository's manifest entry (.pre-commit-hooks.yaml) as a ``repo: local`` hook: the same id,
file types and filename passing, with ``language: system`` and the entry point of this checkout's venv, so the
test needs no hook virtualenv built by pip (tests/fronts/test_hook_precommit.py does that, marked slow).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.support.git_repo import GitRepo

REPO = Path(__file__).parents[2]
PRE_COMMIT = [sys.executable, "-m", "pre_commit"]

PYPROJECT = '[project]\nname = "toy"\nversion = "1"\n'
CORE = ("STEP = 0\n\n\ndef add(a, b=2):\n    return _plus(a, b)\n\n\ndef _plus(a, b):\n    return a + b + STEP\n\n\n"
        "def shout(s):\n    return s.upper()\n")
README = "# toy\n\n```pycon\n>>> from toy import add\n>>> add(1)\n3\n```\n"


def _manifest_hook() -> dict[str, object]:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    return next(h for h in hooks if h["id"] == "docbot-verify")


def _local_config() -> str:
    hook = _manifest_hook()
    entry = Path(sys.executable).parent / str(hook["entry"])
    local = {k: v for k, v in hook.items() if k not in ("description", "minimum_pre_commit_version")}
    local |= {"entry": str(entry), "language": "system", "verbose": True}  # a passing hook's output shown too
    return yaml.safe_dump({"repos": [{"repo": "local", "hooks": [local]}]})


@pytest.fixture
def user(tmp_path: Path) -> tuple[GitRepo, dict[str, str]]:
    repo = GitRepo(tmp_path / "user")
    repo.write("pyproject.toml", PYPROJECT).write("toy/__init__.py", "from toy.core import add, shout\n")
    repo.write("toy/core.py", CORE).write("README.md", README)
    repo.write("config.json", json.dumps({"example_sandbox": "allow-guard"}))
    repo.write(".pre-commit-config.yaml", _local_config()).commit("start")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "GIT_CONFIG_GLOBAL": os.devnull,
           "GIT_CONFIG_NOSYSTEM": "1"}
    installed = subprocess.run([*PRE_COMMIT, "install"], cwd=repo.root, env=env, capture_output=True, text=True,
                               timeout=120)
    assert installed.returncode == 0, installed.stderr
    return repo, env


def _commit(repo: GitRepo, env: dict[str, str]) -> tuple[int, str]:
    done = subprocess.run(["git", "commit", "-q", "-m", "change"], cwd=repo.root, env=env, capture_output=True,
                          text=True, timeout=300)
    return done.returncode, done.stdout + done.stderr


def test_the_manifest_entry_is_valid_and_watches_docs_and_python() -> None:
    done = subprocess.run([*PRE_COMMIT, "validate-manifest", str(REPO / ".pre-commit-hooks.yaml")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    hook = _manifest_hook()
    assert (hook["entry"], sorted(hook["types_or"]), hook["pass_filenames"]) == (  # type: ignore[arg-type]
        "docbot-verify-hook", ["markdown", "python", "rst"], True)


@pytest.mark.parametrize("files, code, shown", [
    pytest.param({"toy/core.py": CORE.replace("a + b + STEP", "a + b + 1 + STEP")}, 1,
                 "README.md:6: CONTRADICTION [example_mismatch] example `add(1)` returns 4, the doc says 3",
                 id="add's private helper changed: the README example it makes false refuses the commit"),
    pytest.param({"toy/core.py": CORE.replace("STEP = 0", "STEP = 1")}, 1,
                 "README.md:6: CONTRADICTION [example_mismatch] example `add(1)` returns 4, the doc says 3",
                 id="a module constant add reaches changed: refused too"),
    pytest.param({"toy/core.py": CORE.replace("s.upper()", "s.lower()")}, 0, None,
                 id="shout changed: no doc mentions it"),
    pytest.param({"README.md": README + "\n```pycon\n>>> add(2)\n4\n```\n"}, 0, "README.md: no contradiction",
                 id="a correct doc passes"),
    pytest.param({"README.md": README + "\n```pycon\n>>> add(2)\n5\n```\n"}, 1,
                 "README.md:11: CONTRADICTION [example_mismatch] example `add(2)` returns 4, the doc says 5",
                 id="a wrong doc is refused"),
    pytest.param({"README.md": README + "\n```pycon\n>>> import datetime\n>>> datetime.date.today().year\n2020\n```\n"},
                 0, "README.md:12: time_dependent", id="a date-dependent output is printed and passes"),
])
def test_the_docbot_verify_hook_under_real_pre_commit(user: tuple[GitRepo, dict[str, str]], files: dict[str, str],
                                                     code: int, shown: str | None) -> None:
    repo, env = user
    for path, text in files.items():
        repo.write(path, text).stage(path)
    got, output = _commit(repo, env)
    assert got == code, output
    if shown is None:
        assert "Passed" in output, output
        assert "README.md" not in output, output  # nothing verified: the README does not mention shout
    else:
        assert shown in output, output
    assert (repo.git("log", "--format=%s").splitlines()[0] == "change") is (code == 0)
    if code:
        assert "SKIP=docbot-verify git commit" in output, output  # the one docbot hook this config has


FALSE_ON_HEAD = README + "\nShouting:\n\n```pycon\n>>> from toy import shout\n>>> shout('a')\n'B'\n```\n"


@pytest.mark.parametrize("change, code, shown", [
    pytest.param({"toy/core.py": CORE.replace("s.upper()", "s.upper().strip()")}, 0,
                 "README.md:14: pre-existing [example_mismatch]", id="shout changed; its example was false on HEAD"),
    pytest.param({"README.md": FALSE_ON_HEAD.replace("# toy", "# toy, the adder")}, 0,
                 "README.md:14: pre-existing [example_mismatch]", id="the doc edited elsewhere: HEAD's claim, listed"),
    pytest.param({"README.md": FALSE_ON_HEAD.replace(">>> add(1)\n3", ">>> add(1)\n5")}, 1,
                 "README.md:6: CONTRADICTION [example_mismatch] example `add(1)` returns 3, the doc says 5",
                 id="what the commit made false still fails beside it"),
])
def test_the_hook_judges_against_head_only_what_the_commit_made_false_fails(
        user: tuple[GitRepo, dict[str, str]], change: dict[str, str], code: int, shown: str) -> None:
    repo, env = user
    repo.write("README.md", FALSE_ON_HEAD)
    subprocess.run(["git", "commit", "-q", "--no-verify", "-am", "shout's example, false already"], cwd=repo.root,
                   env=env, check=True)
    for path, text in change.items():
        repo.write(path, text).stage(path)
    got, output = _commit(repo, env)
    assert (got, shown in output) == (code, True), output
    assert "pre-existing" in output, output  # HEAD's false claim is listed, never the reason for a refusal


@pytest.mark.slow
def test_the_published_hook_installs_and_refuses_a_stale_readme(tmp_path: Path) -> None:
    """The manifest entry as a user's config names it: pre-commit builds the hook's virtualenv (`pip install .`
    of a committed copy of this checkout) and runs `docbot-verify-hook` from it."""
    from tests.fronts.test_hook_precommit import hook_repository

    hook_repo, rev = hook_repository(tmp_path)
    repo = GitRepo(tmp_path / "user")
    repo.write("pyproject.toml", PYPROJECT).write("toy/__init__.py", "from toy.core import add, shout\n")
    repo.write("toy/core.py", CORE).write("README.md", README)
    repo.write("config.json", json.dumps({"example_sandbox": "allow-guard"}))
    repo.write(".pre-commit-config.yaml", f"repos:\n- repo: {hook_repo}\n  rev: {rev}\n  hooks:\n"
               "  - id: docbot-verify\n").commit("start")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "GIT_CONFIG_GLOBAL": os.devnull,
           "GIT_CONFIG_NOSYSTEM": "1"}
    assert subprocess.run([*PRE_COMMIT, "install"], cwd=repo.root, env=env, timeout=120).returncode == 0
    repo.write("toy/core.py", CORE.replace("a + b", "a + b + 1")).stage("toy/core.py")
    done = subprocess.run(["git", "commit", "-q", "-m", "change"], cwd=repo.root, env=env, capture_output=True,
                          text=True, timeout=1800)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "README.md:6: CONTRADICTION [example_mismatch]" in done.stdout + done.stderr


def test_a_doc_outside_docs_globs_is_not_verified(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Not even a package is looked for: a CHANGELOG.md commit in any repository passes."""
    from docbot.fronts.verify_hook import main

    repo = GitRepo(tmp_path / "bare").write("CHANGELOG.md", ">>> 1 + 1\n3\n").commit("start")
    repo.write("CHANGELOG.md", ">>> 1 + 1\n5\n").stage("CHANGELOG.md")
    monkeypatch.chdir(repo.root)
    assert main(["CHANGELOG.md"]) == 0
    repo.write("README.md", ">>> 1 + 1\n3\n").stage("README.md")
    assert main(["README.md"]) == 2  # a README is a doc: with no package to verify it against, a config error
    assert "no package found" in capsys.readouterr().err
