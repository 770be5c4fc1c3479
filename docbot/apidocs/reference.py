"""Reference pages from the code alone, one per public module path: what mkdocstrings shows, in plain
GitHub Markdown that ``mkdocs build --strict`` also takes.

A page holds the module's own docstring, then each public object: classes with their public
attributes and properties in a table and their methods under them, functions with the signature (types
from annotations or stubs), module constants with their value, the docstring read into its sections and
rendered as docbot renders its own (``sections_md``; long is fine: it is the author's), a source link
pinned to a commit, and links to the other documented objects its signature or text names. The same
inputs give the same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from docbot.apidocs.api_model import ApiModule, ApiObject, Kind
from docbot.apidocs.doc_sections import DocSection
from docbot.apidocs.sections_md import render_sections, text_md
from docbot.mdtext import cell, fence, literal_code

VALUE_LIMIT = 300  # a constant's value shown; a longer one (a big table) is cut with an ellipsis
_NAMED = re.compile(r"`{1,2}~?\.?([A-Za-z_][\w.]*)(?:\(\))?`{1,2}|\b([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)\b")


@dataclass(frozen=True)
class Targets:
    """Where each documented object's section is: canonical and public paths -> (page, anchor)."""

    by_path: Mapping[str, tuple[str, str]]

    @classmethod
    def of(cls, modules: Iterable[ApiModule]) -> Targets:
        found: dict[str, tuple[str, str]] = {}
        for module in modules:
            found.setdefault(module.path, (page_name(module.path), module.path))
            for obj in module.walk():
                found.setdefault(obj.path, (page_name(module.path), obj.path))
                found.setdefault(obj.canonical, (page_name(module.path), obj.path))
        return cls(found)

    def link(self, path: str, here: str) -> str:
        page, anchor = self.by_path[path]
        short = anchor.rsplit(".", 1)[-1]
        return f"[`{short}`]({'' if page == here else page}#{anchor})"


def page_name(module: str) -> str:
    return f"{module}.md"


def source_url(repo_url: str, commit: str, obj: ApiObject) -> str:
    """A GitHub-style link to the object's lines at ``commit`` (a tag or branch would move). ``repo_url`` is one
    docbot built (docbot.apidocs.publish.repository_home); the commit and the file path are quoted, so no
    character of either can end the Markdown link or start another."""
    from urllib.parse import quote

    lines = f"#L{obj.lineno}-L{obj.endlineno}" if obj.lineno else ""
    return f"{repo_url.rstrip('/')}/blob/{quote(commit, safe='')}/{quote(obj.file)}{lines}"


@dataclass(frozen=True)
class Links:
    """Where a page links out: the repository and commit of the source links, and docbot's own checked
    sections (canonical path -> a link to its section in the model-written pages)."""

    repo_url: str = ""
    commit: str = ""
    sections: Mapping[str, str] = field(default_factory=dict)


def render_page(module: ApiModule, targets: Targets, links: Links = Links()) -> str:
    here = page_name(module.path)
    blocks = [f'<a id="{module.path}"></a>', f"# `{module.path}`", _doc(module.sections, module.docstring)]
    for obj in module.members:
        blocks += _object(obj, targets, here, links, level=2)
    return "\n\n".join(block for block in blocks if block) + "\n"


def _object(obj: ApiObject, targets: Targets, here: str, links: Links, level: int) -> list[str]:
    title = obj.path.removeprefix(here.removesuffix(".md") + ".")  # ``PMap.set`` under ``PMap``
    blocks = [f'<a id="{obj.path}"></a>', f"{'#' * level} `{title}`"]
    if obj.signature:  # decorators above it, as in the code (pdoc shows them; mkdocstrings as labels)
        blocks.append(fence("".join(f"@{d}\n" for d in obj.decorators) + obj.signature, "python"))
    if obj.bases:  # what a reader needs to know which methods it inherits (mkdocstrings shows it too)
        blocks.append("**Bases:** " + ", ".join(literal_code(base) for base in obj.bases))
    if not obj.signature and (obj.annotation or obj.value):
        blocks.append(fence(_declaration(obj), "python"))
    blocks.append(_doc(obj.sections, obj.docstring))
    blocks.append(_see(obj, targets, here))
    if obj.canonical in links.sections:
        blocks.append(f"docbot's checked documentation: [{obj.name}]({links.sections[obj.canonical]})")
    if links.repo_url and links.commit and obj.file:
        blocks.append(f"[source]({source_url(links.repo_url, links.commit, obj)})")
    if obj.kind is Kind.CLASS:
        blocks.append(_attributes(obj, targets, here))
        for member in obj.members:
            if member.kind in (Kind.METHOD, Kind.CLASS):  # a nested class, too, under its class
                blocks += _object(member, targets, here, links, level=min(level + 1, 6))
    return blocks


def _attributes(cls: ApiObject, targets: Targets, here: str) -> str:
    members = [m for m in cls.members if m.kind in (Kind.ATTRIBUTE, Kind.PROPERTY)]
    if not members:
        return ""
    valued = any(m.value for m in members)  # an enum's members, a class constant: their value, as pdoc shows it
    rows = [f'| <a id="{m.path}"></a>`{m.name}` | {m.kind.value} | {cell(m.annotation) if m.annotation else ""} '
            + (f"| {literal_code(_short_value(m.value)) if m.value else ''} " if valued else "")
            + f"| {cell(_first_paragraph(m.docstring))} |" for m in members]
    head = "| Name | Kind | Type | " + ("Value | " if valued else "") + "Description |"
    rule = "| --- | --- | --- | " + ("--- | " if valued else "") + "--- |"
    return f"**Attributes**\n\n{head}\n{rule}\n" + "\n".join(rows)


def _short_value(value: str) -> str:
    return value if len(value) <= VALUE_LIMIT else value[:VALUE_LIMIT].rstrip() + " …"


def _first_paragraph(text: str) -> str:
    return text.strip().split("\n\n", 1)[0] if text else ""


def _see(obj: ApiObject, targets: Targets, here: str) -> str:
    """Links to the documented objects the signature (its annotations, a class's bases) or the
    docstring names; the object itself is left out."""
    named = list(obj.names) + [a or b for a, b in _NAMED.findall(obj.docstring)]
    own = obj.path.rsplit(".", 1)[0] if obj.kind is not Kind.CLASS else obj.path
    links: list[str] = []
    for name in named:
        path = name if name in targets.by_path else f"{own.rsplit('.', 1)[0]}.{name}"
        if path in targets.by_path and targets.by_path[path][1] not in (obj.path,):
            link = targets.link(path, here)
            if link not in links:
                links.append(link)
    return "**See also:** " + ", ".join(links) if links else ""


def _declaration(obj: ApiObject) -> str:
    """``NAME: type = value`` as the code has it (pdoc shows a constant's value, and so does docbot)."""
    value = _short_value(obj.value)
    return obj.name + (f": {obj.annotation}" if obj.annotation else "") + (f" = {value}" if value else "")


def _doc(sections: tuple[DocSection, ...], text: str) -> str:
    """The docstring's sections, or its text where it has none (an object built without griffe's parse)."""
    return render_sections(sections) if sections else docstring(text)


def docstring(text: str) -> str:
    """A docstring's text as Markdown, unparsed: doctest sessions fenced as ``pycon``, the rest as paragraphs."""
    return text_md(text)

