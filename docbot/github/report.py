"""Run results as Markdown for GitHub: the sticky PR comment and the job summary (pure).

Model text ends up in a page other people read, so everything that did not come from docbot itself is
escaped: table cells get HTML entities (a ``|`` would split the cell, ``<script>`` would be HTML, a
backtick would open a code span) and the final docs sit in fenced blocks whose fence is longer than
any backtick run inside. Sizes are counted in UTF-8 bytes, which is never less than any way GitHub
might count characters, so a body that fits here fits there.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import quote

from docbot.results import FunctionResult, RunReport, ScanError, score_curve

MARKER = "<!-- docbot:sticky -->"
COMMENT_LIMIT = 65_536  # GitHub refuses longer comment bodies with 422 "Body is too long"
SUMMARY_LIMIT = 1_000_000  # a step summary may hold 1 MiB; leave room for a note appended later
MIN_DOC_BYTES = 400  # below this a truncated doc says nothing useful, so drop whole docs instead
MAX_FATAL_SHOWN = 3
MAX_CELL_CHARS = 200
MAX_SCAN_ERRORS = 20

Verdict = Literal["approved", "below_bar", "fatal", "failed", "skipped", "unchanged", "removed"]
ICONS: dict[Verdict, str] = {"approved": "✅", "below_bar": "⚠️", "fatal": "❌", "failed": "❌",
                             "skipped": "⏭️", "unchanged": "➖", "removed": "🗑️"}

# Entities, not backslashes: GitHub splits table cells on "|" before inline parsing, and entities
# survive inside inline HTML too. "@" gets a zero-width space so model text cannot ping people.
_CELL_ESCAPES = str.maketrans({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "&#124;", "`": "&#96;", "\\": "&#92;",
    "*": "&#42;", "_": "&#95;", "[": "&#91;", "]": "&#93;", "~": "&#126;", "@": "@\u200b",
})


@dataclass(frozen=True)
class Links:
    """Where the docs can be read on GitHub: ``{server_url}/{repo}/blob/{ref}/{doc_path}``."""

    server_url: str
    repo: str
    ref: str
    existing: frozenset[str] | None = None  # doc paths known to exist at ``ref``; None: assume all do

    def doc_url(self, doc_path: str) -> str | None:
        if not (doc_path and self.server_url and self.repo and self.ref):
            return None
        if self.existing is not None and doc_path not in self.existing:
            return None  # a link to a file the commit does not have would be a 404
        return (f"{self.server_url.rstrip('/')}/{quote(self.repo, safe='/')}/blob/"
                f"{quote(self.ref, safe='')}/{quote(doc_path.lstrip('/'), safe='/')}")


def verdict(result: FunctionResult) -> Verdict:
    """One word for how a function ended; the order matters (a failure outranks everything)."""
    if result.status == "failed":
        return "failed"
    if result.fatal_issues:
        return "fatal"
    if result.status in ("skipped", "unchanged"):
        return result.status
    if result.removed:  # a deleted function's section, dropped by docbot run
        return "removed"
    return "approved" if result.approved else "below_bar"


def escape_cell(text: str, max_chars: int = MAX_CELL_CHARS) -> str:
    """Model text made safe for one GFM table cell: one line, no HTML, no Markdown syntax."""
    one_line = " ".join(text.split())
    if len(one_line) > max_chars:
        one_line = one_line[: max_chars - 1].rstrip() + "…"
    return one_line.translate(_CELL_ESCAPES)


def fence_for(text: str) -> str:
    """A backtick fence longer than any backtick run in ``text``, so the text cannot close it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


def utf8_size(text: str) -> int:
    return len(text.encode("utf-8"))


def render_comment(report: RunReport, links: Links | None = None, *, title: str = "docbot: API docs",
                   limit: int = COMMENT_LIMIT) -> str:
    """The sticky PR comment: marker first (never cut), then the table, then the final docs."""
    return _render(report, links, title, limit, marker=True)


def render_summary(report: RunReport, links: Links | None = None, *, title: str = "docbot: API docs",
                   limit: int = SUMMARY_LIMIT) -> str:
    """The same content for ``$GITHUB_STEP_SUMMARY`` (no marker, a much larger limit)."""
    return _render(report, links, title, limit, marker=False)


def _render(report: RunReport, links: Links | None, title: str, limit: int, *, marker: bool) -> str:
    head = (f"{MARKER}\n" if marker else "") + f"## {html.escape(title)}\n\n{_counts_line(report)}\n\n"
    if limit < 1024:
        raise ValueError(f"limit {limit} is too small to say anything useful")
    tail = _scan_errors(report.scan_errors) + _footer(report, sticky=marker)
    if not report.results:
        return _fit_text(head + "No changed public functions.\n\n" + tail, limit)
    rows = [_row(r, links) for r in report.results]
    table_head = "| | function | score trajectory vs bar | rounds | exit | fatal issues still standing |\n" \
                 "|---|---|---|---|---|---|\n"
    fixed = utf8_size(head) + utf8_size(table_head) + sum(map(utf8_size, rows)) + utf8_size(tail)
    if fixed > limit:  # even without any doc the table is too long: keep the first rows
        return _fit_text(head + table_head + _fit_rows(rows, limit - utf8_size(head + table_head + tail))
                         + tail, limit)
    details = _fit_details([r for r in report.results if r.markdown], limit - fixed - 2)
    return head + table_head + "".join(rows) + "\n" + details + tail


def _counts_line(report: RunReport) -> str:
    verdicts = [verdict(r) for r in report.results]
    labels: dict[Verdict, str] = {"approved": "approved", "below_bar": "below the bar",
                                  "fatal": "with fatal issues", "failed": "failed", "skipped": "skipped",
                                  "unchanged": "already current", "removed": "removed"}
    parts = [f"{ICONS[v]} {verdicts.count(v)} {label}" for v, label in labels.items() if v in verdicts]
    noun = "function" if len(verdicts) == 1 else "functions"
    return f"**{len(verdicts)} {noun}**" + (": " + " · ".join(parts) if parts else "")


def _row(result: FunctionResult, links: Links | None) -> str:
    name = f"<code>{escape_cell(result.key, max_chars=300)}</code>"
    url = links.doc_url(result.doc_path) if links else None
    if url:
        name = f"[{name}]({url})"
    trajectory = f"{score_curve(result.scores)} vs {result.bar}" if result.scores else "—"
    exit_text = result.exit_reason or result.status
    if verdict(result) == "removed":
        exit_text = "doc section removed (function deleted)"
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


def _details(result: FunctionResult, doc: str, fence: str, truncated_by: int) -> str:
    summary = f"<code>{html.escape(result.key)}</code>: final doc"
    if result.scores:
        summary += f" ({result.scores[-1]}/{result.bar})"
    note = ""
    if truncated_by:
        where = f" in <code>{html.escape(result.doc_path)}</code>" if result.doc_path else ""
        note = f"<em>Truncated: {truncated_by:,} more bytes{where}.</em>\n\n"
    return (f"<details><summary>{summary}</summary>\n\n{fence}markdown\n{doc}\n{fence}\n\n"
            f"{note}</details>\n\n")


def _clean_doc(markdown: str) -> str:
    return markdown.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "").strip("\n")


def _fit_details(results: list[FunctionResult], budget: int) -> str:
    """Final docs in collapsible blocks: all of them, else each cut to a fair share, else fewer."""
    docs = [_clean_doc(r.markdown) for r in results]
    fences = [fence_for(d) for d in docs]
    omitted_note = "_Final docs of {} functions left out to stay under GitHub's size limit._\n\n"
    for shown in range(len(results), -1, -1):
        room = budget - (utf8_size(omitted_note.format(len(results))) if shown < len(results) else 0)
        # Overhead of each block measured with an empty doc and the longest possible truncation note.
        room -= sum(utf8_size(_details(r, "", f, 10**12)) for r, f in zip(results[:shown], fences))
        sizes = [utf8_size(d) for d in docs[:shown]]
        cap = _water_level(sizes, room)
        if cap is None or (cap < max(sizes, default=0) and cap < MIN_DOC_BYTES):
            continue  # cutting docs this short helps nobody: show fewer, whole-ish ones
        blocks = []
        for result, doc, fence in zip(results[:shown], docs[:shown], fences):
            cut = doc.encode("utf-8")[:cap].decode("utf-8", "ignore")
            blocks.append(_details(result, cut, fence, utf8_size(doc) - utf8_size(cut)))
        note = omitted_note.format(len(results) - shown) if shown < len(results) else ""
        return "".join(blocks) + note
    return ""


def _water_level(sizes: list[int], room: int) -> int | None:
    """The largest cap with ``sum(min(size, cap)) <= room``; None when even an empty share cannot fit."""
    if room < 0:
        return None
    remaining = room
    ordered = sorted(sizes)
    for index, size in enumerate(ordered):
        share = remaining // (len(ordered) - index)
        if size > share:
            return share
        remaining -= size
    return max(ordered, default=0)


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
