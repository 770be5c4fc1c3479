"""The drift gate in a pull request: each hand-written doc line the PR made false as an ``::error`` annotation,
each stale stated output as a suggestion on the doc line when that line is in the PR's diff, and a list in the
job summary (docs/design.md#drift-gate).

The run step (no token) finds the drift and writes it next to the run's report; the publish step (the token)
reads it back and posts. Every piece of text comes from the repository's docs or the code's output, so it is
redacted, then escaped as annotate.py does for a function's annotation (docs/design.md#trust).
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from pathlib import Path

from docbot.errors import ConfigError, GitHubError
from docbot.github.annotate import annotation_line
from docbot.github.client import GitHubClient
from docbot.github.logsafe import escape_data
from docbot.github.details import fence_for
from docbot.github.sources import PrSources, within
from docbot.paths import write_atomic
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the Action's front imports this module; the verify room loads only when there is drift
    from docbot.verify.project.report import DriftReport
    from docbot.verify.project.suggest import OutputFix

DRIFT_MARKER = "<!-- docbot:doc-drift -->"
# GitHub shows at most 10 error annotations per step; past the cap the rest are in the summary, said once.
ANNOTATION_CAP = 10
TITLE = "docbot: stale doc"


def drift_annotations(drift: DriftReport, redact: Callable[[str], str] = str,
                      cap: int = ANNOTATION_CAP) -> list[str]:
    """One ``::error file=DOC,line=N`` per contradiction the PR introduced (redacted before escaped), up to
    ``cap``; then one notice saying how many more the job summary lists."""
    found = [f"::error title=docbot::{escape_data(redact(f'the drift gate could not judge this PR: {drift.error}'))}"
             ] if drift.error else []
    found += [annotation_line(redact(path), TITLE, redact(
        f"{count} claim(s) of this doc were left unverified (a block timed out or ended the session), and the doc "
        "uses the code this PR changes: the gate cannot pass it."), None) for path, count in drift.unverified]
    for item in drift.introduced[:cap]:
        lines = (item.line, item.line) if item.line else None
        found.append(annotation_line(redact(item.path), TITLE, redact(
            f"{item.message}. This PR's code makes the doc false: fix the doc, or the code if the doc is right."),
            lines))
    if len(drift.introduced) > cap:
        found.append(f"::notice title=docbot::{len(drift.introduced) - cap} more stale doc lines are listed in "
                     "the job summary")
    return found


def suggestion_comments(drift: DriftReport, sources: PrSources) -> list[dict[str, object]]:
    """Review comments carrying each fix as a suggestion, for the fixes whose lines are in the PR's diff
    (GitHub takes a review comment only there)."""
    return [_comment(fix) for fix in drift.fixes if within(sources.hunks(fix.path), fix.start, fix.end)]


def _comment(fix: OutputFix) -> dict[str, object]:
    fence = fence_for(fix.text)
    body = (f"{DRIFT_MARKER}\n**docbot:** {html.escape(fix.message)}. The stated output, as the code gives it "
            f"now (the code may be what is wrong: check before you commit it):\n\n{fence}suggestion\n{fix.text}\n"
            f"{fence}\n")
    comment: dict[str, object] = {"path": fix.path, "line": fix.end, "side": "RIGHT", "body": body}
    if fix.start < fix.end:
        comment |= {"start_line": fix.start, "start_side": "RIGHT"}
    return comment


def post_drift_review(pr_number: int | None, client: Callable[[], GitHubClient], head: str, drift: DriftReport,
                      sources: PrSources, log: Callable[[str], None], redact: Callable[[str], str]) -> int:
    """The suggestions as a review replacing docbot's last drift review; how many were posted. Never fails
    the job: a refused review leaves the annotations and the summary."""
    comments = suggestion_comments(drift, sources)
    if pr_number is None or not (comments or drift.changed):
        return 0
    try:
        with client() as github:
            github.replace_review(pr_number, head, f"{DRIFT_MARKER}\ndocbot: stale outputs in hand-written docs",
                                  [{**c, "body": redact(str(c["body"]))} for c in comments], DRIFT_MARKER)
    except GitHubError as err:
        log(f"::warning title=docbot::{escape_data(redact(f'docbot could not post the stale-doc review: {err}'))}")
        return 0
    if comments:  # none: the call only took back the suggestions of an earlier push
        log(f"review with {len(comments)} stale-output suggestions on #{pr_number}")
    return len(comments)


def drift_file(report: Path) -> Path:
    """Where the run step leaves the drift, beside the run's report."""
    return report.with_name(report.name + ".drift.json")


def write_drift(path: Path, drift: DriftReport, redact: Callable[[str], str]) -> None:
    try:
        write_atomic(path, redact(json.dumps(drift.to_json(), ensure_ascii=False)) + "\n")
    except OSError as err:
        raise ConfigError(f"{path}: cannot write the drift report ({err.strerror}).") from err


def read_drift(path: Path) -> DriftReport | None:
    """The drift the run step found; None when it found none to write (not check mode)."""
    from docbot.verify.project.report import DriftReport

    if not path.is_file():
        return None
    try:
        return DriftReport.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise ConfigError(f"{path}: not a docbot drift report ({err}).") from err
