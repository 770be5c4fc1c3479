"""Which of a scan's targets are API once whole modules are considered (pure).

``docbot.scan.targets`` decides inside one file. Two rules need more than one file:

- **Public all the way down.** A function in a private module or package (``pkg/_private.py``,
  ``pkg/_internal/mod.py``, a top-level ``_tool.py``) is not API unless the nearest public package
  re-exports it: its name in that package's ``__init__.py`` ``__all__``, or imported there from the
  private part (``from ._private import name``, ``from pkg._private import *``).
- **A move inside one module.** Two files can map to one module (``pkg/m.py`` replaced by
  ``pkg/m/__init__.py``, a move out of ``src/``); a function deleted from one and alive in the other
  is not deleted: the live target stays, as "modified" when the diff called it "added".
"""

from __future__ import annotations

import ast
import dataclasses
import functools
from collections.abc import Callable, Iterable

from docbot.scan import ast_finder
from docbot.results import Target
from docbot.scan.ast_finder import blocks

InitReader = Callable[[str, bool], str | None]  # (path of an __init__.py, old side?) -> its text or None


@dataclasses.dataclass(frozen=True)
class PrivatePart:
    """Where a path leaves the public API: the package above it, and the private module's dotted name."""

    init_path: str  # "pkg/__init__.py"; "" when the private part is at the top (nothing can re-export it)
    package: str  # "pkg"
    private: str  # "pkg._internal"


def private_part(path: str) -> PrivatePart | None:
    """None when every folder and the module of ``path`` are public."""
    parts = [p for p in path.split("/") if p not in ("", ".")]
    names = [p.removesuffix(".py") for p in parts]
    for index, name in enumerate(names):
        if name.startswith("_") and name != "__init__":
            folder = "/".join(parts[:index])
            package = _dotted(names[:index])
            return PrivatePart(f"{folder}/__init__.py" if folder else "", package,
                               f"{package}.{name}" if package else name)
    return None


def _dotted(names: list[str]) -> str:
    """Dotted name of a folder list, without a leading ``src`` layout folder."""
    return ".".join(names[1:] if names[:1] == ["src"] else names)


def reexported(init_source: str, part: PrivatePart) -> tuple[frozenset[str], bool]:
    """The names ``init_source`` (the package's ``__init__.py``) re-exports from ``part.private``,
    and whether it star-imports from there. Its literal ``__all__`` counts as re-exporting."""
    read = _init_reading(init_source)
    if read is None:
        return frozenset(), False
    exported, imports = read
    names = set(exported)
    star = False
    for node in imports:
        if _inside(_resolve(node, part.package), part.private):
            names |= {alias.name for alias in node.names}
            star = star or any(alias.name == "*" for alias in node.names)
    return frozenset(names), star


# One scan asks of the same ``__init__.py`` for each private module under it, and the hook's screen and its
# check (or ``targets``' screen and scan) ask again: one parse per text, not one per question (issue 32).
@functools.lru_cache(maxsize=16)
def _init_reading(init_source: str) -> tuple[frozenset[str], tuple[ast.ImportFrom, ...]] | None:
    """An ``__init__.py``'s literal ``__all__`` and its module-level ``from`` imports; None when it does not parse."""
    try:
        tree = ast.parse(init_source.removeprefix("\ufeff"))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    exported = frozenset(ast_finder.exported_names(tree, init_source.split("\n")) or ())
    return exported, tuple(node for node in _module_level(tree.body) if isinstance(node, ast.ImportFrom))


def _module_level(statements: list[ast.stmt]) -> Iterable[ast.stmt]:
    """Module-level statements, those in ``if``/``try`` blocks included (import fallbacks)."""
    for node in statements:
        yield node
        for block in blocks(node):
            yield from _module_level(block)


def _resolve(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    base = package.split(".") if package else []
    base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
    return ".".join([*base, *([node.module] if node.module else [])])


def _inside(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


Reexports = dict[tuple[PrivatePart, bool], tuple[frozenset[str], bool]]  # (part, old side) -> names, star


def in_api(targets: list[Target], read_init: InitReader, cache: Reexports | None = None) -> list[Target]:
    """``targets`` without those of private modules that their package does not re-export. ``cache``: the
    re-exports already read, shared by the calls of one scan (docbot.scan.tree scans a module at a time)."""
    cache = {} if cache is None else cache
    kept = []
    parts: dict[str, PrivatePart | None] = {}  # per path: a module's targets share one (111,000 at 5,000 files)
    for target in targets:
        if target.path not in parts:
            parts[target.path] = private_part(target.path)
        part = parts[target.path]
        if part is None:
            kept.append(target)
            continue
        old_side = target.kind == "deleted"
        key = (part, old_side)
        if key not in cache:
            text = read_init(part.init_path, old_side) if part.init_path else None
            cache[key] = reexported(text, part) if text else (frozenset(), False)
        names, star = cache[key]
        if star or target.qualname.split(".")[0] in names:
            kept.append(target)
    return kept


def merge_moves(targets: list[Target]) -> list[Target]:
    """Drop a deleted target whose module still defines the function (from another file)."""
    live = {t.key for t in targets if t.kind != "deleted"}
    deleted = {t.key for t in targets if t.kind == "deleted"}
    merged = []
    for target in targets:
        if target.kind == "deleted" and target.key in live:
            continue
        if target.kind == "added" and target.key in deleted:
            target = dataclasses.replace(target, kind="modified")
        merged.append(target)
    return merged
