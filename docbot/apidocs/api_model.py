"""A package's public API as its users import it, read by griffe (mkdocstrings' engine) without running it.

One ``ApiModule`` per public module path (no part starting with ``_``): ``attr._funcs.asdict`` is
documented where users import it, ``attr.asdict``, because griffe follows the re-export to its
definition. Types come from the annotations, or from ``.pyi`` stubs, which griffe merges into the
source objects. Docstrings are read into their sections by griffe's parsers (``doc_sections``). griffe is
imported only here and there, and only when pages are built: the hook's no-op path never pays for it
(docs/design.md#lazy-imports).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from docbot.apidocs.doc_sections import DocSection, parse


class Kind(Enum):
    """What an object is; the value is its Sphinx role in the ``py`` domain (``objects.inv``)."""

    MODULE = "module"
    CLASS = "class"
    FUNCTION = "function"
    METHOD = "method"
    PROPERTY = "property"
    ATTRIBUTE = "attribute"


@dataclass(frozen=True)
class ApiObject:
    """One documented object at its public path. ``canonical`` is where it is defined; ``names`` the
    canonical paths its annotations mention (for cross-references); ``file`` is relative to the root."""

    kind: Kind
    name: str
    path: str
    canonical: str
    signature: str
    docstring: str
    annotation: str
    file: str
    lineno: int
    endlineno: int
    names: tuple[str, ...] = ()
    members: tuple[ApiObject, ...] = ()
    bases: tuple[str, ...] = ()  # a class's base expressions as written (``Generic[T_co]``)
    sections: tuple[DocSection, ...] = ()  # the docstring read into its sections (Parameters, Returns...)
    value: str = ""  # an attribute's value as written (a module constant's ``3``), as pdoc shows it
    decorators: tuple[str, ...] = ()  # as written, without the ``@`` (``dataclass(frozen=True)``, ``classmethod``)


@dataclass(frozen=True)
class ApiModule:
    """A public module path, its own docstring and its public objects in source (or ``__all__``) order."""

    path: str
    docstring: str
    file: str
    members: tuple[ApiObject, ...]
    sections: tuple[DocSection, ...] = ()

    def walk(self) -> Iterator[ApiObject]:
        """Every object of the page, classes before their members, at any depth: a nested class's methods
        (``CheckedPMap.Evolver.set``) are rendered under it, so they are link targets and in objects.inv too."""
        stack = list(reversed(self.members))
        while stack:
            obj = stack.pop()
            yield obj
            stack.extend(reversed(obj.members))


Listed = tuple[tuple[str, ...], Path]  # a submodule as griffe's finder lists it: its name's parts, its file
Pick = Callable[[Any, Callable[[Any], list[Listed]]], list[Listed]]  # (module, its finder's list) -> to read


def load_api(root: Path, package: str) -> list[ApiModule]:
    """The public modules of ``package`` found under ``root`` (a checkout or an unpacked sdist)."""
    return [_module(module, root) for module in _public_modules(_load(root, package))]


def defined_at(root: Path, package: str) -> Iterator[tuple[str, str]]:
    """(public module, canonical path) of each object ``load_api`` gives that module and defines in a private
    module (what docbot.apidocs.homes counts), without reading any object's signature, docstring or members
    (building every object of a large package cost a quarter of the load). Only the modules on an import chain
    from a public module to a private one are read, a group of chains at a time (docbot.apidocs.reach): griffe
    held whole packages before, ~240 MiB for a namespace package holding a stdlib copy (issue 32)."""
    from docbot.apidocs.reach import Group

    found: list[Group] = []
    listings: dict[str, list[Listed]] = {}  # the finder's list, walked once for all the groups' loads

    def pick(index: int) -> Pick:
        def picked(module: Any, every: Callable[[Any], list[Listed]]) -> list[Listed]:
            key = str(module.filepath)
            if key not in listings:
                listings[key] = every(module)
            listed = listings[key]
            if not found:
                found.extend(_groups(module, listed) or [Group(frozenset(), frozenset())])
            return _only(module, listed, found[index].read)
        return picked

    index = 0
    while index == 0 or index < len(found):
        top = _load(root, package, pick(index))
        counted = found[index].counted if found else frozenset()
        for module in _public_modules(top):
            for name in _exported(module) if module.path in counted else ():
                target = _shown(module[name])
                if target is not None:
                    yield module.path, target.path
        index += 1
        if index < len(found):
            del top
            release(young=True)


def release(young: bool = False) -> None:
    """Let the packages griffe loaded go. griffe's dataclass extension caches each dataclass it reads in an
    unbounded ``functools.cache``, and each cached class holds its whole package (members and parents): every
    package loaded stayed to the end of the run (``check --all`` loads each package with a private module:
    472 MiB at 5,000 files; issue 32). The model is cyclic, and a whole-tree scan raises the collector's
    threshold past what a run allocates (docbot.scan.repo.few_collections), so it is collected here. ``young``:
    only the two young generations, where a group's load just made (a full collection walks the whole run's
    heap: 18 of them were 5% of ``check --all`` at 5,000 files); what a full one would find waits for the next."""
    try:
        from griffe._internal.extensions import dataclasses as extension  # griffe 1.x and 2.x; private

        extension._dataclass_parameters.cache_clear()
    except (ImportError, AttributeError):  # another griffe: nothing known to hold its models
        pass
    gc.collect(1 if young else 2)


def _load(root: Path, package: str, pick: Pick | None = None) -> Any:
    """griffe's model of ``package``; with ``pick``, of only the submodules it picks (given the finder's list)."""
    import griffe  # lazily: see the module docstring

    loader = griffe.GriffeLoader(search_paths=[str(root), str(root / "src")], allow_inspection=False)
    if pick is not None:
        every = loader.finder.submodules
        loader.finder.submodules = lambda module: pick(module, every)  # type: ignore[method-assign]
    top = loader.load(package)
    loader.resolve_aliases(implicit=False, external=False)
    return top


def _groups(module: Any, listed: list[Listed]) -> list[Any]:
    """``reach.groups`` of the top module and its submodules, read from their files."""
    from docbot.apidocs.reach import groups

    tops = [((), module.filepath)] if isinstance(module.filepath, Path) else []  # a namespace package: no file
    # one text at a time: the package's texts together were most of the lookup's memory (a stdlib: ~25 MB)
    return groups((_name(module, parts), path.stem == "__init__", _text(path)) for parts, path in tops + listed
                  if parts or path.stem == "__init__")


def _only(module: Any, listed: list[Listed], read: frozenset[str]) -> list[Listed]:
    return [(parts, path) for parts, path in listed if _name(module, parts) in read]


def _name(module: Any, parts: tuple[str, ...]) -> str:
    return ".".join((module.path, *parts))


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig", errors="replace")
    except OSError:
        return ""


def _public_modules(module: Any) -> Iterator[Any]:
    yield module
    for name, member in module.modules.items():
        if not name.startswith("_") and not member.is_alias:
            yield from _public_modules(member)


def _relative(path: Any, root: Path) -> str:
    try:
        return Path(path).resolve().relative_to(root.resolve()).as_posix()
    except (TypeError, ValueError):
        return ""


def _module(module: Any, root: Path) -> ApiModule:
    members = tuple(obj for name in _exported(module)
                    if (obj := _object(module[name], f"{module.path}.{name}", root)) is not None)
    return ApiModule(module.path, _doc(module), _relative(module.filepath, root), members, parse(module.docstring))


def _exported(module: Any) -> list[str]:
    """``__all__`` where the module declares it, else its public names: those it defines, and those it
    re-exports from a private module of the package (an import from a public module is documented there)."""
    if module.exports is not None:
        return [str(name) for name in module.exports if str(name) in module.members]
    package = module.path.split(".")[0]
    return [name for name, member in module.members.items()
            if not name.startswith("_") and (not member.is_alias or _from_private(member.target_path, package))]


def _from_private(path: str, package: str) -> bool:
    """``pkg._impl.f`` (a re-export users are meant to import from here), not ``pkg.other.f`` or ``os.path``."""
    parts = path.split(".")
    return parts[0] == package and any(part.startswith("_") for part in parts[1:-1])


def _target(obj: Any) -> Any:
    """What an alias names, or None when it leads outside what griffe loaded."""
    try:
        return obj.final_target if obj.is_alias else obj
    except Exception:  # griffe's AliasResolutionError and CyclicAliasError: nothing to document here
        return None


def _shown(obj: Any) -> Any:
    """What a page shows for a member (an alias followed to its target), or None: a module, a type alias,
    or an alias griffe cannot follow."""
    target = _target(obj)
    if target is None or target.kind.value == "module" or target.kind.value == "type alias":
        return None
    return target


def _object(obj: Any, path: str, root: Path, in_class: bool = False) -> ApiObject | None:
    target = _shown(obj)
    if target is None:
        return None
    kind = _kind(target, in_class)
    members: tuple[ApiObject, ...] = ()
    if kind is Kind.CLASS:
        members = tuple(member for name, value in target.members.items() if _shown_member(name, value)
                        if (member := _object(value, f"{path}.{name}", root, in_class=True)) is not None)
    annotation = target.annotation if kind in (Kind.ATTRIBUTE, Kind.PROPERTY) else None
    if kind is Kind.PROPERTY:
        annotation = target.returns
    names = _names(target) if kind is not Kind.CLASS else _names_in(target.bases)
    bases = tuple(str(base) for base in target.bases) if kind is Kind.CLASS else ()
    value = getattr(target, "value", None) if kind is Kind.ATTRIBUTE else None
    return ApiObject(kind, path.rsplit(".", 1)[1], path, target.path, _signature(target, kind), _doc(target),
                     "" if annotation is None else str(annotation), _relative(target.filepath, root),
                     target.lineno or 0, target.endlineno or target.lineno or 0, names, members, bases,
                     parse(target.docstring), "" if value is None else str(value),
                     tuple(str(d.value) for d in getattr(target, "decorators", ()) or ()))


def _shown_member(name: str, value: Any) -> bool:
    """Public names, and the special methods the author documented (``__add__`` with a docstring), as
    mkdocstrings shows them; ``__init__`` is the class's signature instead."""
    if not name.startswith("_"):
        return True
    if name == "__init__" or not (name.startswith("__") and name.endswith("__")):
        return False
    target = _target(value)
    return target is not None and target.kind.value == "function" and bool(_doc(target))


def _kind(target: Any, in_class: bool) -> Kind:
    kind = target.kind.value
    if kind == "class":
        return Kind.CLASS
    if kind == "function":
        if "property" in target.labels:
            return Kind.PROPERTY
        return Kind.METHOD if in_class else Kind.FUNCTION
    return Kind.ATTRIBUTE


def _doc(obj: Any) -> str:
    return obj.docstring.value if obj.docstring else ""


def _signature(target: Any, kind: Kind) -> str:
    if kind not in (Kind.FUNCTION, Kind.METHOD, Kind.CLASS):
        return ""
    function = target if kind is not Kind.CLASS else target.members.get("__init__")
    if function is None or function.kind.value != "function":
        return f"class {target.name}" if kind is Kind.CLASS else ""
    params = _parameters(function)
    if kind is Kind.CLASS:
        return f"class {target.name}({', '.join(params[1:] if params and params[0] == 'self' else params)})"
    returns = f" -> {function.returns}" if function.returns is not None else ""
    return f"def {target.name}({', '.join(params)}){returns}"


def _parameters(function: Any) -> list[str]:
    """Each parameter as written in Python, with ``/`` and ``*`` where the kinds change."""
    out: list[str] = []
    kinds = [p.kind.value for p in function.parameters]
    for index, param in enumerate(function.parameters):
        kind = kinds[index]
        if kind == "keyword-only" and "variadic positional" not in kinds[:index] and "*" not in out:
            out.append("*")
        prefix = {"variadic positional": "*", "variadic keyword": "**"}.get(kind, "")
        text = prefix + param.name + (f": {param.annotation}" if param.annotation is not None else "")
        if param.default is not None and not prefix:  # griffe gives ``**kwargs`` a default of ``{}``
            text += f" = {param.default}" if param.annotation is not None else f"={param.default}"
        out.append(text)
        if kind == "positional-only" and (index + 1 == len(kinds) or kinds[index + 1] != "positional-only"):
            out.append("/")
    return out


def _names(target: Any) -> tuple[str, ...]:
    exprs = [getattr(target, "annotation", None), getattr(target, "returns", None)]
    exprs += [p.annotation for p in getattr(target, "parameters", ())]
    return _names_in(exprs)


def _names_in(exprs: Any) -> tuple[str, ...]:
    """The canonical paths named inside annotation expressions, in order, once each."""
    found: list[str] = []
    for expr in exprs or ():
        for part in expr.iterate(flat=True) if hasattr(expr, "iterate") else ():
            path = getattr(part, "canonical_path", None)
            if isinstance(path, str) and path not in found:
                found.append(path)
    return tuple(found)
