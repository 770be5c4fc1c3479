"""The PR comment and job summary: escaping, links, trajectories, and the size limit.

Rendered Markdown is parsed back with markdown-it (CommonMark + GFM tables, HTML on), so "the table
is not broken" and "no HTML got through" are checked on the parse tree, not by eye.
"""

from __future__ import annotations

from typing import Any

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from docbot.github.report import (
    COMMENT_LIMIT,
    MARKER,
    Links,
    escape_cell,
    fence_for,
    render_comment,
    render_summary,
    utf8_size,
    verdict,
)
from docbot.results import FunctionResult, Outcome, RunReport, ScanError

ALLOWED_HTML = {"<code>", "</code>", "<br>", "<sub>", "</sub>", "<em>", "</em>", "</details>", MARKER}
HOSTILE = "a | b <script>alert(1)</script> `code` ``` ~~x~~ [l](http://evil) @octocat\nsecond line"


def result(qualname: str = "f", **fields: Any) -> FunctionResult:
    defaults: dict[str, Any] = {"module": "pkg.mod", "qualname": qualname, "status": "updated",
                                "doc_path": "docs/api/pkg.mod.md", "markdown": f"## {qualname}\n\nDoes things.",
                                "scores": [72, 85, 96], "rounds": 3, "exit_reason": "approved", "bar": 95}
    if fields.get("status", "updated") == "updated" and "outcome" not in fields:  # the finish step's word
        defaults["outcome"] = Outcome.UNAPPROVED if fields.get("exit_reason", "approved") != "approved" \
            or fields.get("fatal_issues") else Outcome.APPROVED
    return FunctionResult(**{**defaults, **fields})


def parse(markdown: str) -> list[Token]:
    return MarkdownIt("commonmark", {"html": True}).enable("table").parse(markdown)


def table_rows(tokens: list[Token]) -> list[list[Token]]:
    """The body rows of the (single) table, each a list of its cells' inline tokens."""
    rows, current, in_body = [], [], False
    for i, token in enumerate(tokens):
        in_body = in_body or token.type == "tbody_open"
        if in_body and token.type == "td_open":
            current.append(tokens[i + 1])
        if in_body and token.type == "tr_close":
            rows.append(current)
            current = []
    return rows


def html_fragments(tokens: list[Token]) -> set[str]:
    found: set[str] = set()
    for token in tokens:
        if token.type == "html_block":
            found.update(line.strip() for line in token.content.splitlines() if line.strip())
        for child in token.children or []:
            if child.type == "html_inline":
                found.add(child.content)
    return found


@pytest.mark.parametrize("fields, expected", [
    ({}, "approved"),
    ({"exit_reason": "attempts", "scores": [60, 70, 80, 90]}, "below_bar"),
    ({"exit_reason": "regression", "scores": [72, 60]}, "below_bar"),
    # A draft that reached the bar (96) and still ended unapproved was stopped by a contradiction.
    ({"exit_reason": "regression"}, "fatal"),
    ({"exit_reason": "approved", "fatal_issues": ["raises ValueError, doc says TypeError"]}, "fatal"),
    ({"exit_reason": "attempts", "fatal_issues": ["x"], "scores": [50]}, "fatal"),
    ({"outcome": Outcome.UNAPPROVED, "repairs": ("removed a failing example",)}, "fatal"),  # the critic passed it
    # The outcome decides; the exit reason and the fatal issues never overturn it.
    ({"outcome": Outcome.APPROVED, "exit_reason": "attempts", "scores": [10]}, "approved"),
    ({"outcome": Outcome.UNREVIEWED}, "unreviewed"),
    ({"status": "failed", "fatal_issues": ["x"], "reason": "model server down"}, "failed"),
    ({"status": "skipped", "reason": "time budget", "scores": [], "exit_reason": ""}, "skipped"),
    ({"status": "unchanged", "scores": [], "exit_reason": ""}, "unchanged"),
    ({"status": "updated", "reason": "removed", "scores": [], "exit_reason": "", "markdown": "",
      "outcome": Outcome.REMOVED}, "removed"),
    # The word alone decides nothing: only the outcome marks a removed section.
    ({"status": "updated", "reason": "removed", "scores": [], "exit_reason": "", "markdown": "",
      "outcome": Outcome.UNAPPROVED}, "below_bar"),
])
def test_verdict(fields: dict[str, Any], expected: str) -> None:
    assert verdict(result(**fields)) == expected


@pytest.mark.parametrize("text, expected", [
    ("plain words", "plain words"),
    ("a | b", "a &#124; b"),
    ("<script>x</script>", "&lt;script&gt;x&lt;/script&gt;"),
    ("use `f(x)`", "use &#96;f(x)&#96;"),
    ("line one\nline two\r\n\tthree", "line one line two three"),
    ("**bold** _it_ [a](b) ~~s~~", "&#42;&#42;bold&#42;&#42; &#95;it&#95; &#91;a&#93;(b) &#126;&#126;s&#126;&#126;"),
    ("&lt; stays literal", "&amp;lt; stays literal"),
    ("back\\slash", "back&#92;slash"),
    ("ping @octocat", "ping @\u200boctocat"),
])
def test_escape_cell(text: str, expected: str) -> None:
    assert escape_cell(text) == expected


def test_escape_cell_truncates_before_escaping() -> None:
    escaped = escape_cell("<" * 500, max_chars=10)
    assert escaped == "&lt;" * 9 + "…"  # whole entities, never a cut "&l"


@pytest.mark.parametrize("text, fence", [
    ("no backticks", "```"),
    ("one ` tick", "```"),
    ("```python\nx\n```", "````"),
    ("a ````` b `` c", "``````"),
])
def test_fence_for(text: str, fence: str) -> None:
    assert fence_for(text) == fence


@pytest.mark.parametrize("links, doc_path, url", [
    (Links("https://github.com", "octo/project", "abc123"), "docs/api/pkg.mod.md",
     "https://github.com/octo/project/blob/abc123/docs/api/pkg.mod.md"),
    (Links("https://ghe.example/", "octo/project", "abc"), "/docs/api/a b.md",
     "https://ghe.example/octo/project/blob/abc/docs/api/a%20b.md"),
    (Links("https://github.com", "octo/project", "abc"), "docs/api/x).md",
     "https://github.com/octo/project/blob/abc/docs/api/x%29.md"),
    (Links("https://github.com", "octo/project", "abc"), "", None),
    (Links("https://github.com", "octo/project", ""), "docs/api/a.md", None),
])
def test_doc_url(links: Links, doc_path: str, url: str | None) -> None:
    assert links.doc_url(doc_path) == url


def test_comment_rows_carry_link_trajectory_rounds_exit_and_fatal_issues() -> None:
    report = RunReport(results=[
        result("good"),
        result("Klass.meh", scores=[60, 58], rounds=2, exit_reason="regression"),
        result("bad", scores=[40, 50, 55, 60], rounds=4, exit_reason="attempts",
               fatal_issues=["doc says 0.6, example prints 0.5", "raises KeyError, undocumented"]),
        result("gone", status="failed", reason="model server timed out", scores=[], rounds=0,
               exit_reason="", markdown=""),
        result("old", reason="removed", outcome=Outcome.REMOVED, scores=[], rounds=0, exit_reason="", markdown="",
               doc_path=""),
        result("held", scores=[80, 98], rounds=2, exit_reason="attempts", repairs=("removed a failing example",)),
    ], base="1111111111111111", head="2222222222222222")
    body = render_comment(report, Links("https://github.com", "octo/project", "2222"))

    assert body.startswith(MARKER + "\n")
    assert ("**6 functions**: ✅ 1 approved · ❌ 2 unapproved: contradicted the code · ⚠️ 1 unapproved: below "
            "the bar · ❌ 1 failed · 🗑️ 1 removed\n") in body
    rows = table_rows(parse(body))
    assert [[cell.content for cell in row][2:] for row in rows] == [
        ["72 → 85 → 96 vs 95", "3", "approved", "—"],
        ["60 → 58 vs 95", "2", "not approved: the reviewer never passed a draft (best score 60, bar 95)", "—"],
        ["40 → 50 → 55 → 60 vs 95", "4",
         "not approved: it contradicted the code (doc says 0.6, example prints 0.5; +1 more)",
         "doc says 0.6, example prints 0.5<br>raises KeyError, undocumented"],
        ["—", "—", "failed: model server timed out", "—"],
        ["—", "—", "doc section removed (function deleted)", "—"],
        # 98 passed the bar: the row says what stopped it, never "98 below 95".
        ["80 → 98 vs 95", "2", "not approved: it contradicted the code (removed a failing example)", "—"],
    ]
    link = (rows[0][1].children or [])[0]
    assert link.type == "link_open"
    assert link.attrs["href"] == "https://github.com/octo/project/blob/2222/docs/api/pkg.mod.md#pkg.mod.good"
    assert "<code>111111111111..222222222222</code>" in body


def test_hostile_model_text_cannot_break_the_table_or_inject_html() -> None:
    doc = f"# f\n\n{HOSTILE}\n\n````\nnested fence\n````\n</details>\n<script>alert(2)</script>"
    report = RunReport(results=[
        result("f", fatal_issues=[HOSTILE], reason=HOSTILE, markdown=doc, exit_reason="attempts"),
        result("g"),
    ])
    body = render_comment(report, Links("https://github.com", "octo/project", "abc"))
    tokens = parse(body)

    rows = table_rows(tokens)
    assert len(rows) == 2 and all(len(row) == 6 for row in rows)
    assert html_fragments(tokens) <= ALLOWED_HTML | {
        "<details><summary><code>pkg.mod.f</code>: final doc (unapproved, contradicted the code)</summary>",
        "<details><summary><code>pkg.mod.g</code>: final doc (approved, 96/95)</summary>"}
    fatal_cell = rows[0][5]
    children = fatal_cell.children or []
    assert [c.type for c in children] == ["text"]  # no code span, link, emphasis or HTML
    assert "a | b <script>alert(1)</script> `code`" in children[0].content
    fences = [t for t in tokens if t.type == "fence"]
    assert [f.content for f in fences] == [doc + "\n", "## g\n\nDoes things.\n"]  # verbatim, not rendered


def test_summary_has_the_same_table_but_no_marker() -> None:
    report = RunReport(results=[result("f")])
    summary = render_summary(report)
    assert MARKER not in summary and "updated in place" not in summary
    assert len(table_rows(parse(summary))) == 1
    assert "<details><summary><code>pkg.mod.f</code>" in summary


def test_empty_report_says_so() -> None:
    body = render_comment(RunReport(scan_errors=[ScanError("pkg/bad.py", "syntax error at line 3 | <b>")]))
    assert body.startswith(MARKER)
    assert "No changed public functions." in body
    assert "pkg/bad.py: syntax error at line 3 &#124; &lt;b&gt;" in body


def test_many_docs_are_cut_to_a_fair_share_before_any_row_is_dropped() -> None:
    small = [result(f"small{i}", markdown=f"small doc {i}") for i in range(5)]
    huge = result("huge", markdown="# huge\n" + "x" * 300_000)
    body = render_comment(RunReport(results=[*small, huge]))

    assert utf8_size(body) <= COMMENT_LIMIT and body.startswith(MARKER)
    assert len(table_rows(parse(body))) == 6
    fences = [t.content for t in parse(body) if t.type == "fence"]
    assert fences[:5] == [f"small doc {i}\n" for i in range(5)]  # the small ones whole
    assert 40_000 < len(fences[5]) < 300_000  # the big one gets the rest of the room
    assert "Truncated:" in body and "more bytes in <code>docs/api/pkg.mod.md</code>" in body


def test_too_many_docs_drop_whole_blocks_with_a_note() -> None:
    results = [result(f"f{i}", markdown=f"# f{i}\n" + "é" * 3000) for i in range(200)]  # 2 bytes each
    body = render_comment(RunReport(results=results))

    assert utf8_size(body) <= COMMENT_LIMIT
    assert len(table_rows(parse(body))) == 200  # every row kept
    shown = body.count("<details>")
    assert 0 < shown < 200
    assert f"_Final docs of {200 - shown} functions left out to stay under GitHub's size limit._" in body
    fences = [t.content for t in parse(body) if t.type == "fence"]
    assert all(len(f.encode()) >= 400 for f in fences)  # no uselessly tiny fragments


def test_too_many_rows_keeps_the_marker_and_counts_what_was_left_out() -> None:
    results = [result(f"function_number_{i}", fatal_issues=["a long fatal issue " * 10]) for i in range(2000)]
    body = render_comment(RunReport(results=results))

    assert utf8_size(body) <= COMMENT_LIMIT and body.startswith(MARKER + "\n")
    kept = len(table_rows(parse(body)))
    assert 0 < kept < 2000
    assert f"_{2000 - kept} more functions left out to stay under GitHub's size limit" in body
    assert "**2000 functions**" in body  # the counts still cover everything
    assert "<details>" not in body


def test_limit_is_honoured_exactly_for_any_size() -> None:
    report = RunReport(results=[result(f"f{i}", markdown="ü" * (i * 500)) for i in range(40)])
    for limit in (2_000, 10_000, 30_001, COMMENT_LIMIT):
        body = render_comment(report, limit=limit)
        assert utf8_size(body) <= limit and body.startswith(MARKER)
