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
from dataclasses import dataclass

# ``from X import a, b as c`` (parenthesised over lines, or continued with backslashes) and ``import X.Y as Z``,
# anywhere in the text: an anchor at line starts would miss ``if x: from . import y`` and ``a; import b``. No
# ``\b`` before the keyword: a pattern that starts with a literal is searched for by it (20 times faster on the
# stdlib), and ``reimport x`` read as an import only adds a name.
_FROM = re.compile(r"from[ \t]+(\.*)([\w.]*)[ \t]+(?P<keyword>import)\b[ \t]*(\([^)]*\)|(?:[^\n\\;]|\\\r?\n)*)")
_IMPORT = re.compile(r"import[ \t]+((?:[^\n\\;()]|\\\r?\n)*)")
_WORD = re.compile(r"[^\W\d][\w.]*")


def is_private(module: str) -> bool:
    return any(part.startswith("_") for part in module.split("."))


def imported(module: str, is_package: bool, text: str) -> set[str]:
    """Dotted names ``module``'s text may import from or bind: ``from X import a as b`` gives ``X``, ``X.a``
    (``a`` may be a submodule) and, in a package, ``module.a`` and ``module.b`` (see ``read``)."""
    modules, shadowed = read(module, is_package, text)
    return modules | shadowed


def read(module: str, is_package: bool, text: str) -> tuple[set[str], set[str]]:
    """The modules ``module``'s imports may name, and (in a package) its submodules the names they bind may
    shadow: griffe sets such a submodule over the import, so it decides what the package shows."""
    found: set[str] = set()
    bound: set[str] = set()
    keywords: set[int] = set()
    for match in _FROM.finditer(text):
        keywords.add(match.start("keyword"))
        base = _absolute(module, is_package, len(match[1]), match[2])
        if base is None:
            continue
        names = [name for name in _WORD.findall(match[4].replace("\\", " ")) if name != "as"]
        found.add(base)
        found.update(f"{base}.{name}" for name in names)
        bound.update(names)
    for match in _IMPORT.finditer(text):
        if match.start() in keywords:  # the ``import`` of a ``from`` import
            continue
        names = [name for name in _WORD.findall(match[1].replace("\\", " ")) if name != "as"]
        found.update(names)
        bound.update(name.split(".")[0] for name in names)
    return found, {f"{module}.{name}" for name in bound} if is_package else set()


def _absolute(module: str, is_package: bool, level: int, name: str) -> str | None:
    """The absolute module of a ``from`` import in ``module`` (``..x`` in ``pkg.a.b`` is ``pkg.x``)."""
    if not level:
        return name or None
    parts = module.split(".") if is_package else module.split(".")[:-1]
    if level - 1 > len(parts) - 1:
        return None
    parts = parts[:len(parts) - (level - 1)]
    return ".".join([*parts, name] if name else parts)


@dataclass(frozen=True)
class Group:
    """Modules griffe reads together (``read``: chains that share a module, their parent packages and the
    submodules that shadow their imports), and the public modules whose objects it counts there (``counted``:
    each public module in exactly one group, so nothing is counted twice)."""

    read: frozenset[str]
    counted: frozenset[str]


def groups(files: Iterable[tuple[str, bool, str]]) -> list[Group]:
    """Of the package's modules, given as (dotted name, is a package, text), those on an import chain from a
    public module to a private one, in groups no chain crosses: griffe reads one group at a time, so what it
    holds is the largest group, not the package (a namespace package holding a stdlib copy: a dozen groups)."""
    edges: dict[str, set[str]] = {}
    shadows: dict[str, set[str]] = {}
    for name, is_package, text in files:
        imports, shadowed = read(name, is_package, text)
        edges.setdefault(name, set()).update(imports)
        shadows.setdefault(name, set()).update(shadowed)
    modules = set(edges)
    for name in edges:
        edges[name] &= modules - {name}
    back: dict[str, set[str]] = {}
    for name, targets in edges.items():
        for target in targets:
            back.setdefault(target, set()).add(name)
    reach = {name for name in modules if is_private(name)}
    _close(reach, back)  # every module with a chain to a private one
    chains = {name for name in reach if not is_private(name)}
    _close(chains, {name: targets & reach for name, targets in edges.items()})  # the chains' modules
    found = []
    for part in _parts(chains, {name: edges[name] & chains for name in chains}):
        loads = part | {".".join(name.split(".")[:end]) for name in part for end in range(1, name.count(".") + 1)}
        loads |= {shadow for name in loads & modules for shadow in shadows[name]}  # no chain runs through them
        found.append(Group(frozenset(loads & modules), frozenset(n for n in part if not is_private(n))))
    return found


def needed(files: Iterable[tuple[str, bool, str]]) -> set[str]:
    """Every module some group reads."""
    return {name for group in groups(files) for name in group.read}


def _parts(names: set[str], edges: dict[str, set[str]]) -> list[set[str]]:
    """``names`` split where no edge (either way) joins them, largest first (then by name: a fixed order)."""
    joined = {name: set(edges.get(name, ())) for name in names}
    for name, targets in edges.items():
        for target in targets:
            joined[target].add(name)
    parts: list[set[str]] = []
    left = set(names)
    while left:
        part = {min(left)}
        _close(part, joined)
        parts.append(part)
        left -= part
    return sorted(parts, key=lambda part: (-len(part), min(part)))


def _close(found: set[str], edges: dict[str, set[str]]) -> None:
    """Add to ``found`` every name ``edges`` lead to from it."""
    stack = list(found)
    while stack:
        for target in edges.get(stack.pop(), ()):
            if target not in found:
                found.add(target)
                stack.append(target)
