"""The API objects a Sphinx page documents: its ``.. module::``, ``.. autofunction::``, ``.. autodata::``,
``.. class::`` ... directives, as MyST writes them (```` ```{autofunction} to_name ````) and as docbot reads an
RST page (docbot.verify.read.rst writes each such directive as that fence).

Names are qualified as Sphinx qualifies them: ``.. autofunction:: to_name`` under ``.. module:: pkg`` (or
``.. currentmodule:: pkg``) documents ``pkg.to_name``; a name that already starts with the package is taken as
written. ``:members:`` on ``autoclass`` or ``automodule`` documents the object's public members as well (so does
``autodoc_default_options = {"members": True}`` in the project's ``conf.py``, ``members_by_default``). An
``{eval-rst}`` block of a MyST page is read as the RST it holds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docbot.verify.read.markdown import code_blocks
from docbot.verify.read.rst import rst_to_markdown

_MODULE = {"module", "currentmodule"}
_OBJECTS = {"function", "class", "method", "attribute", "data", "exception", "decorator", "property",
            "classmethod", "staticmethod", "autofunction", "autoclass", "automodule", "autodata", "autoexception",
            "automethod", "autoattribute", "autodecorator", "autoproperty"}
_WITH_MEMBERS = {"autoclass", "automodule", "autoexception"}
_DEFAULT_MEMBERS = re.compile(r"autodoc_default_(?:options|flags)\s*=\s*[{\[][^}\]]*['\"]members['\"]\s*[:,\]}]"
                              r"(?!\s*(?:False|0)\b)", re.DOTALL)  # `"members": None` is on, as Sphinx reads it


@dataclass(frozen=True)
class Documented:
    """One object a page documents with a Sphinx directive."""

    dotted: str  # qualified by the page's current module: ``pkg.to_name``
    line: int  # 0-based line of the directive's fence in the Markdown read
    directive: str  # ``autofunction``, ``data``, ``class`` ...
    members: bool = False  # its public members are documented too (``:members:``)


def documented(markdown: str, package: str, members: bool = False) -> list[Documented]:
    """Every object the page's directives document, in page order; ``members``: the project's ``conf.py`` makes
    ``:members:`` the default of ``autoclass`` and ``automodule``."""
    found: list[Documented] = []
    current = ""
    for block in code_blocks(markdown):
        name = block.lang.removeprefix("py:")
        if name == "eval-rst":
            inner = documented(rst_to_markdown(block.text).markdown, package, members)
            found += [Documented(_qualified(d.dotted, current, package), block.start, d.directive, d.members)
                      for d in inner]
        elif name in _MODULE and block.argument:
            current = block.argument.split()[0]
        elif name == "autosummary":
            found += [Documented(_qualified(line.split()[0], current, package), block.start, name)
                      for line in block.text.splitlines() if line.strip() and not line.lstrip().startswith(":")]
        elif name in _OBJECTS and block.argument:
            target = re.split(r"[\s(\[]", block.argument.strip(), maxsplit=1)[0].lstrip("~")
            has = members and name in _WITH_MEMBERS or re.search(r"^:members:", block.text, re.MULTILINE) is not None
            found.append(Documented(_qualified(target, current, package), block.start, name, has))
    return found


def current_module(markdown: str) -> str:
    """The module a page's names are written relative to, as Sphinx reads them: under ``.. currentmodule:: pkg``,
    ``response.HTTPResponse`` is ``pkg.response.HTTPResponse``. "" when the page sets none, or several (which
    name stands under which is then a matter of lines: not guessed)."""
    found = {b.argument.split()[0] for b in code_blocks(markdown)
             if b.lang.removeprefix("py:") in _MODULE and b.argument.strip()}
    return found.pop() if len(found) == 1 else ""


def _qualified(name: str, module: str, package: str) -> str:
    """``to_name`` under module ``pkg`` is ``pkg.to_name``; ``pkg.x`` (or any name with no module) as written."""
    if not module or name == package or name.startswith(f"{package}.") or name.startswith(f"{module}."):
        return name
    return f"{module}.{name}"


def members_by_default(conf_py: str) -> bool:
    """Whether a Sphinx ``conf.py`` makes autodoc document members by default (``autodoc_default_options``)."""
    return _DEFAULT_MEMBERS.search(conf_py) is not None
