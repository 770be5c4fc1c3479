"""Just enough Markdown reading for the truth checks: fences, headings, labelled parts, entries.

Docs come from models and from people, so the reader is forgiving: a part is opened by a heading
(``### Raises``), a bold label (``**Raises:**``), a plain label line (``Raises:``) or a numpy-style
underlined label. Entries are table rows, list items, or definition lines (``rate (float): ...``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_FENCE = re.compile(r"^\s{0,3}(```+|~~~+)\s*([\w+-]*)")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$")
_BOLD_LABEL = re.compile(r"^\s*(?:\*\*|__)([^*_]+?)(?:\*\*|__)\s*:?\s*(.*)$")
_PLAIN_LABEL = re.compile(r"^\s*([A-Z][A-Za-z ]{1,24}?)\s*:\s*(.*)$")
_UNDERLINE = re.compile(r"^\s*(-{3,}|={3,})\s*$")

LABELS = {
    "params": ("parameters", "parameter", "params", "param", "args", "arguments", "argument",
               "keyword arguments", "other parameters", "inputs"),
    "raises": ("raises", "raise", "exceptions", "errors", "throws", "error handling"),
    "returns": ("returns", "return", "return value", "return values", "yields", "yield", "result"),
    "examples": ("examples", "example", "usage", "example usage", "usage examples", "doctest", "doctests"),
    "other": ("notes", "note", "see also", "warning", "warnings", "signature", "summary", "description",
              "details", "overview", "remarks", "caveats", "complexity", "performance", "attributes",
              "since", "deprecated", "behaviour", "behavior", "side effects", "tip", "important"),
}
_LABEL_OF = {word: label for label, words in LABELS.items() for word in words}


@dataclass(frozen=True)
class CodeBlock:
    lang: str  # lower-cased info string ("" when none)
    text: str
    start: int  # line index of the opening fence
    end: int  # line index of the closing fence (or the last line when unclosed)


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    line: int


@dataclass
class Part:
    """A labelled stretch of a section: "params", "raises", "returns", "examples", "other" or "intro"."""

    label: str
    lines: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass(frozen=True)
class Entry:
    """One documented item: a table row, a list item or a definition paragraph."""

    text: str
    cells: dict[str, str] | None = None  # header -> cell, for table rows


def code_blocks(markdown: str) -> list[CodeBlock]:
    blocks: list[CodeBlock] = []
    lines = markdown.splitlines()
    index = 0
    while index < len(lines):
        match = _FENCE.match(lines[index])
        if not match:
            index += 1
            continue
        fence, end = match.group(1), index + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        body = "\n".join(lines[index + 1 : end])
        blocks.append(CodeBlock(match.group(2).lower(), body, index, min(end, len(lines) - 1)))
        index = end + 1
    return blocks


def code_line_flags(markdown: str) -> list[bool]:
    """For each line, whether it is code: a fenced block (fences included) or an unfenced doctest
    paragraph (from a ``>>>`` line to the next blank line)."""
    lines = markdown.splitlines()
    flags = [False] * len(lines)
    for block in code_blocks(markdown):
        for index in range(block.start, block.end + 1):
            flags[index] = True
    in_doctest = False
    for index, line in enumerate(lines):
        in_doctest = not flags[index] and (line.lstrip().startswith(">>>") or (in_doctest and bool(line.strip())))
        flags[index] = flags[index] or in_doctest
    return flags


def prose(markdown: str) -> str:
    """The text with fenced blocks blanked out (line count kept)."""
    lines = markdown.splitlines()
    return "\n".join("" if in_code else line for line, in_code in zip(lines, code_line_flags(markdown)))


def headings(markdown: str) -> list[Heading]:
    found = []
    for index, line in enumerate(prose(markdown).splitlines()):
        match = _HEADING.match(line)
        if match:
            found.append(Heading(len(match.group(1)), match.group(2).strip(), index))
    return found


def label_of(text: str) -> str | None:
    """The canonical label a heading or label line names, if any: ``**Args:**`` -> ``params``."""
    words = re.sub(r"[`*_:#]", "", text).strip().lower()
    return _LABEL_OF.get(words)


def split_parts(section: str) -> list[Part]:
    """Cut a section into labelled parts; code blocks stay inside the part they appear in."""
    lines = section.splitlines()
    in_code = code_line_flags(section)
    parts = [Part("intro")]
    index = 0
    while index < len(lines):
        line = lines[index]
        found = None if in_code[index] else _label_line(line, lines[index + 1] if index + 1 < len(lines) else "")
        if found is None:
            parts[-1].lines.append(line)
            index += 1
            continue
        label, rest, underlined = found
        parts.append(Part(label, [rest] if rest else []))
        index += 2 if underlined else 1
    return parts


def _label_line(line: str, next_line: str) -> tuple[str, str, bool] | None:
    """(label, text after the label, whether the next line is an underline) for a label line."""
    heading = _HEADING.match(line)
    if heading:
        return (label_of(heading.group(2)) or "other", "", False)
    if _BULLET.match(line) or line.lstrip().startswith("|"):
        return None
    if _UNDERLINE.match(next_line) and label_of(line):
        return (label_of(line) or "other", "", True)
    for pattern in (_BOLD_LABEL, _PLAIN_LABEL):
        match = pattern.match(line)
        if match and label_of(match.group(1)):
            return (label_of(match.group(1)) or "other", match.group(2).strip(), False)
    return None


def parts_labelled(section: str, label: str) -> list[Part]:
    return [p for p in split_parts(section) if p.label == label]


def entries(text: str) -> list[Entry]:
    """Table rows, list items and definition paragraphs of a part, outside code blocks."""
    lines = prose(text).splitlines()
    found: list[Entry] = []
    table = [line for line in lines if line.lstrip().startswith("|")]
    found.extend(table_rows(table))
    rest = [line for line in lines if not line.lstrip().startswith("|")]
    found.extend(_items(rest))
    return found


def paragraphs(text: str) -> list[str]:
    """Prose paragraphs and list items, each joined into one line (code blocks left out)."""
    found: list[list[str]] = []
    fresh = True
    for line in prose(text).splitlines():
        if not line.strip():
            fresh = True
            continue
        if fresh or _BULLET.match(line) or line.lstrip().startswith("|"):
            found.append([])
        found[-1].append(line.strip())
        fresh = False
    return [" ".join(lines) for lines in found]


def table_rows(lines: list[str]) -> list[Entry]:
    rows = [_cells(line) for line in lines]
    if len(rows) < 2 or not all(re.fullmatch(r":?-{2,}:?", c.strip()) for c in rows[1] if c.strip()):
        return []
    header = [re.sub(r"[`*_]", "", h).strip().lower() for h in rows[0]]
    return [
        Entry(" | ".join(cells), dict(zip(header, cells)))
        for cells in rows[2:]
        if any(c.strip() for c in cells)
    ]


def _cells(line: str) -> list[str]:
    inner = line.strip().strip("|")
    # A pipe inside backticks (e.g. `int | None`) does not split cells.
    protected = re.sub(r"`[^`]*`", lambda m: m.group(0).replace("|", "\0"), inner)
    return [c.replace("\0", "|").strip() for c in re.split(r"(?<!\\)\|", protected)]


_DEFINITION_START = re.compile(r"^\s*(?:\*\*|__|`|\*)?\**[A-Za-z_][\w.]*[`*_]*\s*(?:\(|:|—|–|=|\s-\s|$)")


def _items(lines: list[str]) -> list[Entry]:
    """List items (with their continuation lines) and paragraphs; definition lines start new items."""
    items: list[list[str]] = []
    base_indent: int | None = None
    previous_blank = True
    for line in lines:
        if not line.strip():
            previous_blank = True
            continue
        indent = len(line) - len(line.lstrip())
        bullet = _BULLET.match(line)
        if base_indent is None:
            base_indent = indent
        starts = (bullet and indent <= base_indent) or (not bullet and indent <= base_indent and (
            previous_blank or _DEFINITION_START.match(line)))
        if starts or not items:
            items.append([])
            base_indent = min(base_indent, indent)
        items[-1].append(line.strip())
        previous_blank = False
    return [Entry("\n".join(item)) for item in items]
