"""Commit mode: a docs-only commit on top of the PR head, pushed to a real bare repository as origin."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docbot.github.commit import BOT_EMAIL, BOT_NAME
from tests.support.action_env import (
    PR,
    act,
    git,
    pr_event,
    runner_env,
    write,
    write_docs_run,
)
from tests.support.fake_github import FakeGitHub

pytest_plugins = ["tests.support.action_fixtures"]  # the gh and pr_repos fixtures


def test_commit_mode_pushes_the_docs_on_top_of_the_pr_head(tmp_path: Path, gh: FakeGitHub,
                                                           pr_repos: dict[str, Any]) -> None:
    origin, head = pr_repos["origin"], pr_repos["head"]
    env = runner_env(tmp_path, gh, event=pr_event(pr_repos["base"], head), DOCBOT_MODE="commit")
    code, log = act(env, write_docs_run(pr_repos["runner"]))

    assert code == 0, log
    tip = git(origin, "rev-parse", "refs/heads/feature")
    assert tip != head and f"pushed {tip[:12]} to feature" in log
    assert git(origin, "rev-parse", f"{tip}^@") == head  # one parent: the PR head, not the merge commit
    assert git(origin, "log", "-1", "--format=%an <%ae>|%cn", tip) == f"{BOT_NAME} <{BOT_EMAIL}>|{BOT_NAME}"
    assert git(origin, "diff", "--name-status", head, tip) == "A\tdocs/api/pkg.geometry.md"
    assert git(origin, "show", f"{tip}:docs/api/pkg.geometry.md").startswith("# pkg.geometry")
    assert f"/blob/{tip}/docs/api/pkg.geometry.md" in gh.comments[PR][0]["body"]  # links to the new commit


def test_commit_mode_pushes_nothing_when_the_head_has_the_docs(tmp_path: Path, gh: FakeGitHub,
                                                               pr_repos: dict[str, Any]) -> None:
    dev, origin = pr_repos["dev"], pr_repos["origin"]
    git(dev, "checkout", "feature")
    write(dev / "docs" / "api" / "pkg.geometry.md", "# pkg.geometry\n\n## area\n\nThe area.\n")
    git(dev, "add", "-A"), git(dev, "commit", "-m", "docs"), git(dev, "push", "origin", "feature")
    head = git(dev, "rev-parse", "HEAD")
    git(pr_repos["runner"], "fetch", "origin")
    env = runner_env(tmp_path, gh, event=pr_event(pr_repos["base"], head), DOCBOT_MODE="commit")
    code, log = act(env, write_docs_run(pr_repos["runner"]))

    assert code == 0 and "docs already current on the branch" in log
    assert git(origin, "rev-parse", "refs/heads/feature") == head


def test_commit_mode_does_not_push_to_forks(tmp_path: Path, gh: FakeGitHub, pr_repos: dict[str, Any]) -> None:
    head = pr_repos["head"]
    env = runner_env(tmp_path, gh, event=pr_event(pr_repos["base"], head, head_repo="someone/project"),
                     DOCBOT_MODE="commit")
    code, log = act(env, write_docs_run(pr_repos["runner"]))
    assert code == 0 and "mode commit cannot push to a fork's branch" in log
    assert git(pr_repos["origin"], "rev-parse", "refs/heads/feature") == head
    assert len(gh.comments[PR]) == 1


def test_commit_mode_reports_a_rejected_push(tmp_path: Path, gh: FakeGitHub, pr_repos: dict[str, Any]) -> None:
    dev = pr_repos["dev"]
    git(dev, "checkout", "feature")
    write(dev / "pkg" / "more.py", "X = 1\n")
    git(dev, "add", "-A"), git(dev, "commit", "-m", "the branch moves on"), git(dev, "push", "origin", "feature")
    env = runner_env(tmp_path, gh, event=pr_event(pr_repos["base"], pr_repos["head"]), DOCBOT_MODE="commit")
    code, log = act(env, write_docs_run(pr_repos["runner"]))

    assert code == 4
    assert "::error title=docbot::could not push the docs to feature" in log
    assert "72 → 85 → 96" in Path(env["GITHUB_STEP_SUMMARY"]).read_text(encoding="utf-8")
    assert len(gh.comments[PR]) == 1  # the results are still shown
