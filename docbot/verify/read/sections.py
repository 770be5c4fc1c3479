"""Find one function's section in a Markdown doc: by docbot's section marker, else by its heading.

Docs docbot did not write name a function in many ways: ``## compound_interest``, ``### Class.method``,
``## `fn(a, b)` ``, ``# fn()``, ``### async def fn(...)``, ``## mod.fn``. A heading names the function
when the first dotted name in it ends with the qualname (or, for a method, with the method's name under
a heading that names its class).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from docbot.verify.read.markdown import Heading, headings, label_of

_MARKER = re.compile(r"^\s*<!--\s*docbot:section\s+(\S+)[^>]*-->\s*$")
_NAME_IN_HEADING = re.compile(
    r"^(?:(?:async\s+)?def\s+|class\s+|(?:function|method|property|classmethod|staticmethod)\s*:?\s+)?"
    r"([A-Za-z_][\w.]*)"
)


@lru_cache(maxsize=4096)  # pure; verify asks it of every heading of the doc once per function
def heading_name(text: str) -> str | None:
    """The dotted name a heading stands for, or None for prose headings (``## Parameters``)."""
    plain = re.sub(r"[`*]", "", text).strip()
    plain = re.sub(r"^\d+(\.\d+)*\.?\s+", "", plain)  # numbered headings: "2.1 compound"
    if label_of(plain) is not None or label_of(plain.split(":")[0]) is not None:
        return None  # "Parameters", "Example: monthly compounding"
    match = _NAME_IN_HEADING.match(plain)
    if not match:
        return None
    rest = plain[match.end() :].strip()
    # "Compound interest for savers" is prose; "compound(a, b) -> float" and "Account.deposit" are names.
    if rest and not rest.startswith(("(", "->", ":", "[", "—", "–", "-")):
        return None
    return match.group(1)


def _names_function(name: str, qualname: str) -> bool:
    return name == qualname or name.endswith("." + qualname)


def marked_sections(markdown: str) -> dict[str, tuple[int, int]]:
    """docbot's own sections: qualname -> (marker line, end line), each running to the next marker."""
    return dict(_marked_sections(markdown))


@lru_cache(maxsize=8)  # verify looks every function up in the same doc: its lines are read once
def _marked_sections(markdown: str) -> tuple[tuple[str, tuple[int, int]], ...]:
    lines = markdown.splitlines()
    starts = [(i, m.group(1)) for i, line in enumerate(lines) if (m := _MARKER.match(line))]
    spans: dict[str, tuple[int, int]] = {}
    for (line, qualname), (end, _) in zip(starts, [*starts[1:], (len(lines), "")]):
        spans.setdefault(qualname, (line, end))
    return tuple(spans.items())


def locate_section(markdown: str, name: str, others: frozenset[str] = frozenset()) -> tuple[int, int] | None:
    """(first line, end line) of the section documenting ``name``, or None.

    docbot's ``<!-- docbot:section NAME -->`` markers come first; other docs are read by their headings.
    ``others`` are the other public names of the source: a deeper heading ends the section only when it
    names one of them (or looks like an API: a call, a dotted or code-marked name).
    """
    marked = marked_sections(markdown)
    if name in marked:
        return marked[name]
    index = _index(markdown)
    all_headings = index.headings
    matches = [h for h, n in index.by_last.get(name.rsplit(".", 1)[-1], ()) if _names_function(n, name)]
    if len(matches) > 1 and all_headings and matches[0] is all_headings[0] and matches[0].level == 1:
        matches = matches[1:]  # "# slugify" titles the module's page; "## slugify" is the function
    # "## class Account" then "### Account(owner, balance=0.0)": the one with a signature documents the call.
    match = next((h for h in matches if "(" in h.text), matches[0] if matches else None)
    if match is None and "." in name:
        match = _method_under_class(list(index.named), name)
    if match is None:
        return None
    return match.line, _section_end(index, match, others - {name}, name)


@dataclass(frozen=True)
class _Index:
    """A doc's headings, read once for all the functions verify looks up in it (read-only: it is cached)."""

    headings: tuple[Heading, ...]
    named: tuple[tuple[Heading, str | None], ...]  # each heading with the name it stands for
    by_last: Mapping[str, tuple[tuple[Heading, str], ...]]  # naming headings by their name's last part
    lines: tuple[int, ...]  # each heading's line, in order
    line_count: int


@lru_cache(maxsize=8)  # verify looks every function up in the same doc: a lookup reads only its candidates
def _index(markdown: str) -> _Index:
    all_headings = tuple(headings(markdown))
    named = tuple((h, heading_name(h.text)) for h in all_headings)
    by_last: dict[str, list[tuple[Heading, str]]] = {}
    for heading, found in named:
        if found:  # a heading naming ``qualname`` ends with its last part
            by_last.setdefault(found.rsplit(".", 1)[-1], []).append((heading, found))
    return _Index(all_headings, named, MappingProxyType({k: tuple(v) for k, v in by_last.items()}),
                  tuple(h.line for h in all_headings), len(markdown.splitlines()))


def find_section(markdown: str, name: str, others: frozenset[str] = frozenset()) -> str | None:
    """The section documenting ``name`` ("fn" or "Class.method"), heading line included, or None."""
    span = locate_section(markdown, name, others)
    if span is None:
        return None
    return "\n".join(markdown.splitlines()[span[0] : span[1]]).rstrip() + "\n"


def _method_under_class(named: list[tuple[Heading, str | None]], qualname: str) -> Heading | None:
    """``### deposit`` below ``## Account`` (or ``## class Account``) documents ``Account.deposit``."""
    class_name, method = qualname.rsplit(".", 1)
    current_class: Heading | None = None
    for heading, name in named:
        if current_class is not None and heading.level <= current_class.level:
            current_class = None
        if name and _names_function(name, class_name) and current_class is None:
            current_class = heading  # the outermost: "### Account(owner)" below it is the constructor
        elif current_class is not None and name and _names_function(name, method):
            return heading
    return None


def _is_label(text: str) -> bool:
    return label_of(text) is not None or label_of(text.split(":")[0]) is not None


def _section_end(index: _Index, start: Heading, others: frozenset[str], own: str) -> int:
    """The line where the section from ``start`` ends (see ``locate_section``)."""
    open_label: Heading | None = None
    for heading in index.headings[bisect.bisect_right(index.lines, start.line) :]:
        if open_label is not None and heading.level > open_label.level:
            continue  # "### `threshold: float = 0.75`" under "## Parameters": an entry, not a new API
        if _is_label(heading.text):
            open_label = heading  # "## Parameters" right after "## compound" belongs to it (flat model output)
            continue
        open_label = None
        if heading.level <= start.level or _names_api(heading.text, others, own):
            return heading.line
    return index.line_count


def _names_api(text: str, others: frozenset[str], own: str) -> bool:
    """Whether a heading deeper than the section's own names another API (a one-word title does not)."""
    name = heading_name(text)
    if name is None or _names_function(name, own):
        return False
    if others:
        return bool({name, name.rsplit(".", 1)[-1]} & {n for o in others for n in (o, o.rsplit(".", 1)[-1])})
    return "(" in text or "`" in text or "." in name
