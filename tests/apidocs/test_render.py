"""The renderer: structure from the code, prose from the model, and hostile model text kept harmless.

Every hostile case is checked with both parsers a page meets: markdown-it-py (CommonMark with GFM
tables, as GitHub reads it) and Python-Markdown with mkdocs' extensions; and with docbot's own
doc-file parser, which must still see exactly one section.
"""

from __future__ import annotations

import re
import markdown
import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from docbot.docmodel import DocModel, Example, ParameterDoc, RaisesDoc
from docbot.apidocs.pages import marker_line, parse_doc_file, render_doc_file
from docbot.facts.function import extract_facts
from docbot.apidocs.render import (
    UNAPPROVED_NOTE,
    IndexEntry,
    SectionStatus,
    anchor,
    render_index,
    render_section,
    with_gate_note,
)
from tests.support.docmodel_samples import deposit, good_deposit, interest

GFM = MarkdownIt("commonmark").enable("table")
ALLOWED_TAGS = {"p", "h1", "h2", "code", "pre", "table", "thead", "tbody", "tr", "th", "td", "ul", "ol", "li",
                "strong", "em", "a", "hr"}


def _page(body: str, qualname: str = "Account.deposit") -> str:
    return render_doc_file("bank.account", {qualname: ("0" * 12, body)})


def test_section_structure_comes_from_the_code() -> None:
    body = render_section(good_deposit(), deposit(), "bank.account")
    lines = body.split("\n")
    assert lines[:3] == ['<a id="bank.account.Account.deposit"></a>', "", "## `Account.deposit`"]
    assert "```python\ndef deposit(self, amount: float, *, memo: str = '', **tags) -> float\n```" in body
    assert "| <code>amount</code> | <code>float</code> | required | how much |" in body
    assert "| <code>memo</code> | <code>str</code> | <code>&#39;&#39;</code> | a note |" in body
    assert "| <code>&#42;&#42;tags</code> |  |  | labels |" in body
    assert "self" not in body.split("**Parameters**")[1].split("**Returns**")[0]
    assert "**Returns**\n\n<code>float</code>\n\nthe new balance" in body
    assert body.index("**Parameters**") < body.index("**Returns**") < body.index("**Raises**") < body.index(
        "**Examples**")


def test_types_and_defaults_never_come_from_the_model() -> None:
    model = DocModel(summary="s", parameters=(ParameterDoc(name="rate: int = 7", description="the rate"),))
    body = render_section(model, interest(), "m")
    assert "| <code>rate</code> | <code>float</code> | <code>0.05</code> | the rate |" in body
    assert "| <code>principal</code> | <code>float</code> | required |  |" in body  # undocumented: still listed
    assert "int = 7" not in body


def test_raises_show_the_codes_exact_message_where_the_model_agrees() -> None:
    model = DocModel(summary="s", raises=(
        RaisesDoc(type="MemoError", message="memo too long: 93 characters"),  # fits the template
        RaisesDoc(type="ValueError", condition="amount is not positive"),  # no message: the code's one
        RaisesDoc(type="KeyError", message="no such account", condition="the id is unknown"),  # not a site
    ))
    body = render_section(model, deposit(), "m")
    # a template is shown as the code writes it (issue 28): its `{len(memo)}` reading is no message the code gives
    assert ("- <code>errors.MemoError</code>: <code>f&#34;memo too long: &#123;len&#40;memo&#41;&#125; characters"
            "&#34;</code> — when <code>memo and len&#40;memo&#41; &#62; 80</code>") in body
    assert ("- <code>ValueError</code>: <code>amount must be positive</code> — when amount is not positive") in body
    assert "- <code>KeyError</code>: <code>no such account</code> — when the id is unknown" in body


def test_a_model_keyword_carried_by_kwargs_gets_its_own_row() -> None:
    model = DocModel(summary="s", parameters=(ParameterDoc(name="colour", description="paint"),))
    row = "| <code>colour</code> | | via <code>&#42;&#42;tags</code> | paint |"
    assert row in render_section(model, deposit(), "m")
    assert "colour" not in render_section(model, interest(), "m")  # no **kwargs: an invented name is not shown


def test_examples_get_fences_longer_than_any_backtick_run_inside() -> None:
    model = DocModel(summary="s", examples=(Example(code="s = '````'\nprint(s)", output="````"),))
    body = render_section(model, deposit(), "m")
    assert "`````python\ns = '````'\nprint(s)\n`````\n\nOutput:\n\n`````text\n````\n`````" in body


def test_returns_block_follows_the_code() -> None:
    none = extract_facts("def log(message) -> None:\n    print(message)\n", "log")
    gen = extract_facts("def count(n: int) -> Iterator[int]:\n    yield n\n", "count")
    assert "**Returns**" not in render_section(DocModel(summary="s"), none, "m")
    assert "**Yields**\n\n<code>Iterator&#91;int&#93;</code>\n\nthe numbers" in render_section(
        DocModel(summary="s", returns="the numbers"), gen, "m")


def test_first_description_of_a_parameter_wins() -> None:
    model = DocModel(summary="s", parameters=(ParameterDoc(name="rate", description="first"),
                                              ParameterDoc(name="*rate", description="second")))
    assert "| first |" in render_section(model, interest(), "m") and "second" not in render_section(
        model, interest(), "m")


def test_an_empty_example_is_left_out() -> None:
    body = render_section(DocModel(summary="s", examples=(Example(code="  \n "), Example(code="f()"))), interest(), "m")
    assert "1 example left out" in body and body.count("```python") == 2  # the signature and f()


def test_rendering_is_deterministic() -> None:
    assert render_section(good_deposit(), deposit(), "m") == render_section(good_deposit(), deposit(), "m")


def test_anchor_rejects_what_is_not_a_dotted_name() -> None:
    assert anchor("pkg.mod", "Class.method") == "pkg.mod.Class.method"
    for module, qualname in [("pkg mod", "f"), ("pkg", 'f"><script>'), ("", "f"), ("pkg.", "f"), ("pkg", "1f")]:
        with pytest.raises(ValueError, match="dotted Python name"):
            anchor(module, qualname)


HOSTILE = [
    "# Title",
    "## `Account.withdraw`",
    "Title\n=====",
    "Title\n-",
    "- ## heading in a list",
    "> # heading in a quote",
    "1. # heading in a numbered list",
    "```\nunclosed fence",
    "~~~\nunclosed tilde fence",
    "`` ` ``\n```python",
    "<!-- docbot:section Account.withdraw hash=000000000000 -->",
    "text\n<!-- docbot:section Account.withdraw hash=000000000000 -->\nmore",
    "<script>alert(1)</script>",
    "<div>\n\n# inside html\n\n</div>",
    '<a href="https://evil.example">x</a> <img src=x onerror=alert(1)>',
    "\\`<b>bold</b>`",
    "[click](javascript:alert(1)) ![img](javascript:alert(2))",
    "[ref]: javascript:alert(1)\n\n[ref]",
    "| a | b |\n| --- | --- |\n| c | d |",
    "a | b \\| c \\\\| d `x|y`",
    "    indented code block",
    "&lt;script&gt; &#60;script&#62;",
    "***\n___\n- - -",
]
FIELDS = ["summary", "description", "returns", "notes", "param", "raise_type", "raise_message", "raise_condition",
          "example_code", "example_output"]


def _hostile_model(field: str, text: str) -> DocModel:
    base = good_deposit()
    if field == "param":
        return base.model_copy(update={"parameters": (ParameterDoc(name="amount", description=text),)})
    if field.startswith("raise_"):
        entry = RaisesDoc(type="KeyError", message="m", condition="c").model_copy(update={field[6:]: text})
        return base.model_copy(update={"raises": (entry,)})
    if field.startswith("example_"):
        return base.model_copy(update={"examples": (Example(code="print(1)").model_copy(update={field[8:]: text}),)})
    return base.model_copy(update={field: text})


def _flat(tokens: list[Token]) -> list[Token]:
    return [t for token in tokens for t in [token, *_flat(token.children or [])]]


def _fences_written(body: str) -> list[str]:
    """The info strings of the fences the renderer opened (a fence closes on a run at least as long)."""
    infos: list[str] = []
    open_ticks = 0
    for line in body.split("\n"):
        opener = re.fullmatch(r"(`{3,})(python|text)", line)
        if not open_ticks and opener:
            open_ticks = len(opener[1])
            infos.append(opener[2])
        elif open_ticks and re.fullmatch("`{%d,}" % open_ticks, line):
            open_ticks = 0
    return infos


def _check_page(page: str, body: str) -> None:
    doc = parse_doc_file(page)
    assert list(doc.sections) == ["Account.deposit"] and doc.title == "bank.account"
    tokens = _flat(GFM.parse(page))
    headings = [t for t in tokens if t.type == "heading_open"]
    assert [t.tag for t in headings] == ["h1", "h2"]
    raw = [t.content.strip() for t in tokens if t.type in ("html_block", "html_inline")]
    # docbot's own marker lines come from the doc-file writer, never from the rendered body.
    markers = {line for line in page.split("\n") if line.startswith("<!-- docbot:")} - set(body.split("\n"))
    assert marker_line("Account.deposit", "0" * 12) in markers
    allowed = {'<a id="bank.account.Account.deposit">', "</a>", "<code>", "</code>",
               '<a id="bank.account.Account.deposit"></a>', *markers}
    assert set(raw) <= allowed, set(raw) - allowed
    # The structure docbot wrote is all there, outside any code: its labels and its fences.
    labels = re.findall(r"(?m)^\*\*(\w+)\*\*$", body)
    assert {"Parameters", "Returns"} <= set(labels)
    strong = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "strong_open"]
    assert [s for s in strong if s in labels] == labels
    fences = [t for t in tokens if t.type == "fence"]
    assert [f.info for f in fences] == _fences_written(body)
    assert fences[0].content == deposit().signature() + "\n"
    links = [t for t in tokens if t.type == "link_open" or t.type == "image"]
    assert links == []
    _check_python_markdown(page, labels, len(fences), markers)


def _check_python_markdown(page: str, labels: list[str], fences: int, markers: set[str]) -> None:
    out = markdown.markdown(page, extensions=["toc", "tables", "fenced_code"])
    assert all(f"<strong>{label}</strong>" in out for label in labels)
    assert out.count("<pre>") == fences
    tags = set(re.findall(r"<([a-zA-Z][\w-]*)", out))
    assert tags <= ALLOWED_TAGS, tags - ALLOWED_TAGS
    assert re.findall(r"<a [^>]*>", out) == ['<a id="bank.account.Account.deposit">']
    assert len(re.findall(r"<h[1-6]", out)) == 2
    for marker in markers:
        out = out.replace(marker, "")
    assert "<!-- docbot" not in out


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_model_text_cannot_break_the_page(field: str, text: str) -> None:
    body = render_section(_hostile_model(field, text), deposit(), "bank.account")
    _check_page(_page(body), body)


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_in_a_parameter_cell_keeps_the_table_four_columns_wide(text: str) -> None:
    body = render_section(_hostile_model("param", text), deposit(), "bank.account")
    tokens = _flat(GFM.parse(body))
    rows = [i for i, t in enumerate(tokens) if t.type == "tr_open"]
    assert len(rows) == 4  # header + amount, memo, **tags
    cells = [sum(1 for t in tokens[start:] [: 40] if t.type in ("td_open", "th_open")) for start in rows]
    assert all(count >= 4 for count in cells)
    html = markdown.markdown(body, extensions=["tables", "fenced_code"])
    for row in re.findall(r"<tr>(.*?)</tr>", html, re.S):
        assert len(re.findall(r"<t[dh][ >]", row)) == 4


def test_code_with_a_marker_line_is_left_out_not_shown() -> None:
    code = 'html = """\n<!-- docbot:section Account.withdraw hash=000000000000 -->\n"""'
    body = render_section(_hostile_model("example_code", code), deposit(), "m")
    assert "docbot:section Account.withdraw" not in body
    assert "1 example left out" in body


@pytest.mark.parametrize("field", ["summary", "description", "returns", "notes", "param", "raise_condition",
                                   "raise_message", "example_code", "example_output"])
def test_a_one_megabyte_field_is_cut_with_a_note(field: str) -> None:
    huge = ("word " * 200_000)[: 1 << 20]
    body = render_section(_hostile_model(field, huge), deposit(), "bank.account")
    assert len(body) < 20_000
    assert "docbot cut" in body or "example left out" in body or "…" in body
    _check_page(_page(body), body)


def test_too_many_raises_entries_are_counted_not_shown() -> None:
    entries = tuple(RaisesDoc(type=f"Error{i}") for i in range(25))
    body = render_section(DocModel(summary="s", raises=entries), deposit(), "m")
    assert "Error19" in body and "Error20" not in body and "5 more raises entries left out" in body


def _entry(module: str, qualname: str, status: SectionStatus, score: int | None) -> IndexEntry:
    return IndexEntry(module, qualname, status, score)


def test_index_lists_modules_sorted_and_functions_in_given_order() -> None:
    page = render_index([
        _entry("pkg.zeta", "run", SectionStatus.APPROVED, 97),
        _entry("pkg.alpha", "Ledger.post", SectionStatus.UNAPPROVED, 62),
        _entry("pkg.alpha", "Ledger.__init__", SectionStatus.APPROVED, None),
    ])
    assert page == (
        "# API reference\n\n"
        "## [`pkg.alpha`](pkg.alpha.md)\n\n"
        "| Function | Status |\n| --- | --- |\n"
        "| [`Ledger.post`](pkg.alpha.md#pkg.alpha.Ledger.post) | **unapproved**: a person should check it |\n"
        "| [`Ledger.__init__`](pkg.alpha.md#pkg.alpha.Ledger.__init__) | approved |\n\n"
        "## [`pkg.zeta`](pkg.zeta.md)\n\n"
        "| Function | Status |\n| --- | --- |\n"
        "| [`run`](pkg.zeta.md#pkg.zeta.run) | approved |\n"
    )


def test_index_of_nothing_says_so() -> None:
    assert render_index([]) == "# API reference\n\nNo documented modules yet.\n"


def test_index_rejects_names_that_could_inject_markup() -> None:
    with pytest.raises(ValueError):
        render_index([_entry("pkg", "f](javascript:x)", SectionStatus.APPROVED, 1)])


def test_model_bullet_lists_stay_lists() -> None:
    body = render_section(good_deposit().model_copy(update={"notes": "- one\n- two\n  - nested"}), deposit(), "m")
    html = markdown.markdown(body, extensions=["tables", "fenced_code"])
    assert "<li>one</li>" in html and "<li>two" in html
    assert GFM.render(body).split("<strong>Notes</strong>")[1].count("<li>") == 3


@pytest.mark.parametrize("body, status, expected", [
    ("## `f`\n\nDoes f.\n", SectionStatus.UNAPPROVED, f"## `f`\n\n{UNAPPROVED_NOTE}\n\nDoes f.\n"),
    ('<a id="m.f"></a>\n\n## `f`\n\nDoes f.\n', SectionStatus.UNAPPROVED,
     f'<a id="m.f"></a>\n\n## `f`\n\n{UNAPPROVED_NOTE}\n\nDoes f.\n'),
    ("## `f`\nDoes f.\n", SectionStatus.UNAPPROVED, f"## `f`\n\n{UNAPPROVED_NOTE}\n\nDoes f.\n"),
    ("Does f.\n", SectionStatus.UNAPPROVED, f"{UNAPPROVED_NOTE}\n\nDoes f.\n"),  # no heading: on top
    ("## `f`\n\nDoes f.\n", SectionStatus.APPROVED, "## `f`\n\nDoes f.\n"),  # same bytes
    ("## `f`\n\nDoes f.\n", None, "## `f`\n\nDoes f.\n"),
])
def test_an_unapproved_body_gets_one_visible_note(body: str, status: SectionStatus | None, expected: str) -> None:
    assert with_gate_note(body, status) == expected
    assert with_gate_note(expected, status) == expected  # never twice
    assert UNAPPROVED_NOTE.startswith("> ") and "\n" not in UNAPPROVED_NOTE  # one blockquote line, plain Markdown
