"""The Action's publishing step: a run's report -> commit (commit mode), job summary, sticky comment,
JSON report and step outputs, and the job's exit code.

The job summary is written first and always: a read-only token (fork PRs) cannot post the comment,
and the summary is then where the results are. Posting the comment never fails the job.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TextIO

from docbot.errors import GitHubError, RepoError
from docbot.github.client import GitHubClient
from docbot.github.commit import commit_docs, docs_at
from docbot.github.logsafe import Redactor, escape_data
from docbot.github.report import Links, render_comment, render_summary
from docbot.results import FunctionResult, RunReport

if TYPE_CHECKING:
    from docbot.check import StaleEntry

Mode = Literal["comment", "commit", "check"]
MODES: tuple[Mode, ...] = ("comment", "commit", "check")

STALE_REASONS = {"missing": "no doc section yet", "stale": "doc is stale: the code changed since",
                 "orphaned": "doc section of a function that no longer exists"}
TITLES: dict[Mode, str] = {"comment": "docbot: API docs", "commit": "docbot: API docs",
                           "check": "docbot check: stale API docs"}


class CommentStatus(StrEnum):
    CREATED = "created"
    UPDATED = "updated"
    SKIPPED = "skipped"  # not a pull request: nowhere to post
    FAILED = "failed"  # GitHub refused or could not be reached; the job goes on


@dataclass(frozen=True)
class CommentOutcome:
    """What happened to the sticky comment; ``str`` is what the JSON report's ``comment`` says."""

    status: CommentStatus
    detail: str = ""  # why it was skipped or failed

    def __str__(self) -> str:
        return f"{self.status.value}: {self.detail}" if self.detail else self.status.value


@dataclass(frozen=True)
class ActionInputs:
    """Everything the action needs from its environment, checked once."""

    mode: Mode
    config: Path
    config_required: bool  # the user named a config file: a missing one is an error
    base: str
    head: str
    token: str = field(repr=False)
    fail_on_fatal: bool
    repo: str  # owner/name
    server_url: str
    api_url: str
    pr_number: int | None  # None outside pull_request events: no comment then
    head_ref: str  # the PR's branch name, where commit mode pushes
    head_repo: str  # owner/name of the PR's head repository (differs for forks)
    workspace: Path
    summary_path: str
    output_path: str
    report_dir: Path


def publish(inputs: ActionInputs, report: RunReport, out: TextIO, redact: Redactor | None = None) -> int:
    """Commit (commit mode), then summary, comment, JSON report and outputs; returns the exit code.

    Everything published goes through ``redact`` (default: the token and the known secret shapes)."""
    redact = redact or Redactor.of([inputs.token])
    print(report.summary_line(), file=out)
    link_ref, commit_failed = inputs.head, False
    if inputs.mode == "commit" and report.written:
        try:
            link_ref = commit_step(inputs, report.written, out) or link_ref
        except RepoError as err:
            print(annotation("error", str(err)), file=out)
            commit_failed = True
    links = Links(inputs.server_url, inputs.repo, link_ref,
                  docs_at(inputs.workspace, link_ref, {r.doc_path for r in report.results if r.doc_path}))
    append_file(inputs.summary_path, redact(render_summary(report, links, title=TITLES[inputs.mode])))
    comment = post_comment(inputs, redact(render_comment(report, links, title=TITLES[inputs.mode])), out)
    if comment.status is CommentStatus.FAILED:
        append_file(inputs.summary_path, redact(f"\n> [!WARNING]\n> The PR comment could not be posted: "
                                                f"{comment.detail}\n"))
    report_path = inputs.report_dir / "docbot-report.json"
    report_path.write_text(redact(json.dumps({"mode": inputs.mode, "pull_request": inputs.pr_number,
                                              "comment": str(comment), **report.to_json()}, indent=2)) + "\n",
                           encoding="utf-8")
    write_outputs(inputs.output_path, {
        "functions": str(len(report.results)), "approved": str(report.approved),
        "failed": str(report.count("failed")),
        "fatal": str(sum(1 for r in report.results if r.fatal_issues)), "report": str(report_path)})
    return RepoError.exit_code if commit_failed else exit_code_for(report, inputs.mode, inputs.fail_on_fatal)


def exit_code_for(report: RunReport, mode: Mode, fail_on_fatal: bool) -> int:
    """1 when the job should fail: stale docs in check mode, else problems when asked to fail on them."""
    if mode == "check":
        return 1 if report.count("failed") else 0
    problems = any(r.status == "failed" or r.fatal_issues for r in report.results)
    return 1 if fail_on_fatal and problems else 0


def stale_report(entries: Sequence[StaleEntry], base: str, head: str) -> RunReport:
    """Check-mode results: every function whose doc is missing, stale or orphaned, as a failure."""
    results = [FunctionResult(e.module, e.qualname, "failed", reason=STALE_REASONS[e.status], path=e.path,
                              doc_path=e.doc_path) for e in entries]
    return RunReport(results=results, base=base, head=head)


def post_comment(inputs: ActionInputs, body: str, out: TextIO) -> CommentOutcome:
    """Create or update the sticky comment; returns what happened. Never fails the job."""
    if inputs.pr_number is None:
        print("::notice::not a pull_request event: no PR comment; results are in the job summary", file=out)
        return CommentOutcome(CommentStatus.SKIPPED, "not a pull request")
    try:
        with GitHubClient(inputs.api_url, inputs.token, inputs.repo) as github:
            outcome = github.upsert_sticky_comment(inputs.pr_number, body)
    except GitHubError as err:
        print(annotation("warning", f"docbot could not post the PR comment: {err}"), file=out)
        return CommentOutcome(CommentStatus.FAILED, str(err))
    print(f"PR comment {outcome} on #{inputs.pr_number}", file=out)
    return CommentOutcome(CommentStatus(outcome))


def commit_step(inputs: ActionInputs, written: Sequence[str], out: TextIO) -> str | None:
    """Push the docs to the PR branch; returns the new commit, None when there was nothing to push."""
    if inputs.head_repo and inputs.head_repo != inputs.repo:
        print(annotation("warning", "mode commit cannot push to a fork's branch; the docs are in the "
                         "job summary and the PR comment instead."), file=out)
        return None
    if not inputs.head_ref:
        raise RepoError("mode commit needs the PR's branch name (pull_request.head.ref in the event); "
                        "run it on pull_request events.")
    commit = commit_docs(inputs.workspace, written, inputs.head, inputs.head_ref, inputs.token)
    print(f"pushed {commit[:12]} to {inputs.head_ref}" if commit else "docs already current on the branch",
          file=out)
    return commit


def append_file(path: str, text: str) -> None:
    """Append to a file the runner gave us (summary, outputs); nothing to do when run by hand."""
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(text if text.endswith("\n") else text + "\n")


def write_outputs(path: str, values: Mapping[str, str]) -> None:
    """Step outputs in ``$GITHUB_OUTPUT``'s format, multi-line values included."""
    lines = []
    for name, value in values.items():
        # The multi-line form with a delimiter that cannot occur in the value.
        delimiter = "docbot_EOF"
        while delimiter in value:
            delimiter += "_"
        lines.append(f"{name}<<{delimiter}\n{value}\n{delimiter}\n" if "\n" in value else f"{name}={value}\n")
    append_file(path, "".join(lines))


def annotation(level: Literal["error", "warning", "notice"], message: str) -> str:
    """A workflow command; % and newlines are escaped so the message stays one annotation."""
    return f"::{level} title=docbot::{escape_data(message)}"
