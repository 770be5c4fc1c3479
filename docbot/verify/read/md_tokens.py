"""One markdown-it token stream per doc: a section cut from a doc is read as a slice of the doc's tokens.

``docbot verify`` reads a doc once for its headings, then runs every check on each function's section, and each
check asks for the section's tokens. Parsing each section again cost a fifth of pair mode at 200 sections
(docs/design.md#verify-speed). A section cut with ``section_text`` remembers where it came from, and ``tokens``
hands back the doc's tokens of those lines, their line maps shifted, instead of parsing it again. The slice is
taken only where it is the same reading: every top-level block of the doc lies wholly inside the lines or
wholly outside them (a section whose heading sits inside a list or a quote is parsed on its own). What differs
is only what the doc as a whole defines (a link reference defined elsewhere on the page), where the slice reads
the section as its reader sees it, on the page.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import OrderedDict
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

__all__ = ["section_text", "tokens"]

_ORIGINS_KEPT = 4096  # a doc's sections, a few docs at a time: pair mode reads one doc, project mode others
# section text -> (the doc's text, the section's first line); bounded, oldest first out
_ORIGINS: OrderedDict[str, tuple[str, int]] = OrderedDict()


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def section_text(markdown: str, start: int, end: int, lines: list[str] | None = None) -> str:
    """Lines ``start`` to ``end`` of ``markdown`` (each ended by a newline), remembered as a slice of it.

    ``lines``: ``markdown.splitlines()``, when the caller has it (a doc cut into many sections)."""
    text = "\n".join((lines if lines is not None else markdown.splitlines())[start:end]) + "\n"
    _ORIGINS[text] = (markdown, start)
    _ORIGINS.move_to_end(text)
    while len(_ORIGINS) > _ORIGINS_KEPT:
        _ORIGINS.popitem(last=False)
    return text


@lru_cache(maxsize=256)
def tokens(markdown: str) -> tuple[Token, ...]:
    """markdown-it tokens of ``markdown`` (GFM tables on); treat them as read-only (they are cached)."""
    origin = _ORIGINS.get(markdown)
    if origin is not None and origin[0] != markdown:
        sliced = _slice(origin[0], origin[1], origin[1] + markdown.count("\n"))
        if sliced is not None:
            return sliced
    return tuple(_parser().parse(_protect_code_pipes(markdown)))


def _slice(doc: str, start: int, end: int) -> tuple[Token, ...] | None:
    """The tokens of ``doc``'s lines ``start`` to ``end``, their maps shifted to the slice; None when a top-level
    block crosses either edge (the slice would not be the same reading)."""
    blocks = _top_level(doc)
    if blocks is None:
        return None
    firsts, lasts, positions = blocks
    first = bisect_left(firsts, start)  # found by halving: a doc of N sections is sliced N times
    after = bisect_left(firsts, end, lo=first)
    if (first and lasts[first - 1] > start) or (after > first and lasts[after - 1] > end):
        return None
    stream = tokens(doc)
    stop = positions[after] if after < len(positions) else len(stream)
    return tuple(token.copy(map=[token.map[0] - start, token.map[1] - start]) if token.map else token
                 for token in stream[positions[first] if first < len(positions) else stop : stop])


@lru_cache(maxsize=8)
def _top_level(doc: str) -> tuple[list[int], list[int], list[int]] | None:
    """Where each top-level block of ``doc``'s tokens starts and ends (lines) and its place in the stream; None
    when one has no line map (no slice can be checked)."""
    firsts: list[int] = []
    lasts: list[int] = []
    positions: list[int] = []
    for position, token in enumerate(tokens(doc)):
        if token.level == 0 and token.nesting >= 0:  # a top-level block opens (or is whole)
            if token.map is None:
                return None
            firsts.append(token.map[0])
            lasts.append(token.map[1])
            positions.append(position)
    return firsts, lasts, positions


def _protect_code_pipes(markdown: str) -> str:
    """``| `int | None` |``: a pipe inside backticks in a table row is a type, not a cell border."""
    def protect(line: str) -> str:
        if not line.lstrip().startswith("|"):
            return line
        return re.sub(r"`[^`]*`", lambda m: re.sub(r"(?<!\\)\|", r"\\|", m.group(0)), line)

    return "\n".join(protect(line) for line in markdown.split("\n"))
