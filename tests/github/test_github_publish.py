"""The Action's publishing step: sticky comment, job summary, step outputs, JSON report and exit code,
against the GitHub API fake on loopback, driven through the front with a canned run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from docbot.check import StaleEntry
from docbot.github.publish import annotation, exit_code_for, stale_report, write_outputs
from docbot.github.report import MARKER
from docbot.results import FunctionResult, Outcome, RunReport
from tests.support.action_env import (
    BASE,
    HEAD,
    PR,
    TOKEN,
    FakeRun,
    act,
    canned,
    git,
    outputs,
    pr_event,
    runner_env,
    write,
)
from tests.support.fake_github import FakeGitHub

pytest_plugins = ["tests.support.action_fixtures"]  # the gh and pr_repos fixtures


def test_first_run_creates_the_comment_and_writes_summary_outputs_and_report(tmp_path: Path,
                                                                            gh: FakeGitHub) -> None:
    env = runner_env(tmp_path, gh, OLLAMA_HOST="gpu-box:11434")
    run = FakeRun(canned())
    code, log = act(env, run)

    assert code == 0, log
    settings, root, base, head, mode = run.calls[0]
    assert (root, base, head, mode) == (tmp_path / "work", BASE, HEAD, "comment")
    assert settings.base_url == "http://gpu-box:11434"
    comment = gh.comments[PR][0]["body"]
    assert comment.startswith(MARKER)
    assert "/blob/" not in comment  # the workspace has no commit HEAD with these docs: no dead links
    assert "72 → 85 → 96 vs 95" in comment and "60 → 70 → 75 → 80 vs 95" in comment
    assert "<script>" not in comment.split("```markdown")[0]  # only inside the fenced doc
    summary = Path(env["GITHUB_STEP_SUMMARY"]).read_text(encoding="utf-8")
    assert MARKER not in summary and "72 → 85 → 96 vs 95" in summary
    values = outputs(env["GITHUB_OUTPUT"])
    report_path = tmp_path / "temp" / "docbot-report.json"
    assert values == {"functions": "2", "approved": "1", "unapproved": "1", "failed": "0", "fatal": "1",
                      "outcome": "unapproved", "patch": "", "report": str(report_path)}
    saved = json.loads(report_path.read_text(encoding="utf-8"))
    assert (saved["comment"], saved["pull_request"], saved["approved"]) == ("created", PR, 1)
    assert [r["qualname"] for r in saved["results"]] == ["area", "Shape.scale"]
    assert "PR comment created on #12" in log


def test_second_run_updates_the_same_comment(tmp_path: Path, gh: FakeGitHub) -> None:
    env = runner_env(tmp_path, gh)
    act(env, FakeRun(canned()))
    better = canned(FunctionResult("pkg.geometry", "area", "updated", markdown="## area", scores=[97],
                                   rounds=1, exit_reason="approved", outcome=Outcome.APPROVED))
    code, log = act(env, FakeRun(better))

    assert code == 0
    assert len(gh.comments[PR]) == 1
    assert "**1 function**: ✅ 1 approved" in gh.comments[PR][0]["body"]
    assert [r.method for r in gh.requests] == ["GET", "POST", "GET", "GET", "PATCH"]  # GET /user: whose
    assert "PR comment updated on #12" in log


@pytest.mark.parametrize("fail_on_fatal, expected", [("true", 1), ("false", 0), ("", 0)])
def test_fail_on_fatal_decides_the_exit_code(tmp_path: Path, gh: FakeGitHub, fail_on_fatal: str,
                                             expected: int) -> None:
    env = runner_env(tmp_path, gh, DOCBOT_FAIL_ON_FATAL=fail_on_fatal)
    assert act(env, FakeRun(canned()))[0] == expected


def test_a_read_only_token_warns_and_the_summary_still_has_the_results(tmp_path: Path, gh: FakeGitHub) -> None:
    gh.fail("POST", 403)
    env = runner_env(tmp_path, gh)
    code, log = act(env, FakeRun(canned()))

    assert code == 0
    assert "::warning title=docbot::docbot could not post the PR comment: the token cannot write PR comments" in log
    summary = Path(env["GITHUB_STEP_SUMMARY"]).read_text(encoding="utf-8")
    assert "72 → 85 → 96 vs 95" in summary
    assert "The PR comment could not be posted: the token cannot write PR comments" in summary
    assert json.loads((tmp_path / "temp" / "docbot-report.json").read_text())["comment"].startswith("failed")
    everything = log + summary + Path(env["GITHUB_OUTPUT"]).read_text() + \
        (tmp_path / "temp" / "docbot-report.json").read_text()
    assert TOKEN not in everything


def test_outside_a_pull_request_there_is_no_comment(tmp_path: Path, gh: FakeGitHub) -> None:
    env = runner_env(tmp_path, gh, event={"ref": "refs/heads/main"}, DOCBOT_BASE="a1", DOCBOT_HEAD="b2")
    run = FakeRun(canned())
    code, log = act(env, run)

    assert code == 0 and gh.requests == []
    assert run.calls[0][2:4] == ("a1", "b2")
    assert "::notice::not a pull_request event" in log
    assert "72 → 85 → 96" in Path(env["GITHUB_STEP_SUMMARY"]).read_text(encoding="utf-8")


def test_check_mode_fails_on_stale_docs_and_says_which(tmp_path: Path, gh: FakeGitHub) -> None:
    entries = [StaleEntry("pkg.geometry", "area", "pkg/geometry.py", 3, "stale", "docs/api/pkg.geometry.md"),
               StaleEntry("pkg.geometry", "perimeter", "pkg/geometry.py", 9, "missing",
                          "docs/api/pkg.geometry.md")]
    env = runner_env(tmp_path, gh, DOCBOT_MODE="check")
    code, _ = act(env, FakeRun(stale_report(entries, BASE, HEAD)))

    assert code == 1
    comment = gh.comments[PR][0]["body"]
    assert "## docbot check: stale API docs" in comment
    assert "<code>pkg.geometry.area</code> (<code>pkg/geometry.py</code>): doc is stale: the code changed since" \
        in comment
    assert "<code>pkg.geometry.perimeter</code> (<code>pkg/geometry.py</code>): no doc section yet" in comment
    assert outputs(env["GITHUB_OUTPUT"])["failed"] == "2"
    # docs/api current, but this workspace holds no base commit: the drift gate cannot run, and that fails
    # the check too (issue 30: a gate that cannot run is never skipped)
    code, log = act(runner_env(tmp_path, gh, DOCBOT_MODE="check"), FakeRun(stale_report([], BASE, HEAD)))
    assert code == 1 and "the drift gate cannot judge this PR" in log


@pytest.mark.parametrize("results, mode, fail_on_fatal, expected", [
    ([], "comment", True, 0),
    ([FunctionResult("m", "f", "updated", exit_reason="approved")], "comment", True, 0),
    ([FunctionResult("m", "f", "updated", exit_reason="attempts")], "comment", True, 0),  # below bar only
    ([FunctionResult("m", "f", "updated", fatal_issues=["x"])], "comment", True, 1),
    ([FunctionResult("m", "f", "updated", fatal_issues=["x"])], "comment", False, 0),
    ([FunctionResult("m", "f", "failed", reason="timeout")], "commit", True, 1),
    ([FunctionResult("m", "f", "skipped", reason="budget")], "comment", True, 0),
    ([FunctionResult("m", "f", "failed", reason="stale")], "check", False, 1),
    ([FunctionResult("m", "f", "unchanged")], "check", False, 0),
])
def test_exit_code(results: list[FunctionResult], mode: Any, fail_on_fatal: bool, expected: int) -> None:
    assert exit_code_for(RunReport(results=results), mode, fail_on_fatal) == expected


@pytest.mark.parametrize("message, expected", [
    ("plain", "::warning title=docbot::plain"),
    ("two\nlines\r\n", "::warning title=docbot::two%0Alines%0D%0A"),
    ("100% sure", "::warning title=docbot::100%25 sure"),
])
def test_annotation_stays_one_command(message: str, expected: str) -> None:
    assert annotation("warning", message) == expected


def test_multiline_outputs_use_a_delimiter_not_in_the_value(tmp_path: Path) -> None:
    path = str(tmp_path / "out")
    write_outputs(path, {"one": "1", "many": "a\ndocbot_EOF\nb"})
    assert outputs(path) == {"one": "1", "many": "a\ndocbot_EOF\nb"}


def test_comment_mode_links_only_docs_the_head_has(tmp_path: Path, gh: FakeGitHub,
                                                   pr_repos: dict[str, Any]) -> None:
    dev = pr_repos["dev"]
    git(dev, "checkout", "feature")
    write(dev / "docs" / "api" / "pkg.geometry.md", "# pkg.geometry\n")
    git(dev, "add", "-A"), git(dev, "commit", "-m", "docs"), git(dev, "push", "origin", "feature")
    head = git(dev, "rev-parse", "HEAD")
    git(pr_repos["runner"], "fetch", "origin")
    report = canned()
    report.results.append(FunctionResult("pkg.shapes", "circle", "unchanged", doc_path="docs/api/pkg.shapes.md"))
    report.results.append(FunctionResult("pkg.geometry", "perimeter", "unchanged", doc_path="docs/api/pkg.geometry.md"))
    code, _ = act(runner_env(tmp_path, gh, event=pr_event(pr_repos["base"], head)), FakeRun(report))

    comment = gh.comments[PR][0]["body"]
    assert code == 0
    # The head has the current doc of perimeter, but only the old docs of area and Shape.scale, which
    # this run updated: those are in the comment, not behind a link.
    assert f"/blob/{head}/docs/api/pkg.geometry.md#pkg.geometry.perimeter)" in comment
    assert comment.count("/blob/") == 1
    assert "pkg.shapes.md" not in comment and "<code>pkg.shapes.circle</code> |" in comment
