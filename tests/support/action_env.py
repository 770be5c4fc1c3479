"""TEST SUPPORT: the GitHub Action's runner, fabricated: the environment and event payload, a canned run,
the GitHub API fake on loopback, and PR repositories (a bare origin, a developer clone, the runner's
checkout of the merge commit).

The fixtures (``gh``, ``pr_repos``) are in ``action_fixtures.py``: use them with
``pytest_plugins = ["tests.support.action_fixtures"]``, and import the helpers from here.
"""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path
from typing import Any

from docbot.fronts.action import run_action
from docbot.results import FunctionResult, Outcome, RunReport
from docbot.config.settings import Settings
from tests.support.fake_github import FakeGitHub

TOKEN = "ghs_actionT0kenSecret99"
REPO = "octo/project"
PR = 12
BASE, HEAD = "b" * 40, "c" * 40


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
                       scores=[72, 85, 96], rounds=3, exit_reason="approved", outcome=Outcome.APPROVED),
        FunctionResult("pkg.geometry", "Shape.scale", "updated", path="pkg/geometry.py",
                       doc_path="docs/api/pkg.geometry.md", markdown="## scale\n\n| broken <script>",
                       scores=[60, 70, 75, 80], rounds=4, exit_reason="attempts",
                       fatal_issues=["doc says ValueError, code raises `TypeError`"], outcome=Outcome.UNAPPROVED),
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


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=Dev", "-c", "user.email=dev@example.com",
                           "-c", "init.defaultBranch=main", "-c", "advice.detachedHead=false", *args],
                          cwd=cwd, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def write_docs_run(runner: Path) -> FakeRun:
    write(runner / "docs" / "api" / "pkg.geometry.md", "# pkg.geometry\n\n## area\n\nThe area.\n")
    return FakeRun(canned(written=["docs/api/pkg.geometry.md"]))
