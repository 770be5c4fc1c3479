"""The modules of a package griffe must read to say where its private modules' objects are shown (issue 32).

``homes.reexported`` counts, in each public module, the shown objects defined in a private module. An object
defined in a private module reaches a public module's members only along import statements (``from ._impl
import f``, ``from .api import *``, ``from . import _impl``; griffe follows nothing else), so a public module
counts only when a chain of imports leads from it to a private module, and griffe needs only the chains'
modules and their parent packages. Loading the whole package instead cost ~240 MiB for a namespace package
holding a stdlib copy, where a few dozen modules import a private one relatively.

The imports are read from the text alone and over-approximated: a match inside a string or a comment adds a
module, never drops one, and every module griffe would read on a chain is kept, so griffe's answer is the one it
gives with the whole package loaded (tests/apidocs/test_reach.py compares the two).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# ``from X import a, b as c`` (parenthesised over lines, or continued with backslashes) and ``import X.Y as Z``,
# anywhere in the text: an anchor at line starts would miss ``if x: from . import y`` and ``a; import b``.
_FROM = re.compile(r"\bfrom[ \t]+(\.*)([\w.]*)[ \t]+import\b[ \t]*(\([^)]*\)|(?:[^\n\\;]|\\\r?\n)*)")
_IMPORT = re.compile(r"\bimport[ \t]+((?:[^\n\\;()]|\\\r?\n)*)")
_WORD = re.compile(r"[^\W\d][\w.]*")


def is_private(module: str) -> bool:
    return any(part.startswith("_") for part in module.split("."))


def imported(module: str, is_package: bool, text: str) -> set[str]:
    """Dotted names ``module``'s text may import from or bind: ``from X import a as b`` gives ``X``, ``X.a``
    (``a`` may be a submodule) and, in a package, ``module.a`` and ``module.b`` (a submodule that the name
    shadows, which griffe sets over the import: it decides what the package shows)."""
    found: set[str] = set()
    spans: list[tuple[int, int]] = []
    for match in _FROM.finditer(text):
        spans.append(match.span())
        base = _absolute(module, is_package, len(match[1]), match[2])
        if base is None:
            continue
        names = _WORD.findall(match[3].replace("\\", " "))
        found.add(base)
        found.update(f"{base}.{name}" for name in names if name != "as")
        if is_package:
            found.update(f"{module}.{name}" for name in names if name != "as")
    for match in _IMPORT.finditer(text):
        if any(start <= match.start() < end for start, end in spans):  # the ``import`` of a ``from`` import
            continue
        found.update(name for name in _WORD.findall(match[1].replace("\\", " ")) if name != "as")
    return found


def _absolute(module: str, is_package: bool, level: int, name: str) -> str | None:
    """The absolute module of a ``from`` import in ``module`` (``..x`` in ``pkg.a.b`` is ``pkg.x``)."""
    if not level:
        return name or None
    parts = module.split(".") if is_package else module.split(".")[:-1]
    if level - 1 > len(parts) - 1:
        return None
    parts = parts[:len(parts) - (level - 1)]
    return ".".join([*parts, name] if name else parts)


def needed(files: Iterable[tuple[str, bool, str]]) -> set[str]:
    """Of the package's modules, given as (dotted name, is a package, text), those on an import chain from a
    public module to a private one, and their parent packages (griffe reads a module under its parents)."""
    edges: dict[str, set[str]] = {}
    for name, is_package, text in files:
        edges.setdefault(name, set()).update(imported(name, is_package, text))
    modules = set(edges)
    back: dict[str, set[str]] = {}
    for name, targets in edges.items():
        for target in targets & modules - {name}:
            back.setdefault(target, set()).add(name)
    reach = {name for name in modules if is_private(name)}
    _close(reach, back)  # every module with a chain to a private one
    keep = {name for name in reach if not is_private(name)}
    _close(keep, {name: targets & reach for name, targets in edges.items()})  # the chains' modules
    keep.update(".".join(name.split(".")[:end]) for name in list(keep) for end in range(1, name.count(".") + 1))
    # a package's submodule named like one of its imports is set over the import by griffe (it decides what
    # the package shows): read it too, though no chain runs through it
    keep.update(target for name in list(keep) for target in edges.get(name, set()) & modules
                if target.rsplit(".", 1)[0] == name)
    return keep & modules


def _close(found: set[str], edges: dict[str, set[str]]) -> None:
    """Add to ``found`` every name ``edges`` lead to from it."""
    stack = list(found)
    while stack:
        for target in edges.get(stack.pop(), ()):
            if target not in found:
                found.add(target)
                stack.append(target)
