"""Model text made safe for a Markdown page: it can never open a heading, close a fence, forge a
``<!-- docbot:... -->`` marker, start raw HTML or add table cells.

The same text must read the same on GitHub (CommonMark + GFM tables) and under mkdocs
(Python-Markdown), so escapes are chosen to mean the same in both:

- structure at a line start is neutralised with a numeric character reference (``&#35;`` for ``#``):
  both parsers decode it as text, and neither lets a reference stand for structure;
- ``<`` becomes ``&lt;`` outside inline code, so no raw HTML and no HTML comment (marker) can start;
- ``](`` loses its parenthesis, so model text cannot make links (``javascript:`` ones included);
- code spans the model wrote are kept, because inside them nothing is parsed anyway;
- every field is bounded: a 1 MB answer is cut with a visible note, never copied whole.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass

PROSE_LIMIT = 4_000  # characters of one prose field
CELL_LIMIT = 500  # characters of one table cell

# A code span: a backtick run not preceded by a backslash, closed by a run of the same length.
# (A backslash before the opening run is read differently by the two parsers, so such a run is
# not trusted as a span and its content is escaped like prose: the safe side.)
_CODE_SPAN = re.compile(r"(?<![`\\])(?P<ticks>`+)(?!`)(?P<body>.+?)(?<!`)(?P=ticks)(?!`)")
_LIST_MARKER = re.compile(r"(?:[-*+]|\d{1,9}[.)])[ \t]+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# Characters a reader does not see that change what they see: the bidirectional controls of "Trojan Source"
# (CVE-2021-42574: U+202A-202E, U+2066-2069, the marks U+200E, U+200F, U+061C) and the zero-width ones
# (U+200B-200D, U+2060-2064, U+FEFF, U+180E). Model text never keeps them (issue 30): not in a page, not in a
# docstring.
INVISIBLE = re.compile("[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
# Characters that start block structure when they open a line (after any list markers).
_BLOCK_START = set("#>=-*+_|[<!") | {"\t"}


def clean(text: str) -> str:
    """LF newlines, no control characters (nor bidi controls or zero-width characters), no trailing spaces."""
    text = INVISIBLE.sub("", _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n")))
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


def bounded(text: str, limit: int) -> tuple[str, int]:
    """``text`` cut to ``limit`` characters, and how many were cut (0 when it fits)."""
    if len(text) <= limit:
        return text, 0
    return text[:limit], len(text) - limit


def cut_note(cut: int) -> str:
    return f"*(docbot cut {cut} characters from this text)*" if cut else ""


def entity(char: str) -> str:
    return f"&#{ord(char)};"


def escape_inline(line: str, in_cell: bool = False) -> str:
    """One line of model prose: ``<`` and link openers escaped outside the code spans it wrote.

    In a table cell a code span becomes ``<code>`` with references, because a ``|`` inside a
    backtick span would end the cell on GitHub.
    """
    out: list[str] = []
    position = 0
    for span in _CODE_SPAN.finditer(line):
        out.append(_escape_plain(line[position : span.start()]))
        out.append(literal_code(span["body"].strip()) if in_cell else span.group(0))
        position = span.end()
    out.append(_escape_plain(line[position:]))
    return "".join(out)


def _escape_plain(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace("](", "]&#40;")


def escape_line_start(line: str) -> str:
    """Neutralise block structure at the start of a line; list markers are allowed to stay."""
    prefix = ""
    rest = line.lstrip()
    for _ in range(8):  # nested list markers ("- - # x") each get looked through
        marker = _LIST_MARKER.match(rest)
        if marker is None:
            break
        prefix, rest = prefix + marker.group(0), rest[marker.end() :]
    if rest.startswith(("```", "~~~")) or (rest[:1] in _BLOCK_START):
        rest = entity(rest[0]) + rest[1:]
    elif rest[:1].isdigit() and not prefix:
        rest = _escape_number_start(rest)
    return prefix + rest


def _escape_number_start(rest: str) -> str:
    # "1999." alone on a line would open an ordered list; only the full stop / parenthesis matters
    match = re.match(r"\d{1,9}([.)])(?:[ \t]|$)", rest)
    if match is None:
        return rest
    return rest[: match.start(1)] + entity(match.group(1)) + rest[match.end(1) :]


def prose(text: str, limit: int = PROSE_LIMIT) -> str:
    """A block of model prose: paragraphs and bullet lists survive, structure and HTML do not."""
    body, cut = bounded(clean(text), limit)
    lines: list[str] = []
    for raw in body.split("\n"):
        line = raw.strip()
        if not line and (not lines or not lines[-1]):
            continue  # one blank line between paragraphs is enough
        lines.append(escape_line_start(escape_inline(line)) if line else "")
    text_out = "\n".join(lines).strip("\n")
    return "\n\n".join(part for part in (text_out, cut_note(cut)) if part)


def cell(text: str, limit: int = CELL_LIMIT) -> str:
    """One table cell of model prose: one line, no ``|`` that could end the cell, bounded."""
    body, cut = bounded(" ".join(clean(text).split()), limit)
    # A character reference rather than a backslash escape: it never splits a row in either parser,
    # and it reads as "|" where Python-Markdown would show a backslash-escaped one verbatim.
    escaped = escape_inline(body, in_cell=True).replace("|", "&#124;")
    return escaped + (" " + cut_note(cut) if cut else "")


def literal_code(text: str, limit: int = CELL_LIMIT) -> str:
    """Text from the code (a type, a default, a message) shown verbatim in ``<code>``, on one line.

    Every character Markdown could read is a character reference, so the text cannot become
    emphasis, a link, a cell border or HTML, and it reads the same in a table, a list or a paragraph.
    """
    body, cut = bounded(clean(text).replace("\n", "\\n"), limit)
    escaped = "".join(entity(c) if c in "\\`*_[]{}()#+-!|~<>&\"'=" else c for c in body)
    return f"<code>{escaped}</code>" + ("…" if cut else "")


def longest_run(text: str, char: str) -> int:
    runs = re.findall(re.escape(char) + "+", text)
    return max((len(run) for run in runs), default=0)


def fence(text: str, info: str = "") -> str:
    """A fenced block that no line of ``text`` can close: the fence is longer than any backtick run."""
    ticks = "`" * max(3, longest_run(text, "`") + 1)
    return f"{ticks}{info}\n{text}\n{ticks}"


@dataclass(frozen=True)
class FenceSpan:
    """A fenced code block's lines: ``start`` is the opening fence, ``end`` the closing one (inclusive), or the
    last line given when the fence is never closed."""

    start: int
    end: int
    closed: bool


_FENCE_LINE = re.compile(r"^ {0,3}(?P<mark>`{3,}|~{3,})(?P<info>.*)$")


def fence_spans(lines: Sequence[str]) -> list[FenceSpan]:
    """The fenced blocks of ``lines`` by CommonMark's fence rule: a block closes at a fence of its opening
    character, at least as long, with nothing after it. docbot's one line-level fence reader: the docs/api
    merge (a marker inside a closed fence is text) and the PR comment (a doc shown rendered must close its
    fences) read it; ``docbot verify`` reads a person's docs with markdown-it, which also sees fences inside
    list items and quotes (docbot.verify.read.markdown), at a cost these fast paths do not pay."""
    spans: list[FenceSpan] = []
    opened: tuple[int, str] | None = None
    for index, line in enumerate(lines):
        found = _FENCE_LINE.match(line)
        if found is None:
            continue
        mark = found["mark"]
        if opened is None:
            opened = (index, mark)
        elif mark[0] == opened[1][0] and len(mark) >= len(opened[1]) and not found["info"].strip():
            spans.append(FenceSpan(opened[0], index, True))
            opened = None
    if opened is not None:
        spans.append(FenceSpan(opened[0], len(lines) - 1, False))
    return spans


def plain(markdown: str) -> str:
    """Markdown reduced to comparable text: references decoded, escapes and emphasis marks dropped."""
    text = html.unescape(re.sub(r"<[^>]*>", "", markdown))
    text = re.sub(r"\\(.)", r"\1", text)
    return text.replace("`", "").replace("*", "")
