"""Where a class's method comes from, read from the package's text: its bases in the same module, the imports that
bind a base defined in another module, and class aliases (docs/design.md#claims).

A doc writes ``WebClient(token=...)`` for a class whose ``__init__`` is its base's, defined in another module
(``class WebClient(BaseClient)`` after ``from .base_client import BaseClient``): the claims about it are held to
that ``__init__``. Only what the text shows for certain is followed: a class that is decorated or has a
metaclass (a dataclass, attrs: its ``__init__`` is made, not inherited) and a base from outside the package
(its own ``__init__`` may come first in the method order) end the search with no answer.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Mapping
from functools import lru_cache
from typing import NamedTuple

from docbot.facts.module import module_tree

__all__ = ["imported_from", "inherited", "through_bases"]

_MAX_CLASSES = 20  # a base chain this long is generated code; no answer rather than a long walk
# bases that define no method a doc's claim could be about (object's __init__ takes nothing but self)
_NEUTRAL_BASES = frozenset({"object", "ABC", "Generic", "Protocol"})


class _Classes(NamedTuple):
    bases: dict[str, list[str]]  # top-level class -> the last word of each base (``Field[str]`` is ``Field``)
    aliases: dict[str, str]  # ``Str = String``
    plain: frozenset[str]  # the classes with no decorator and no keyword (``metaclass=``) in their header


def through_bases(source: str, qualname: str, functions: Mapping[str, str]) -> str | None:
    """``Sub.method`` that ``Sub`` inherits from a class of the same module: that class's ``method``; and a
    module-level alias of a class (``Str = String``) read as the class."""
    cls, _, method = qualname.rpartition(".")
    if not cls:
        return None
    table = _class_table(source)
    todo, seen = [table.aliases.get(cls, cls)], set[str]()
    while todo:
        name = todo.pop(0)
        if name in seen or len(seen) > _MAX_CLASSES:
            continue
        seen.add(name)
        if f"{name}.{method}" in functions:
            return f"{name}.{method}"
        todo += table.bases.get(name, [])
    return None


def inherited(module: str, qualname: str, modules: Collection[str], source_of: Callable[[str], str],
              functions_of: Callable[[str], Mapping[str, str]]) -> str | None:
    """``module:Base.method`` for ``Class.method`` of ``module`` that ``Class`` inherits, through its bases in
    any module of ``modules`` (each base found where the module defines it or imports it from); None when a
    class on the way is decorated or has a metaclass, a base is outside the package, or nothing defines it."""
    cls, _, method = qualname.rpartition(".")
    todo, seen = [(module, cls)] if cls else [], set[tuple[str, str]]()
    while todo:
        at, name = todo.pop(0)
        if (at, name) in seen:
            continue
        seen.add((at, name))
        if len(seen) > _MAX_CLASSES:
            return None
        source = source_of(at)
        table = _class_table(source)
        name = table.aliases.get(name, name)
        if name not in table.bases:  # not defined here: follow the import that binds it
            bound = imported_from(source, at, name, modules)
            if bound is None:
                return None  # a base from outside the package: its method may be the one called
            todo.append(bound)
            continue
        if name not in table.plain:
            return None
        if f"{name}.{method}" in functions_of(at):
            return f"{at}:{name}.{method}"
        todo += [(at, base) for base in table.bases[name] if base not in _NEUTRAL_BASES]
    return None


def imported_from(source: str, module: str, name: str, package: Collection[str]) -> tuple[str, str] | None:
    """(the module of ``package``, the name there) that ``source`` (module ``module``) imports ``name`` from."""
    is_package = any(other.startswith(module + ".") for other in package)
    parts = module.split(".")
    for level, imported, original in _from_imports(source).get(name, ()):
        base = parts[: len(parts) - level + (1 if is_package else 0)] if level else []
        dotted = ".".join([*base, *([imported] if imported else [])])
        if dotted in package:
            return dotted, original
    return None


# Project mode asks of every module for each dotted name a doc writes (docbot's own README: 188 modules), so
# each module's classes are read once, not once per name (module_tree keeps only a few trees).
@lru_cache(maxsize=1024)
def _class_table(source: str) -> _Classes:
    """The module's top-level classes, their bases and class aliases. Never mutate them."""
    tree = module_tree(source)
    body = tree.body if tree else []
    classes = [n for n in body if isinstance(n, ast.ClassDef)]
    bases = {n.name: [ast.unparse(b.value if isinstance(b, ast.Subscript) else b).rsplit(".", 1)[-1]
                      for b in n.bases] for n in classes}
    aliases = {n.targets[0].id: n.value.id for n in body if isinstance(n, ast.Assign) and len(n.targets) == 1
               and isinstance(n.targets[0], ast.Name) and isinstance(n.value, ast.Name)}
    plain = frozenset(n.name for n in classes if not n.decorator_list and not n.keywords)
    return _Classes(bases, aliases, plain)


@lru_cache(maxsize=64)  # asked once per name a doc writes: indexed once per module, not walked each time
def _from_imports(source: str) -> dict[str, list[tuple[int, str | None, str]]]:
    """The name each top-level ``from ... import`` binds -> (its level, its module, the name imported)."""
    found: dict[str, list[tuple[int, str | None, str]]] = {}
    tree = module_tree(source)
    for node in tree.body if tree else []:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                found.setdefault(alias.asname or alias.name, []).append((node.level, node.module, alias.name))
    return found
