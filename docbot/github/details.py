"""The collapsible block of each function's final doc in the PR comment (pure).

A doc docbot rendered from its typed model (``docbot.apidocs.render``) is shown **rendered**: its model text
went through ``docbot.mdtext`` and cannot open HTML, forge a marker or leave a fence open. Anything
else (a doc from before the typed model, or one that fails :func:`renderable`) is shown as source in
a fence longer than any backtick run inside it. Below the doc: the gate's verdict, what deterministic
repair removed, and a diff against the section it replaces.

Sizes are fitted to GitHub's limit here: every block whole when they fit, else each cut to a fair
share (a cut doc is shown as source, since half a rendered page could leave a fence open), else fewer.
"""

from __future__ import annotations

import difflib
import html
import re
from collections.abc import Mapping, Sequence

from docbot.github.annotate import approval
from docbot.mdtext import fence_spans
from docbot.results import Cause, FunctionResult

MIN_DOC_BYTES = 400  # below this a truncated doc says nothing useful, so drop whole docs instead
MAX_REPAIRS_SHOWN = 10

MAX_CELL_CHARS = 200

# Entities, not backslashes: GitHub splits table cells on "|" before inline parsing, and entities
# survive inside inline HTML too. "@" gets a zero-width space so model text cannot ping people.
_CELL_ESCAPES = str.maketrans({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "&#124;", "`": "&#96;", "\\": "&#92;",
    "*": "&#42;", "_": "&#95;", "[": "&#91;", "]": "&#93;", "~": "&#126;", "@": "@\u200b",
})
_STRUCTURE = re.compile(r"^\s*<(?:/?details|/?summary|!--)", re.I)


def fence_for(text: str) -> str:
    """A backtick fence longer than any backtick run in ``text``, so the text cannot close it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


def utf8_size(text: str) -> int:
    return len(text.encode("utf-8"))


def renderable(result: FunctionResult) -> bool:
    """Show this doc rendered: it came from the typed model, opens no ``<details>``/``<summary>``/
    comment of its own, and closes every fence it opens."""
    if result.doc_model is None:
        return False
    lines = clean_doc(result.markdown).split("\n")
    spans = fence_spans(lines)
    code = {i for span in spans for i in range(span.start, span.end + 1)}
    return all(span.closed for span in spans) and not any(
        _STRUCTURE.match(line) for index, line in enumerate(lines) if index not in code)


def clean_doc(markdown: str) -> str:
    return markdown.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "").strip("\n")


def doc_diff(old: str, new: str) -> str:
    """A unified diff of a section's old body against its new one; "" when they are the same."""
    lines = difflib.unified_diff(clean_doc(old).split("\n"), clean_doc(new).split("\n"),
                                 "doc it replaces", "new doc", lineterm="", n=2)
    return "\n".join(lines)


def _summary(result: FunctionResult) -> str:
    state = approval(result)
    words = [state.value] if state else []
    if result.cause is Cause.CONTRADICTIONS:
        words.append("contradicted the code")  # a score that passed must not read as the reason
    elif result.scores:
        words.append(f"{result.scores[-1]}/{result.bar}")
    return f"<code>{html.escape(result.key)}</code>: final doc" + (f" ({', '.join(words)})" if words else "")


def _repairs(result: FunctionResult) -> str:
    if not result.repairs:
        return ""
    shown = [f"- {escape_line(line)}" for line in result.repairs[:MAX_REPAIRS_SHOWN]]
    if len(result.repairs) > MAX_REPAIRS_SHOWN:
        shown.append(f"- and {len(result.repairs) - MAX_REPAIRS_SHOWN} more")
    return "**Removed by deterministic repair** (it contradicted the code):\n\n" + "\n".join(shown) + "\n\n"


def escape_cell(text: str, max_chars: int = MAX_CELL_CHARS) -> str:
    """Model text made safe for one GFM table cell or list item: one line, no HTML, no Markdown syntax."""
    one_line = " ".join(text.split())
    if len(one_line) > max_chars:
        one_line = one_line[: max_chars - 1].rstrip() + "…"
    return one_line.translate(_CELL_ESCAPES)


def escape_line(text: str) -> str:
    return escape_cell(text, max_chars=300)


def whole_body(result: FunctionResult, old: str | None) -> str:
    """The block's body when it fits: the doc (rendered when it may be), repairs, the diff."""
    doc = clean_doc(result.markdown)
    shown = f"{doc}\n\n" if renderable(result) else f"{(f := fence_for(doc))}markdown\n{doc}\n{f}\n\n"
    diff = doc_diff(old, doc) if old is not None else ""
    if diff:
        shown += f"**Diff against the doc it replaces:**\n\n{(f := fence_for(diff))}diff\n{diff}\n{f}\n\n"
    return shown + _repairs(result)


def _block(result: FunctionResult, body: str) -> str:
    return f"<details><summary>{_summary(result)}</summary>\n\n{body}</details>\n\n"


def _cut_body(result: FunctionResult, cap: int) -> str:
    doc = clean_doc(result.markdown)
    cut = doc.encode("utf-8")[:cap].decode("utf-8", "ignore")
    where = f" in <code>{html.escape(result.doc_path)}</code>" if result.doc_path else ""
    fence = fence_for(doc)
    left = utf8_size(doc) - utf8_size(cut)
    note = f"<em>Truncated: {left:,} more bytes{where}.</em>\n\n" if left else ""
    return f"{fence}markdown\n{cut}\n{fence}\n\n{note}"


def fit_details(results: Sequence[FunctionResult], old_docs: Mapping[str, str], budget: int) -> str:
    """Final docs in collapsible blocks: all of them, else each cut to a fair share, else fewer."""
    bodies = [whole_body(r, old_docs.get(r.key)) for r in results]
    if sum(utf8_size(_block(r, b)) for r, b in zip(results, bodies)) <= budget:
        return "".join(_block(r, b) for r, b in zip(results, bodies))
    omitted_note = "_Final docs of {} functions left out to stay under GitHub's size limit._\n\n"
    docs = [clean_doc(r.markdown) for r in results]
    for shown in range(len(results), -1, -1):
        room = budget - (utf8_size(omitted_note.format(len(results))) if shown < len(results) else 0)
        # Overhead of each block: its cut form with an empty doc and the longest possible note.
        room -= sum(utf8_size(_block(r, _cut_body(r, 0))) for r in results[:shown])
        sizes = [utf8_size(d) for d in docs[:shown]]
        cap = _water_level(sizes, room)
        if cap is None or (cap < max(sizes, default=0) and cap < MIN_DOC_BYTES):
            continue  # cutting docs this short helps nobody: show fewer, whole-ish ones
        blocks = [_block(r, _cut_body(r, cap)) for r in results[:shown]]
        return "".join(blocks) + (omitted_note.format(len(results) - shown) if shown < len(results) else "")
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
