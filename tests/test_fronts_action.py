"""The GitHub Action: action.yml's schema and wiring, and docbot.action run with a fabricated runner
environment (event payload, summary and output files) against the GitHub API fake on loopback.

The run itself is a canned RunReport passed as ``run_pr``; commit mode pushes to a real bare repo;
check mode also runs for real (no model needed) through action.yml's own run step.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from docbot.action import (
    ActionInputs,
    annotation,
    exit_code_for,
    main,
    parse_bool,
    run_action,
    stale_report,
    write_outputs,
)
from docbot.check import StaleEntry
from docbot.pr_git import BOT_EMAIL, BOT_NAME
from docbot.errors import ConfigError, ModelServerError
from docbot.report import MARKER
from docbot.results import FunctionResult, RunReport
from docbot.settings import Settings
from tests.support.fake_github import FakeGitHub
from tests.support.manifests import (
    ROOT,
    action_problems,
    hook_manifest_problems,
    load_yaml,
    script_problems,
    substitute,
)

TOKEN = "ghs_actionT0kenSecret99"
REPO = "octo/project"
PR = 12
BASE, HEAD = "b" * 40, "c" * 40


@pytest.fixture
def gh() -> Iterator[FakeGitHub]:
    with FakeGitHub(token=TOKEN, repo=REPO) as fake:
        yield fake


def runner_env(tmp_path: Path, gh: FakeGitHub, event: dict[str, Any] | None = None, **inputs: str) -> dict[str, str]:
    """What the runner and action.yml put in the environment of the docbot step."""
    (tmp_path / "temp").mkdir(exist_ok=True)
    (tmp_path / "work").mkdir(exist_ok=True)
    event_path = tmp_path / "event.json"
    event_path.write_text(json.dumps(pr_event() if event is None else event), encoding="utf-8")
    env = {"GITHUB_EVENT_PATH": str(event_path), "GITHUB_REPOSITORY": REPO,
           "GITHUB_SERVER_URL": "https://github.com", "GITHUB_API_URL": gh.api_url,
           "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"), "GITHUB_OUTPUT": str(tmp_path / "output.txt"),
           "GITHUB_WORKSPACE": str(tmp_path / "work"), "RUNNER_TEMP": str(tmp_path / "temp"),
           "DOCBOT_TOKEN": TOKEN, "DOCBOT_MODE": "comment", "DOCBOT_FAIL_ON_FATAL": "false"}
    return {**env, **inputs}


def pr_event(base: str = BASE, head: str = HEAD, head_repo: str = REPO, ref: str = "feature") -> dict[str, Any]:
    return {"action": "synchronize", "number": PR, "repository": {"full_name": REPO},
            "pull_request": {"number": PR, "base": {"sha": base, "ref": "main", "repo": {"full_name": REPO}},
                             "head": {"sha": head, "ref": ref, "repo": {"full_name": head_repo}}}}


def canned(*results: FunctionResult, written: list[str] | None = None) -> RunReport:
    return RunReport(results=list(results) or [
        FunctionResult("pkg.geometry", "area", "updated", path="pkg/geometry.py",
                       doc_path="docs/api/pkg.geometry.md", markdown="## area\n\nThe area.",
                       scores=[72, 85, 96], rounds=3, exit_reason="approved"),
        FunctionResult("pkg.geometry", "Shape.scale", "updated", path="pkg/geometry.py",
                       doc_path="docs/api/pkg.geometry.md", markdown="## scale\n\n| broken <script>",
                       scores=[60, 70, 75, 80], rounds=4, exit_reason="attempts",
                       fatal_issues=["doc says ValueError, code raises `TypeError`"]),
    ], written=written or [], base=BASE, head=HEAD)


class FakeRun:
    """A run_pr that records its arguments and returns a canned report (or raises)."""

    def __init__(self, report: RunReport | Exception) -> None:
        self.report = report
        self.calls: list[tuple[Settings, Path, str, str, str]] = []

    def __call__(self, settings: Settings, repo_root: Path, base: str, head: str, mode: str) -> RunReport:
        self.calls.append((settings, repo_root, base, head, mode))
        if isinstance(self.report, Exception):
            raise self.report
        return self.report


def outputs(path: str) -> dict[str, str]:
    """Parse a GITHUB_OUTPUT file (name=value and name<<DELIM ... DELIM)."""
    values, lines = {}, Path(path).read_text(encoding="utf-8").splitlines()
    while lines:
        line = lines.pop(0)
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            body = []
            while (part := lines.pop(0)) != delimiter:
                body.append(part)
            values[name] = "\n".join(body)
        else:
            name, value = line.split("=", 1)
            values[name] = value
    return values


def act(env: dict[str, str], run: FakeRun) -> tuple[int, str]:
    out = io.StringIO()
    code = run_action(env, [], run_pr=run, out=out)
    return code, out.getvalue()


# --- the entry point against the fake API -------------------------------------------------------


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
    assert values == {"functions": "2", "approved": "1", "failed": "0", "fatal": "1", "report": str(report_path)}
    saved = json.loads(report_path.read_text(encoding="utf-8"))
    assert (saved["comment"], saved["pull_request"], saved["approved"]) == ("created", PR, 1)
    assert [r["qualname"] for r in saved["results"]] == ["area", "Shape.scale"]
    assert "PR comment created on #12" in log


def test_second_run_updates_the_same_comment(tmp_path: Path, gh: FakeGitHub) -> None:
    env = runner_env(tmp_path, gh)
    act(env, FakeRun(canned()))
    better = canned(FunctionResult("pkg.geometry", "area", "updated", markdown="## area", scores=[97],
                                   rounds=1, exit_reason="approved"))
    code, log = act(env, FakeRun(better))

    assert code == 0
    assert len(gh.comments[PR]) == 1
    assert "**1 function**: ✅ 1 approved" in gh.comments[PR][0]["body"]
    assert [r.method for r in gh.requests] == ["GET", "POST", "GET", "PATCH"]
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


@pytest.mark.parametrize("head_repo,config,expected", [
    ("someone/project", None, False),  # a fork's examples are not executed by default
    (REPO, None, "auto"),  # a branch of the same repository is trusted
    ("someone/project", {"run_examples": True}, True),  # the config may insist
])
def test_fork_prs_do_not_run_examples_unless_configured(tmp_path: Path, gh: FakeGitHub, head_repo: str,
                                                        config: dict[str, Any] | None, expected: Any) -> None:
    extra = {}
    if config is not None:
        (tmp_path / "cfg.json").write_text(json.dumps(config), encoding="utf-8")
        extra["DOCBOT_CONFIG"] = str(tmp_path / "cfg.json")
    env = runner_env(tmp_path, gh, event=pr_event(head_repo=head_repo), **extra)
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
    assert code == 0 and run.calls[0][2:] == ("v1.0", "topic", "check")


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


def test_the_config_input_is_read_from_the_workspace(tmp_path: Path, gh: FakeGitHub) -> None:
    env = runner_env(tmp_path, gh, DOCBOT_CONFIG="ci/docbot.json")
    (tmp_path / "work" / "ci").mkdir()
    (tmp_path / "work" / "ci" / "docbot.json").write_text('{"quality_score_bar": 80}', encoding="utf-8")
    run = FakeRun(canned())
    act(env, run)
    assert run.calls[0][0].quality_score_bar == 80


def test_a_run_that_stops_writes_the_reason_to_the_summary(tmp_path: Path, gh: FakeGitHub) -> None:
    env = runner_env(tmp_path, gh)
    code, log = act(env, FakeRun(ModelServerError("model qwen3.5:9b missing: run `ollama pull qwen3.5:9b`")))
    assert code == 3 and gh.requests == []
    assert "::error title=docbot::model qwen3.5:9b missing" in log
    assert "**docbot stopped:** model qwen3.5:9b missing" in Path(env["GITHUB_STEP_SUMMARY"]).read_text()


# --- check mode ---------------------------------------------------------------------------------


def test_check_mode_fails_on_stale_docs_and_says_which(tmp_path: Path, gh: FakeGitHub) -> None:
    entries = [StaleEntry("pkg.geometry", "area", "pkg/geometry.py", 3, "stale", "docs/api/pkg.geometry.md"),
               StaleEntry("pkg.geometry", "perimeter", "pkg/geometry.py", 9, "missing",
                          "docs/api/pkg.geometry.md")]
    env = runner_env(tmp_path, gh, DOCBOT_MODE="check")
    code, _ = act(env, FakeRun(stale_report(entries, BASE, HEAD)))

    assert code == 1
    comment = gh.comments[PR][0]["body"]
    assert "## docbot check: stale API docs" in comment
    assert "failed: doc is stale: the code changed since" in comment and "failed: no doc section yet" in comment
    assert outputs(env["GITHUB_OUTPUT"])["failed"] == "2"
    assert act(runner_env(tmp_path, gh, DOCBOT_MODE="check"), FakeRun(stale_report([], BASE, HEAD)))[0] == 0


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


@pytest.mark.parametrize("text, expected", [
    ("true", True), ("TRUE", True), (" yes ", True), ("1", True), ("on", True),
    ("false", False), ("", False), ("No", False), ("0", False), ("off", False),
])
def test_parse_bool(text: str, expected: bool) -> None:
    assert parse_bool(text, "x") is expected


def test_parse_bool_refuses_anything_else() -> None:
    with pytest.raises(ConfigError, match="use true or false"):
        parse_bool("tru", "fail-on-fatal")


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


# --- commit mode, against a real bare repository as origin ---------------------------------------


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=Dev", "-c", "user.email=dev@example.com",
                           "-c", "init.defaultBranch=main", "-c", "advice.detachedHead=false", *args],
                          cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def pr_repos(tmp_path: Path) -> dict[str, Any]:
    """origin (bare), a developer clone with a PR branch, and the runner's checkout of the merge commit."""
    origin, dev, runner = tmp_path / "origin.git", tmp_path / "dev", tmp_path / "work"
    git(tmp_path, "init", "--bare", str(origin))
    git(tmp_path, "clone", str(origin), str(dev))
    write(dev / "pkg" / "geometry.py", "def area(w, h):\n    return w * h\n")
    git(dev, "add", "-A"), git(dev, "commit", "-m", "base"), git(dev, "push", "origin", "main")
    git(dev, "checkout", "-b", "feature")
    write(dev / "pkg" / "geometry.py", "def area(w, h):\n    return abs(w * h)\n")
    git(dev, "commit", "-am", "feature"), git(dev, "push", "origin", "feature")
    head = git(dev, "rev-parse", "HEAD")
    git(dev, "checkout", "main")
    write(dev / "other.txt", "main moved on\n")
    git(dev, "add", "-A"), git(dev, "commit", "-m", "main moves"), git(dev, "push", "origin", "main")
    base = git(dev, "rev-parse", "HEAD")
    git(tmp_path, "clone", str(origin), str(runner))  # like actions/checkout: the test merge, detached
    git(runner, "checkout", "--detach", "origin/main")
    git(runner, "merge", "--no-ff", "-m", "Merge feature into main", head)
    return {"origin": origin, "dev": dev, "runner": runner, "base": base, "head": head}


def write_docs_run(runner: Path) -> FakeRun:
    write(runner / "docs" / "api" / "pkg.geometry.md", "# pkg.geometry\n\n## area\n\nThe area.\n")
    return FakeRun(canned(written=["docs/api/pkg.geometry.md"]))


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


def test_comment_mode_links_only_docs_the_head_has(tmp_path: Path, gh: FakeGitHub,
                                                   pr_repos: dict[str, Any]) -> None:
    dev = pr_repos["dev"]
    git(dev, "checkout", "feature")
    write(dev / "docs" / "api" / "pkg.geometry.md", "# pkg.geometry\n")
    git(dev, "add", "-A"), git(dev, "commit", "-m", "docs"), git(dev, "push", "origin", "feature")
    head = git(dev, "rev-parse", "HEAD")
    git(pr_repos["runner"], "fetch", "origin")
    report = canned()
    report.results.append(FunctionResult("pkg.shapes", "circle", "updated", doc_path="docs/api/pkg.shapes.md",
                                         markdown="## circle", scores=[99], rounds=1, exit_reason="approved"))
    code, _ = act(runner_env(tmp_path, gh, event=pr_event(pr_repos["base"], head)), FakeRun(report))

    comment = gh.comments[PR][0]["body"]
    assert code == 0
    assert comment.count(f"(https://github.com/{REPO}/blob/{head}/docs/api/pkg.geometry.md)") == 2
    assert "pkg.shapes.md)" not in comment and "<code>pkg.shapes.circle</code> |" in comment


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


# --- action.yml ---------------------------------------------------------------------------------


ACTION = load_yaml(ROOT / "action.yml")


def test_action_yml_is_a_valid_composite_action() -> None:
    assert action_problems(ACTION) == []
    assert script_problems("docbot-action") == []


def test_action_yml_has_the_inputs_and_outputs_the_readme_promises() -> None:
    inputs = ACTION["inputs"]
    assert {"ollama-url", "config", "mode", "base", "head", "github-token", "fail-on-fatal"} <= set(inputs)
    assert inputs["github-token"]["default"] == "${{ github.token }}"
    assert inputs["base"]["default"] == "${{ github.event.pull_request.base.sha }}"
    assert inputs["head"]["default"] == "${{ github.event.pull_request.head.sha }}"
    assert inputs["mode"]["default"] == "comment"
    assert {"functions", "approved", "failed", "report"} <= set(ACTION["outputs"])


def test_action_outputs_are_the_ones_the_entry_point_writes(tmp_path: Path, gh: FakeGitHub) -> None:
    env = runner_env(tmp_path, gh)
    act(env, FakeRun(canned()))
    written = set(outputs(env["GITHUB_OUTPUT"]))
    declared = {str(spec["value"]).split(".outputs.")[1].rstrip("} ") for spec in ACTION["outputs"].values()}
    assert declared == written == set(ACTION["outputs"])


def test_every_input_reaches_the_entry_point() -> None:
    """Each input is passed through env (never spliced into the script) and read by docbot.action."""
    steps = ACTION["runs"]["steps"]
    used = {m for step in steps for value in (step.get("env") or {}).values()
            for m in [str(value).removeprefix("${{ inputs.").removesuffix(" }}")]}
    assert used == set(ACTION["inputs"])
    source = (ROOT / "docbot" / "action.py").read_text(encoding="utf-8")
    run_step = next(s for s in steps if s.get("id") == "docbot")
    for name in run_step["env"]:
        assert f'"{name}"' in source or name == "OLLAMA_HOST", name  # OLLAMA_HOST goes to load_settings


def action_step_env(inputs: dict[str, str], github: dict[str, str]) -> dict[str, str]:
    """The env of action.yml's run step, evaluated the way the runner does."""
    values = {f"inputs.{name}": inputs.get(name, substitute(str(spec.get("default", "")), github))
              for name, spec in ACTION["inputs"].items()}
    step = next(s for s in ACTION["runs"]["steps"] if s.get("id") == "docbot")
    return {name: substitute(str(value), values) for name, value in step["env"].items()}


def test_action_run_step_runs_check_mode_for_real(tmp_path: Path, gh: FakeGitHub,
                                                   pr_repos: dict[str, Any]) -> None:
    """action.yml's own shell step, no model: the PR changes a function that has no doc yet."""
    runner, head = pr_repos["runner"], pr_repos["head"]
    git(runner, "checkout", "--detach", head)
    bin_dir = tmp_path / "temp" / "docbot-venv" / "bin"
    bin_dir.mkdir(parents=True)
    script = bin_dir / "docbot-action"  # what pip makes of the console script docbot.action:main
    script.write_text(f"#!/bin/sh\nexec '{sys.executable}' -c 'import sys; from docbot.action import main; "
                      f"sys.exit(main())' \"$@\"\n")
    script.chmod(0o755)
    github = {"github.token": TOKEN, "github.event.pull_request.base.sha": pr_repos["base"],
              "github.event.pull_request.head.sha": head}
    env = {**runner_env(tmp_path, gh, event=pr_event(pr_repos["base"], head)),
           **action_step_env({"mode": "check"}, github),
           "PATH": os.environ["PATH"], "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    run_step = next(s for s in ACTION["runs"]["steps"] if s.get("id") == "docbot")
    done = subprocess.run([run_step["shell"], "-c", run_step["run"]], cwd=runner, env=env,
                          capture_output=True, text=True, timeout=120, check=False)

    assert done.returncode == 1, done.stdout + done.stderr
    comment = gh.comments[PR][0]["body"]
    assert "pkg.geometry.area" in comment and "failed: no doc section yet" in comment
    assert outputs(env["GITHUB_OUTPUT"])["failed"] == "1"
    assert TOKEN not in done.stdout + done.stderr


def test_inputs_dataclass_never_shows_the_token(tmp_path: Path, gh: FakeGitHub) -> None:
    from docbot.action import read_inputs

    inputs = read_inputs(runner_env(tmp_path, gh))
    assert isinstance(inputs, ActionInputs) and inputs.token == TOKEN
    assert TOKEN not in repr(inputs)


GOOD_STEP = {"id": "run", "shell": "bash", "env": {"X": "${{ inputs.x }}"}, "run": 'echo "$X"'}


@pytest.mark.parametrize("action, problem", [
    ({"name": "a", "description": "d", "runs": {"using": "node20", "main": "x.js"}}, "expected 'composite'"),
    ({"description": "d", "runs": {"using": "composite", "steps": []}}, "missing name"),
    ({"name": "a", "description": "d", "inputs": {"x": {"default": "1"}},
      "runs": {"using": "composite", "steps": [GOOD_STEP]}}, "input x: no description"),
    ({"name": "a", "description": "d", "runs": {"using": "composite", "steps": [
        {**GOOD_STEP, "shell": None}]}, "inputs": {"x": {"description": "x"}}}, "must set shell"),
    ({"name": "a", "description": "d", "inputs": {"x": {"description": "x"}}, "runs": {
        "using": "composite", "steps": [{**GOOD_STEP, "run": "echo ${{ inputs.x }}"}]}}, "spliced into shell"),
    ({"name": "a", "description": "d", "inputs": {"x": {"description": "x"}},
      "outputs": {"n": {"description": "n", "value": "${{ steps.nope.outputs.n }}"}},
      "runs": {"using": "composite", "steps": [GOOD_STEP]}}, "unknown step id 'nope'"),
    ({"name": "a", "description": "d", "outputs": {"n": {"description": "n"}},
      "runs": {"using": "composite", "steps": []}}, "composite outputs need a value"),
    ({"name": "a", "description": "d", "runs": {"using": "composite", "steps": [GOOD_STEP]}},
     "unknown input 'x'"),
])
def test_the_action_checker_catches_each_problem(action: dict[str, Any], problem: str) -> None:
    assert any(problem in p for p in action_problems(action)), action_problems(action)


@pytest.mark.parametrize("hooks, problem", [
    ([], "non-empty list"),
    ([{"id": "a", "name": "a", "language": "python"}], "a: missing entry"),
    ([{"id": "a", "name": "a", "entry": "docbot-action", "language": "python", "colour": "red"}],
     "a: unknown key colour"),
    ([{"id": "a", "name": "a", "entry": "docbot-action", "language": "python", "stages": ["commit"]}],
     "a: unknown stage commit"),
    ([{"id": "a", "name": "a", "entry": "docbot-action", "language": "python"}] * 2, "a: duplicate id"),
    ([{"id": "a", "name": "a", "entry": "no-such-script --flag", "language": "python"}],
     "console script 'no-such-script' is not in [project.scripts]"),
])
def test_the_hook_manifest_checker_catches_each_problem(hooks: list[dict[str, Any]], problem: str) -> None:
    assert any(problem in p for p in hook_manifest_problems(hooks)), hook_manifest_problems(hooks)


def test_the_hook_manifest_checker_passes_a_good_manifest() -> None:
    hooks = [{"id": "a", "name": "a", "entry": "docbot-action --x", "language": "python", "types": ["python"],
              "pass_filenames": False, "require_serial": True, "stages": ["pre-commit", "manual"]}]
    assert hook_manifest_problems(hooks) == []
