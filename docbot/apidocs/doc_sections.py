"""A docstring read into its sections by griffe's parsers (Google, NumPy, Sphinx/reST), for the reference pages.

Each docstring's style is inferred from its own text (griffe's heuristics: ``:param x:`` is Sphinx,
``Args:`` Google, underlined ``Parameters`` NumPy); one with no sections is a single text section. The
result is plain values (``DocSection``), so ``reference.py`` renders them without griffe, the way docbot
renders its own sections: a Parameters table with types and defaults, Returns, Raises, admonitions,
doctest sessions as code.

griffe's Sphinx parser reads a field list (``:returns:``, ``:rtype:``) up to the end of the docstring, so
a ``.. note::`` or ``.. doctest::`` after the fields would become part of the last field's text. Such
directives are taken out before parsing and kept as text sections after the fields, where they stood.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Any


class SectionKind(Enum):
    TEXT = "text"
    PARAMETERS = "parameters"
    OTHER_PARAMETERS = "other parameters"
    RETURNS = "returns"
    YIELDS = "yields"
    RECEIVES = "receives"
    RAISES = "raises"
    WARNS = "warns"
    ATTRIBUTES = "attributes"
    EXAMPLES = "examples"
    ADMONITION = "admonition"
    DEPRECATED = "deprecated"


@dataclass(frozen=True)
class DocItem:
    """One entry of a section: a parameter, a return value, an exception, an attribute."""

    name: str = ""
    annotation: str = ""
    default: str = ""  # the signature's default as written; "" when there is none
    required: bool = False  # a parameter of the signature with no default
    description: str = ""


@dataclass(frozen=True)
class DocSection:
    kind: SectionKind
    title: str = ""  # an admonition's ("Note", "Warning"), or a deprecation's version
    text: str = ""  # a text section, an admonition's body
    items: tuple[DocItem, ...] = ()
    examples: tuple[tuple[bool, str], ...] = ()  # (a doctest session?, its text), in order


_FIELD = re.compile(r"^\s*:(param|parameter|arg|argument|key|keyword|type|raises?|except|exception|returns?|"
                    r"rtype|yields?|ytype|var|ivar|cvar|vartype)\b", re.M)
_DIRECTIVE = re.compile(r"\.\. [\w-]+::")  # at the start of a line
_KINDS = {kind.value: kind for kind in SectionKind}
# Google's "Returns:\n    bool: it." names the type, as NumPy's and Sphinx's do (griffe reads it as a name).
_OPTIONS: dict[str, dict[str, Any]] = {"google": {"returns_named_value": False}}


def parse(docstring: Any) -> tuple[DocSection, ...]:
    """The sections of a griffe ``Docstring`` (None or empty: none)."""
    if docstring is None or not docstring.value.strip():
        return ()
    import griffe  # only where pages are built (docbot/apidocs/api_model.py)

    body, trailing = split_trailing_directives(docstring.value)
    read = griffe.Docstring(body, lineno=docstring.lineno, parent=docstring.parent)
    style, _ = griffe.infer_docstring_style(read)
    style_name: Any = str(getattr(style, "value", style or "google"))  # griffe's Parser names it
    try:
        sections = read.parse(style_name, **_OPTIONS.get(style_name, {}), warnings=False)
    except Exception:  # a parser's bug on odd text must not lose the docstring: show it as written
        return (DocSection(SectionKind.TEXT, text=docstring.value),)
    found = [converted for section in sections if (converted := _section(section, docstring.parent)) is not None]
    return tuple(found + [DocSection(SectionKind.TEXT, text=text) for text in trailing])


def split_trailing_directives(text: str) -> tuple[str, list[str]]:
    """``text`` without the reST directive blocks that follow its first field (``:param``, ``:returns:``...),
    and those blocks, in order. Directives before the fields stay in the text. griffe dedents a docstring,
    so fields and directives start their lines; a directive's body is the indented or blank lines after it."""
    first_field = _FIELD.search(text)
    if first_field is None:
        return text, []
    lines = text.split("\n")
    start = text[:first_field.start()].count("\n")
    kept, blocks = lines[:start], []
    block: list[str] | None = None
    for line in lines[start:]:
        if _DIRECTIVE.match(line):
            block = [line]
            blocks.append(block)
        elif block is not None and (not line.strip() or line[:1] in (" ", "\t")):
            block.append(line)
        else:
            block = None
            kept.append(line)
    return "\n".join(kept).rstrip(), ["\n".join(b).rstrip() for b in blocks]


def _section(section: Any, parent: Any) -> DocSection | None:
    kind = _KINDS.get(section.kind.value)
    if kind is None:  # a section kind docbot does not show apart (functions, classes, modules...): as text
        return None
    if kind is SectionKind.TEXT:
        return DocSection(kind, text=section.value)
    if kind is SectionKind.ADMONITION:
        return DocSection(kind, title=section.title or section.value.annotation or "Note",
                          text=section.value.description)
    if kind is SectionKind.DEPRECATED:
        return DocSection(kind, title=str(section.value.version or ""), text=section.value.description)
    if kind is SectionKind.EXAMPLES:
        return DocSection(kind, examples=tuple((part_kind.value == "examples", text)
                                               for part_kind, text in section.value))
    return DocSection(kind, items=tuple(_item(element, parent) for element in section.value))


def _item(element: Any, parent: Any) -> DocItem:
    name = str(getattr(element, "name", "") or "")
    annotation = element.annotation
    default = getattr(element, "default", None) if hasattr(element, "default") else None
    return DocItem(name=name, annotation="" if annotation is None else str(annotation),
                   default="" if default is None else str(default), required=_required(parent, name, default),
                   description=str(element.description or "").strip())


def _required(function: Any, name: str, default: Any) -> bool:
    """A parameter the signature has, not variadic, with no default."""
    if default is not None or not name or name.startswith("*"):
        return False
    parameters = getattr(function, "parameters", None)
    try:
        parameter = parameters[name] if parameters is not None else None
    except (KeyError, TypeError):
        return False
    return parameter is not None and "variadic" not in parameter.kind.value and parameter.default is None
