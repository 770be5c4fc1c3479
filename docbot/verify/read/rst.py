"""reStructuredText docs as the Markdown the truth checks read, with each line's place in the original.

docutils (the reference parser, the one Sphinx and PyPI use) parses the text; the result keeps what the checks
need: section titles as ATX headings at their nesting depth, paragraphs and list items as prose, literal blocks
(``::``, ``.. code-block:: python``) as fenced blocks and doctest blocks as ``pycon`` fences. Sphinx roles and
directives that plain docutils does not know are read as literal text instead of failing the doc, so a
``:func:`pkg.f``` reference stays visible to the reference checks (docbot.verify.read.references).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_ROLE = re.compile(r":(?:py:)?(?:func|meth|class|mod|attr|data|exc|obj|const|ref|doc)?:`~?([^`<]+?)(?:\s*<[^>]*>)?`")


@dataclass(frozen=True)
class Converted:
    markdown: str
    lines: tuple[int, ...]  # for each Markdown line, the 1-based line of the RST it came from (0: unknown)

    def source_line(self, index: int | None) -> int | None:
        """The RST line (1-based) of Markdown line ``index`` (0-based)."""
        if index is None or not 0 <= index < len(self.lines) or not self.lines[index]:
            return None
        return self.lines[index]


def rst_to_markdown(text: str) -> Converted:
    """The doc's headings, prose and code in Markdown; an RST error never stops the read (docutils reports it)."""
    document = _parse(_ROLE.sub(lambda m: f"``{m.group(1).strip()}``", text))
    out: list[tuple[str, int]] = []
    _walk(document, 0, out)
    return Converted("\n".join(line for line, _ in out) + "\n", _exact_lines(out, text.splitlines()))


def _exact_lines(out: list[tuple[str, int]], original: list[str]) -> tuple[int, ...]:
    """docutils' node lines are approximate (a block's last line, a title's underline): each non-blank line is
    looked up in the original, in order, so a finding points at the line a person sees."""
    lines, cursor = [], 0
    for text, approximate in out:
        wanted = text.strip().strip("#").strip() if not text.startswith("```") else ""
        found = next((i for i in range(cursor, len(original)) if wanted and wanted in original[i]), None)
        if found is not None:
            cursor = found
            lines.append(found + 1)
        else:
            lines.append(approximate)
    for index, (text, _) in enumerate(out):  # an opening fence stands on the line before its code
        if text.startswith("```") and text != "```" and index + 1 < len(lines) and lines[index + 1]:
            lines[index] = lines[index + 1] - 1
    return tuple(lines)


def _parse(text: str) -> Any:
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser, directives, roles
    from docutils.utils import new_document

    _tolerate_sphinx(directives, roles)
    settings = get_default_settings(Parser)
    settings.report_level = 5  # quiet: an unknown directive is the doc's business, not a message on stderr
    settings.halt_level = 5
    settings.file_insertion_enabled = False  # `.. include::` must not read files from the checker's machine
    settings.raw_enabled = False
    settings.syntax_highlight = "none"  # docbot reads code blocks, never shows them: no pygments (issue 32)
    document = new_document("<doc>", settings)
    Parser().parse(text, document)
    return document


def _tolerate_sphinx(directives: Any, roles: Any) -> None:
    """Sphinx's code directives read as docutils' own ``code``, so their bodies stay code."""
    from docutils.parsers.rst.directives.body import CodeBlock

    for name in ("code-block", "sourcecode", "testcode", "doctest", "ipython", "jupyter-execute"):
        directives.register_directive(name, CodeBlock)


def _walk(node: Any, depth: int, out: list[tuple[str, int]]) -> None:
    from docutils import nodes

    for child in node.children:
        line = _line_of(child)
        if isinstance(child, nodes.section):
            _walk(child, depth + 1, out)
        elif isinstance(child, nodes.title):
            out += [(f"{'#' * max(1, min(depth, 6))} {child.astext()}", line), ("", line)]
        elif isinstance(child, nodes.doctest_block):
            _fence("pycon", child.astext(), line, out)
        elif isinstance(child, nodes.literal_block):
            classes = [c for c in child.get("classes", []) if c != "code"]
            _fence(classes[0] if classes else ("pycon" if ">>>" in child.astext() else ""), child.astext(),
                   line, out)
        elif isinstance(child, (nodes.paragraph, nodes.term)):
            out += [(_inline(child), line), ("", line)]
        elif isinstance(child, (nodes.system_message, nodes.comment, nodes.substitution_definition, nodes.target)):
            continue
        elif isinstance(child, nodes.Element):
            _walk(child, depth, out)


def _fence(lang: str, body: str, line: int, out: list[tuple[str, int]]) -> None:
    # docutils gives a block's last line; its first is that minus its length (what the findings point at)
    start = max(1, line - body.count("\n")) if line else 0
    out.append((f"```{lang}", start))
    out += [(text, start + i if start else 0) for i, text in enumerate(body.splitlines())]
    out += [("```", line), ("", line)]


def _inline(node: Any) -> str:
    from docutils import nodes

    parts = []
    for child in node.children:
        if isinstance(child, nodes.literal):
            parts.append(f"`{child.astext()}`")
        else:
            parts.append(child.astext())
    return " ".join("".join(parts).split())


def _line_of(node: Any) -> int:
    while node is not None:
        if getattr(node, "line", None):
            return int(node.line)
        node = node.parent
    return 0
