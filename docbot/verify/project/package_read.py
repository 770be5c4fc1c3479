"""The package as the drift gate reads it on every commit: the names it binds (``ApiIndex``) and what each of
its definitions refers to (the reach graph's ``ModuleDefs``), from one ``ast.parse`` of each module, each
module's reading kept by its text (docs/design.md#drift-gate).

Reading every module was most of the gate's own cost (issue 32), and a commit changes a few: with the cache,
a module whose text the last run read is not parsed again. An entry that does not read back as a reading is
read again from the text, never trusted in part.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping

from docbot.verify.project.api_index import ApiIndex, Scope, module_scopes, parsed
from docbot.verify.project.content_cache import ContentCache
from docbot.verify.project.package import Package
from docbot.verify.project.reach import ModuleDefs, split_parsed

VERSION = "2"  # of the entries' shape and of the readings (api_index, reach): raised when either changes


def read_package(package: Package, cache: ContentCache | None = None,
                 parse: Callable[[str], ast.Module | None] = parsed) -> tuple[ApiIndex, dict[str, ModuleDefs]]:
    """The package's ``ApiIndex`` and every module split for the reach graph; ``cache`` (``VERSION``'s) keeps
    each module's reading by its text; ``parse``: ``parsed``, or a run's memo of it (the gate parsed the
    changed modules to find what changed)."""
    index = ApiIndex(package.name)
    defs: dict[str, ModuleDefs] = {}
    for module, file in sorted(package.modules.items(), key=lambda item: item[0].count(".")):  # as Package.index
        source, is_package = package.source(module), file.name == "__init__.py"
        key = ContentCache.key(source, module, str(int(is_package)))
        reading = _decoded(cache.get(key)) if cache is not None else None
        if reading is None:
            tree = parse(source)
            reading = module_scopes(module, tree, is_package), split_parsed(tree, source, module, is_package)
            if cache is not None:
                cache.put(key, _encoded(*reading))
        index.add_scopes(module, reading[0], is_package)
        defs[module] = reading[1]
    return index, defs


class HandedOn:
    """Trees parsed once and handed on once: what changed in a diff is found from the changed modules' trees
    (``keep``), and the package's reading then takes the new side's (``take``) instead of parsing it again.
    A tree taken is let go, so a cold reading of a large package holds one module's tree at a time."""

    def __init__(self) -> None:
        self.trees: dict[str, ast.Module | None] = {}

    def keep(self, source: str) -> ast.Module | None:
        self.trees[source] = tree = parsed(source)
        return tree

    def take(self, source: str) -> ast.Module | None:
        return self.trees.pop(source) if source in self.trees else parsed(source)


def _encoded(scopes: Mapping[str, Scope], split: ModuleDefs) -> dict[str, object]:
    return {"scopes": {name: [scope.names, scope.open] for name, scope in scopes.items()},
            "refs": {name: sorted(refs) for name, refs in split.refs.items()},
            "bindings": split.bindings, "stars": split.stars, "bases": split.bases}


def _decoded(entry: object) -> tuple[dict[str, Scope], ModuleDefs] | None:
    """The reading an entry holds; None for anything but one ``_encoded`` wrote (a file edited by hand, a
    truncated write): the module is read again."""
    if not isinstance(entry, dict):
        return None
    try:
        scopes = {str(name): Scope(_strings(names), bool(is_open)) for name, (names, is_open)
                  in entry["scopes"].items()}
        refs = {str(name): set(_list(found)) for name, found in entry["refs"].items()}
        bases = {str(name): _list(found) for name, found in entry["bases"].items()}
        split = ModuleDefs(refs=refs, bindings=_strings(entry["bindings"]), stars=_list(entry["stars"]), bases=bases)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    return scopes, split


def _strings(value: object) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise ValueError("not a mapping of strings")
    return dict(value)


def _list(value: object) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError("not a list of strings")
    return list(value)
