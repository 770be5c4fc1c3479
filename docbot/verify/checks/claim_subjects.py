"""Where the claims of a function's page and of a doc checked against one source file find their subjects and
their code (docs/design.md#claims): the resolvers of ``check_doc`` (one function: the loop's page, a kept section)
and of pair mode (``docbot verify SOURCE DOC``: the source's public functions). Project mode's resolver walks the
package (docbot.verify.project.topics).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping

from docbot.verify.checks.claims import Code, CodeOf
from docbot.verify.checks.class_bases import imported_from, inherited, through_bases
from docbot.verify.checks.kwargs_reach import NOTHING, Carried, carried_keywords
from docbot.verify.checks.reach import CodeBase
from docbot.facts.module import module_tree

__all__ = ["OneFunction", "SourceFunctions", "bare", "every_function"]


def every_function(source: str) -> dict[str, str]:
    """qualname -> text (decorators included, dedented) of every function and method of the module that is not
    private by name: a doc may state things about one docbot does not document (a class outside ``__all__``)."""
    tree = module_tree(source)
    lines = source.split("\n")
    found: dict[str, str] = {}

    def add(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                add(node.body, f"{prefix}{node.name}.")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                    not node.name.startswith("_") or node.name == "__init__"):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)]) - 1
                chunk = lines[first : node.end_lineno]
                indent = chunk[0][: len(chunk[0]) - len(chunk[0].lstrip(" \t"))]
                found.setdefault(prefix + node.name, "".join(line.removeprefix(indent) + "\n" for line in chunk))

    add(tree.body if tree else [], "")
    return found


def bare(written: str) -> str:
    """A written name without its call, its ``~`` and its markup: ``~pkg.f(x)`` -> ``pkg.f``."""
    return re.sub(r"\(.*$", "", written.strip().strip("`").lstrip("~")).strip()


class OneFunction:
    """A page or section about one function: only that function's own names resolve, to ``qualname``."""

    def __init__(self, qualname: str, code: Code) -> None:
        self.qualname, self.code = qualname, code
        name = qualname.rsplit(".", 1)[-1]
        own = {qualname, name} if name != "__init__" else {qualname, qualname.rsplit(".", 1)[0],
                                                            qualname.rsplit(".", 2)[-2]}
        self.names = {n for n in own if n}

    def subject(self, written: str) -> str | None:
        name = bare(written)
        if name in self.names or any(name.endswith(f".{n}") for n in self.names if "." in n or n != "__init__"):
            return self.qualname
        return None

    def missing(self, written: str) -> bool:
        return False

    def code_of(self, subject: str) -> Code | None:
        return self.code if subject == self.qualname else None


class SourceFunctions:
    """Pair mode: the public functions of one source file, written bare (``wrap``), as ``Class.method``, as the
    class for its ``__init__``, or under the module's name (``textwrap.wrap``). ``package``: the other modules of
    its package (dotted name -> source), where a name the file only imports (``pkg/__init__.py``'s ``from .core
    import f``) is found, keyed ``module:qualname``, and where the reach, the constants and the type aliases are
    followed."""

    def __init__(self, module: str, source: str, functions: Mapping[str, str], sys_path: tuple[str, ...],
                 package: Mapping[str, str] | None = None) -> None:
        self.module, self.source, self.functions, self.sys_path = module, source, functions, sys_path
        self.scopes = _scopes(source)
        self.package = {**(package or {}), module: source}
        self.base = CodeBase(tuple(sorted(self.package.items())))
        self._defined: dict[str, dict[str, str]] = {}
        self.leaves: dict[str, list[str]] = {}
        for qualname in functions:
            self.leaves.setdefault(qualname.rsplit(".", 1)[-1], []).append(qualname)

    def _relative(self, written: str) -> str:
        name = bare(written)
        for prefix in (self.module, self.module.rsplit(".", 1)[-1]):
            if name.startswith(prefix + "."):
                return name[len(prefix) + 1 :]
        return name

    def subject(self, written: str) -> str | None:
        name = self._relative(written)
        top = self.module.split(".")[0]
        if name.startswith(top + ".") and name.count(".") == 1:
            name = name[len(top) + 1 :]  # `pkg.f` for the `f` of `pkg/core.py`: the doc is checked against it
        if name in self.functions:
            return name
        if f"{name}.__init__" in self.functions:
            return f"{name}.__init__"
        if "." in name:
            return through_bases(self.source, name, self.functions) or through_bases(
                self.source, f"{name}.__init__", self.functions) or self._reexported(name)
        # a bare name is a top-level function's (or a class's, for its __init__): a method needs its class
        found = [q for q in self.leaves.get(name, []) if "." not in q]
        if found:
            return found[0] if len(found) == 1 else None
        # a class that inherits its __init__, or a module alias of one (marshmallow's `Str = String`)
        return through_bases(self.source, f"{name}.__init__", self.functions) or self._reexported(name)

    def _reexported(self, name: str) -> str | None:
        """``f`` or ``Class.method`` the source imports from a module of its package, or that a class inherits
        from a base of another module: ``module:qualname`` there."""
        head, dot, rest = name.partition(".")
        module, hops = self.module, 4
        while hops:
            qualname = f"{head}{dot}{rest}"
            functions = self._functions_of(module) if module != self.module else self.functions
            for key in (qualname, f"{qualname}.__init__"):
                if module != self.module and key in functions:
                    return f"{module}:{key}"
                found = inherited(module, key, self.package, self.package.__getitem__, self._functions_of)
                if found:  # a base of the file itself is keyed as its own functions are
                    own = found.removeprefix(f"{self.module}:")
                    return own if own in self.functions else found
            target = imported_from(self.package[module], module, head, self.package)
            if target is None:
                return None
            module, head = target
            hops -= 1
        return None

    def _functions_of(self, module: str) -> dict[str, str]:
        if module not in self._defined:
            self._defined[module] = every_function(self.package[module])
        return self._defined[module]

    def missing(self, written: str) -> bool:
        """``module.name`` the module does not bind, ``Class.name`` a closed class of it does not have."""
        called = "(" in written  # `textwrap.wrapp()`: a call; `pkg.sub` may be a submodule no source binds
        written = bare(written)
        name = self._relative(written)
        if name != written and "." not in name:
            scope = self.scopes.get("")
            return called and scope is not None and name not in scope
        head, _, rest = name.partition(".")
        scope = self.scopes.get(head)
        return bool(rest) and "." not in rest and scope is not None and rest not in scope

    def code_of(self, subject: str) -> Code | None:
        module, _, qualname = subject.rpartition(":")
        if module:  # re-exported from another module of the package
            source, module_source = self._functions_of(module).get(qualname), self.package.get(module, "")
        else:
            module, qualname, source, module_source = self.module, subject, self.functions.get(subject), self.source
        if source is None:
            return None
        return Code(module, qualname, source, module_source, self.base, self.sys_path, _carried(module_source, source))


def _scopes(source: str) -> dict[str, set[str]]:
    """"" -> the module's top-level names, and each closed class (no bases, decorators, metaclass or
    ``__getattr__``) -> its names, ``self.x`` attributes included; a module with a star import or a
    ``__getattr__`` has no "" scope (anything may be in it)."""
    tree = module_tree(source)
    if tree is None:
        return {}
    scopes: dict[str, set[str]] = {}
    top: set[str] = set()
    opened = False
    for node in tree.body:
        top |= _bound(node)
        opened |= isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)
        if isinstance(node, ast.ClassDef) and not (node.bases or node.keywords or node.decorator_list):
            names = set().union(*(_bound(n) for n in node.body)) if node.body else set()
            names |= {t.attr for t in ast.walk(node) if isinstance(t, ast.Attribute) and isinstance(t.ctx, ast.Store)}
            if "__getattr__" not in names and "__getattribute__" not in names:
                scopes[node.name] = names | {"__init__", "__class__", "__dict__", "__doc__", "__name__"}
    if not opened and "__getattr__" not in top:
        scopes[""] = top
    return scopes


def _bound(node: ast.stmt) -> set[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    if isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
        inner = [*node.body, *getattr(node, "orelse", []), *getattr(node, "finalbody", []),
                 *(s for h in getattr(node, "handlers", []) for s in h.body)]
        return set().union(*(_bound(n) for n in inner)) if inner else set()
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _carried(module_source: str, source: str) -> Carried:
    try:
        return carried_keywords(module_source, source)
    except (SyntaxError, ValueError):
        return NOTHING


def code_of(resolver: OneFunction | SourceFunctions) -> CodeOf:
    return resolver.code_of
