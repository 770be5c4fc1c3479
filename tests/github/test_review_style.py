"""The review's suggestions use the project's ``docstring_style`` (issue 21), in one step and across the two
steps, not a style guessed from the file (a file with no docstring falls back to Google)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from docbot.fronts.action import run_action
from docbot.results import RunReport
from tests.github.test_action_pr import area, repo, run  # noqa: F401 - repo is the fixture
from tests.support.action_env import PR, FakeRun, git, pr_event, runner_env, write
from tests.support.fake_github import FakeGitHub

pytest_plugins = ["tests.support.action_fixtures"]  # the gh fixture


def set_style(repo: dict[str, Any], style: str) -> None:  # noqa: F811 - the fixture's value
    """The base's config names the style: the settings come from the base commit."""
    git(repo["work"], "checkout", "-q", repo["base"])
    write(repo["work"] / "config.json", json.dumps({"write_docstrings": True, "docstring_style": style}))
    git(repo["work"], "commit", "-qam", f"docstrings in {style} style")
    repo["base"] = git(repo["work"], "rev-parse", "HEAD")


# (setting, a line the suggestion holds, a line it must not hold)
CASES = [
    ("sphinx", "    :param w: width\n", "    Args:\n"),
    ("numpy", "    Parameters\n    ----------\n", "    Args:\n"),
    ("google", "    Args:\n", ":param w:"),
]


@pytest.mark.parametrize(("style", "present", "absent"), CASES)
def test_the_review_suggests_in_the_configured_style(tmp_path: Path, gh: FakeGitHub, repo: dict[str, Any],  # noqa: F811
                                                     style: str, present: str, absent: str) -> None:
    set_style(repo, style)
    code, log = run(tmp_path, gh, repo, RunReport(results=[area()]))
    assert code == 0, log
    [comment] = gh.review_comments[PR]
    assert present in comment["body"] and absent not in comment["body"]


def test_the_two_steps_carry_the_style(tmp_path: Path, gh: FakeGitHub, repo: dict[str, Any]) -> None:  # noqa: F811
    set_style(repo, "sphinx")
    env = runner_env(tmp_path, gh, event=pr_event(repo["base"], repo["head"]))
    stage_file = str(tmp_path / "temp" / "run.json")
    report = RunReport(results=[area()], base=repo["base"], head=repo["head"])
    assert run_action({**env, "DOCBOT_TOKEN": ""}, ["run", "--report", stage_file], run_pr=FakeRun(report),
                      out=io.StringIO()) == 0
    assert json.loads(Path(stage_file).read_text())["options"]["docstring_style"] == "sphinx"
    out = io.StringIO()
    assert run_action(env, ["publish", "--report", stage_file], out=out) == 0, out.getvalue()
    assert ":param w: width" in gh.review_comments[PR][0]["body"]
