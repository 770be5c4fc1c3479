"""Each function's block in the PR comment: the final doc rendered (when it came from the typed model
and cannot break the page), the gate's verdict, what repair removed, a diff against the doc it
replaces, and the size fitting. Parsed back with markdown-it, as in test_github_report.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from docbot.docmodel import DocModel, ParameterDoc
from docbot.github.details import doc_diff, fit_details, renderable, utf8_size, whole_body
from docbot.github.report import render_comment
from docbot.apidocs.render import render_section
from docbot.results import FunctionResult, RunReport, SectionStatus
from tests.support.docmodel_samples import interest

MODEL = DocModel(summary="Simple interest over some days.",
                 parameters=(ParameterDoc(name="principal", description="the amount lent"),),
                 returns="the interest", notes="Hostile: </details> <script>x</script> ``` <!-- docbot:end f -->")


def rendered_result(**fields: Any) -> FunctionResult:
    markdown = render_section(MODEL, interest(), "pkg.money")
    return FunctionResult(**{"module": "pkg.money", "qualname": "interest", "status": "updated",
                             "markdown": markdown, "doc_model": MODEL, "scores": [80, 97], "rounds": 2,
                             "exit_reason": "approved", "approval": SectionStatus.APPROVED,
                             "doc_path": "docs/api/pkg.money.md", **fields})


def parse(markdown: str) -> list[Token]:
    return MarkdownIt("commonmark", {"html": True}).enable("table").parse(markdown)


def test_a_doc_from_the_model_is_shown_rendered_not_as_source() -> None:
    body = render_comment(RunReport(results=[rendered_result()]))
    tokens = parse(body)
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h2"]
    assert "`interest`" in headings  # the section's own heading, rendered
    assert [t.info for t in tokens if t.type == "fence"] == ["python"]  # only the signature block
    assert "<summary><code>pkg.money.interest</code>: final doc (approved, 97/95)</summary>" in body


def test_hostile_model_text_in_a_rendered_doc_stays_text() -> None:
    body = render_comment(RunReport(results=[rendered_result()]))
    html_seen = {child.content for t in parse(body) for child in (t.children or []) if child.type == "html_inline"}
    html_seen |= {t.content.strip() for t in parse(body) if t.type == "html_block"}
    assert not any("script" in fragment or "docbot:end" in fragment for fragment in html_seen)
    assert body.count("</details>") == 1  # the model's "</details>" did not close the block


@pytest.mark.parametrize("markdown, expected", [
    ("## `f`\n\nfine\n\n```python\nx = 1\n```\n", True),
    ("## `f`\n\n```python\nnever closed\n", False),
    ("````\n```\ninside\n````\n", True),
    ("```\nx\n~~~\n", False),  # a tilde line does not close a backtick fence
    ("text\n</details>\nmore", False),
    ("text\n<summary>x</summary>", False),
    ("text\n<!-- docbot:section g hash=1 -->", False),
    ("```\n</details>\n```\n", True),  # inside a fence it is code
])
def test_renderable(markdown: str, expected: bool) -> None:
    assert renderable(rendered_result(markdown=markdown)) is expected


def test_a_doc_without_a_model_is_shown_as_source() -> None:
    assert not renderable(rendered_result(doc_model=None))
    body = whole_body(rendered_result(doc_model=None, markdown="## f\n\n<b>x</b>"), None)
    assert body.startswith("```markdown\n## f\n\n<b>x</b>\n```")


def test_the_diff_against_the_doc_it_replaces() -> None:
    new = rendered_result()
    old = new.markdown.replace("Simple interest over some days.", "Computes interest.")
    body = whole_body(new, old)
    fences = [t for t in parse(body) if t.type == "fence" and t.info == "diff"]
    assert len(fences) == 1
    diff = fences[0].content
    assert "-Computes interest.\n" in diff and "+Simple interest over some days.\n" in diff
    assert "**Diff against the doc it replaces:**" in body
    assert "Diff against" not in whole_body(new, None)  # nothing replaced: no diff
    assert "Diff against" not in whole_body(new, new.markdown)  # the same doc: no diff


def test_doc_diff_ignores_line_endings() -> None:
    assert doc_diff("a\r\nb\r\n", "a\nb") == ""
    assert doc_diff("a\nb", "a\nc").endswith("-b\n+c")


def test_repairs_are_listed_escaped() -> None:
    repairs = ("dropped parameter `bogus` <b>", "removed example: print(x) | raised *Error*")
    body = whole_body(rendered_result(repairs=repairs, approval=SectionStatus.UNAPPROVED), None)
    assert "**Removed by deterministic repair** (it contradicted the code):" in body
    assert "- dropped parameter &#96;bogus&#96; &lt;b&gt;" in body
    assert "- removed example: print(x) &#124; raised &#42;Error&#42;" in body


def test_unapproved_is_said_in_the_summary() -> None:
    below = rendered_result(approval=SectionStatus.UNAPPROVED, scores=[60, 62], exit_reason="attempts")
    assert "final doc (unapproved, 62/95)" in render_comment(RunReport(results=[below]))
    # The critic passed it at 97; a contradiction stopped it: the score is not shown as the reason.
    held = rendered_result(approval=SectionStatus.UNAPPROVED, scores=[97], repairs=("removed a failing example",))
    assert "final doc (unapproved, contradicted the code)" in render_comment(RunReport(results=[held]))


def test_a_cut_rendered_doc_is_shown_as_source_so_no_fence_stays_open() -> None:
    big = rendered_result(markdown=rendered_result().markdown + "\n" + "word " * 30_000)
    small = rendered_result(qualname="other")
    blocks = fit_details([big, small], {}, 20_000)
    assert utf8_size(blocks) <= 20_000
    tokens = parse(blocks)
    assert [t.info for t in tokens if t.type == "fence"] == ["markdown", "markdown"]
    assert "Truncated:" in blocks and blocks.count("</details>") == 2


def test_everything_fits_whole_when_it_can() -> None:
    results = [rendered_result(qualname=f"f{i}") for i in range(3)]
    blocks = fit_details(results, {r.key: "old doc" for r in results}, 60_000)
    assert blocks.count("Diff against the doc it replaces") == 3 and "Truncated" not in blocks

