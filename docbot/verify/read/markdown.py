"""Just enough Markdown reading for the truth checks: fences, headings, labelled parts, entries.

Docs come from models and from people, so the reader is forgiving: a part is opened by a heading
(``### Raises``), a bold label (``**Raises:**``), a plain label line (``Raises:``) or a numpy-style
underlined label. Entries are table rows, list items, or definition lines (``rate (float): ...``).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import lru_cache

from docbot.verify.read.md_tokens import tokens

_ATX = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)(?:[-*+]|\d+[.)])\s+(.*)$")
_BOLD_LABEL = re.compile(r"^\s*(?:\*\*|__)([^*_]+?)(?:\*\*|__)\s*:?\s*(.*)$")
_PLAIN_LABEL = re.compile(r"^\s*([A-Z][A-Za-z ]{1,24}?)\s*:\s*(.*)$")

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
    argument: str = ""  # what follows the language in the info string (MyST: ```{autofunction} pkg.f``` -> pkg.f)


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    line: int
    lines: int = 1  # 2 for a setext heading (text line + underline)


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
    """Fenced blocks, an unclosed fence running to the end of its container (as CommonMark reads it)."""
    if "```" not in markdown and "~~~" not in markdown:
        return []  # no fence can open (CommonMark's take three backticks or tildes): no need to parse
    blocks = []
    for token in tokens(markdown):
        if token.type == "fence" and token.map:
            start, end = token.map
            lang, text = fence_lang(token.info, token.content.removesuffix("\n"))
            blocks.append(CodeBlock(lang, text, start, end - 1, " ".join(token.info.split()[1:])))
    return blocks


# MyST's code directives: ```{code-block} python``` holds Python; its first lines may be the directive's options
_MYST_CODE = {"code-block", "code", "sourcecode", "code-cell", "testcode", "doctest", "ipython"}
_MYST_OPTION = re.compile(r"^:[\w-]+:.*$")
_TEMPLATE_TAG = re.compile(r"\{%-?\s.*?%\}|\{\{.+?\}\}|\{#.*?#\}")


def fence_lang(info: str, text: str) -> tuple[str, str]:
    """A fence's language and its code, read as the doc's toolchain reads them: MyST's ``{code-block} python``
    is Python (its ``:caption:`` options and ``---`` block are the directive's, not code), another directive
    (``{note}``, ``{eval-rst}``) is its own name, and an unlabelled block of Jinja (``{{ user }}``,
    ``{% for %}`` outside any string) is a template, not Python."""
    words = info.split()
    lang = words[0].lower().strip(".") if words else ""
    if lang.startswith("{") and lang.endswith("}"):
        lang = lang[1:-1]
        if lang in _MYST_CODE:
            argument = words[1].lower() if len(words) > 1 else "python"
            # MyST's {doctest} is Sphinx's directive: its argument is a test group, and its flags are Sphinx's
            return ("doctest" if lang == "doctest" else argument), _without_options(text)
        return lang, text
    if lang == "" and _TEMPLATE_TAG.search(_without_strings(text)):
        return "jinja", text
    return lang, text


def _without_options(text: str) -> str:
    """A MyST directive's body without its option lines (``:caption: x``) or ``---`` option block."""
    lines = text.split("\n")
    if lines and lines[0].strip() == "---" and "---" in (stripped := [line.strip() for line in lines])[1:]:
        lines = lines[stripped.index("---", 1) + 1 :]
    while lines and _MYST_OPTION.match(lines[0].strip()):
        lines = lines[1:]
    return "\n".join(lines).lstrip("\n")


def _without_strings(code: str) -> str:
    """``code`` with its Python string literals blanked (a template inside a string is Python's data)."""
    import io
    import tokenize

    try:
        spans = [(t.start, t.end) for t in tokenize.generate_tokens(io.StringIO(code).readline)
                 if t.type == tokenize.STRING]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return code
    lines = code.split("\n")
    for (row, col), (end_row, end_col) in reversed(spans):
        if row == end_row:
            lines[row - 1] = lines[row - 1][:col] + " " * (end_col - col) + lines[row - 1][end_col:]
        else:
            inside = [""] * (end_row - row - 1)
            lines[row - 1 : end_row] = [lines[row - 1][:col], *inside, lines[end_row - 1][end_col:]]
    return "\n".join(lines)


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


_HTML_CODE = re.compile(r"<code>(.*?)</code>", re.IGNORECASE)


def html_code_as_spans(markdown: str) -> str:
    """``<code>non&#45;negative</code>`` -> `` `non-negative` `` outside code blocks.

    docbot's own pages show every text from the code (a name, a type, a default, a message) in
    ``<code>`` with character references (docbot.mdtext.literal_code); read as a code span with its
    references decoded, it is the same text a person's backticks would give, so every check reads
    docbot's pages as it reads a person's.
    """
    if _HTML_CODE.search(markdown) is None:
        return markdown  # the same text, so the checks after it find its markdown-it reading in the cache
    lines = markdown.splitlines()
    flags = code_line_flags(markdown)
    return "\n".join(line if in_code else _HTML_CODE.sub(_as_span, line) for line, in_code in zip(lines, flags))


def _as_span(match: re.Match[str]) -> str:
    text = html.unescape(match.group(1))
    ticks = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def headings(markdown: str) -> list[Heading]:
    """ATX and setext headings outside code, with their inline text as written (backticks kept)."""
    return list(_headings(markdown))


@lru_cache(maxsize=256)  # as tokens(): verify looks every function's section up in the same doc
def _headings(markdown: str) -> tuple[Heading, ...]:
    found = []
    stream = tokens(markdown)
    for index, token in enumerate(stream):
        if token.type == "heading_open" and token.map and index + 1 < len(stream):
            found.append(Heading(int(token.tag[1]), stream[index + 1].content.strip(), token.map[0],
                                 token.map[1] - token.map[0]))
    return tuple(found)


def label_of(text: str) -> str | None:
    """The canonical label a heading or label line names, if any: ``**Args:**`` -> ``params``."""
    words = re.sub(r"[`*_:#]", "", text).strip().lower()
    return _LABEL_OF.get(words)


def split_parts(section: str) -> list[Part]:
    """Cut a section into labelled parts; code blocks stay inside the part they appear in.

    A heading opens a part (its label, or "other"); so does a label line outside code. A heading
    nested below a labelled heading (``### `rate` `` under ``## Parameters``) stays in that part.
    """
    return [Part(label, list(lines)) for label, lines in _split_parts(section)]  # fresh Parts: callers own them


@lru_cache(maxsize=256)  # each check of a section asks for its parts (six times a section): cut once
def _split_parts(section: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    lines = section.splitlines()
    in_code = code_line_flags(section)
    by_line = {h.line: h for h in headings(section)}
    parts = [Part("intro")]
    open_label: Heading | None = None  # the labelled heading whose part is open
    index = 0
    while index < len(lines):
        heading = by_line.get(index)
        if heading is not None and not (open_label and heading.level > open_label.level):
            label = label_of(heading.text)
            open_label = heading if label else None
            parts.append(Part(label or "other"))
            index += heading.lines
            continue
        found = None if in_code[index] or heading else _label_line(lines[index])
        if found is None:
            parts[-1].lines.append(lines[index])
        else:
            parts.append(Part(found[0], [found[1]] if found[1] else []))
        index += 1
    return tuple((part.label, tuple(part.lines)) for part in parts)


def _label_line(line: str) -> tuple[str, str] | None:
    """(label, text after the label) for a label line that is not a heading: ``**Args:**``, ``Raises:``."""
    if _BULLET.match(line) or line.lstrip().startswith("|"):
        return None
    for pattern in (_BOLD_LABEL, _PLAIN_LABEL):
        match = pattern.match(line)
        if match and label_of(match.group(1)):
            return (label_of(match.group(1)) or "other", match.group(2).strip())
    return None


def parts_labelled(section: str, label: str) -> list[Part]:
    return [p for p in split_parts(section) if p.label == label]


def entries(text: str) -> list[Entry]:
    """Table rows, list items and definition paragraphs of a part, outside code blocks."""
    found = table_rows(text)
    covered: set[int] = set()
    for kind, start, end in _blocks(text):
        if kind in ("table", "list"):
            covered.update(range(start, end))
    lines = prose(text).splitlines()
    for kind, start, end in _blocks(text):
        if kind == "list":
            found += _list_items(text, start, end)
    found.extend(_items([line for index, line in enumerate(lines) if index not in covered]))
    return found


def _blocks(text: str) -> list[tuple[str, int, int]]:
    """The top-level tables and lists of ``text``: (kind, first line, end line)."""
    kinds = {"table_open": "table", "bullet_list_open": "list", "ordered_list_open": "list"}
    return [(kinds[t.type], t.map[0], t.map[1]) for t in tokens(text)
            if t.type in kinds and t.level == 0 and t.map]


def block_spans(markdown: str) -> list[tuple[int, int]]:
    """The (first line, end line) of each top-level block: a paragraph, heading, list, table, quote or code block,
    in document order."""
    return [(t.map[0], t.map[1]) for t in tokens(markdown) if t.level == 0 and t.map and t.nesting >= 0]


def _list_items(text: str, start: int, end: int) -> list[Entry]:
    """The items of one top-level list, each with its continuation lines and nested lists."""
    lines = text.splitlines()
    items = []
    for token in tokens(text):
        if token.type == "list_item_open" and token.level == 1 and token.map and start <= token.map[0] < end:
            body = [line.strip() for line in lines[token.map[0] : token.map[1]] if line.strip()]
            if body:
                items.append(Entry("\n".join(body)))
    return items


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


def table_rows(text: str) -> list[Entry]:
    """The body rows of the tables in ``text``, as header (lower-cased, markup off) -> cell."""
    rows: list[Entry] = []
    header: list[str] = []
    cells: list[str] = []
    for token in tokens(text):
        if token.type == "tr_open":
            cells = []
        elif token.type == "inline" and token.level >= 3 and token.map is not None:
            cells.append(token.content.strip())
        elif token.type == "tr_close" and cells is not header:
            if not header:
                header = [re.sub(r"[`*_]", "", cell).strip().lower() for cell in cells]
            elif any(cells):
                rows.append(Entry(" | ".join(cells), dict(zip(header, cells))))
        elif token.type == "table_close":
            header = []
    return rows


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
        heading = _ATX.match(line)  # "### `threshold: float = 0.75`" under Parameters: one entry each
        if heading:
            line, previous_blank = heading.group(1), True
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
