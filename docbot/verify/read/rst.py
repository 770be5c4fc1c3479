"""reStructuredText docs as the Markdown the truth checks read, with each line's place in the original.

docutils (the reference parser, the one Sphinx and PyPI use) parses the text; the result keeps what the checks
need: section titles as ATX headings at their nesting depth, paragraphs and list items as prose, literal blocks
(``::``, ``.. code-block:: python``) as fenced blocks and doctest blocks as ``pycon`` fences. Sphinx roles and
directives that plain docutils does not know are read as literal text instead of failing the doc, so a
``:func:`pkg.f``` reference stays visible to the reference checks (docbot.verify.read.references). Sphinx's object
and autodoc directives (``.. module::``, ``.. autofunction::``, ``.. class::`` ...) become a fence as MyST writes
them (```` ```{autofunction} pkg.f ````, their options as its body, docbot.verify.read.autodoc reads them), and the
content of an object directive (its description, its examples) is read as the doc's own text.
"""

from __future__ import annotations

import functools
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


_UNDERLINE = re.compile(r"^([=\-~^*#+`'\".:_])\1{2,}\s*$")
_ATX_HEADING = re.compile(r"^#{1,6}\s+\S")


def is_rst_doc(name: str, text: str) -> bool:
    """Whether the doc ``name`` is reStructuredText: by its extension, or, for a ``README`` with none, by its text
    (a title underlined as RST writes it, a ``.. directive::``, and no ``# heading`` as Markdown writes it)."""
    if name.endswith(".rst"):
        return True
    if "." in name:
        return False
    lines = text.splitlines()
    if any(_ATX_HEADING.match(line) for line in lines):
        return False
    underlined = any(_UNDERLINE.match(line) and above.strip() and len(line.rstrip()) >= len(above.rstrip())
                     for above, line in zip(lines, lines[1:]))
    return underlined or any(line.startswith(".. ") and "::" in line for line in lines)


@functools.lru_cache(maxsize=64)  # a doc is read for its examples, then for its claims: converted once
def rst_to_markdown(text: str) -> Converted:
    """The doc's headings, prose and code in Markdown; an RST error never stops the read (docutils reports it)."""
    document = _parse(_ROLE.sub(lambda m: f"``{m.group(1).strip()}``", text))
    out: list[tuple[str, int]] = []
    _walk(document, 0, out)
    return Converted("\n".join(line for line, _ in out) + "\n", _exact_lines(out, text.splitlines()))


def rst_tree(text: str) -> Any:
    """The docutils tree of ``text``, Sphinx roles read as literals as above (docbot.verify.read.claim_units reads
    its tables, definition and field lists from it)."""
    return _parse(_ROLE.sub(lambda m: f"``{m.group(1).strip()}``", text))


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


@functools.lru_cache(maxsize=4)  # the tree rst_to_markdown walks is the one rst_tree gives: parsed once
def _parse(text: str) -> Any:
    """The docutils tree of ``text``; shared by its readers, so it is only read, never changed."""
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

    for name in ("code-block", "sourcecode", "testcode", "ipython", "jupyter-execute"):
        directives.register_directive(name, CodeBlock)
    directives.register_directive("doctest", _doctest_directive())
    api = _api_directive()
    for name in API_DIRECTIVES:
        directives.register_directive(name, api)
        directives.register_directive(f"py:{name}", api)


# Sphinx's Python-domain and autodoc directives: each names an API object the page documents
API_DIRECTIVES = ("module", "currentmodule", "function", "class", "method", "attribute", "data", "exception",
                  "decorator", "property", "classmethod", "staticmethod", "autofunction", "autoclass", "automodule",
                  "autodata", "autoexception", "automethod", "autoattribute", "autodecorator", "autoproperty",
                  "autosummary")
_CLASS_LIKE = {"class", "exception", "autoclass", "autoexception"}


def _any_option() -> Any:
    """An option spec that takes every option a Sphinx extension adds, its value as written."""
    from docutils.parsers.rst import directives

    class AnyOption(dict[str, Any]):
        def __missing__(self, key: str) -> Any:
            return directives.unchanged

        def __bool__(self) -> bool:
            return True  # docutils reads options only when a directive has a (truthy) option_spec

    return AnyOption()


def _api_directive() -> Any:
    """A directive that writes ```` ```{name} target ```` (its options as the body), then reads its content: a class's
    nested ``.. method:: m`` is ``Class.m``, as Sphinx qualifies it."""
    from docutils import nodes
    from docutils.parsers.rst import Directive

    class ApiDirective(Directive):
        optional_arguments = 1
        final_argument_whitespace = True
        has_content = True
        option_spec = _any_option()

        def run(self) -> list[Any]:
            name = self.name.removeprefix("py:")
            target = re.split(r"[\s(\[]", self.arguments[0].strip(), maxsplit=1)[0] if self.arguments else ""
            outer = getattr(self.state.document, "docbot_class", "")
            if outer and name not in ("module", "currentmodule") and target and "." not in target:
                target = f"{outer}.{target}"
            options = "\n".join(f":{key}: {value}".rstrip() for key, value in self.options.items())
            body = "\n".join(self.content) if name == "autosummary" else options
            marker = nodes.literal_block(body, body, classes=[f"{{{name}}} {target}".rstrip()])
            if name == "autosummary" or not self.content:
                return [marker]
            holder = nodes.container()
            document = self.state.document
            document.docbot_class = target if name in _CLASS_LIKE else outer
            try:
                self.state.nested_parse(self.content, self.content_offset, holder)
            finally:
                document.docbot_class = outer
            return [marker, holder]

    return ApiDirective


def _doctest_directive() -> Any:
    """Sphinx's ``.. doctest::`` as a fence of language ``doctest``: its argument is a test group, not a language,
    and ``sphinx.ext.doctest`` (the one extension that has the directive) runs it with its own default flags,
    which ``docbot.verify.read.examples`` applies. ``:options: -IGNORE_EXCEPTION_DETAIL`` turns theirs off."""
    from docutils import nodes
    from docutils.parsers.rst import Directive

    class Doctest(Directive):
        optional_arguments = 1
        final_argument_whitespace = True
        has_content = True
        option_spec = _any_option()  # :hide:, :options:, :pyversion:, :skipif: ...

        def run(self) -> list[Any]:
            text = "\n".join(self.content)
            strict = "-IGNORE_EXCEPTION_DETAIL" in (self.options.get("options") or "")
            block = nodes.literal_block(text, text, classes=["pycon" if strict else "doctest"])
            block.line = self.content_offset + 1
            return [block]

    return Doctest


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
