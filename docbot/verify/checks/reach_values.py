"""What a function's values are, as far as calling them (or one of their methods) goes: the exception reach's
view of a local, an attribute of ``self`` or a call's result (docbot.verify.checks.reach_walk,
docs/design.md#exception-reach).

A value is *builtin* when it is a display or comprehension (``{}``, ``[x for x in y]``), a ``dict()``/``list()``
call, a bound method of one (``avail.__contains__``), or arithmetic on such; *stdlib* when a pure standard-library
function or class made it (``re.compile(p)``, ``Decimal(n)``), a bound method of one (``re.compile(p).match``),
arithmetic on one (``Decimal(n) / Decimal(m)``), or a code base function's result whose every ``return`` is
stdlib (fnmatch's ``match = _compile_pattern(pat)``). A local has a kind when every binding of it has one
(tuple unpacking paired element by element); ``self.x`` when every assignment of it in its class (and the
classes above and below it in the code base) has one; an element of a private module container that starts
empty when every store into it has one (a cache: ``_CACHE[key] = made``, read back by ``_CACHE.get(key)``).
Anything else, a parameter first of all, has no kind: calling it is code the reach cannot see.

A name the function tests as a value's own type (``issubclass(T, int)``, ``type(value) is T``) is a data type
(``data_types``): calling it builds a value of the data's type, which the reach takes to be a builtin's, as it
takes ``x + y`` to be.
"""

from __future__ import annotations

import ast
import enum
from collections.abc import Iterable

from docbot.verify.checks.reach_code import HIGHER_ORDER, PURE_FUNCTIONS, PURE_STDLIB, CodeIndex

__all__ = ["Kind", "Values", "ancestors", "bindings", "data_types"]


class Kind(enum.Enum):
    BUILTIN = "builtin"  # a builtin type's value: its methods are the builtin's
    STDLIB = "stdlib"  # made by the standard library: its methods are the standard library's code


_MAKERS = {"dict", "list", "set", "frozenset", "tuple", "str", "bytes", "bytearray", "int", "float"}
_DISPLAYS = (ast.Dict, ast.List, ast.Set, ast.Tuple, ast.DictComp, ast.ListComp, ast.SetComp, ast.Constant,
             ast.JoinedStr)
_ELEMENT = {"get", "pop", "popitem", "popleft", "setdefault", "__getitem__"}  # hand back what was stored: anything
_DEPTH = 6  # calls followed for what they return, at most


def _join(kinds: Iterable[Kind | None]) -> Kind | None:
    found = list(kinds)
    if not found or None in found:
        return None
    return Kind.STDLIB if Kind.STDLIB in found else Kind.BUILTIN


def bindings(function: ast.AST) -> dict[str, list[ast.expr | None]]:
    """Every value each local of ``function`` is bound to; None for a binding that is not a plain value (a loop
    variable, a ``with`` target, an augmented assignment, an unpacking that does not pair)."""
    bound: dict[str, list[ast.expr | None]] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name, value in _paired(target, node.value):
                    bound.setdefault(name, []).append(value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            bound.setdefault(node.target.id, []).append(node.value)
        elif isinstance(node, (ast.AugAssign, ast.For, ast.AsyncFor, ast.NamedExpr, ast.withitem, ast.comprehension,
                               ast.ExceptHandler, ast.Import, ast.ImportFrom)):
            for name in _stored(node):
                bound.setdefault(name, []).append(None)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):  # `global hook`: other code binds it too
            for name in node.names:
                bound.setdefault(name, []).append(None)
    return bound


def _paired(target: ast.expr, value: ast.expr | None) -> list[tuple[str, ast.expr | None]]:
    if isinstance(target, ast.Name):
        return [(target.id, value)]
    if isinstance(target, (ast.Tuple, ast.List)):
        if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts) and not any(
                isinstance(e, ast.Starred) for e in [*target.elts, *value.elts]):
            return [pair for t, v in zip(target.elts, value.elts) for pair in _paired(t, v)]
        return [pair for t in target.elts for pair in _paired(t, None)]
    if isinstance(target, ast.Starred):
        return _paired(target.value, None)
    return []


def _stored(node: ast.AST) -> list[str]:
    if isinstance(node, ast.ExceptHandler):
        return [node.name] if node.name else []
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in node.names]
    target = getattr(node, "target", None) or getattr(node, "optional_vars", None)
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name)] if target is not None else []


class Values:
    """The kinds of the values of one function of the code base (``module``, ``qualname``)."""

    def __init__(self, index: CodeIndex, module: str, qualname: str, function: ast.AST,
                 depth: int = 0, assuming: frozenset[str] = frozenset()) -> None:
        self.index, self.module, self.qualname, self.depth = index, module, qualname, depth
        self.imports = index.imports.get(module, {})
        assert isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        args = function.args
        self.params = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
                       if a}
        self.bound = bindings(function)
        self.assuming = assuming  # containers whose elements are taken to be stdlib while that is being shown
        self._seen: set[str] = set()

    def kind(self, node: ast.expr | None) -> Kind | None:
        if node is None:
            return None
        if isinstance(node, (*_DISPLAYS, ast.Lambda)):
            return Kind.BUILTIN  # a lambda's body is read with the function that holds it
        if isinstance(node, ast.Name):
            return self._name(node.id)
        if isinstance(node, ast.Attribute):
            return self._attribute(node)
        if isinstance(node, ast.BinOp):
            return _join(k if k is not None or not isinstance(s, ast.Constant) else Kind.BUILTIN
                         for s, k in ((s, self.kind(s)) for s in (node.left, node.right)))
        if isinstance(node, ast.IfExp):
            return _join([self.kind(node.body), self.kind(node.orelse)])
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.Subscript) and isinstance(node.value, (ast.Dict, ast.List, ast.Tuple)):
            # `{ast.USub: operator.neg, ...}[op_type]`: one of the display's values
            shown = node.value.values if isinstance(node.value, ast.Dict) else node.value.elts
            return _join(self.kind(v) for v in shown)
        return None

    def _name(self, name: str) -> Kind | None:
        if name in self.params or name in self._seen:
            return None
        if name not in self.bound:
            if name in self.index.containers.get(self.module, ()) or self._pure(self.imports.get(name, "")):
                return Kind.STDLIB  # a module-level display, what a pure stdlib function made, or one of those
            return None
        self._seen.add(name)
        try:
            return _join(self.kind(v) for v in self.bound[name])
        finally:
            self._seen.discard(name)

    def _attribute(self, node: ast.Attribute) -> Kind | None:
        receiver = node.value
        if isinstance(receiver, ast.Name) and receiver.id == "self" and "self" in self.params:
            return self._own_attribute(node.attr)
        if isinstance(receiver, ast.Name) and receiver.id not in self.bound and receiver.id in self.imports:
            # `operator.neg`: a pure standard-library module's function; another module's: not known
            return Kind.STDLIB if self._pure(f"{self.imports[receiver.id]}.{node.attr}") else None
        return self.kind(receiver)

    def _call(self, node: ast.Call) -> Kind | None:
        func = node.func
        if isinstance(func, ast.Name) and func.id not in self.bound and func.id not in self.params:
            if func.id in _MAKERS and func.id not in self.imports:
                return Kind.BUILTIN
            dotted = self.imports.get(func.id, "")
            if self._pure(dotted):
                return Kind.STDLIB
            module, _, name = dotted.rpartition(".")
            return self._returned(module, name) if dotted else self._returned(self.module, func.id)
        if isinstance(func, ast.Attribute):
            if isinstance(func.value, ast.Name) and func.value.id in self.imports and \
                    func.value.id not in self.bound:
                return Kind.STDLIB if self._pure(f"{self.imports[func.value.id]}.{func.attr}") else None
            if func.attr == "get" and isinstance(func.value, ast.Dict):  # `{ast.Add: operator.add}.get(t)`
                return _join(self.kind(v) for v in [*func.value.values, *node.args[1:2]])
            if func.attr == "get" and isinstance(func.value, ast.Name):
                return self._element(func.value.id)
            if func.attr not in _ELEMENT and self.kind(func.value) is Kind.STDLIB:
                return Kind.STDLIB  # `Decimal(n).sqrt()`, `re.compile(p).match(s)`: the standard library's value
        return None

    @staticmethod
    def _pure(dotted: str) -> bool:
        return bool(dotted) and (dotted.split(".")[0] in PURE_STDLIB or dotted in PURE_FUNCTIONS) and \
            dotted not in HIGHER_ORDER

    def _returned(self, module: str, qualname: str) -> Kind | None:
        """A code base function's result: the join of its returns, each read in its own body."""
        node = self.index.functions.get((module, qualname))
        if node is None or self.depth >= _DEPTH:
            return None
        returns = [r.value for r in _own_returns(node)]
        if not returns:
            return None
        callee = Values(self.index, module, qualname, node, self.depth + 1, self.assuming)
        return _join(callee.kind(r) for r in returns)

    def _own_attribute(self, attr: str) -> Kind | None:
        """``self.attr``: what every assignment of it in the class's family binds it to."""
        cls = self.qualname.rpartition(".")[0]
        if not cls or self.depth >= _DEPTH:
            return None
        family = self._family(cls)
        if any(f"{c}.{attr}" == q for c in family for (_m, q) in self.index.functions) or any(
                attr in _class_names(node) for (_m, q), node in self.index.classes.items() if q in family):
            return None  # a property or a method of that name: reading it runs code
        values: list[Kind | None] = []
        for (module, qualname), node in self.index.functions.items():
            if qualname.rpartition(".")[0] not in family:
                continue
            for stored in _stores_of_attribute(node, attr):
                if stored is None:
                    return None
                values.append(Values(self.index, module, qualname, node, self.depth + 1, self.assuming).kind(stored))
        return _join(values)

    def _family(self, cls: str) -> set[str]:
        leaf = cls.rsplit(".", 1)[-1]
        up, todo = {leaf}, [leaf]
        while todo:
            for base in self.index.bases.get(todo.pop(), ()):
                if base in self.index.bases and base not in up:
                    up.add(base)
                    todo.append(base)
        down = {name for name in self.index.bases if leaf in ancestors(name, self.index.bases)}
        return {q for (_m, q) in self.index.classes if q.rsplit(".", 1)[-1] in up | down}

    def _element(self, container: str) -> Kind | None:
        """``_CACHE.get(key)``: what every store into a private module container puts there (a memo)."""
        if container in self.bound or container in self.params or not container.startswith("_") or \
                container not in self.index.empty.get(self.module, ()):
            return None
        if container in self.assuming:
            return Kind.STDLIB  # the store being shown reads back what it stores
        if any(container == target.rsplit(".", 1)[-1] for module, names in self.index.imports.items()
               if module != self.module for target in names.values()):
            return None  # another module imports it, and may store anything there
        values: list[Kind | None] = []
        for (module, qualname), node in self.index.functions.items():
            if module != self.module:
                continue
            for stored in _stores_into(node, container):
                if stored is None:
                    return None
                values.append(Values(self.index, module, qualname, node, self.depth + 1,
                                     self.assuming | {container}).kind(stored))
        return _join(values) if values else None


def _class_names(node: ast.ClassDef) -> set[str]:
    """The names a class body binds (``rows = None``, ``mode: str``)."""
    return {t.id for statement in node.body for t in ast.walk(statement)
            if isinstance(statement, (ast.Assign, ast.AnnAssign)) and isinstance(t, ast.Name)
            and isinstance(t.ctx, ast.Store)}


def _own_returns(function: ast.AST) -> list[ast.Return]:
    """The function's ``return`` statements with a value, not those of functions nested in it."""
    found: list[ast.Return] = []
    todo = list(ast.iter_child_nodes(function))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Return) and node.value is not None:
            found.append(node)
        todo += list(ast.iter_child_nodes(node))
    return found


def ancestors(name: str, bases: dict[str, tuple[str, ...]]) -> set[str]:
    seen: set[str] = set()
    todo = list(bases.get(name, ()))
    while todo:
        base = todo.pop()
        if base not in seen:
            seen.add(base)
            todo += list(bases.get(base, ()))
    return seen


def _stores_of_attribute(function: ast.AST, attr: str) -> list[ast.expr | None]:
    """The values ``self.attr`` is assigned in ``function``; None for a store that is not a plain assignment."""
    found: list[ast.expr | None] = []
    for node in ast.walk(function):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)) else [
            i.optional_vars for i in node.items if i.optional_vars is not None] if isinstance(
            node, (ast.With, ast.AsyncWith)) else []
        for target in targets:
            for sub in ast.walk(target):
                if isinstance(sub, ast.Attribute) and sub.attr == attr and isinstance(sub.value, ast.Name) \
                        and sub.value.id == "self" and isinstance(sub.ctx, ast.Store):
                    plain = isinstance(node, (ast.Assign, ast.AnnAssign)) and sub is target
                    found.append(getattr(node, "value", None) if plain else None)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
            found.append(None)  # `setattr(self, name, value)`: any attribute, any value
    return found


def _stores_into(function: ast.AST, container: str) -> list[ast.expr | None]:
    """What ``function`` stores into the module container ``container``: ``C[k] = v`` gives ``v``; a method call
    on it that adds (``update``, ``setdefault``), handing it on, or binding it anew gives None."""
    found: list[ast.expr | None] = []
    parents = {id(c): p for p in ast.walk(function) for c in ast.iter_child_nodes(p)}
    for node in ast.walk(function):
        if not (isinstance(node, ast.Name) and node.id == container):
            continue
        parent = parents.get(id(node))
        if isinstance(parent, ast.Subscript) and isinstance(parent.ctx, ast.Store):
            statement = parents.get(id(parent))
            plain = isinstance(statement, ast.Assign) and parent in statement.targets
            found.append(statement.value if plain and isinstance(statement, ast.Assign) else None)
        elif isinstance(parent, ast.Subscript) or isinstance(parent, ast.Compare):
            continue  # read, or `key in C`
        elif isinstance(parent, ast.Attribute) and parent.attr in ("get", "clear", "pop", "keys", "values", "items",
                                                                    "copy", "__contains__"):
            continue  # read or emptied
        elif isinstance(node.ctx, ast.Load) and isinstance(parent, (ast.Delete,)):
            continue
        else:
            found.append(None)  # handed on, mutated otherwise, or bound anew
    return found


def data_types(function: ast.AST, imports: dict[str, str]) -> set[str]:
    """Names the function tests as a value's own type (``issubclass(T, int)``, ``type(value) is T``)."""
    found = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "issubclass" and \
                len(node.args) == 2 and isinstance(node.args[0], ast.Name) and _value_type(node.args[1], imports):
            found.add(node.args[0].id)
        elif isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Is, ast.Eq)):
            pair = [node.left, node.comparators[0]]
            typed = [p for p in pair if isinstance(p, ast.Call) and ast.unparse(p.func) == "type"]
            found |= {p.id for p in pair if isinstance(p, ast.Name)} if typed else set()
    return found


def _value_type(node: ast.expr, imports: dict[str, str]) -> bool:
    """A builtin value type (``int``, ``(int, float)``) or a pure standard-library one (``Decimal``)."""
    if isinstance(node, ast.Tuple):
        return bool(node.elts) and all(_value_type(e, imports) for e in node.elts)
    if isinstance(node, ast.Name) and node.id not in imports:
        return node.id in ("int", "float", "complex", "str", "bytes", "bool", "bytearray")
    dotted = ast.unparse(node)
    head = dotted.split(".")[0]
    return imports.get(head, "").split(".")[0] in ("decimal", "fractions", "numbers")
