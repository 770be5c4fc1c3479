"""What a doc's names can reach in the package, and which of the package's names a diff changed
(docs/design.md#drift-gate).

A README is made false by a change to a function it calls, and just as much by a change to a private helper
that function calls, or to the module constant that is its default. So the gate does not ask "does the doc
mention a changed function" but "can what the doc uses reach a changed name": each module is read as text
(nothing of the package runs) into its top-level *definitions* (functions, classes and their members,
assignments, imports), each with the names its code refers to, and the doc's uses are followed through
those references, through ``from x import *``, ``self.attr`` and base classes, to a fixed point.

Both sides of a changed module are split the same way, so a change is named at the same grain: the
definition whose code differs (``pkg.core._helper``, ``pkg.core.DEFAULT``, ``pkg.core.Box.open``), or the
module's own top-level code (``pkg.core.<module>``), which every use of the module reaches since it runs on
import. The reading errs towards reaching too much: a name bound both locally and at module level is
followed, an attribute of an unknown object is not guessed, and a change that is not Python inside the
package (a data file) reaches every doc that uses the package.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

MODULE_CODE = "<module>"  # a module's top-level code that defines no name
DATA = "<data>"  # a file of the package that is no Python module changed: reaches every use


@dataclass
class ModuleDefs:
    """One module split into definitions: qualname -> the names its code refers to."""

    refs: dict[str, set[str]] = field(default_factory=dict)
    bindings: dict[str, str] = field(default_factory=dict)  # imported name -> dotted target
    stars: list[str] = field(default_factory=list)  # modules it star-imports
    bases: dict[str, list[str]] = field(default_factory=dict)  # class -> its bases as written
    shapes: dict[str, str] = field(default_factory=dict)  # qualname -> its code's lines, for the diff
    nodes: dict[str, list[ast.AST | str]] = field(default_factory=dict)  # ... and its code, where the lines differ
    keep_shapes: bool = False
    lines: list[str] = field(default_factory=list)  # the source's, with keep_shapes
    nested: list[ast.Import | ast.ImportFrom] = field(default_factory=list)  # imports inside functions


def split_module(source: str, module: str, is_package: bool, shapes: bool = False) -> ModuleDefs:
    """``source`` as definitions (with ``shapes``, each one's code instead of its references: what the diff
    compares); a module that does not parse is one definition, its whole code."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        tree = None
    return split_parsed(tree, source, module, is_package, shapes)


def split_parsed(tree: ast.Module | None, source: str, module: str, is_package: bool,
                 shapes: bool = False) -> ModuleDefs:
    """``split_module`` from ``source``'s tree (None: it does not parse), for a caller that parsed it already."""
    found = ModuleDefs(keep_shapes=shapes, lines=source.split("\n") if shapes else [])
    if tree is None:
        found.refs[MODULE_CODE] = set()
        if shapes:
            found.shapes[MODULE_CODE], found.nodes[MODULE_CODE] = source, [source]
        return found
    _body(tree.body, "", module, is_package, found)
    for node in found.nested:  # `from ._impl import pager` inside a function: the module's name for it
        for bound, target in _imports(node, module, is_package):
            if target.endswith(".*"):
                found.stars.append(target[:-2])
            else:
                found.bindings.setdefault(bound, target)
    return found


def _body(body: Sequence[ast.stmt], prefix: str, module: str, is_package: bool, found: ModuleDefs) -> None:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            _define(found, prefix + node.name, node)
        elif isinstance(node, ast.ClassDef):
            name = prefix + node.name
            header = [*node.bases, *node.keywords, *node.decorator_list]
            members = [n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
            rest = [n for n in node.body if n not in members]
            _define(found, name, [*header, *rest])
            found.bases[name] = [b for b in (_dotted(x) for x in node.bases) if b]
            _body(members, f"{name}.", module, is_package, found)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for bound, target in _imports(node, module, is_package):
                if target.endswith(".*"):
                    found.stars.append(target[:-2])
                    _define(found, MODULE_CODE, [node], append=True)
                else:
                    found.bindings[bound] = target
                    _define(found, prefix + bound, [node], shape=f"import {target}")
        else:
            for name in _assigned(node) or [MODULE_CODE]:
                _define(found, prefix + name, [node], append=True)


def _define(found: ModuleDefs, name: str, nodes: ast.AST | list[ast.AST], *, shape: str | None = None,
            append: bool = False) -> None:
    items = nodes if isinstance(nodes, list) else [nodes]
    if found.keep_shapes:  # the diff compares code, not references
        code: list[ast.AST | str] = [shape] if shape is not None else list(items)
        text = shape if shape is not None else "\n".join(_lines(found.lines, n) for n in items)
        if append and name in found.shapes:
            found.shapes[name], found.nodes[name] = found.shapes[name] + "\n" + text, found.nodes[name] + code
        else:
            found.shapes[name], found.nodes[name] = text, code
        found.refs.setdefault(name, set())
        return
    refs: set[str] = set()
    for node in items:
        _references(node, refs, found.nested)
    if append and name in found.refs:
        found.refs[name] |= refs
    else:
        found.refs[name] = refs


def _lines(lines: list[str], node: ast.AST) -> str:
    """The source lines holding ``node`` (a definition's from its first decorator)."""
    start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])  # type: ignore[attr-defined]
    return "\n".join(lines[start - 1:node.end_lineno])  # type: ignore[attr-defined]


def _references(node: ast.AST, refs: set[str], imports: list[ast.Import | ast.ImportFrom]) -> None:
    """Add the names and dotted chains (``self.x``, ``mod.f``) the code of ``node`` loads to ``refs``: one walk,
    an attribute chain taken whole (``a.b.c``, not also ``a.b``) and what its base computes walked on."""
    todo = [node]
    while todo:
        current = todo.pop()
        if isinstance(current, ast.Attribute):
            base: ast.AST = current
            parts = []
            while isinstance(base, ast.Attribute):
                parts.append(base.attr)
                base = base.value
            if isinstance(base, ast.Name):
                refs.add(".".join([base.id, *reversed(parts)]))
            else:
                todo.append(base)
        elif isinstance(current, ast.Name):
            refs.add(current.id)
        else:
            if isinstance(current, (ast.Import, ast.ImportFrom)) and current is not node:
                imports.append(current)
            todo.extend(ast.iter_child_nodes(current))


def _dotted(node: ast.AST) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else None


def _imports(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> Iterable[tuple[str, str]]:
    if isinstance(node, ast.Import):
        for alias in node.names:
            yield (alias.asname, alias.name) if alias.asname else (alias.name.partition(".")[0],
                                                                  alias.name.partition(".")[0])
        return
    if node.level:
        parts = module.split(".")
        base = ".".join([*parts[: len(parts) - node.level + (1 if is_package else 0)], *filter(None, [node.module])])
    else:
        base = node.module or ""
    for alias in node.names:
        yield (alias.asname or alias.name, f"{base}.{alias.name}")


def _assigned(node: ast.stmt) -> list[str]:
    if isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
        return [name for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt)
                for name in _assigned(child)] + [name for handler in getattr(node, "handlers", [])
                                                 for child in handler.body for name in _assigned(child)]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        targets = [node.target]
    return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]


class Reach:
    """The package's definitions as a graph, each module read (once) when a walk first needs it.

    ``modules``: dotted module -> whether it is a package (an ``__init__``); ``read``: a module's text; ``defs``:
    the modules already split."""

    def __init__(self, modules: Mapping[str, bool], read: Callable[[str], str],
                 defs: Mapping[str, ModuleDefs] | None = None) -> None:
        self.modules, self.read = modules, read
        self._defs: dict[str, ModuleDefs] = dict(defs or {})  # modules already split by the caller
        self._resolved: dict[tuple[str, ...], tuple[str, ...]] = {}  # _local's answers

    def defs(self, module: str) -> ModuleDefs:
        if module not in self._defs:
            self._defs[module] = split_module(self.read(module), module, self.modules[module])
        return self._defs[module]

    def reaches(self, uses: Iterable[str], changed: set[str]) -> bool:
        """Whether a doc using ``uses`` (dotted, where defined) can reach a ``changed`` name."""
        uses = set(uses)
        if not changed or not uses:
            return False
        if uses & changed or (any(name.endswith(f".{DATA}") for name in changed)):
            return True
        return bool(self.closure(uses) & changed)

    def reaching(self, uses_by_doc: Mapping[str, set[str]], changed: set[str]) -> set[str]:
        """The docs (keys of ``uses_by_doc``) whose uses can reach a ``changed`` name: one walk from every doc's
        uses together, then back from the changed names over the edges it saw, so a large package is read
        once however many docs there are."""
        if not changed:
            return set()
        data = any(name.endswith(f".{DATA}") for name in changed)
        starts = {doc: {k for name in uses for k in self.resolve(name, set())} for doc, uses in uses_by_doc.items()}
        edges = self._edges(set().union(*starts.values()) if starts else set())
        back: dict[str, set[str]] = {}
        for key, successors in edges.items():
            for successor in successors:
                back.setdefault(successor, set()).add(key)
        good, todo = set(), [k for k in changed if k in edges or k in back]
        while todo:
            key = todo.pop()
            if key not in good:
                good.add(key)
                todo += back.get(key, ())
        return {doc for doc, uses in uses_by_doc.items()
                if uses and (data or uses & changed or starts[doc] & (good | changed))}

    def _edges(self, start: set[str]) -> dict[str, set[str]]:
        edges: dict[str, set[str]] = {}
        todo = list(start)
        while todo:
            key = todo.pop()
            if key in edges:
                continue
            edges[key] = found = set(self._successors(key))
            todo += [k for k in found if k not in edges]
        return edges

    def _successors(self, key: str) -> list[str]:
        module, qualname = self._split(key)
        if module is None:
            return []
        defs = self.defs(module)
        found = [k for ref in defs.refs.get(qualname, ()) for k in self._local(module, qualname, ref)]
        found += [f"{module}.{MODULE_CODE}"] if qualname != MODULE_CODE else []
        owner = qualname.rpartition(".")[0]
        return found + ([f"{module}.{owner}"] if owner and owner in defs.refs else [])

    def closure(self, uses: Iterable[str]) -> set[str]:
        """Every definition ``uses`` reach (``module.qualname``), each module's top-level code included."""
        return set(self._edges({key for name in uses for key in self.resolve(name, set())}))

    def _split(self, key: str) -> tuple[str | None, str]:
        parts = key.split(".")
        for end in range(len(parts) - 1, 0, -1):
            if ".".join(parts[:end]) in self.modules:
                return ".".join(parts[:end]), ".".join(parts[end:])
        return None, key

    def resolve(self, dotted: str, guard: set[str]) -> list[str]:
        """The definitions a global dotted name stands for (a class: with its members, inherited ones too)."""
        if dotted in guard:
            return []
        guard.add(dotted)
        if dotted in self.modules:
            return [f"{dotted}.{MODULE_CODE}"]
        module, qualname = self._split(dotted)
        if module is None:
            return []
        return self._in_module(module, qualname.split("."), guard)

    def _in_module(self, module: str, parts: list[str], guard: set[str]) -> list[str]:
        defs = self.defs(module)
        head, rest = parts[0], parts[1:]
        if head in defs.bindings and head not in defs.bases:  # the import line, then what it imports
            return [f"{module}.{head}", *self.resolve(".".join([defs.bindings[head], *rest]), guard)]
        if head in defs.refs:
            return self._member(module, head, rest, guard)
        found = [k for star in defs.stars for k in self.resolve(".".join([star, *parts]), guard)]
        return [f"{module}.{MODULE_CODE}", *found] if found else []

    def _member(self, module: str, qualname: str, rest: list[str], guard: set[str]) -> list[str]:
        """``qualname`` of ``module`` (then ``rest`` inside it), a class's members and bases included."""
        defs = self.defs(module)
        if rest:
            inner = f"{qualname}.{rest[0]}"
            if inner in defs.refs:
                return self._member(module, inner, rest[1:], guard)
            return [k for base in defs.bases.get(qualname, ()) for k in self._local(module, qualname, base, rest)]
        found = [f"{module}.{qualname}"]
        if qualname in defs.bases:  # a class: what an instance of it can call
            found += [f"{module}.{q}" for q in defs.refs if q.startswith(f"{qualname}.")]
            found += [k for base in defs.bases[qualname] for k in self._local(module, qualname, base)]
        return found

    def _local(self, module: str, qualname: str, ref: str, rest: Iterable[str] = ()) -> list[str]:
        """A name the code of ``module.qualname`` refers to, as definitions (``self.x``: its class's ``x``).
        Kept per module and name: a package's code names the same few things again and again, and resolving
        each use anew was most of the walk (issue 32)."""
        head, _, tail = ref.partition(".")
        parts = (*filter(None, tail.split(".")), *rest)
        defs = self.defs(module)
        if head in ("self", "cls") and parts:
            owner = qualname.rpartition(".")[0]
            while owner and owner not in defs.bases:
                owner = owner.rpartition(".")[0]
            if not owner:
                return []
            key: tuple[str, ...] = (module, owner, "self", parts[0])
            if key not in self._resolved:
                self._resolved[key] = tuple(self._member(module, owner, [parts[0]], set()))
        elif head in defs.refs or head in defs.bindings or defs.stars:
            key = (module, "", head, *parts)
            if key not in self._resolved:
                self._resolved[key] = tuple(self._in_module(module, [head, *parts], set()))
        else:
            return []
        return list(self._resolved[key])
