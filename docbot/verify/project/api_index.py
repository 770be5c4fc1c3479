"""The package's names as the docs may use them, read statically: each module's top-level bindings and each
class's attributes (docs/design.md#truth-checks).

No code of the package runs here. ``ApiIndex`` says when it cannot know (a star import, a module ``__getattr__``,
a class with bases from elsewhere), so that an unknown name is reported only where the package is known not to
have it, as Sphinx's nitpicky mode reports an unresolved reference.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from enum import Enum


def parsed(source: str) -> ast.Module | None:
    """``source``'s tree; None for a module that does not parse (Python 2, a NUL byte): what it binds is
    unknown, not known to be nothing."""
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError):
        return None


@dataclass(frozen=True)
class ApiName:
    """One public name of the package, as coverage reports it."""

    path: str  # the path a reader imports it from: ``pkg.to_name``
    kind: str  # "function", "method", "class", "constant", "type alias" ("name" when unknown)


class Resolution(Enum):
    FOUND = "found"
    MISSING = "missing"  # the package is known not to have it
    UNKNOWN = "unknown"  # not ours to judge: another package's name, or a namespace we cannot see into


@dataclass
class Scope:
    """The names one module or class binds; ``open`` when names may come from where we cannot see."""

    names: dict[str, str] = field(default_factory=dict)  # name -> what it is: "module:x", "class", "def", "value"
    open: bool = False


@dataclass
class ApiIndex:
    package: str
    scopes: dict[str, Scope] = field(default_factory=dict)  # dotted module or class -> its bindings
    packages: set[str] = field(default_factory=set)  # the modules that are packages (an __init__.py)

    def add_module(self, dotted: str, source: str, is_package: bool = False) -> None:
        self.add_parsed(dotted, parsed(source), is_package)

    def add_parsed(self, dotted: str, tree: ast.Module | None, is_package: bool = False) -> None:
        """``add_module`` from the module's ``parsed`` tree (the drift gate parses each module once for this
        index and its reach graph)."""
        self.add_scopes(dotted, module_scopes(dotted, tree, is_package), is_package)

    def add_scopes(self, dotted: str, scopes: dict[str, Scope], is_package: bool = False) -> None:
        """The module ``dotted`` as its ``module_scopes`` (the drift gate keeps them by the module's text)."""
        if is_package:
            self.packages.add(dotted)
        scope = Scope(dict(scopes[dotted].names), scopes[dotted].open)
        for name, what in self.scopes.get(dotted, Scope()).names.items():  # submodules registered before it
            scope.names.setdefault(name, what)
        self.scopes.update(scopes)
        self.scopes[dotted] = scope
        parent, _, leaf = dotted.rpartition(".")
        if parent:
            self.scopes.setdefault(parent, Scope()).names.setdefault(leaf, f"module:{dotted}")

    def resolve(self, dotted: str) -> Resolution:
        """Whether ``dotted`` (``pkg.mod.f``, ``pkg.Class.method``) names something the package has."""
        parts = dotted.split(".")
        if parts[0] != self.package:
            return Resolution.UNKNOWN
        scope_name = parts[0]
        for index, part in enumerate(parts[1:], start=1):
            scope = self.scopes.get(scope_name)
            if scope is None:
                return Resolution.UNKNOWN
            what = scope.names.get(part)
            if what is None:
                return Resolution.UNKNOWN if scope.open else Resolution.MISSING
            if index == len(parts) - 1:
                return Resolution.FOUND
            if what.startswith(("module:", "from:")):
                scope_name = what.partition(":")[2]
            elif what == "class":
                scope_name = f"{scope_name}.{part}"
            else:
                return Resolution.UNKNOWN  # an attribute of a function or value: not the package's API surface
        return Resolution.FOUND

    def members(self, dotted: str, depth: int = 1) -> list[str]:
        """The public names the module or class ``dotted`` binds, each where it is defined (what Sphinx's
        ``:members:`` documents), and those of its classes ``depth`` levels down; [] for anything else."""
        scope = self.scopes.get(self.canonical(dotted))
        found = []
        for name, what in scope.names.items() if scope else ():
            if name.startswith("_") or what.startswith("module:"):
                continue
            inner = self.canonical(f"{self.canonical(dotted)}.{name}")
            found.append(inner)
            if depth and self.kind(inner) == "class":
                found += self.members(inner, depth - 1)
        return found

    def kind(self, dotted: str) -> str:
        """What the name where it is defined is: "def", "class", "value", "alias", "module"; "" when unknown."""
        head, _, leaf = self.canonical(dotted).rpartition(".")
        what = self.scopes[head].names.get(leaf, "") if head in self.scopes else ""
        return "module" if what.startswith("module:") else "" if what.startswith("from:") else what

    def canonical(self, dotted: str) -> str:
        """``pkg.f`` re-exported from ``pkg.core``: ``pkg.core.f`` (where its source is)."""
        seen = {dotted}
        while True:  # a loop, not recursion: re-exports can form a cycle (`a` imports from `b`, `b` from `a`)
            head, _, leaf = dotted.rpartition(".")
            scope = self.scopes.get(head)
            what = scope.names.get(leaf, "") if scope else ""
            target = what.removeprefix("from:")
            if not what.startswith("from:") or target in seen:
                return dotted
            seen.add(target)
            dotted = target


def module_scopes(dotted: str, tree: ast.Module | None, is_package: bool) -> dict[str, Scope]:
    """What the module ``dotted`` binds (``tree``: None when it does not parse, so anything may be bound), and
    what each of its classes does, by dotted name."""
    scopes: dict[str, Scope] = {}
    scopes[dotted] = _bindings(tree.body, dotted, is_package, scopes) if tree is not None else Scope(open=True)
    scopes[dotted].open |= tree is not None and is_package and _extends_path(tree)
    return scopes


def _extends_path(tree: ast.Module) -> bool:
    """A namespace package's ``__init__`` (``__path__ = extend_path(__path__, __name__)``, pkg_resources'
    ``declare_namespace``): other distributions add its subpackages (azure-keyvault-secrets beside azure-identity)."""
    for node in ast.walk(tree):  # also under `try:`, as older packages write it
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__path__" for t in node.targets):
            return True
        if isinstance(node, ast.Call) and (getattr(node.func, "attr", None) or getattr(node.func, "id", None)) == \
                "declare_namespace":
            return True
    return False


def _bindings(body: list[ast.stmt], dotted: str, is_package: bool, scopes: dict[str, Scope]) -> Scope:
    scope = Scope()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            scope.names[node.name] = "def"
            scope.open |= node.name == "__getattr__"
        elif isinstance(node, ast.ClassDef):
            scope.names[node.name] = "class"
            inner = _bindings(node.body, f"{dotted}.{node.name}", False, scopes)
            inner.names.update(_instance_attributes(node))
            inner.open |= bool(node.bases or node.keywords or node.decorator_list)  # inherited or made names
            scopes[f"{dotted}.{node.name}"] = inner
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            _imported(node, dotted, scope, is_package)
        elif isinstance(node, (ast.If, ast.Try, ast.With)):  # `try: import x except ImportError: x = None`
            inner = _bindings([*node.body, *getattr(node, "orelse", []), *getattr(node, "finalbody", []),
                               *(s for h in getattr(node, "handlers", []) for s in h.body)], dotted, is_package,
                              scopes)
            scope.names.update(inner.names)
            scope.open |= inner.open
        else:
            for target in _assigned(node):
                scope.names.setdefault(target, "alias" if _is_alias(node) else "value")
    return scope


_TYPING = {"Union", "Optional", "Callable", "Literal", "Annotated", "Dict", "List", "Tuple", "Set", "FrozenSet",
           "Type", "Mapping", "Sequence", "Iterable", "Iterator", "dict", "list", "tuple", "set", "frozenset", "type"}


def _is_alias(node: ast.stmt) -> bool:
    """A type alias (``Number = int | float``, ``Json: TypeAlias = dict[str, Any]``) or a typing name
    (``T = TypeVar("T")``, ``UserId = NewType(...)``): not a constant."""
    if isinstance(node, ast.AnnAssign):
        return ast.unparse(node.annotation).rsplit(".", 1)[-1] == "TypeAlias"
    value = node.value if isinstance(node, ast.Assign) else None
    if isinstance(value, ast.Call):
        return ast.unparse(value.func).rsplit(".", 1)[-1] in ("TypeVar", "NewType", "ParamSpec", "TypeVarTuple")
    return isinstance(value, (ast.BinOp, ast.Subscript)) and _is_type_expression(value)


def _is_type_expression(node: ast.expr) -> bool:
    """``dict[str, Any]``, ``Optional[int]``, ``int | None``, ``Path | str``; not ``FLAG_A | FLAG_B``."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _is_type_expression(node.left) and _is_type_expression(node.right)
    if isinstance(node, ast.Constant):
        return node.value is None
    if isinstance(node, (ast.Name, ast.Attribute)):
        last = ast.unparse(node).rsplit(".", 1)[-1]
        return last in _BUILTIN_TYPES or (last[:1].isupper() and not last.isupper())  # a class's CapWords name
    return isinstance(node, ast.Subscript) and ast.unparse(node.value).rsplit(".", 1)[-1] in _TYPING


_BUILTIN_TYPES = {"int", "str", "float", "bytes", "bool", "complex", "object", "bytearray", "dict", "list", "tuple",
                  "set", "frozenset", "type"}


def _imported(node: ast.Import | ast.ImportFrom, dotted: str, scope: Scope, is_package: bool) -> None:
    if isinstance(node, ast.Import):
        for alias in node.names:
            scope.names[alias.asname or alias.name.split(".")[0]] = "value"
        return
    base = _absolute(node, dotted, is_package)
    for alias in node.names:
        if alias.name == "*":
            scope.open = True
        else:
            scope.names[alias.asname or alias.name] = f"from:{base}.{alias.name}" if base else "value"


def _absolute(node: ast.ImportFrom, dotted: str, is_package: bool) -> str:
    """The module a ``from`` import reads: ``from .core import f`` in ``pkg/__init__.py`` is ``pkg.core``."""
    if not node.level:
        return node.module or ""
    package = dotted.split(".")
    base = package[: len(package) - node.level + (1 if is_package else 0)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _assigned(node: ast.stmt) -> list[str]:
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        targets = [node.target]
    return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]


def _instance_attributes(node: ast.ClassDef) -> dict[str, str]:
    """The attributes its methods set on ``self`` (``self.size = ...``, ``self.a, self.b = ...``, ``for self.i
    in ...``, ``with ... as self.f``). Only statements are walked, never the expressions they hold (their
    targets aside): the full walk was a sixth of the drift gate (issue 32), and an expression can store an
    attribute only as a comprehension's target, which no class uses to set one."""
    found: dict[str, str] = {}
    todo: list[ast.stmt] = [f for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
    while todo:
        current = todo.pop()
        for target in _targets(current):
            found.update({t.attr: "value" for t in ast.walk(target) if isinstance(t, ast.Attribute)
                          and isinstance(t.value, ast.Name) and t.value.id == "self" and isinstance(t.ctx, ast.Store)})
        for name in ("body", "orelse", "finalbody"):
            todo += [s for s in getattr(current, name, ()) if isinstance(s, ast.stmt)]
        todo += [s for part in (*getattr(current, "handlers", ()), *getattr(current, "cases", ())) for s in part.body]
    return found


def _targets(node: ast.stmt) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        return node.targets
    if isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
        return [node.target]
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return [item.optional_vars for item in node.items if item.optional_vars is not None]
    return []
