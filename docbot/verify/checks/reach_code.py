"""What the code a function reaches does, read once per code base: the facts the exception reach decides on
(docbot.verify.checks.reach, docs/design.md#exception-reach).

The walk follows the code base's own functions, methods (by name), classes (their ``__init__``, ``__new__``...)
and decorators, and classifies every other call: a builtin (I/O or not), the standard library by module, a
builtin type's method by name, or code it cannot see (a parameter called, another package, a computed call).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from docbot.facts.module import module_tree

__all__ = ["HIGHER_ORDER", "CodeBase", "CodeIndex", "Effects", "class_bases", "code_index"]

IO_BUILTINS = {"open", "print", "input", "exec", "eval", "__import__", "breakpoint", "help"}
# builtins that call code they are handed: map(f, ...), sorted(key=f), iter(f, sentinel)
CALLING_BUILTINS: dict[str, int | str] = {"map": 0, "filter": 0, "sorted": "key", "min": "key", "max": "key", "iter": 0}
PURE_STDLIB = {"re", "json", "math", "cmath", "string", "textwrap", "itertools", "functools", "operator",
                "collections", "copy", "dataclasses", "enum", "typing", "types", "keyword", "unicodedata",
                "decimal", "fractions", "numbers", "random", "statistics", "heapq", "bisect", "array", "struct",
                "base64", "binascii", "hashlib", "hmac", "html", "difflib", "fnmatch", "colorsys", "calendar",
                "datetime", "time", "abc", "contextlib", "weakref", "warnings", "reprlib", "pprint", "codecs",
                "string.templatelib", "sre_compile", "sre_parse", "sre_constants", "_collections_abc", "ast",
                "token", "shlex", "uuid", "zlib", "quopri", "graphlib", "secrets", "ipaddress", "locale", "_string",
                "_heapq", "_bisect", "_functools", "_collections", "_statistics", "_json", "_sre", "_operator",
                "_struct", "_random", "_datetime", "_decimal", "_pydecimal", "_strptime", "_weakref", "_abc"}
# functions of a standard-library module that does I/O elsewhere, which do none themselves
PURE_FUNCTIONS = {"inspect.cleandoc", "inspect.getdoc", "inspect.isclass", "inspect.isfunction", "inspect.ismethod",
                  "inspect.isroutine", "inspect.iscoroutinefunction", "inspect.isgeneratorfunction",
                  "inspect.isasyncgenfunction", "inspect.isawaitable", "inspect.ismodule", "inspect.isbuiltin",
                  "inspect.isabstract", "inspect.isgenerator", "inspect.iscoroutine", "inspect.getmro"}
# standard-library callables that make something calling what they are handed: their result is the caller's code
HIGHER_ORDER = {"functools.partial", "functools.partialmethod", "functools.reduce", "functools.wraps",
                "functools.lru_cache", "functools.cache", "functools.cached_property", "functools.singledispatch",
                "functools.cmp_to_key", "operator.methodcaller", "operator.attrgetter", "operator.call",
                "itertools.starmap", "contextlib.contextmanager", "types.MethodType", "weakref.ref",
                "weakref.WeakMethod", "weakref.proxy", "collections.defaultdict", "copy.copy", "copy.deepcopy"}
PURE_OS_PATH = {"join", "split", "splitext", "basename", "dirname", "normpath", "normcase", "isabs",
                 "commonprefix", "splitdrive", "sep", "fspath"}
PURE_METHODS = {
    "strip", "lstrip", "rstrip", "split", "rsplit", "splitlines", "join", "lower", "upper", "casefold", "title",
    "capitalize", "swapcase", "startswith", "endswith", "replace", "format", "format_map", "encode", "decode",
    "find", "rfind", "index", "rindex", "count", "partition", "rpartition", "expandtabs", "isdigit", "isalpha",
    "isalnum", "isspace", "isupper", "islower", "isidentifier", "isdecimal", "isnumeric", "isprintable", "istitle",
    "ljust", "rjust", "center", "zfill", "translate", "maketrans", "removeprefix", "removesuffix", "append",
    "extend", "items", "keys", "values", "setdefault", "sort", "reverse", "discard", "union", "intersection",
    "difference", "symmetric_difference", "issubset", "issuperset", "isdisjoint", "sub", "subn", "findall",
    "finditer", "fullmatch", "match", "search", "group", "groups", "groupdict", "span", "start", "end", "expand",
    "hex", "bit_length", "conjugate", "is_integer", "as_integer_ratio", "most_common", "elements", "appendleft",
    "popleft", "extendleft", "rotate", "isoformat", "strftime", "timestamp", "total_seconds", "pop", "popitem",
    "insert", "copy", "add", "clear",
    # the numbers' (decimal.Decimal, fractions.Fraction, float): statistics' `x.is_finite()`, `root.next_plus()`
    "is_finite", "is_infinite", "is_nan", "is_zero", "is_signed", "sqrt", "exp", "ln", "log10", "next_plus",
    "next_minus", "quantize", "normalize", "adjusted", "as_tuple", "to_integral_value", "limit_denominator",
}
# method names that on some object do I/O: a code base's own method of that name is no proof of which one runs
IO_METHODS = {"read", "write", "readline", "readlines", "writelines", "open", "close", "flush", "seek", "tell",
              "send", "sendall", "recv", "connect", "request", "get", "post", "put", "delete", "fetch", "urlopen",
              "execute", "run", "call", "load", "dump", "save", "stat", "unlink", "remove", "rename", "mkdir",
              "listdir", "iterdir", "exists", "accept", "bind", "listen", "poll", "select", "wait", "communicate",
              "fileno", "truncate", "upload", "download", "query", "commit", "sync"}
SAFE_DECORATORS = {"property", "staticmethod", "classmethod", "wraps", "lru_cache", "cache", "cached_property",
                    "dataclass", "abstractmethod", "overload", "total_ordering", "singledispatch", "setter",
                    "getter", "deleter", "contextmanager", "override", "final", "unique", "dataclasses.dataclass"}
BUDGET = 600  # functions followed at most; past it, the reach is incomplete

@dataclass(frozen=True)
class CodeBase:
    """The code a reach is followed through: (dotted module, its source) pairs (one file, or a whole package).
    Hashable, so its index is built once per code base."""

    sources: tuple[tuple[str, str], ...]

    @property
    def modules(self) -> Mapping[str, str]:
        return dict(self.sources)

    @staticmethod
    def of(module: str, source: str) -> CodeBase:
        return CodeBase(((module, source),))


@dataclass
class Effects:
    raised: set[str] = field(default_factory=set)  # exception names (their last part) of the raise sites
    unknown: bool = False  # code outside the base that is not classified: anything may come of it
    io: bool = False  # a call that does I/O: opens, stats, connects
    stream: bool = False  # a value from outside iterated or entered (``with``): it may be an open file or socket
    outside: bool = False  # builtins or the standard library called: their own errors may come of them
    stdlib: bool = False  # the standard library called: its modules' own exception classes may come of it
    operations: set[str] = field(default_factory=set)  # "subscript", "divide", "next", "assert", "import"


@lru_cache(maxsize=8)
def code_index(base: CodeBase) -> CodeIndex:
    return CodeIndex(base)


def class_bases(base: CodeBase) -> Mapping[str, tuple[str, ...]]:
    return code_index(base).bases


class CodeIndex:
    """The code base's functions by module and name, its methods by name, its classes' bases, its imports."""

    def __init__(self, base: CodeBase) -> None:
        self.functions: dict[tuple[str, str], ast.AST] = {}  # (module, qualname) -> def
        self.methods: dict[str, list[tuple[str, str]]] = {}  # method name -> (module, qualname) of each
        self.classes: dict[tuple[str, str], ast.ClassDef] = {}
        self.bases: dict[str, tuple[str, ...]] = {}
        self.imports: dict[str, dict[str, str]] = {}  # module -> local name -> dotted target
        self.containers: dict[str, set[str]] = {}  # module -> its top-level names bound to a dict, list, set...
        self.empty: dict[str, set[str]] = {}  # module -> its top-level names bound only to an empty dict, list, set
        for module, source in base.modules.items():
            tree = module_tree(source)
            if tree is None:
                continue
            self.imports[module] = _imports(tree, module, module in _packages(base))
            self.containers[module] = _containers(tree) | _stdlib_made(tree, self.imports[module])
            self.empty[module] = _empty(tree)
            for node in tree.body:
                self._add(module, node, "")

    def _add(self, module: str, node: ast.AST, prefix: str) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.functions[(module, prefix + node.name)] = node
            if prefix:
                self.methods.setdefault(node.name, []).append((module, prefix + node.name))
        elif isinstance(node, ast.ClassDef):
            self.classes[(module, prefix + node.name)] = node
            self.bases[node.name] = tuple(ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases)
            for child in node.body:
                self._add(module, child, f"{prefix}{node.name}.")
        elif isinstance(node, (ast.If, ast.Try)):
            for child in [*node.body, *node.orelse, *getattr(node, "finalbody", [])]:
                self._add(module, child, prefix)


_DISPLAYS = (ast.Dict, ast.List, ast.Set, ast.Tuple, ast.DictComp, ast.ListComp, ast.SetComp, ast.Constant)


def _containers(tree: ast.Module) -> set[str]:
    """Top-level names bound only to a display, a comprehension or ``dict()``/``list()``/``set()``/``frozenset()``:
    their methods are the builtin types'."""
    bound: dict[str, list[ast.expr]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            bound.setdefault(node.targets[0].id, []).append(node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            bound.setdefault(node.target.id, []).append(node.value)
    return {name for name, values in bound.items() if all(
        isinstance(v, _DISPLAYS) or isinstance(v, ast.Call) and isinstance(v.func, ast.Name)
        and v.func.id in ("dict", "list", "set", "frozenset", "tuple") for v in values)}


def _empty(tree: ast.Module) -> set[str]:
    """Top-level names bound only to an empty display or ``dict()``/``list()``/``set()``: a cache filled later."""
    bound: dict[str, list[ast.expr | None]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        bound.setdefault(name.id, []).append(node.value if name is target else None)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            bound.setdefault(node.target.id, []).append(node.value)
    return {name for name, values in bound.items() if all(
        isinstance(v, (ast.Dict, ast.List, ast.Set)) and not ast.unparse(v)[1:-1].strip()
        or isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id in ("dict", "list", "set")
        and not v.args and not v.keywords for v in values)}


def _stdlib_made(tree: ast.Module, imports: Mapping[str, str]) -> set[str]:
    """Top-level names bound to what a pure standard-library function made (``Match = namedtuple(...)``,
    ``_RE = re.compile(...)``): their methods are the standard library's."""
    found = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.Call):
            func = node.value.func
            head = func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else (
                func.id if isinstance(func, ast.Name) else "")
            dotted = imports.get(head, "")
            dotted += f".{func.attr}" if isinstance(func, ast.Attribute) else ""
            if imports.get(head, "").split(".")[0] in PURE_STDLIB and dotted not in HIGHER_ORDER:
                found.add(node.targets[0].id)
    return found


def _packages(base: CodeBase) -> set[str]:
    names = set(base.modules)
    return {m for m in names if any(o.startswith(m + ".") for o in names)}


def _imports(tree: ast.Module, module: str, is_package: bool) -> dict[str, str]:
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else alias.name.split(
                    ".")[0]
        elif isinstance(node, ast.ImportFrom):
            parts = module.split(".")
            level = node.level - (1 if is_package else 0)
            head = ".".join(parts[: len(parts) - level]) if node.level else ""
            source = ".".join(p for p in (head, node.module or "") if p)
            for alias in node.names:
                found[alias.asname or alias.name] = f"{source}.{alias.name}"
    return found
