"""Issue 30's attacks on the Action's drift gate, each run for real (a PR repository, the loopback GitHub fake) and
asserted to fail: the package, the docs and the settings come from the base commit; a gate that cannot run fails
the check; what a doc reaches (a private helper, a constant) is followed; a fork's PR still gets the checks that
run nothing; a doc docbot cannot read is a clean error."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

from docbot.fronts.action import run_action
from docbot.verify.project.report import DriftReport
from tests.github.test_action_drift import ADD, README, SHOUT, _check, _commit, _errors
from tests.support.action_env import git, pr_event, runner_env, write
from tests.support.fake_github import FakeGitHub

pytest_plugins = ["tests.support.action_fixtures"]  # the gh fixture

FALSE_ADD = ADD.replace("a + b", "a + b + 1")  # makes README's `add(1)` -> 3 false


@pytest.fixture
def work(tmp_path: Path) -> dict[str, Any]:
    """test_action_drift's PR repository: toy, its README (shout's example false already), docs/api current."""
    work = tmp_path / "work"
    work.mkdir()
    git(work, "init", "-q")
    write(work / "pyproject.toml", '[project]\nname = "toy"\nversion = "1"\n')
    write(work / "toy" / "__init__.py", "from toy.core import add, shout\n")
    write(work / "config.json", json.dumps({"example_sandbox": "allow-guard"}))
    return {"work": work, "base": _commit(work, ADD, SHOUT, README, "base")}


def _drift_error(log: str) -> bool:
    return any(line.startswith("::error title=docbot::docbot: the drift gate cannot judge")
               for line in log.splitlines())


def _decoy(root: Path) -> None:
    write(root / "pyproject.toml", '[project]\nname = "decoy"\nversion = "1"\n')
    write(root / "decoy" / "__init__.py", "def add(a, b=2):\n    return a + b\n")


def _hide(root: Path) -> None:
    git(root, "mv", "toy", "lib_toy")


def _pr_config_turns_the_gate_off(root: Path) -> None:
    write(root / "config.json", json.dumps({"example_sandbox": "allow-guard", "drift_gate": False}))


@pytest.mark.parametrize("attack, code, gate_error", [
    pytest.param(_decoy, 1, False, id="[project].name pointed at a decoy package the PR adds: the base's toy is used"),
    pytest.param(_hide, 1, True, id="the package moved where the base's name finds nothing: the gate fails"),
    pytest.param(_pr_config_turns_the_gate_off, 1, False, id="the PR's config turns the gate off: the base's wins"),
])
def test_a_pr_cannot_choose_what_its_docs_are_judged_against(tmp_path: Path, gh: FakeGitHub, work: dict[str, Any],
                                                              attack: Any, code: int, gate_error: bool) -> None:
    root = work["work"]
    attack(root)
    head = _commit(root, FALSE_ADD, SHOUT, README, "add counts one more, and the attack")
    got, log = _check(tmp_path, gh, work, head)
    assert (got, _drift_error(log)) == (code, gate_error), log
    if not gate_error:
        assert any("README.md,line=6" in e for e in _errors(log)), log


def test_only_the_bases_settings_turn_the_gate_off(tmp_path: Path, gh: FakeGitHub, work: dict[str, Any]) -> None:
    root = work["work"]
    write(root / "config.json", json.dumps({"example_sandbox": "allow-guard", "drift_gate": False}))
    git(root, "commit", "-qam", "the maintainers turn the gate off")
    work["base"] = git(root, "rev-parse", "HEAD")
    head = _commit(root, FALSE_ADD, SHOUT, README, "a change the gate would refuse")
    got, log = _check(tmp_path, gh, work, head)
    assert got == 0 and "drift_gate: false in the base's configuration" in log, log


@pytest.mark.parametrize("helper, constant", [
    pytest.param("def _plus(a, b):\n    return a + b + 1\n", "STEP = 0\n", id="a private helper add calls"),
    pytest.param("def _plus(a, b):\n    return a + b + STEP\n", "STEP = 1\n", id="a module constant it reads"),
])
def test_a_change_the_readme_reaches_through_private_code_fails(tmp_path: Path, gh: FakeGitHub, work: dict[str, Any],
                                                                helper: str, constant: str) -> None:
    root = work["work"]
    add = "def add(a, b=2):\n    return _plus(a, b)\n"
    base = f"STEP = 0\n\n\n{add}\n\ndef _plus(a, b):\n    return a + b + STEP\n\n\n{SHOUT}"
    work["base"] = _commit_core(root, base, "add through a helper")
    head = _commit_core(root, f"{constant}\n\n{add}\n\n{helper}\n\n{SHOUT}", "only private code changes")
    got, log = _check(tmp_path, gh, work, head)
    assert got == 1 and any("README.md,line=6" in e for e in _errors(log)), log


def _commit_core(root: Path, core: str, message: str) -> str:
    """toy/core.py as given, with docs/api current for its public functions (only the drift gate can fail)."""
    from docbot.apidocs.pages import marker_line, source_hash
    from docbot.scan.targets import public_functions

    write(root / "toy" / "core.py", core)
    functions = public_functions(core, "toy.core", "toy/core.py")
    sections = "".join(f"{marker_line(t.qualname, source_hash(t.source))}\n## `{t.qualname}`\n\nX.\n"
                       f"<!-- docbot:end {t.qualname} -->\n\n" for t in functions)
    write(root / "docs" / "api" / "toy.core.md", f"# toy.core\n\n{sections}")
    git(root, "add", "-A"), git(root, "commit", "-qm", message)
    return git(root, "rev-parse", "HEAD")


def _fork_event(work: dict[str, Any], head: str) -> dict[str, Any]:
    return pr_event(work["base"], head, head_repo="someone/fork")


def test_a_forks_pr_gets_the_checks_that_run_nothing(tmp_path: Path, gh: FakeGitHub, work: dict[str, Any]) -> None:
    """A fork renames `shout`: the README's `toy.shout` now names nothing, which no example has to run to see."""
    root = work["work"]
    readme = README + "\nShout with `toy.shout()`.\n"
    work["base"] = _commit(root, ADD, SHOUT, readme, "the README names shout")
    write(root / "toy" / "__init__.py", "from toy.core import add, yell\n")
    head = _commit(root, ADD, SHOUT.replace("def shout", "def yell"), readme, "shout is yell now")
    values = runner_env(tmp_path, gh, event=_fork_event(work, head), DOCBOT_MODE="check", GITHUB_WORKSPACE=str(root))
    out = io.StringIO()
    got = run_action(values, [], out=out)
    log = out.getvalue()
    assert got == 1 and "runs no example of this PR" in log, log
    assert any("toy.shout" in e and "README.md" in e for e in _errors(log)), log
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "a fork's PR: the docs' examples were not run" in summary


@pytest.mark.parametrize("make", [
    pytest.param(lambda docs: (docs / "latin.md").write_bytes("caf\xe9 >>> 1\n".encode("latin-1")), id="a latin-1 doc"),
    pytest.param(lambda docs: (docs / "wide.md").write_bytes("# wide\n".encode("utf-16")), id="a UTF-16 doc"),
    pytest.param(lambda docs: (docs / "bin.md").write_bytes(bytes(range(256))), id="a binary doc"),
    pytest.param(lambda docs: os.symlink("/etc/hostname", docs / "link.md"), id="a symlink out of the repository"),
])
def test_a_doc_docbot_cannot_read_fails_the_gate_cleanly(tmp_path: Path, gh: FakeGitHub, work: dict[str, Any],
                                                         make: Any) -> None:
    root = work["work"]
    make(root / "docs")
    head = _commit(root, FALSE_ADD, SHOUT, README, "a doc docbot cannot read")
    got, log = _check(tmp_path, gh, work, head)
    assert got == 1 and _drift_error(log) and "Traceback" not in log, log


def test_the_gate_error_survives_the_two_steps(tmp_path: Path, gh: FakeGitHub, work: dict[str, Any]) -> None:
    root = work["work"]
    _hide(root)
    head = _commit(root, FALSE_ADD, SHOUT, README, "hidden")
    report = str(tmp_path / "temp" / "run.json")
    code, _ = _check(tmp_path, gh, work, head, ["run", "--report", report], DOCBOT_TOKEN="")
    saved = DriftReport.from_json(json.loads(Path(report + ".drift.json").read_text(encoding="utf-8")))
    assert code == 0 and saved.failed and "lib_toy" not in saved.error and "toy" in saved.error
    code, log = _check(tmp_path, gh, work, head, ["publish", "--report", report])
    assert code == 1 and "could not judge this PR" in (tmp_path / "summary.md").read_text(encoding="utf-8"), log
