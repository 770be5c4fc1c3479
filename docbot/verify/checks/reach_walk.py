"""One function's body, walked for the exception reach: what it raises, what it calls, what it does
(docbot.verify.checks.reach, docs/design.md#exception-reach).
"""

from __future__ import annotations

import ast
import builtins
import sys

from docbot.verify.checks.reach_code import (BUDGET, CALLING_BUILTINS, HIGHER_ORDER, IO_BUILTINS, IO_METHODS,
                                             PURE_FUNCTIONS, PURE_METHODS, PURE_OS_PATH, PURE_STDLIB,
                                             SAFE_DECORATORS, CodeBase, CodeIndex, Effects, code_index)
from docbot.verify.checks.reach_values import Kind, Values, ancestors, bindings, data_types

__all__ = ["effects_of"]

_CONTAINERS = {"list", "dict", "tuple", "set", "frozenset", "str", "bytes", "bytearray", "List", "Dict", "Tuple",
               "Set", "FrozenSet", "Optional"}


def _builtin(annotation: ast.expr) -> bool:
    """Whether an annotation names only builtin containers (``list[str]``, ``Optional[dict]``, ``str | None``)."""
    names = [n.id for n in ast.walk(annotation) if isinstance(n, ast.Name)]
    heads = [ast.unparse(n.value) for n in ast.walk(annotation) if isinstance(n, ast.Subscript)]
    outer = heads[0] if heads else (names[0] if names else "")
    return outer.removeprefix("typing.") in _CONTAINERS and (outer != "Optional" or len(heads) < 2 or
                                                               heads[1].removeprefix("typing.") in _CONTAINERS)


def effects_of(base: CodeBase, module: str, qualname: str) -> Effects | None:
    index = code_index(base)
    start = index.functions.get((module, qualname))
    if start is None:
        return None
    effects, seen, todo = Effects(), set(), [(module, qualname)]
    while todo:
        key = todo.pop()
        if key in seen:
            continue
        seen.add(key)
        if len(seen) > BUDGET:
            return None
        node = index.functions.get(key)
        if node is not None:
            todo += _Walk(index, key[0], key[1], effects).run(node)
    return effects


class _Walk:
    """One function's body: what it raises, calls and does; returns the code base functions it reaches."""

    def __init__(self, index: CodeIndex, module: str, qualname: str, effects: Effects) -> None:
        self.index, self.module, self.qualname, self.effects = index, module, qualname, effects
        self.imports = index.imports.get(module, {})
        self.found: list[tuple[str, str]] = []
        self.locals: set[str] = set()
        self.params: set[str] = set()
        self.contained: set[str] = set()  # parameters annotated as a builtin container: iterating one is no I/O
        self.referring = False
        self.following: set[str] = set()  # the aliases being followed to what they name

    def run(self, function: ast.AST) -> list[tuple[str, str]]:
        assert isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
        args = function.args
        every = [a for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg] if a]
        self.params = {a.arg for a in every}
        self.contained = {a.arg for a in every if a.annotation is not None and (
            _builtin(a.annotation) or self._dictlike(a.annotation))}
        self.locals = self.params | {n.id for n in ast.walk(function)
                                     if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        self.instances = self._instances(function)
        self.nested = {n.name for n in ast.walk(function) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                       and n is not function}  # read with the function's own body (ast.walk goes into them)
        self.aliases = self._aliases(function)
        self.values = Values(self.index, self.module, self.qualname, function)
        self.types = data_types(function, self.imports)
        self.classmethod = any(ast.unparse(d) == "classmethod" for d in function.decorator_list)
        for decorator in function.decorator_list:
            self._decorator(decorator)
        built = {id(n.exc) for n in ast.walk(function) if isinstance(n, ast.Raise) and n.exc is not None}
        for node in ast.walk(function):
            if id(node) not in built:  # `raise ValueError(...)`: building the exception is no call out
                self._node(node)
        return self.found

    def _dictlike(self, annotation: ast.expr) -> bool:
        """An annotation naming a class of the code base that is a ``TypedDict``, ``NamedTuple`` or ``dict``."""
        name = ast.unparse(annotation).rsplit(".", 1)[-1].split("[")[0].split(" ")[0]
        return bool(set(self.index.bases.get(name, ())) & {"TypedDict", "NamedTuple", "dict", "Dict"})

    def _instances(self, function: ast.AST) -> set[str]:
        """Locals only ever bound to an instance of a class of the code base (``w = TextWrapper(...)``)."""
        bound: dict[str, list[ast.expr]] = {}
        for node in ast.walk(function):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                bound.setdefault(node.targets[0].id, []).append(node.value)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.With, ast.NamedExpr)):
                for name in ast.walk(node.target if not isinstance(node, ast.With) else node):
                    if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store):
                        bound.setdefault(name.id, []).append(ast.Constant(None))
        return {name for name, values in bound.items() if name not in self.params and all(
            isinstance(v, ast.Call) and self._is_class(v.func) for v in values)}

    def _aliases(self, function: ast.AST) -> dict[str, ast.expr]:
        """Locals only ever bound to a name or an attribute (``add = res.append``, ``_heapify = heapify``, a tuple
        unpacked in pairs: ``has, n = avail.__contains__, 0``): calling one calls what it names."""
        # bound twice to the same text (`add = res.append` again after `res = []`) names the same kind of thing
        return {name: values[0] for name, values in bindings(function).items() if name not in self.params
                and values[0] is not None and len({ast.dump(v) if v else "" for v in values}) == 1
                and (isinstance(values[0], (ast.Name, ast.Attribute)) or self._made_by_stdlib(values[0]))}

    def _made_by_stdlib(self, value: ast.expr) -> bool:
        """``codecs.getincrementaldecoder(name)``: what a pure standard-library function hands back."""
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                and isinstance(value.func.value, ast.Name) and value.func.value.id in self.imports):
            return False
        dotted = f"{self.imports[value.func.value.id]}.{value.func.attr}"
        return dotted.split(".")[0] in PURE_STDLIB and dotted not in HIGHER_ORDER

    def _is_class(self, func: ast.expr) -> bool:
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        return any(q.rsplit(".", 1)[-1] == name for _m, q in self.index.classes)

    def _decorator(self, decorator: ast.expr) -> None:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = ast.unparse(target).rsplit(".", 1)[-1]
        if name not in SAFE_DECORATORS and not self._to_base(target):
            self.effects.unknown = True

    def _node(self, node: ast.AST) -> None:
        effects = self.effects
        if isinstance(node, ast.Raise):
            effects.raised |= self._raised(node)
        elif isinstance(node, (ast.Subscript, ast.Delete)):
            effects.operations.add("subscript")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)):
            effects.operations.add("divide")
        elif isinstance(node, ast.Assert):
            effects.operations.add("assert")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            effects.operations.add("import")
        elif isinstance(node, (ast.With, ast.AsyncWith, ast.AsyncFor)):
            effects.stream = True  # a context manager or an async stream: a file, a lock, a connection
        elif isinstance(node, (ast.For, ast.comprehension)) and self._from_outside(node.iter):
            effects.stream = True  # iterating over what was handed in: it may be an open file
        elif isinstance(node, ast.Call):
            self._call(node)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in self.locals:
            # a function of the base handed on as a value (a callback) is reached too; a class named (an
            # annotation, a cast) is not built here, so its bases from outside say nothing
            self.referring = True
            self._to_base(node)
            self.referring = False

    def _raised(self, node: ast.Raise) -> set[str]:
        exc = node.exc
        if exc is None:
            return set()  # a re-raise: what it raises, the try body raised
        target = exc.func if isinstance(exc, ast.Call) else exc
        name = ast.unparse(target).rsplit(".", 1)[-1]
        if isinstance(target, ast.Name) and target.id in self.locals and not target.id[:1].isupper():
            return set()  # `raise error`: the exception a handler caught (or built above), raised again
        if not name[:1].isupper():
            return {"*"}  # `raise make_error(...)`: not known which
        return {name}

    def _from_outside(self, node: ast.expr) -> bool:
        if isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.Constant, ast.JoinedStr)):
            return False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
                "range", "enumerate", "zip", "sorted", "reversed", "list", "tuple", "set", "dict"):
            return any(self._from_outside(a) for a in node.args)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in PURE_METHODS:
            return False
        if isinstance(node, ast.Name):
            return node.id in self.params and node.id not in ("self", "cls", *self.contained)
        if isinstance(node, ast.Attribute):
            root: ast.expr = node
            while isinstance(root, ast.Attribute):
                root = root.value
            # `reader.lines`: handed in; `self.x`: the object's own state, which its class's code built
            return isinstance(root, ast.Name) and root.id in self.params and root.id not in ("self", "cls")
        if isinstance(node, ast.Call):
            return isinstance(node.func, ast.Attribute) and self._from_outside(node.func.value) or (
                isinstance(node.func, ast.Name) and node.func.id in self.params)
        return False

    def _call(self, node: ast.Call) -> None:
        func, effects = node.func, self.effects
        if isinstance(func, ast.Name) and func.id in self.aliases and func.id not in self.following:
            alias = self.aliases[func.id]  # every call of it, not the first only (`add(a)`, then `add(b)`)
            if isinstance(alias, ast.Call):  # calling what a pure standard-library function made: its code
                self.effects.outside = self.effects.stdlib = True
            else:
                self.following.add(func.id)  # `a = b; b = a`: a cycle of aliases ends as a local called
                self._call(ast.Call(func=alias, args=node.args, keywords=node.keywords))
                self.following.discard(func.id)
        elif isinstance(func, ast.Name):
            if func.id in self.nested:
                pass
            elif func.id == "cls" and self.classmethod and "cls" in self.params and "." in self.qualname:
                self._construct_family(self.qualname.rsplit(".", 2)[-2])  # `cls(...)`: the class, or a subclass
            elif func.id in self.types and func.id in self.locals:
                effects.outside = True  # `T(value)` for `T` the data's own type: an operation on the values
            elif func.id in self.locals and (kind := self.values.kind(func)) is not None:
                effects.outside = True  # a local bound to a builtin's or the standard library's callable
                effects.stdlib |= kind is Kind.STDLIB
            elif func.id in self.locals:
                effects.unknown = True  # a parameter or a local called: any code
            elif self._to_base(func):
                pass
            elif hasattr(builtins, func.id):
                effects.outside = True
                effects.io |= func.id in IO_BUILTINS
                effects.operations |= {"next"} if func.id == "next" else set()
                handed = self._handed(node, CALLING_BUILTINS.get(func.id))
                if handed is not None and self._passes_code(handed):
                    effects.unknown = True
            else:
                if func.id in self.index.containers.get(self.module, ()):  # `Match(...)`: a namedtuple
                    effects.outside = effects.stdlib = True
                else:
                    self._outside(self.imports.get(func.id, ""))
        elif isinstance(func, ast.Attribute):
            self._method(func)
        elif isinstance(func, ast.Call) and ast.unparse(func.func) == "type" and len(func.args) == 1:
            effects.outside = True  # `type(x)(...)`: a value of the data's own type, as `T(value)` above
        else:
            effects.unknown = True
            effects.operations.add("dynamic")

    @staticmethod
    def _handed(node: ast.Call, where: int | str | None) -> ast.expr | None:
        """The argument a calling builtin calls: ``map``'s first, ``sorted``'s ``key``."""
        if isinstance(where, int):
            return node.args[where] if len(node.args) > where and (where or len(node.args) > 1) else None
        return next((k.value for k in node.keywords if k.arg == where), None) if where else None

    def _passes_code(self, node: ast.expr) -> bool:
        """Whether the code a builtin is handed may be any code: a parameter or a local (a lambda's body and the
        base's functions are read; a bound method is followed by name)."""
        if isinstance(node, ast.Attribute):
            self.found += self.index.methods.get(node.attr, [])
            made = isinstance(node.value, ast.Name) and node.value.id in self.index.containers.get(self.module, ())
            return node.attr not in self.index.methods and node.attr not in PURE_METHODS and not made
        return isinstance(node, ast.Name) and node.id in self.locals

    def _method(self, func: ast.Attribute) -> None:
        receiver, name = func.value, func.attr
        if isinstance(receiver, ast.Name) and receiver.id not in self.locals and receiver.id in self.imports:
            self._outside(f"{self.imports[receiver.id]}.{name}")
            return
        if isinstance(receiver, ast.Attribute) and ast.unparse(receiver) == "os.path" and "os" in self.imports:
            self.effects.outside = self.effects.stdlib = True
            self.effects.io |= name not in PURE_OS_PATH
            return
        kind = self.values.kind(receiver)
        if kind is not None:  # `partials.get` for `partials = {}`, `self.b2j.get`, `re.compile(p).match`
            self.effects.outside = True
            self.effects.stdlib |= kind is Kind.STDLIB
            return
        if isinstance(receiver, (ast.Dict, ast.List, ast.Set, ast.Tuple, ast.Constant, ast.JoinedStr)) or (
                isinstance(receiver, ast.Name) and (receiver.id in self.contained or receiver.id not in self.locals
                                                    and receiver.id in self.index.containers.get(self.module, ()))):
            self.effects.outside = True  # `{}.get(k)`, `result.get(k)` for `result: dict`: the builtin's method
            return
        owned = self.index.methods.get(name, [])
        self.found += owned
        mine = isinstance(receiver, ast.Name) and receiver.id in ("self", "cls", *self.instances) or (
            isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name) and receiver.func.id == "super")
        if mine and owned:
            return  # the code base's own method (the class's bases outside it aside: they would not define it)
        if owned and name not in IO_METHODS:
            return  # a method only the code base defines by that name (`result.to_dict()`): its own
        if name in PURE_METHODS:
            self.effects.outside = True
        elif not owned or not mine:
            self.effects.unknown = True
            if isinstance(receiver, ast.Call) and ast.unparse(receiver.func) == "getattr":
                self.effects.operations.add("dynamic")

    def _outside(self, dotted: str) -> None:
        """A name imported from outside the code base (or from it, when its module is in the base)."""
        module = dotted.split(".")[0]
        if not dotted:
            self.effects.unknown = True
        elif self._to_dotted(dotted):
            return
        elif module in sys.stdlib_module_names:
            self.effects.outside = self.effects.stdlib = True
            top = ".".join(dotted.split(".")[:2]) if module == "os" else module
            pure = module in PURE_STDLIB or dotted in PURE_FUNCTIONS or (
                top == "os.path" and dotted.split(".")[-1] in PURE_OS_PATH)
            self.effects.io |= not pure
        else:
            self.effects.unknown = True

    def _to_base(self, node: ast.expr, follow: bool = True) -> bool:
        """Whether ``node`` names a function or class of the code base; reached when ``follow``."""
        if isinstance(node, ast.Name):
            if (self.module, node.id) in self.index.functions or (self.module, node.id) in self.index.classes:
                return self._reach(self.module, node.id, follow)
            target = self.imports.get(node.id, "")
            return bool(target) and self._to_dotted(target, follow)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in self.imports:
            return self._to_dotted(f"{self.imports[node.value.id]}.{node.attr}", follow)
        return False

    def _to_dotted(self, dotted: str, follow: bool = True) -> bool:
        """Whether ``dotted`` is a function or class of the code base, through its re-exports (which may loop)."""
        seen: set[str] = set()
        while dotted not in seen:
            seen.add(dotted)
            parts = dotted.split(".")
            for cut in range(len(parts) - 1, 0, -1):
                module, name = ".".join(parts[:cut]), ".".join(parts[cut:])
                if module in self.index.imports:
                    break
            else:
                return False
            if (module, name) in self.index.functions or (module, name) in self.index.classes:
                return self._reach(module, name, follow)
            if name not in self.index.imports[module]:
                return False
            dotted = self.index.imports[module][name]
        return False

    def _construct(self, name: str, depth: int = 0) -> None:
        """Calling a class runs its (and its bases') ``__init__``, ``__new__``... ; a base from outside: anything."""
        # its methods too: what a function builds, its caller uses ("returns an `EventSource`; it raises
        # `SSEError`" is true of the object handed back)
        for (module, qualname) in [k for k in self.index.classes if k[1].rsplit(".", 1)[-1] == name]:
            self.found += [key for key in self.index.functions if key[0] == module
                           and key[1].startswith(qualname + ".") and "." not in key[1][len(qualname) + 1 :]]
        for base in self.index.bases.get(name, ()):
            if base in self.index.bases and depth < 20:
                self._construct(base, depth + 1)
            elif base not in ("object", "Exception", "BaseException") and not hasattr(builtins, base):
                self.effects.unknown |= not self.referring

    def _construct_family(self, name: str) -> None:
        """A class and every class of the code base below it: ``cls(...)`` in a classmethod builds one of them."""
        below = {c for c in self.index.bases if name in ancestors(c, self.index.bases)}
        for each in sorted({name} | below):
            self._construct(each)

    def _reach(self, module: str, name: str, follow: bool) -> bool:
        if follow:
            if (module, name) in self.index.classes:
                self._construct(name.rsplit(".", 1)[-1])
            else:
                self.found.append((module, name))
        return True
