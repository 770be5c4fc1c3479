"""The builtin types a function can return, inferred statically from its module: what "returns a string" is held to.

In order of trust:

1. A return annotation made only of builtin value types (``str``, ``dict[str, Any]``, ``bytes | None``).
2. Each ``return <expr>`` read from the syntax when its kind shows the type: a literal, a display or
   comprehension, an f-string, a comparison or ``not`` (bool), a call of a builtin constructor (``str(x)``,
   ``len(x)``); ``a if c else b`` and ``a or b`` are the union of their parts; arithmetic with a number
   (``y // 4 - 1``) is "a number": int, float, complex or another library's numeric type, never a ``str``,
   ``list`` or ``dict``, which raise TypeError there.
3. A name, attribute, call or subscript is inferred by jedi (static inference over the module and typeshed's
   stubs; nothing is imported or run): the return is rewritten into ``__docbot_return_k = (<expr>); return ...``
   in a copy of the module, and that name is inferred. One copy per module, with every such return of every
   function rewritten, and one jedi script over it, serve all the functions of a doc (issue 23: one copy per
   function made jedi parse the module again for each). jedi's guesses from call sites (``dynamic_params``) are
   off, so a parameter returned as it came is unknown. Arithmetic is not handed to jedi (its operator
   inference confuses ``bytes * int``).

The answer counts only when it is complete: every ``return`` must give something, and all of it builtin value
types. One return that cannot be followed, or that may be an instance of another class (a ``dict`` subclass, a
named tuple), makes the whole answer unknown, so a doc is never held to a guess (docs/design.md#return-types,
tests/verify/test_return_types.py).
"""

from __future__ import annotations

import ast
import threading
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from docbot.facts.function import is_none, own_nodes
from docbot.facts.module import module_tree

BUILTIN_VALUES = frozenset({"str", "bytes", "bytearray", "int", "float", "complex", "bool", "list", "dict", "tuple",
                            "set", "frozenset", "NoneType"})
_NAME = "__docbot_return_"
_JEDI_LOCK = threading.Lock()


def returned_types(module_source: str, qualname: str, sys_path: tuple[str, ...] = ()) -> frozenset[str] | None:
    """Builtin type names the function ``qualname`` of ``module_source`` can return; None when not all known.

    A generator or an ``async`` function is not inferred (what the caller gets is not what ``return`` gives).
    """
    tree = module_tree(module_source)  # parsed once per module, not once per function (issue 23)
    if tree is None:
        return None
    function = _find(tree, qualname, _top_level(module_source))
    if function is None or isinstance(function, ast.AsyncFunctionDef) or _is_generator(function):
        return None
    if function.returns is not None:
        return annotation_types(function.returns)
    returns = _own_returns(function)
    valued = [r for r in returns if r.value is not None and not is_none(r.value)]
    if not valued:
        return None
    found = {"NoneType"} if len(valued) < len(returns) or not _ends_in_return(function) else set()
    for_jedi = []
    for node in valued:
        assert node.value is not None
        kinds = expression_types(node.value)
        if kinds is JEDI:
            for_jedi.append(node)
        elif not kinds:
            return None
        else:
            found |= kinds
    if for_jedi:
        rewritten, where = _jedi_copy(module_source)
        inferred = _infer(rewritten, [where[(n.lineno, n.col_offset)] for n in for_jedi], sys_path)
        if inferred is None:
            return None
        found |= inferred
    return frozenset(found)


_ANNOTATION_NAMES = {"None": "NoneType", "str": "str", "bytes": "bytes", "bytearray": "bytearray", "int": "int",
                     "float": "float", "complex": "complex", "bool": "bool", "list": "list", "List": "list",
                     "dict": "dict", "Dict": "dict", "tuple": "tuple", "Tuple": "tuple", "set": "set", "Set": "set",
                     "frozenset": "frozenset", "FrozenSet": "frozenset"}


def annotation_types(node: ast.expr) -> frozenset[str] | None:
    """``str | None`` -> {str, NoneType}; ``dict[str, Any]`` -> {dict}; any other class -> None (unknown)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return annotation_types(ast.parse(node.value, mode="eval").body)
        except SyntaxError:
            return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = annotation_types(node.left), annotation_types(node.right)
        return left | right if left is not None and right is not None else None
    if isinstance(node, ast.Subscript):
        base = _dotted(node.value)
        if base in ("Optional", "typing.Optional"):
            inner = annotation_types(node.slice)
            return inner | {"NoneType"} if inner is not None else None
        if base in ("Union", "typing.Union") and isinstance(node.slice, ast.Tuple):
            parts = [annotation_types(e) for e in node.slice.elts]
            return frozenset().union(*parts) if all(p is not None for p in parts) else None  # type: ignore[arg-type]
        node = node.value  # list[int] is a list
    name = _dotted(node) if not (isinstance(node, ast.Constant) and node.value is None) else "None"
    kind = _ANNOTATION_NAMES.get(name.removeprefix("typing.").removeprefix("builtins."))
    return frozenset({kind}) if kind else None


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


JEDI: frozenset[str] = frozenset({"<jedi>"})  # "ask jedi": a name, attribute, call or subscript
NUMBER = "<number>"  # what arithmetic with a number gives when the other operand is unknown: another library's
NUMERIC: frozenset[str] = frozenset({"int", "float", "complex", NUMBER})  # number (Decimal, an array) or a builtin's
_WITH_A_NUMBER = (ast.Sub, ast.FloorDiv, ast.Div, ast.Pow)  # no builtin but the numbers takes a number in these
_CONSTRUCTORS = {"str": "str", "repr": "str", "ascii": "str", "format": "str", "chr": "str", "hex": "str",
                 "oct": "str", "bin": "str", "bytes": "bytes", "bytearray": "bytearray", "int": "int",
                 "len": "int", "ord": "int", "hash": "int", "id": "int", "float": "float", "complex": "complex",
                 "bool": "bool", "isinstance": "bool", "issubclass": "bool", "callable": "bool", "hasattr": "bool",
                 "all": "bool", "any": "bool", "list": "list", "sorted": "list", "dict": "dict", "tuple": "tuple",
                 "set": "set", "frozenset": "frozenset"}
_SLICED_AS_ITSELF = frozenset({"str", "bytes", "bytearray", "list", "tuple"})
_LITERALS = {str: "str", bytes: "bytes", int: "int", float: "float", complex: "complex", bool: "bool"}


def expression_types(node: ast.expr) -> frozenset[str]:
    """What an expression's syntax shows it evaluates to; ``JEDI`` to ask jedi; empty when not known."""
    if isinstance(node, ast.Constant):
        kind = "NoneType" if node.value is None else _LITERALS.get(type(node.value))
        return frozenset({kind}) if kind else frozenset()
    simple = {ast.JoinedStr: "str", ast.List: "list", ast.ListComp: "list", ast.Dict: "dict", ast.DictComp: "dict",
              ast.Set: "set", ast.SetComp: "set", ast.Tuple: "tuple", ast.Compare: "bool"}
    if type(node) in simple:
        return frozenset({simple[type(node)]})
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return frozenset({"bool"})
    if isinstance(node, (ast.IfExp, ast.BoolOp)):
        branches = (node.body, node.orelse) if isinstance(node, ast.IfExp) else node.values
        parts = [expression_types(n) for n in branches]
        if any(not p or p is JEDI for p in parts):
            return frozenset()  # mixing jedi's answer into a union is not worth its risk
        return frozenset().union(*parts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CONSTRUCTORS:
        return frozenset({_CONSTRUCTORS[node.func.id]})
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) and \
            type(node.left.value) in (str, bytes):
        return frozenset({_LITERALS[type(node.left.value)]})  # printf-style formatting: '"%s", line %d' % (f, n)
    if not isinstance(node, ast.Constant) and _numeric(node):
        return NUMERIC  # calendar.leapdays: (y2//4 - y1//4) - (y2//100 - y1//100) + (y2//400 - y1//400)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
        sliced = expression_types(node.value)  # a slice of a builtin sequence is one of its type: sorted(x)[:n]
        if sliced and sliced is not JEDI and sliced <= _SLICED_AS_ITSELF:
            return sliced
    if isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)):
        return JEDI
    return frozenset()


def _numeric(node: ast.expr) -> bool:
    """Whether ``node`` is arithmetic whose value is a number of some type: a number literal, or ``-``, ``//``,
    ``/``, ``**`` with one (a ``str``, ``list``, ``dict`` or ``set`` raises TypeError there), or ``+``, ``*``,
    ``%`` of two such (``x * 2`` may repeat a list, ``x % y`` format a string)."""
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, float, complex)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _numeric(node.operand)
    if isinstance(node, ast.BinOp):
        sides = (_numeric(node.left), _numeric(node.right))
        if isinstance(node.op, _WITH_A_NUMBER):
            return any(sides)
        return isinstance(node.op, (ast.Add, ast.Mult, ast.Mod)) and all(sides)
    return False


def shown(types: frozenset[str]) -> str:
    """What the code returns, as a message says it: ``None`` for NoneType, "a number" for arithmetic's value."""
    numbers = NUMBER in types
    names = sorted("None" if t == "NoneType" else t for t in types if not (numbers and t in NUMERIC))
    return " or ".join([*names, *(["a number"] if numbers else [])])


_Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


@lru_cache(maxsize=8)  # one module, every function of a doc: its top level is indexed once, not scanned per function
def _top_level(module_source: str) -> Mapping[str, tuple[_Definition, ...]]:
    tree = module_tree(module_source)
    found: dict[str, list[_Definition]] = {}
    for node in tree.body if tree is not None else []:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.setdefault(node.name, []).append(node)
    return MappingProxyType({name: tuple(nodes) for name, nodes in found.items()})


def _find(tree: ast.Module, qualname: str,
          top: Mapping[str, tuple[_Definition, ...]] | None = None) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    body: list[ast.stmt] = tree.body
    node: ast.AST | None = None
    for index, part in enumerate(qualname.split(".")):
        # The last definition that is not an ``@overload`` stub (they come before the implementation) nor a
        # property's setter or deleter.
        same: Sequence[_Definition] = top.get(part, ()) if index == 0 and top is not None else [
            n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == part]
        node = next((n for n in reversed(same) if not _is_overload_or_setter(n)), None)
        if node is None:
            return None
        body = node.body
    return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def _is_overload_or_setter(node: ast.AST) -> bool:
    decorators = getattr(node, "decorator_list", [])
    return any(_dotted(d).rsplit(".", 1)[-1] in ("overload", "setter", "deleter") for d in decorators)


def _own_returns(function: ast.AST) -> list[ast.Return]:
    returns = [n for n in own_nodes(function) if isinstance(n, ast.Return)]
    return sorted(returns, key=lambda n: (n.lineno, n.col_offset))


def _is_generator(function: ast.AST) -> bool:
    return any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in own_nodes(function))


def _ends_in_return(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether control cannot fall off the end (approximated by the last statement: return or raise)."""
    return isinstance(function.body[-1], (ast.Return, ast.Raise))


@lru_cache(maxsize=2)  # one copy for all the functions of a module: jedi then reads (and parses) it once
def _jedi_copy(module_source: str) -> tuple[str, Mapping[tuple[int, int], tuple[int, int]]]:
    """The module with every ``return`` jedi may be asked about rewritten at once (a line keeps its number),
    and where each one's name stands in it, by the return's (line, column) in the module."""
    tree = module_tree(module_source)
    returns = [n for n in ast.walk(tree) if isinstance(n, ast.Return) and n.value is not None
               and expression_types(n.value) is JEDI] if tree is not None else []
    rewritten, positions = _rewrite(module_source, returns)
    return rewritten, MappingProxyType({(n.lineno, n.col_offset): p for n, p in zip(returns, positions)})


def _rewrite(source: str, returns: list[ast.Return]) -> tuple[str, list[tuple[int, int]]]:
    """The source with each return's value bound to a name first, and each name's (line, column) for jedi,
    in the order of ``returns``."""
    lines = source.splitlines(keepends=True)
    positions: list[tuple[int, int]] = [(0, 0)] * len(returns)
    for index, node in sorted(enumerate(returns), key=lambda item: (-item[1].lineno, -item[1].col_offset)):
        assert node.value is not None and node.end_lineno is not None and node.value.end_lineno is not None
        name = f"{_NAME}{index}"
        start = _char_column(lines[node.lineno - 1], node.col_offset)
        value_start = (node.value.lineno - 1, _char_column(lines[node.value.lineno - 1], node.value.col_offset))
        value_end = (node.value.end_lineno - 1,
                     _char_column(lines[node.value.end_lineno - 1], node.value.end_col_offset or 0))
        expression = _span(lines, value_start, value_end)
        head = lines[node.lineno - 1][:start]
        tail = lines[value_end[0]][value_end[1]:]
        replacement = f"{head}{name} = ({expression}); return {name}{tail}"
        lines[node.lineno - 1 : value_end[0] + 1] = [replacement]
        positions[index] = (node.lineno, start)
    return "".join(lines), positions


def _char_column(line: str, byte_offset: int) -> int:
    """ast counts columns in UTF-8 bytes; jedi and str slicing count characters."""
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8", errors="ignore"))


def _span(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> str:
    if start[0] == end[0]:
        return lines[start[0]][start[1] : end[1]]
    middle = "".join(lines[start[0] + 1 : end[0]])
    return lines[start[0]][start[1]:] + middle + lines[end[0]][: end[1]]


def _infer(source: str, positions: list[tuple[int, int]], sys_path: tuple[str, ...]) -> set[str] | None:
    import jedi  # imported here: loading it costs a second, and only a doc that states a type needs it

    jedi.settings.dynamic_params = False  # a parameter's type guessed from call sites is not a fact
    jedi.settings.dynamic_params_for_other_modules = False

    # The running interpreter only (no helper process) and only the project's folders: jedi reads files and
    # typeshed's stubs, and never imports a project's extension modules (load_unsafe_extensions stays off).
    found: set[str] = set()
    for line, column in positions:
        try:
            with _JEDI_LOCK:  # one script serves every caller of the module, and jedi is not thread-safe
                names = _script(source, sys_path).infer(line, column)
                if not names:  # a shared script's caches can answer nothing once another query went the same
                    names = _script.__wrapped__(source, sys_path).infer(line, column)  # way: ask a fresh one
        except Exception:  # jedi is a heuristic engine: any failure of it means "not known", never a finding
            return None
        kinds = {_builtin_name(n.full_name or "") for n in names}
        if not kinds or None in kinds:
            return None
        found |= {k for k in kinds if k is not None}
    return found


@lru_cache(maxsize=2)  # the module's one rewritten copy, asked about each function's returns in turn
def _script(source: str, sys_path: tuple[str, ...]) -> Any:
    import jedi

    folders = [p for p in sys_path if Path(p).is_dir()]
    project = jedi.Project(folders[0] if folders else Path.cwd(), sys_path=folders, smart_sys_path=False)
    return jedi.Script(source, project=project, environment=jedi.InterpreterEnvironment())


def _builtin_name(full_name: str) -> str | None:
    module, _, name = full_name.rpartition(".")
    return name if module == "builtins" and name in BUILTIN_VALUES else None
