"""A parsed docstring (``doc_sections.DocSection``) as Markdown, the way docbot renders its own sections.

Parameters are a table (Name, Type, Default, Description; "required" where the signature has no
default), Returns and Yields the type then the text, Raises and Warns a list of types, admonitions
(Google's ``Note:``, NumPy's ``Notes``, reST's ``.. note::``) a quoted block under their title, doctest
sessions ``pycon`` code. Text keeps its paragraphs; reST's roles (``:class:`~pkg.Thing```) become code
spans and its code directives (``.. doctest::``, ``.. code-block:: python``) fenced code. Everything a
person wrote goes through ``docbot.mdtext``, so no docstring can break the page.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from docbot.apidocs.doc_sections import DocItem, DocSection, SectionKind
from docbot.mdtext import cell, fence, literal_code, prose

DOC_LIMIT = 100_000  # the author's own docstring: shown whole, however long the code needs it
_ROLE = re.compile(r":(?:py:)?[a-z]+:`~?([^`<]+?)(?:\s*<[^>]+>)?`")  # :class:`~pkg.C` / :ref:`text <target>`
_ADMONITIONS = {"note", "warning", "tip", "important", "caution", "attention", "danger", "error", "hint",
                "seealso", "todo", "versionadded", "versionchanged", "deprecated"}
_CODE = {"doctest", "testcode", "testoutput", "code-block", "code", "sourcecode", "ipython"}
_TITLES = {"seealso": "See also", "versionadded": "Added in version", "versionchanged": "Changed in version",
           "deprecated": "Deprecated since version"}
_VERSIONED = {"versionadded", "versionchanged", "deprecated"}  # their argument is a version, part of the title
_DIRECTIVE = re.compile(r"^\.\. ([\w-]+)::[ \t]*(.*)$")
_LABELS = {SectionKind.PARAMETERS: "Parameters", SectionKind.OTHER_PARAMETERS: "Other parameters",
           SectionKind.RETURNS: "Returns", SectionKind.YIELDS: "Yields", SectionKind.RECEIVES: "Receives",
           SectionKind.RAISES: "Raises", SectionKind.WARNS: "Warns", SectionKind.ATTRIBUTES: "Attributes",
           SectionKind.EXAMPLES: "Examples"}


def render_sections(sections: Sequence[DocSection]) -> str:
    return "\n\n".join(block for block in (_section(s) for s in sections) if block)


def _section(section: DocSection) -> str:
    kind = section.kind
    if kind is SectionKind.TEXT:
        return text_md(section.text)
    if kind is SectionKind.ADMONITION:
        return _admonition(section.title, section.text)
    if kind is SectionKind.DEPRECATED:
        return _admonition(f"Deprecated since version {section.title}" if section.title else "Deprecated",
                           section.text)
    if kind is SectionKind.EXAMPLES:
        parts = [fence(text, "pycon") if doctest else text_md(text) for doctest, text in section.examples]
        return _labelled(kind, "\n\n".join(p for p in parts if p))
    if kind in (SectionKind.PARAMETERS, SectionKind.OTHER_PARAMETERS):
        return _labelled(kind, _parameter_table(section.items))
    if kind is SectionKind.ATTRIBUTES:
        rows = [f"| {literal_code(i.name)} | {_type(i)} | {cell(_inline(i.description))} |" for i in section.items]
        return _labelled(kind, "| Name | Type | Description |\n| --- | --- | --- |\n" + "\n".join(rows))
    if kind in (SectionKind.RAISES, SectionKind.WARNS):
        return _labelled(kind, "\n".join(_listed(i.annotation or i.name, i.description) for i in section.items))
    return _labelled(kind, _returns(section.items))


def _labelled(kind: SectionKind, body: str) -> str:
    return f"**{_LABELS[kind]}**\n\n{body}" if body.strip() else ""


def _parameter_table(items: Sequence[DocItem]) -> str:
    rows = []
    for item in items:
        default = literal_code(item.default) if item.default else ("required" if item.required else "")
        rows.append(f"| {literal_code(item.name)} | {_type(item)} | {default} | {cell(_inline(item.description))} |")
    return "| Name | Type | Default | Description |\n| --- | --- | --- | --- |\n" + "\n".join(rows) if rows else ""


def _type(item: DocItem) -> str:
    return literal_code(_ROLE.sub(r"\1", item.annotation)) if item.annotation else ""


def _returns(items: Sequence[DocItem]) -> str:
    if len(items) == 1 and not items[0].name:  # one unnamed value, as docbot writes its own: the type, the text
        item = items[0]
        return "\n\n".join(p for p in (_type(item), text_md(item.description)) if p)
    return "\n".join(_listed(" ".join(p for p in (i.name, f"({i.annotation})" if i.annotation else "") if p),
                             i.description) for i in items)


def _listed(head: str, description: str) -> str:
    text = cell(_inline(description))
    return f"- {literal_code(head)}" + (f" — {text}" if text else "") if head else f"- {text}"


def _admonition(title: str, body: str) -> str:
    inner = text_md(body) or ""
    quoted = "\n".join(f"> {line}" if line else ">" for line in inner.split("\n")) if inner else ""
    return f"> **{cell(title)}**" + (f"\n>\n{quoted}" if quoted else "")


def _inline(text: str) -> str:
    """reST's roles and literals as Markdown code spans (``:func:`~a.b` `` -> `` `b` ``)."""
    return _ROLE.sub(lambda m: f"`{_short(m.group(0), m.group(1))}`", text)


def _short(role: str, target: str) -> str:
    return target.rsplit(".", 1)[-1] if "`~" in role else target.strip()


def _paragraphs(text: str) -> str:
    # ``coll[i0][i1]`` would be a reference link to Markdown (mkdocs' autorefs warns on it under --strict).
    return prose(_inline(text), DOC_LIMIT).replace("][", "]&#91;")


def text_md(text: str) -> str:
    """A docstring's text as Markdown: reST directives as admonitions or code, doctest sessions fenced as
    ``pycon``, the rest as escaped paragraphs."""
    if not text.strip():
        return ""
    blocks: list[str] = []
    for kind, chunk in _chunks(text.strip("\n").split("\n")):
        if kind == "prose":
            blocks.append(_paragraphs(chunk))
        elif kind == "session":
            blocks.append(fence(chunk, "pycon"))
        else:
            blocks.append(_directive(chunk))
    return "\n\n".join(block for block in blocks if block)


def _chunks(lines: list[str]) -> list[tuple[str, str]]:
    """The text split into prose, doctest sessions (``>>>`` up to a blank line) and directive blocks."""
    out: list[tuple[str, list[str]]] = []
    for line in lines:
        stripped = line.strip()
        last = out[-1] if out else None
        if _DIRECTIVE.match(line):
            out.append(("directive", [line]))
        elif last and last[0] == "directive" and (not stripped or line[:1] in (" ", "\t")):
            last[1].append(line)
        elif stripped.startswith(">>>") or (last and last[0] == "session" and stripped):
            if last and last[0] == "session":
                last[1].append(stripped)
            else:
                out.append(("session", [stripped]))
        elif last and last[0] == "prose":
            last[1].append(line)
        else:
            out.append(("prose", [line]))
    return [(kind, "\n".join(chunk).strip("\n")) for kind, chunk in out if "\n".join(chunk).strip()]


def _directive(block: str) -> str:
    head, *body_lines = block.split("\n")
    found = _DIRECTIVE.match(head)
    name, argument = (found.group(1), found.group(2).strip()) if found else ("", "")
    body = _dedent(body_lines)
    options = [line for line in body.split("\n") if line.startswith(":")]  # :linenos:, :skipif:
    body = "\n".join(line for line in body.split("\n") if line not in options).strip("\n")
    if name in _CODE:
        language = argument if name in ("code-block", "code", "sourcecode") and argument else \
            ("pycon" if ">>>" in body else "python")
        return fence(body, language) if body else ""
    if name in _ADMONITIONS:
        title = _TITLES.get(name, name.capitalize())
        if name in _VERSIONED and argument:
            return _admonition(f"{title} {argument}", body)
        return _admonition(title, "\n".join(p for p in (argument, body) if p))
    return fence(block, "rst")  # a directive docbot cannot render: shown as the author wrote it


def _dedent(lines: list[str]) -> str:
    indents = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(indents, default=0)
    return "\n".join(line[cut:] for line in lines)
