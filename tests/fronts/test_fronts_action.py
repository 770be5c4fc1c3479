"""The Action's front: inputs from a fabricated runner environment (event payload, flags, config), the
trust decision for fork PRs, and how errors end the job. The run is a canned RunReport passed as
``run_pr``; what is published is tested in test_github_publish.py.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from docbot.errors import ConfigError, ModelServerError
from docbot.fronts.action import main, parse_bool, read_inputs, run_action
from docbot.github.publish import ActionInputs, stale_report
from tests.support.action_env import (
    BASE,
    HEAD,
    REPO,
    TOKEN,
    FakeRun,
    act,
    canned,
    pr_event,
    runner_env,
)
from tests.support.fake_github import FakeGitHub

pytest_plugins = ["tests.support.action_fixtures"]  # the gh and pr_repos fixtures


@pytest.mark.parametrize("head_repo,expected", [
    ("someone/project", False),  # a fork's examples are not executed by default
    (REPO, "auto"),  # a branch of the same repository is trusted
])
def test_fork_prs_do_not_run_examples_by_default(tmp_path: Path, gh: FakeGitHub, head_repo: str,
                                                 expected: Any) -> None:
    """What the base's configuration says, for and against, is in test_action_trust.py."""
    env = runner_env(tmp_path, gh, event=pr_event(head_repo=head_repo))
    run = FakeRun(canned())
    act(env, run)
    assert run.calls[0][0].run_examples == expected


def test_inputs_override_the_event(tmp_path: Path, gh: FakeGitHub) -> None:
    env = runner_env(tmp_path, gh, DOCBOT_BASE="main~3", DOCBOT_HEAD="HEAD")
    run = FakeRun(canned())
    act(env, run)
    assert run.calls[0][2:4] == ("main~3", "HEAD")


def test_flags_override_the_environment_when_run_by_hand(tmp_path: Path, gh: FakeGitHub) -> None:
    run = FakeRun(stale_report([], BASE, HEAD))
    code = run_action(runner_env(tmp_path, gh), ["--mode", "check", "--base", "v1.0", "--head", "topic"],
                      run_pr=run, out=io.StringIO())
    # 1: this workspace is no repository, so the drift gate cannot run, and a gate that cannot run fails
    assert code == 1 and run.calls[0][2:] == ("v1.0", "topic", "check")


def test_main_reads_the_given_environment(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([], {"DOCBOT_MODE": "bogus"}) == 2
    assert "::error title=docbot::mode 'bogus' is not one of" in capsys.readouterr().out


@pytest.mark.parametrize("change, message", [
    ({"DOCBOT_MODE": "publish"}, "mode 'publish' is not one of comment, commit, check"),
    ({"DOCBOT_FAIL_ON_FATAL": "maybe"}, "input `fail-on-fatal` is 'maybe'; use true or false."),
    ({"DOCBOT_CONFIG": "missing.json"}, "missing.json: config file not found"),
    ({"GITHUB_EVENT_PATH": "/nonexistent/event.json"}, "cannot read the GitHub event payload"),
])
def test_bad_inputs_stop_before_the_run(tmp_path: Path, gh: FakeGitHub, change: dict[str, str],
                                        message: str) -> None:
    run = FakeRun(canned())
    code, log = act({**runner_env(tmp_path, gh), **change}, run)
    assert code == 2 and run.calls == [] and gh.requests == []
    assert log.startswith("::error title=docbot::") and message in log


def test_no_revisions_outside_a_pull_request_is_a_config_error(tmp_path: Path, gh: FakeGitHub) -> None:
    code, log = act(runner_env(tmp_path, gh, event={}), FakeRun(canned()))
    assert code == 2 and "set the `base` and `head` inputs" in log


def test_a_run_that_stops_writes_the_reason_to_the_summary(tmp_path: Path, gh: FakeGitHub) -> None:
    env = runner_env(tmp_path, gh)
    code, log = act(env, FakeRun(ModelServerError("model qwen3.5:9b missing: run `ollama pull qwen3.5:9b`")))
    assert code == 3 and gh.requests == []
    assert "::error title=docbot::model qwen3.5:9b missing" in log
    assert "**docbot stopped:** model qwen3.5:9b missing" in Path(env["GITHUB_STEP_SUMMARY"]).read_text()


@pytest.mark.parametrize("text, expected", [
    ("true", True), ("TRUE", True), (" yes ", True), ("1", True), ("on", True),
    ("false", False), ("", False), ("No", False), ("0", False), ("off", False),
])
def test_parse_bool(text: str, expected: bool) -> None:
    assert parse_bool(text, "x") is expected


def test_parse_bool_refuses_anything_else() -> None:
    with pytest.raises(ConfigError, match="use true or false"):
        parse_bool("tru", "fail-on-fatal")


def test_inputs_dataclass_never_shows_the_token(tmp_path: Path, gh: FakeGitHub) -> None:
    inputs = read_inputs(runner_env(tmp_path, gh))
    assert isinstance(inputs, ActionInputs) and inputs.token == TOKEN
    assert TOKEN not in repr(inputs)
