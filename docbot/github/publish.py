"""The Action's publishing step: a run's report -> commit (commit mode), job summary, sticky comment,
JSON report and step outputs, and the job's exit code.

The job summary is written first and always: a read-only token (fork PRs) cannot post the comment,
and the summary is then where the results are. Posting the comment never fails the job.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from docbot.errors import GitHubError, RepoError, outcome_code
from docbot.github.annotate import SiteOf, counts, error_annotations, outcome
from docbot.github.client import GitHubClient
from docbot.github.commit import commit_docs, docs_at
from docbot.github.extras import gather_extras
from docbot.github.logsafe import Redactor, escape_data
from docbot.github.report import Links, render_comment, render_summary
from docbot.github.sources import PrSources
from docbot.results import FunctionResult, Outcome, RunReport, Target
from docbot.paths import write_atomic

if TYPE_CHECKING:
    from docbot.check import StaleEntry
    from docbot.verify.project.report import DriftReport

Mode = Literal["comment", "commit", "check"]
# One line of the job log (workflow commands included); the front decides where it goes.
LogLine = Callable[[str], None]
MODES: tuple[Mode, ...] = ("comment", "commit", "check")

STALE_REASONS = {"missing": "no doc section yet", "stale": "doc is stale: the code changed since",
                 "orphaned": "doc section of a function that no longer exists",
                 "contradicted": "its section (a person's, or one whose verdict docbot did not give) contradicts "
                                 "the code",
                 "duplicate": "more than one section: which is docbot's cannot be told"}
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


def publish(inputs: ActionInputs, report: RunReport, log: LogLine, redact: Redactor | None = None, *,
            docstrings: bool = False, docstring_style: str = "auto", drift: DriftReport | None = None) -> int:
    """Commit (commit mode), annotations, review (docstrings), summary, comment, JSON report, patch and
    outputs; returns the exit code. ``docstring_style``: the run's setting, so the review's suggestions are
    written in the project's style (docbot.docstrings.style), not one guessed per file.

    Log lines go to ``log``. Everything published goes through ``redact`` (default: the token and the
    known secret shapes)."""
    redact = redact or Redactor.of([inputs.token])
    log(report.summary_line())
    check = inputs.mode == "check"
    sources = PrSources(inputs.workspace, inputs.base, inputs.head)
    link_ref, fresh, commit_failed = _commit(inputs, report, log)
    site_of: SiteOf = lambda r: sources.site(r.path, r.module, r.qualname)  # noqa: E731 - one use
    for line in error_annotations(report, check, site_of, fix_text(inputs), redact):
        log(redact(line))
    if drift is not None:  # the hand-written docs this PR made false (docs/design.md#drift-gate)
        _publish_drift(inputs, drift, sources, log, redact)
    wants_review = docstrings and inputs.mode == "comment"
    fallback = post_review(inputs, report, sources, log, redact, docstring_style) if wants_review else ""
    patch = inputs.report_dir / "docbot-docs.patch"
    extras = gather_extras(report, sources, inputs.mode, patch, fallback, redact)
    links = Links(inputs.server_url, inputs.repo, link_ref,
                  docs_at(inputs.workspace, link_ref, {r.doc_path for r in report.results if r.doc_path}), fresh)
    title = TITLES[inputs.mode]
    append_file(inputs.summary_path, redact(render_summary(report, links, title=title, extras=extras, check=check)))
    comment = post_comment(inputs, redact(render_comment(report, links, title=title, extras=extras, check=check)),
                           log)
    if comment.status is CommentStatus.FAILED:
        append_file(inputs.summary_path, redact(f"\n> [!WARNING]\n> The PR comment could not be posted: "
                                                f"{comment.detail}\n"))
    write_outputs(inputs.output_path, {**_report_file(inputs, report, comment, redact),
                                       "patch": str(patch) if patch.is_file() else ""})
    if commit_failed:
        return RepoError.exit_code
    code = exit_code_for(report, inputs.mode, inputs.fail_on_fatal)
    return drift.exit_code(code) if drift is not None else code


def _publish_drift(inputs: ActionInputs, drift: DriftReport, sources: PrSources, log: LogLine,
                   redact: Redactor) -> None:
    from docbot.github.drift import drift_annotations, post_drift_review  # only with a drift gate

    for line in drift_annotations(drift, redact):
        log(redact(line))
    post_drift_review(inputs.pr_number, lambda: GitHubClient(inputs.api_url, inputs.token, inputs.repo),
                      inputs.head, drift, sources, log, redact)
    if text := drift.markdown():
        append_file(inputs.summary_path, redact(text))


def _report_file(inputs: ActionInputs, report: RunReport, comment: CommentOutcome,
                 redact: Redactor) -> dict[str, str]:
    """Writes the JSON report; returns the step outputs that describe the run."""
    numbers = counts(report)
    report_path = inputs.report_dir / "docbot-report.json"
    write_atomic(report_path, redact(json.dumps({"mode": inputs.mode, "pull_request": inputs.pr_number,
                                                 "comment": str(comment), **report.to_json(), **numbers,
                                                 "outcome": outcome(report, inputs.mode == "check")},
                                                indent=2)) + "\n")
    return {"functions": str(len(report.results)), **{k: str(v) for k, v in numbers.items()},
            "fatal": str(sum(1 for r in report.results if r.fatal_issues)),
            "outcome": outcome(report, inputs.mode == "check"), "report": str(report_path)}


def _commit(inputs: ActionInputs, report: RunReport, log: LogLine) -> tuple[str, bool, bool]:
    """Commit mode's push: the ref the links point at, whether it holds the new docs, and whether
    the push failed."""
    if inputs.mode != "commit":  # the run's docs are in the workspace only: the head has the old ones
        return inputs.head, False, False
    if not report.written:
        return inputs.head, True, False
    try:
        pushed = commit_step(inputs, report.written, log)
    except RepoError as err:
        log(annotation("error", str(err)))
        return inputs.head, False, True
    if pushed is None:  # a fork (nothing pushed), or the branch had the docs already
        return inputs.head, not _is_fork(inputs), False
    return pushed, True, False


def fix_text(inputs: ActionInputs) -> str:
    """What a person runs on the PR branch to bring every doc up to date."""
    return f"Run `docbot run --base {inputs.base}` on the PR branch and commit docs/api."


def post_review(inputs: ActionInputs, report: RunReport, sources: PrSources, log: LogLine,
                redact: Redactor | None = None, style: str = "auto") -> str:
    """The docstring suggestions as a review replacing docbot's last one; returns the Markdown of
    those that could not be suggested, for the sticky comment. Never fails the job."""
    from docbot.github.review import REVIEW_MARKER, Fallback, Suggestion, render_fallbacks, suggest, wanted

    found = [suggest(r, sources, style) for r in report.results if wanted(r)]
    suggestions = [s for s in found if isinstance(s, Suggestion)]
    fallbacks = [s for s in found if isinstance(s, Fallback)]
    if inputs.pr_number is None:
        return render_fallbacks([Fallback(s.key, "\n".join(s.lines)) for s in suggestions] + fallbacks, inputs.base)
    try:
        with GitHubClient(inputs.api_url, inputs.token, inputs.repo) as github:
            # Redacted last: each suggestion's body is published as it is here (docs/design.md#trust).
            clean = redact or Redactor.of([inputs.token])
            github.replace_review(inputs.pr_number, inputs.head, f"{REVIEW_MARKER}\ndocbot: docstring suggestions",
                                  [{**c, "body": clean(str(c["body"]))} for c in (s.to_json() for s in suggestions)],
                                  REVIEW_MARKER)
    except GitHubError as err:
        log(annotation("warning", f"docbot could not post the docstring review: {err}"))
        fallbacks = [Fallback(s.key, "\n".join(s.lines)) for s in suggestions] + fallbacks
    else:
        log(f"review with {len(suggestions)} docstring suggestions on #{inputs.pr_number}")
    return render_fallbacks(fallbacks, inputs.base)


def _is_fork(inputs: ActionInputs) -> bool:
    return bool(inputs.head_repo) and inputs.head_repo != inputs.repo


def exit_code_for(report: RunReport, mode: Mode, fail_on_fatal: bool) -> int:
    """The job's code, by the rule in docbot/errors.py: 1 for stale docs in check mode, else 1 for a
    failure or a contradiction still standing when asked to fail on them; the Action never exits 6
    (its comment and annotations carry the unapproved sections)."""
    failed = bool(report.outcomes(Outcome.FAILED))
    if mode == "check":
        return outcome_code(findings=failed)
    problems = failed or any(r.fatal_issues for r in report.results)
    return outcome_code(findings=fail_on_fatal and problems)


def stale_report(entries: Sequence[StaleEntry], base: str, head: str,
                 current: Sequence[Target] = ()) -> RunReport:
    """Check-mode results: every function whose doc is missing, stale or orphaned, as a failure, and
    each function in scope whose doc is current as ``unchanged`` (so the counts cover them)."""
    results = [FunctionResult(e.module, e.qualname, "failed", reason=STALE_REASONS[e.status], path=e.path,
                              doc_path=e.doc_path) for e in entries]
    stale = {r.key for r in results}
    results += [FunctionResult(t.module, t.qualname, "unchanged", reason="doc current", path=t.path)
                for t in current if t.key not in stale]
    return RunReport(results=results, base=base, head=head)


def post_comment(inputs: ActionInputs, body: str, log: LogLine) -> CommentOutcome:
    """Create or update the sticky comment; returns what happened. Never fails the job."""
    if inputs.pr_number is None:
        log("::notice::not a pull_request event: no PR comment; results are in the job summary")
        return CommentOutcome(CommentStatus.SKIPPED, "not a pull request")
    try:
        with GitHubClient(inputs.api_url, inputs.token, inputs.repo) as github:
            outcome = github.upsert_sticky_comment(inputs.pr_number, body)
    except GitHubError as err:
        log(annotation("warning", f"docbot could not post the PR comment: {err}"))
        return CommentOutcome(CommentStatus.FAILED, str(err))
    log(f"PR comment {outcome} on #{inputs.pr_number}")
    return CommentOutcome(CommentStatus(outcome))


def commit_step(inputs: ActionInputs, written: Sequence[str], log: LogLine) -> str | None:
    """Push the docs to the PR branch; returns the new commit, None when there was nothing to push."""
    if _is_fork(inputs):
        log(annotation("warning", "mode commit cannot push to a fork's branch; the docs are in the "
                                  "job summary and the PR comment instead."))
        return None
    if not inputs.head_ref:
        raise RepoError("mode commit needs the PR's branch name (pull_request.head.ref in the event); "
                        "run it on pull_request events.")
    commit = commit_docs(inputs.workspace, written, inputs.head, inputs.head_ref, inputs.token)
    log(f"pushed {commit[:12]} to {inputs.head_ref}" if commit else "docs already current on the branch")
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
