"""The statements of a doc, one by one, with the structure they stand in: what the claim reader reads
(docbot.verify.read.claims, docs/design.md#claims).

A statement is a prose sentence, a list item, a table row (its cells by header), a definition-list item (its
term and definition) or a signature line. Structure comes from the kept parsers: markdown-it for Markdown
(MyST's ``term`` / ``: definition`` lists included), docutils for reStructuredText (its definition and field
lists, grid and list tables). The Python domain's signature directives (``.. function:: f(a, b=1)``), which plain
docutils does not know, are read from their own line, and their bodies as the passage about that signature.
Each unit keeps the heading above it, the labelled part it is in ("params", "raises", "returns" ...) and the
sentence that introduced its list or table, which is where a bare "`timeout`: defaults to 5" finds its subject.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from markdown_it.token import Token

from docbot.verify.read.claim_patterns import own_definition
from docbot.verify.read.markdown import label_of
from docbot.verify.read.md_tokens import tokens

__all__ = ["Form", "Unit", "markdown_lines", "markdown_units", "rst_units", "sentences"]


class Form(Enum):
    """Where a statement stands: the same claim reads differently in a table cell and in a sentence."""

    PROSE = "prose"
    BULLET = "bullet"
    TABLE = "table"
    DEFINITION = "definition"
    SIGNATURE = "signature"


@dataclass(frozen=True)
class Unit:
    form: Form
    text: str  # the statement; inline code as `backticks`
    line: int  # 0-based line of the doc it starts on
    term: str = ""  # a definition's term, a bullet's lead, a signature's own text
    cells: tuple[tuple[str, str], ...] = ()  # a table row: (header, lower-cased and unmarked; cell)
    heading: str = ""  # the nearest heading above it
    label: str = ""  # the labelled part it stands in: "params", "raises", "returns", "examples", "other" or ""
    lead: str = ""  # the sentence just before its list or table ("`f()` takes these options:")
    subject: str = ""  # a name its container is about (the signature of a directive whose body it is in)
    part: int = 0  # which sentence of its item or paragraph: the item's term is read with its first only


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*(\"'])")
_CODE = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_DEF = re.compile(r"^\s*(?:async\s+)?def\s+[A-Za-z_]")
_ANNOTATED_CALL = re.compile(r"^\s*(?:[A-Za-z_][\w.]*)\s*\(.*(?:\w\s*:\s*\S|\)\s*->)")
_PYDOC_GUTTER = re.compile(r"^\s*\|  (?=[A-Za-z_])")
_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+(?:py:)?(?:function|method|classmethod|staticmethod|class|exception|"
                        r"decorator)::\s*(\S.*?)\s*$")
_CLASS_DIRECTIVE = re.compile(r"^\s*\.\.\s+(?:py:)?(?:class|exception)::")
_DEFINITION_MARK = re.compile(r"^:\s+\S")


def sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) of a paragraph; a full stop inside a code span (`` `os.path` ``) ends nothing."""
    masked = _CODE.sub(lambda m: "`" + "x" * (len(m.group(0)) - 2) + "`", text)
    starts = [0] + [m.end() for m in _SENTENCE_END.finditer(masked)]
    ends = starts[1:] + [len(text)]
    return [(start, text[start:end].strip()) for start, end in zip(starts, ends) if text[start:end].strip()]


_LEAD = re.compile(r"^\s*(?:\*\*|__)?(`[^`]+`|[A-Za-z_][\w.]*(?:\([^()]*\))?)(?:\*\*|__)?\s*"
                   r"(?=[(:=—–]|\s(?:--?|[–—])\s)")


def lead_term(text: str) -> str:
    """The name an item leads with, as written: ``- `rate` (float): ...`` -> "`rate`"; "" for a plain sentence."""
    match = _LEAD.match(text)
    return match.group(1) if match else ""


def _line_at(text: str, offset: int, first: int) -> int:
    return first + text.count("\n", 0, offset)


def signature_lines(code: str, first: int) -> list[tuple[int, str]]:
    """Signature lines of a code block (not a session: ``>>>`` lines are calls): ``def`` lines, annotated or
    ``->`` lines and pydoc's gutter lines, a signature split over several lines joined into one."""
    if ">>>" in code:
        return []
    found: list[tuple[int, str]] = []
    pending, start = "", 0
    lines = code.splitlines()
    for index, line in enumerate(lines):
        if not pending:
            if _PYDOC_GUTTER.match(line):
                line = _PYDOC_GUTTER.sub("", line)
            elif not (_DEF.match(line) or _ANNOTATED_CALL.match(line) or "->" in line and "(" in line):
                continue
            start = index
        pending = f"{pending} {line.strip()}" if pending else line.strip()
        if pending.count("(") <= pending.count(")") or len(pending) > 2000:
            if not own_definition(lines, start):
                found.append((first + start, pending.replace("( ", "(").replace(", )", ")")))
            pending = ""
    return found


@dataclass
class _Context:
    heading: str = ""
    label: str = ""
    lead: str = ""  # the last prose sentence, the lead of a list or table that follows it


def markdown_units(markdown: str) -> list[Unit]:
    """Every statement of a Markdown doc, in order."""
    stream = tokens(markdown)
    units: list[Unit] = []
    context = _Context()
    index, items = 0, 0  # the list items open at ``index``: counted on the way, not looked back for (issue 32)
    while index < len(stream):
        token = stream[index]
        items += {"list_item_open": 1, "list_item_close": -1}.get(token.type, 0)
        if token.type == "heading_open" and index + 1 < len(stream):
            text = stream[index + 1].content.strip()
            context = _Context(heading=text, label=label_of(text) or "")
        elif token.type == "table_open":
            index = _table(stream, index, units, context)
            context.lead = ""
        elif token.type in ("bullet_list_close", "ordered_list_close") and token.level == 0:
            context.lead = ""
        elif token.type in ("fence", "code_block") and token.map:
            first = token.map[0] + (1 if token.type == "fence" else 0)
            units += [Unit(Form.SIGNATURE, text, line, text, heading=context.heading, label=context.label)
                      for line, text in signature_lines(token.content, first)]
            context.lead = ""
        elif token.type == "inline" and token.map and index:
            _inline(stream, index, units, context, items > 0)
        index += 1
    return units


def _inside_item(stream: tuple[Token, ...], index: int) -> bool:
    """Whether the inline token at ``index`` is the first paragraph of a list item."""
    return index >= 2 and stream[index - 1].type == "paragraph_open" and stream[index - 2].type == "list_item_open"


def _inline(stream: tuple[Token, ...], index: int, units: list[Unit], context: _Context, in_item: bool) -> None:
    """The statements of the inline token at ``index``; ``in_item``: it is inside a list item."""
    token = stream[index]
    if stream[index - 1].type == "heading_open" or token.map is None:
        return
    text, first = token.content, token.map[0]
    label = label_of(re.sub(r"[:*_]", "", text).strip())
    if label is not None and len(text) < 40:  # "**Parameters**", "Raises:": a part's label, not a statement
        context.label, context.lead = label, ""
        return
    form = Form.BULLET if _inside_item(stream, index) else Form.PROSE
    if form is Form.PROSE and in_item:
        form = Form.BULLET  # a list item's later paragraph: still the item's
    lines = text.split("\n")
    if form is Form.PROSE and len(lines) >= 2 and _DEFINITION_MARK.match(lines[1]):
        term = lines[0].strip()
        body = " ".join(line.lstrip(": ").strip() for line in lines[1:])
        units.append(Unit(Form.DEFINITION, body, first + 1, term, heading=context.heading, label=context.label,
                          lead=context.lead))
        return
    term = lead_term(text) if form is Form.BULLET else ""
    previous = context.lead
    for part, (offset, sentence) in enumerate(sentences(text)):
        units.append(Unit(form, " ".join(sentence.split()), _line_at(text, offset, first), term,
                          heading=context.heading, label=context.label, lead=previous, part=part))
        if form is Form.PROSE:
            previous = " ".join(sentence.split())  # "`f()` is fast. It returns a dict.": the one before
    if form is Form.PROSE:
        context.lead = " ".join(sentences(text)[-1][1].split()) if text.strip() else ""


def _table(stream: tuple[Token, ...], index: int, units: list[Unit], context: _Context) -> int:
    """Read one table from ``table_open`` at ``index``; returns the index of its ``table_close``."""
    header: list[str] = []
    row: list[str] = []
    line = 0
    while index < len(stream) and stream[index].type != "table_close":
        token = stream[index]
        if token.type == "tr_open":
            row, line = [], (token.map or [0])[0]
        elif token.type == "inline":
            row.append(token.content.strip())
        elif token.type == "tr_close":
            if not header:
                header = [re.sub(r"[`*_]", "", cell).strip().lower() for cell in row]
            elif any(row):
                units.append(_row(header, row, line, context))
        index += 1
    return index


def _row(header: list[str], row: list[str], line: int, context: _Context) -> Unit:
    cells = tuple(zip(header, row))
    return Unit(Form.TABLE, " | ".join(row), line, row[0] if row else "", cells, context.heading, context.label,
                context.lead)


# --- reStructuredText --------------------------------------------------------------------------------------------


def rst_units(text: str, first: int = 0, subject: str = "", owner: str = "") -> list[Unit]:
    """Every statement of an RST doc, in order; ``first``: the line the text starts on (a directive's body);
    ``owner``: the class whose directive's body this is. A directive nested in a class's is that class's, as
    Sphinx qualifies it (traitlets' ``.. class:: MyTrait`` holds ``.. method:: validate(obj, value)``:
    ``MyTrait.validate``, not the module's ``validate``)."""
    from docbot.verify.read.rst import rst_tree

    original = text.splitlines()
    units: list[Unit] = []
    for line, signature, body, is_class in _directives(original):
        name = re.split(r"[\s(\[]", signature, maxsplit=1)[0]
        if owner and "." not in name:
            signature, name = f"{owner}.{signature}", f"{owner}.{name}"
        units.append(Unit(Form.SIGNATURE, signature, first + line, signature, subject=signature))
        units += rst_units(body, first + line + 1, signature, name if is_class else owner)
    walker = _RstWalk(original, first, subject, units)
    walker.walk(rst_tree(_without_directives(original)), _Context())
    return sorted(units, key=lambda u: u.line)


def markdown_lines(rst: str, markdown: str = "") -> dict[int, int]:
    """RST line (0-based) -> the line of its Markdown reading (docbot.verify.read.rst) that holds it, or the
    nearest one above (a line docutils drops, a directive's body)."""
    from docbot.verify.read.rst import rst_to_markdown

    found: dict[int, int] = {}
    for index, line in enumerate(rst_to_markdown(rst).lines):
        if line and line - 1 not in found:
            found[line - 1] = index
    last, filled = 0, {}
    for line in range(len(rst.splitlines()) + 1):
        last = found.get(line, last)
        filled[line] = last
    return filled


def _directives(lines: list[str]) -> list[tuple[int, str, str, bool]]:
    """(line, signature, body, is a class) of each Python-domain signature directive at the top of ``lines`` (one
    nested in another's body is read with that body), its body dedented."""
    found = []
    end = 0
    for index, line in enumerate(lines):
        match = _DIRECTIVE.match(line) if index >= end else None
        if not match:
            continue
        indent, body = len(match.group(1)), []
        for after in lines[index + 1 :]:
            if after.strip() and len(after) - len(after.lstrip()) <= indent:
                break
            body.append(after)
        end = index + 1 + len(body)
        is_class = _CLASS_DIRECTIVE.match(line) is not None
        found.append((index, match.group(2), textwrap.dedent("\n".join(body)), is_class))
    return found


def _without_directives(lines: list[str]) -> str:
    """The text with each signature directive and its body blanked (line count kept): they are read apart."""
    out = list(lines)
    for line, _signature, body, _is_class in _directives(lines):
        for index in range(line, line + 1 + len(body.splitlines())):
            if index < len(out):
                out[index] = ""
    return "\n".join(out)


class _RstWalk:
    """One walk of a docutils tree, appending units."""

    def __init__(self, original: list[str], first: int, subject: str, units: list[Unit]) -> None:
        self.original, self.first, self.subject, self.units = original, first, subject, units
        self.cursor = 0

    def line(self, node: Any, text: str) -> int:
        """The 0-based line of ``text`` in the original, near the node's (approximate) line: docutils gives a
        block's last line, so the words are looked up from a little before it."""
        words = _plain(" ".join(text.split()[:3]))
        guess = max(0, (_node_line(node) or 1) - 1)
        pattern = re.compile(rf"(?<!\w){re.escape(words)}(?!\w)") if words else None
        found = next((i for i in range(self.cursor, len(self.original))
                      if pattern and pattern.search(_plain(self.original[i]))), None)
        if found is None:
            return self.first + guess
        self.cursor = found  # the units come in the doc's order: the next one is not above this one
        return self.first + found

    def add(self, form: Form, text: str, node: Any, context: _Context, **more: Any) -> None:
        self.units.append(Unit(form, text, self.line(node, more.get("term") or text), heading=context.heading,
                               label=context.label, lead=context.lead, subject=self.subject, **more))

    def walk(self, node: Any, context: _Context) -> None:
        from docutils import nodes

        for child in node.children:
            if isinstance(child, nodes.section):
                self.walk(child, _Context())
            elif isinstance(child, nodes.title):
                context.heading, context.label, context.lead = child.astext(), label_of(child.astext()) or "", ""
            elif isinstance(child, nodes.paragraph):
                self.paragraph(child, context)
            elif isinstance(child, (nodes.literal_block, nodes.doctest_block)):
                start = self.line(child, child.astext().splitlines()[0] if child.astext() else "")
                self.units += [Unit(Form.SIGNATURE, s, line, s, heading=context.heading, label=context.label,
                                    subject=self.subject) for line, s in signature_lines(child.astext(), start)]
            elif isinstance(child, (nodes.bullet_list, nodes.enumerated_list)):
                for item in child.children:
                    self.item(item, Form.BULLET, "", context)
            elif isinstance(child, nodes.definition_list):
                for item in child.children:
                    self.definition(item, context)
            elif isinstance(child, nodes.field_list):
                for field in child.children:
                    self.item(field.children[1], Form.DEFINITION, field.children[0].astext(), context)
            elif isinstance(child, nodes.table):
                self.table(child, context)
            elif isinstance(child, (nodes.system_message, nodes.comment, nodes.substitution_definition)):
                continue
            elif isinstance(child, nodes.Element):
                self.walk(child, context)
            if not isinstance(child, (nodes.paragraph, nodes.title)):
                context.lead = ""  # only the paragraph right before a list or table introduces it

    def paragraph(self, node: Any, context: _Context) -> None:
        text = _rst_text(node)
        label = label_of(re.sub(r"[:*_]", "", text).strip())
        if label is not None and len(text) < 40:
            context.label, context.lead = label, ""
            return
        for _offset, sentence in sentences(text):
            self.add(Form.PROSE, sentence, node, context)
        context.lead = sentences(text)[-1][1] if text.strip() else ""

    def item(self, node: Any, form: Form, term: str, context: _Context) -> None:
        from docutils import nodes

        paragraphs = [c for c in node.children if isinstance(c, nodes.paragraph)]
        term = term or (lead_term(_rst_text(paragraphs[0])) if paragraphs and form is Form.BULLET else "")
        part = 0
        for paragraph in paragraphs:
            for _offset, sentence in sentences(_rst_text(paragraph)):
                self.add(form, sentence, paragraph, context, term=term, part=part)
                part += 1
        inner = _Context(context.heading, context.label, _rst_text(paragraphs[0]) if paragraphs else context.lead)
        self.walk(_Without(node, paragraphs), inner)

    def definition(self, item: Any, context: _Context) -> None:
        from docutils import nodes

        terms = [c for c in item.children if isinstance(c, nodes.term)]
        classifiers = [c.astext() for c in item.children if isinstance(c, nodes.classifier)]
        term = _rst_text(terms[0]) if terms else ""
        term += "".join(f" : {c}" for c in classifiers)
        body = next((c for c in item.children if isinstance(c, nodes.definition)), None)
        if body is None or not body.children:
            self.add(Form.DEFINITION, "", item, context, term=term, part=0)
            return
        self.item(body, Form.DEFINITION, term, context)

    def table(self, node: Any, context: _Context) -> None:
        from docutils import nodes

        header: list[str] = []
        for row in node.findall(nodes.row):
            cells = [" ".join(_rst_text(p) for p in entry.findall(nodes.paragraph)) for entry in row.children]
            in_head = isinstance(row.parent, nodes.thead)
            if in_head or not header:
                header = [re.sub(r"[`*_]", "", cell).strip().lower() for cell in cells]
                continue
            if any(cells):
                unit = _row(header, cells, 0, context)
                self.units.append(replace(unit, line=self.line(row, cells[0] or unit.text), subject=self.subject))


class _Without:
    """A node's children but the paragraphs already read (the rest of an item: nested lists, code)."""

    def __init__(self, node: Any, read: list[Any]) -> None:
        self.children = [c for c in node.children if not any(c is r for r in read)]


def _plain(text: str) -> str:
    """Text without inline markup or roles, spaces collapsed: how a sentence is found on its line."""
    return " ".join(re.sub(r":[\w:]+:(?=`)|[`*]", "", text).split())


def _node_line(node: Any) -> int:
    while node is not None:
        if getattr(node, "line", None):
            return int(node.line)
        node = node.parent
    return 0


def _rst_text(node: Any) -> str:
    from docutils import nodes

    parts = [f"`{c.astext()}`" if isinstance(c, nodes.literal) else c.astext() for c in node.children]
    return " ".join("".join(parts).split())
