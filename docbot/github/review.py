"""Docstring suggestions as a pull-request review (with ``write_docstrings`` on, comment mode).

Each suggestion is a review comment on the changed function's definition line carrying a GitHub
``suggestion`` block, so one click commits the docstring. The block's text is exactly what
``docbot run --write-docstrings`` would write: the docstring rendered from the final doc model in the
style the file already uses, put in place by libcst, and the lines that differ taken from that edit
(an inserted docstring brings the line above it along, since a suggestion replaces whole lines).

GitHub takes a review comment only on lines of the PR's diff, so a function whose definition is
outside the diff's hunks falls back to the sticky comment (docs/design.md#action). So does every
docstring of a file a suggestion cannot round-trip byte for byte: committing one writes UTF-8 lines
with LF ends, so a latin-1, BOM, CR or form-feed file would be changed beyond its docstring
(docs/design.md#docstrings). The review is also where an unapproved doc for a function with a
person's docstring goes: it is never written, only suggested.
"""

from __future__ import annotations

import difflib
import functools
import html
from dataclasses import dataclass
from pathlib import Path

from docbot.docstrings.existing import directives, existing_docstring
from docbot.docstrings.safe import decode_source, same_code
from docbot.docstrings.style import project_style
from docbot.docstrings.text import DocstringStyle, render_docstring
from docbot.docstrings.writer import docstring_literal, set_docstring
from docbot.facts.function import extract_facts
from docbot.git.runner import git_ok
from docbot.github.annotate import approval
from docbot.github.details import fence_for
from docbot.github.sources import PrSources, within
from docbot.results import FunctionResult

REVIEW_MARKER = "<!-- docbot:suggestion -->"


@dataclass(frozen=True)
class Suggestion:
    """One review comment: replace head lines ``start_line..line`` of ``path`` with ``lines``."""

    key: str
    path: str
    start_line: int
    line: int
    lines: tuple[str, ...]
    note: str  # who says so: the doc's verdict and score

    def body(self) -> str:
        text = "\n".join(self.lines)
        fence = fence_for(text)
        return (f"{REVIEW_MARKER}\n**docbot:** the docstring of <code>{html.escape(self.key)}</code> "
                f"({self.note}). Commit the suggestion to take it.\n\n{fence}suggestion\n{text}\n{fence}\n")

    def to_json(self) -> dict[str, object]:
        """The comment as ``POST /pulls/{n}/reviews`` takes it (``start_line`` only for several lines)."""
        comment: dict[str, object] = {"path": self.path, "line": self.line, "side": "RIGHT", "body": self.body()}
        if self.start_line < self.line:
            comment |= {"start_line": self.start_line, "start_side": "RIGHT"}
        return comment


@dataclass(frozen=True)
class Fallback:
    """A docstring that cannot be a suggestion (its lines are outside the diff): shown in the comment."""

    key: str
    literal: str


def wanted(result: FunctionResult) -> bool:
    """A docstring is suggested for each function whose section this run wrote from a doc model."""
    return result.doc_model is not None and approval(result) is not None and bool(result.path)


@functools.lru_cache(maxsize=4)
def _style(root: Path, setting: str) -> DocstringStyle:
    return project_style(root, setting)


def round_trips(data: bytes) -> str | None:
    """The text of a head file a suggestion can edit byte for byte (UTF-8, no BOM, LF line ends, no form
    feed); None for any other."""
    decoded = decode_source(data)
    if isinstance(decoded, str) or decoded.encoding != "utf-8" or decoded.bom:
        return None
    return None if "\r" in decoded.text or "\f" in decoded.text else decoded.text


def suggest(result: FunctionResult, sources: PrSources, style: str = "auto") -> Suggestion | Fallback | None:
    """The suggestion for one function; None when the head has no such function to suggest it on.
    ``style`` is the ``docstring_style`` setting."""
    if result.doc_model is None:
        return None
    site = sources.site(result.path, result.module, result.qualname)
    data = git_ok(sources.root, "show", f"{sources.head}:{result.path}")
    if site is None or data is None:
        return None
    facts = extract_facts(site.target.source, result.qualname)
    text = render_docstring(result.doc_model, facts, _style(sources.root, style),
                            directives(existing_docstring(site.target.source)))
    source = round_trips(data)
    if source is None:
        return Fallback(result.key, docstring_literal(text, ""))
    try:
        edited = set_docstring(source, result.qualname, text)
    except ValueError:
        return None
    if not same_code(data, edited.encode("utf-8")):
        return Fallback(result.key, docstring_literal(text, ""))
    span = _changed_span(source.splitlines(), edited.splitlines())
    if span is None:
        return None  # the docstring is already there, word for word
    start, end, lines = span
    state = approval(result)
    note = (state.value if state else "final doc") + (f", {result.scores[-1]}/{result.bar}" if result.scores else "")
    if not within(sources.hunks(result.path), start, end):
        return Fallback(result.key, docstring_literal(text, ""))
    return Suggestion(result.key, result.path, start, end, tuple(lines), note)


def _changed_span(old: list[str], new: list[str]) -> tuple[int, int, list[str]] | None:
    """The 1-based old lines ``start..end`` and the new lines that replace them, covering every change."""
    changes = [op for op in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes() if op[0] != "equal"]
    if not changes:
        return None
    i1, j1, i2, j2 = changes[0][1], changes[0][3], changes[-1][2], changes[-1][4]
    if i1 == i2:  # a pure insertion: a suggestion replaces lines, so take the line above along
        i1, j1 = i1 - 1, j1 - 1
    return i1 + 1, i2, new[j1:j2]


def render_fallbacks(fallbacks: list[Fallback], base: str) -> str:
    """The docstrings the review could not carry, for the sticky comment."""
    if not fallbacks:
        return ""
    blocks = []
    for item in fallbacks:
        fence = fence_for(item.literal)
        blocks.append(f"<details><summary><code>{html.escape(item.key)}</code>: docstring</summary>\n\n"
                      f"{fence}python\n{item.literal}\n{fence}\n\n</details>\n\n")
    return ("**Docstrings the review could not carry** (outside this PR's diff, where a review cannot "
            "suggest, or the review was refused): "
            f"<code>docbot run --base {html.escape(base)} --write-docstrings</code> writes them.\n\n"
            + "".join(blocks))
