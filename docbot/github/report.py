"""Run results as Markdown for GitHub: the sticky PR comment and the job summary (pure).

Model text ends up in a page other people read, so everything that did not come from docbot itself is
escaped: table cells get HTML entities (a ``|`` would split the cell, ``<script>`` would be HTML, a
backtick would open a code span); the final docs' blocks are ``docbot.github.details``. In check
mode the comment is the list of docs to write, with the command that writes them. Sizes are counted
in UTF-8 bytes, which is never less than any way GitHub might count characters, so a body that fits
here fits there.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, cast
from urllib.parse import quote

from docbot.github.details import MAX_CELL_CHARS, escape_cell, fence_for, fit_details, utf8_size
from docbot.apidocs.render import anchor
from docbot.results import Cause, FunctionResult, Outcome, RunReport, ScanError, plural, score_curve

__all__ = ["COMMENT_LIMIT", "MARKER", "MAX_CELL_CHARS", "Extras", "Links", "escape_cell", "fence_for",
           "render_comment", "render_summary", "utf8_size", "verdict"]

MARKER = "<!-- docbot:sticky -->"
COMMENT_LIMIT = 65_536  # GitHub refuses longer comment bodies with 422 "Body is too long"
SUMMARY_LIMIT = 1_000_000  # a step summary may hold 1 MiB; leave room for a note appended later
MAX_FATAL_SHOWN = 3
MAX_SCAN_ERRORS = 20

Verdict = Literal["approved", "below_bar", "fatal", "failed", "skipped", "unchanged", "removed", "unreviewed"]
ICONS: dict[Verdict, str] = {"approved": "✅", "below_bar": "⚠️", "fatal": "❌", "failed": "❌",
                             "skipped": "⏭️", "unchanged": "➖", "removed": "🗑️", "unreviewed": "❔"}
# An unapproved section is one of two verdicts, by its cause: the reader needs the why.
_UNAPPROVED: dict[Cause | None, Verdict] = {Cause.CONTRADICTIONS: "fatal", Cause.BELOW_BAR: "below_bar",
                                            None: "below_bar"}


@dataclass(frozen=True)
class Links:
    """Where the docs can be read on GitHub: ``{server_url}/{repo}/blob/{ref}/{doc_path}#{anchor}``.

    Only what exists gets a link: a doc file ``ref`` has (``existing``), and a section there that is
    the one the comment talks about. In comment mode the run's new docs are not committed, so ``ref``
    (the PR head) still holds the *old* doc of every function the run updated: those get no link
    (``fresh`` False); the final doc is in the comment itself.
    """

    server_url: str
    repo: str
    ref: str
    existing: frozenset[str] | None = None  # doc paths known to exist at ``ref``; None: assume all do
    fresh: bool = True  # ``ref`` holds the docs this run wrote (commit mode, after the push)

    def doc_url(self, doc_path: str) -> str | None:
        if not (doc_path and self.server_url and self.repo and self.ref):
            return None
        if self.existing is not None and doc_path not in self.existing:
            return None  # a link to a file the commit does not have would be a 404
        return (f"{self.server_url.rstrip('/')}/{quote(self.repo, safe='/')}/blob/"
                f"{quote(self.ref, safe='')}/{quote(doc_path.lstrip('/'), safe='/')}")

    def result_url(self, result: FunctionResult) -> str | None:
        """The function's section at ``ref``, when ``ref`` has the doc this comment shows."""
        current = result.outcome is Outcome.UNCHANGED or (self.fresh and result.ended.written)
        url = self.doc_url(result.doc_path) if current else None
        if url is None:
            return None
        try:
            return f"{url}#{quote(anchor(result.module, result.qualname), safe='')}"
        except ValueError:  # not a dotted name (a hand-made report): the file itself
            return url


@dataclass(frozen=True)
class Extras:
    """What the publishing step adds from git and GitHub to a run's report."""

    old_docs: Mapping[str, str] = field(default_factory=dict)  # key -> the section body the new doc replaces
    last_runs: Mapping[str, str] = field(default_factory=dict)  # key -> the last trajectory of a current doc
    lines: Mapping[str, str] = field(default_factory=dict)  # key -> "path:line" at the head
    apply: str = ""  # comment mode: how to apply the docs (Markdown, docbot's own)
    fix: str = ""  # check mode: the command that brings every doc up to date
    docstrings: str = ""  # docstring suggestions that could not sit in the review


def verdict(result: FunctionResult) -> Verdict:
    """One word for how a function ended: its outcome (decided by the loop's finish step, never
    recomputed here), an unapproved one split by its cause."""
    if result.outcome is Outcome.UNAPPROVED:
        return _UNAPPROVED[result.cause]
    return cast(Verdict, str(result.outcome))


def render_comment(report: RunReport, links: Links | None = None, *, title: str = "docbot: API docs",
                   limit: int = COMMENT_LIMIT, extras: Extras | None = None, check: bool = False) -> str:
    """The sticky PR comment: marker first (never cut), then the table (check mode: the list of what
    is missing), then the final docs and how to apply them."""
    return _render(report, links, title, limit, extras or Extras(), marker=True, check=check)


def render_summary(report: RunReport, links: Links | None = None, *, title: str = "docbot: API docs",
                   limit: int = SUMMARY_LIMIT, extras: Extras | None = None, check: bool = False) -> str:
    """The same content for ``$GITHUB_STEP_SUMMARY`` (no marker, a much larger limit)."""
    return _render(report, links, title, limit, extras or Extras(), marker=False, check=check)


def _render(report: RunReport, links: Links | None, title: str, limit: int, extras: Extras, *, marker: bool,
            check: bool) -> str:
    if limit < 1024:
        raise ValueError(f"limit {limit} is too small to say anything useful")
    if check:
        return _fit_text(render_check(report, links, title, extras, marker=marker), limit)
    head = (f"{MARKER}\n" if marker else "") + f"## {html.escape(title)}\n\n{_counts_line(report)}\n\n"
    tail = extras.docstrings + extras.apply + _scan_errors(report.scan_errors) + _footer(report, sticky=marker)
    if not report.results:
        return _fit_text(head + "No changed public functions.\n\n" + tail, limit)
    rows = [_row(r, links, extras) for r in report.results]
    table_head = "| | function | score trajectory vs bar | rounds | exit | fatal issues still standing |\n" \
                 "|---|---|---|---|---|---|\n"
    fixed = utf8_size(head) + utf8_size(table_head) + sum(map(utf8_size, rows)) + utf8_size(tail)
    if fixed > limit:  # even without any doc the table is too long: keep the first rows
        return _fit_text(head + table_head + _fit_rows(rows, limit - utf8_size(head + table_head + tail))
                         + tail, limit)
    details = fit_details([r for r in report.results if r.markdown], extras.old_docs, limit - fixed - 2)
    return head + table_head + "".join(rows) + "\n" + details + tail


def render_check(report: RunReport, links: Links | None, title: str, extras: Extras, *, marker: bool) -> str:
    """Check mode: how many functions are current, then one line per doc to write, with the fix."""
    missing = report.outcomes(Outcome.FAILED)
    current = len(report.results) - len(missing)
    head = (f"{MARKER}\n" if marker else "") + f"## {html.escape(title)}\n\n"
    counts = f"**{plural(len(report.results), 'function')} checked**: ✅ {current} current"
    if not missing:
        return head + counts + "\n\n" + _scan_errors(report.scan_errors) + _footer(report, sticky=marker)
    lines = []
    for result in missing:
        where = extras.lines.get(result.key) or result.path
        place = f" (<code>{escape_cell(where)}</code>)" if where else ""
        lines.append(f"- ❌ <code>{escape_cell(result.key, max_chars=300)}</code>{place}: {escape_cell(result.reason)}")
    fix = f"\n\n**Fix:** {extras.fix}" if extras.fix else ""
    return (head + counts + f" · ❌ {len(missing)} to write or update\n\n" + "\n".join(lines) + fix + "\n\n"
            + _scan_errors(report.scan_errors) + _footer(report, sticky=marker))


def _counts_line(report: RunReport) -> str:
    verdicts = [verdict(r) for r in report.results]
    labels: dict[Verdict, str] = {"approved": "approved", "fatal": "unapproved: contradicted the code",
                                  "below_bar": "unapproved: below the bar", "failed": "failed",
                                  "skipped": "skipped", "unchanged": "already current", "removed": "removed",
                                  "unreviewed": "written without a verdict"}
    parts = [f"{ICONS[v]} {verdicts.count(v)} {label}" for v, label in labels.items() if v in verdicts]
    return f"**{plural(len(verdicts), 'function')}**" + (": " + " · ".join(parts) if parts else "")


def _row(result: FunctionResult, links: Links | None, extras: Extras) -> str:
    name = f"<code>{escape_cell(result.key, max_chars=300)}</code>"
    url = links.result_url(result) if links else None
    if url:
        name = f"[{name}]({url})"
    trajectory = f"{score_curve(result.scores)} vs {result.bar}" if result.scores else "—"
    if result.outcome is Outcome.UNCHANGED and result.key in extras.last_runs:
        trajectory = escape_cell(extras.last_runs[result.key])
    exit_text = str(result.exit_reason or result.status)
    if result.outcome is Outcome.UNCHANGED and not result.reason:
        exit_text = "doc current (code unchanged)"
    if result.outcome is Outcome.REMOVED:
        exit_text = "doc section removed (function deleted)"
    elif result.outcome is Outcome.UNAPPROVED:
        exit_text = result.why()  # why a person should check it, never a score that passed read as below
    elif result.reason:
        exit_text += f": {result.reason}"
    fatal = [escape_cell(issue) for issue in result.fatal_issues[:MAX_FATAL_SHOWN]]
    if len(result.fatal_issues) > MAX_FATAL_SHOWN:
        fatal.append(f"+{len(result.fatal_issues) - MAX_FATAL_SHOWN} more")
    cells = [ICONS[verdict(result)], name, trajectory, str(result.rounds or "—"),
             escape_cell(exit_text), "<br>".join(fatal) or "—"]
    return "| " + " | ".join(cells) + " |\n"


def _fit_rows(rows: list[str], budget: int) -> str:
    note = "\n_{} more functions left out to stay under GitHub's size limit; see the JSON report._\n\n"
    budget -= utf8_size(note.format(len(rows)))
    kept, used = 0, 0
    while kept < len(rows) and used + utf8_size(rows[kept]) <= budget:
        used += utf8_size(rows[kept])
        kept += 1
    return "".join(rows[:kept]) + note.format(len(rows) - kept)


def _scan_errors(errors: list[ScanError]) -> str:
    if not errors:
        return ""
    lines = [f"- {escape_cell(str(e))}" for e in errors[:MAX_SCAN_ERRORS]]
    if len(errors) > MAX_SCAN_ERRORS:
        lines.append(f"- and {len(errors) - MAX_SCAN_ERRORS} more")
    return "**Files that could not be scanned** (skipped):\n\n" + "\n".join(lines) + "\n\n"


def _footer(report: RunReport, *, sticky: bool) -> str:
    span = f" on <code>{html.escape(report.base[:12])}..{html.escape(report.head[:12])}</code>" \
        if report.base or report.head else ""
    updated = " · this comment is updated in place on every run" if sticky else ""
    return f"<sub>docbot{span}{updated}</sub>\n"


def _fit_text(text: str, limit: int) -> str:
    """Last resort (dozens of long scan errors): cut the end; the marker at the start survives."""
    if utf8_size(text) <= limit:
        return text
    return text.encode("utf-8")[:limit].decode("utf-8", "ignore")
