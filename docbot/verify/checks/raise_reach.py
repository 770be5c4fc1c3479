"""The exception a doc ties to a parameter, against the raise sites that concern that parameter.

"A `TypeError` will be raised if `parse_float` produces illegal types" names a type *and* the parameter
the condition is about. The raise sites about ``parse_float`` are those whose condition or message names it:
the function's own, and those of the functions of the same module it hands ``parse_float`` to (one call
deep, functions nested in them included, since a callee often builds a wrapper that raises later). When
there are such sites and none raises the stated type (nor a subclass of it), the statement is a
contradiction, but only when the function itself does nothing with the parameter but pass it on: an
operation on it (``mapping[key]``, ``value.strip()``) may raise a builtin error no ``raise`` states, and then
it is a note. docs/design.md#raise-reach; tests/verify/test_raise_reach.py.
"""

from __future__ import annotations

import ast
import builtins
import re
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from docbot.facts.module import module_tree
from docbot.facts.raises import Raise, collect_raises


@dataclass(frozen=True)
class Reached:
    raise_: Raise
    where: str  # the function holding the raise ("loads", "make_safe_parse_float.safe_parse_float")


def parameter_raises(module_source: str, function_source: str, param: str) -> list[Reached]:
    """Raise sites whose condition or message names ``param``: the function's own and its callees'."""
    try:
        function = ast.parse(textwrap.dedent(function_source)).body[0]
    except (SyntaxError, IndexError):
        return []
    module = module_tree(module_source) if module_source else None  # parsed once per module (issue 23)
    if module is None and module_source:
        return []
    module = module or ast.Module(body=[], type_ignores=[])
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return []
    found = [Reached(r, function.name) for r in _raises_in(function) if _names(r, param)]
    callees = {n.name: n for n in module.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for call in (n for n in ast.walk(function) if isinstance(n, ast.Call)):
        callee = callees.get(call.func.id) if isinstance(call.func, ast.Name) else None
        receiving = _receiving_parameter(call, callee, param) if callee is not None else None
        if callee is None or receiving is None:
            continue
        found += [Reached(r, where) for r, where in _raises_deep(callee) if _names(r, receiving)]
    return found


def only_passed_on(function_source: str, param: str) -> bool:
    """Whether every use of ``param`` is an argument of a call (not of a builtin that acts on it) or a new value."""
    try:
        function = ast.parse(textwrap.dedent(function_source)).body[0]
    except (SyntaxError, IndexError):
        return False
    parents = {id(child): node for node in ast.walk(function) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id == param and not isinstance(node.ctx, ast.Store):
            parent = parents.get(id(node))
            if isinstance(parent, ast.keyword):
                parent = parents.get(id(parent))
            if not isinstance(parent, ast.Call) or node is parent.func or not _passes_on(parent.func):
                return False
    return True


# Builtins that look at a value without acting on it; any other builtin (int(x), len(x)) is an operation.
_ONLY_LOOK = {"isinstance", "issubclass", "callable", "id", "type"}


def _passes_on(func: ast.expr) -> bool:
    if isinstance(func, ast.Name) and hasattr(builtins, func.id):
        return func.id in _ONLY_LOOK
    return True


def may_be_subclass(raised: str, stated: str, module_source: str, unknown: bool = True) -> bool:
    """Whether ``raised`` is ``stated`` or may derive from it; ``unknown``: the answer for a class from elsewhere."""
    if raised == stated:
        return True
    bases = _module_bases(module_source)
    seen: set[str] = set()
    current = [raised]
    while current:
        name = current.pop()
        if name in seen:
            continue
        seen.add(name)
        if name == stated:
            return True
        value, target = getattr(builtins, name, None), getattr(builtins, stated, None)
        if isinstance(value, type):
            if isinstance(target, type) and issubclass(value, target):
                return True
            continue
        if name not in bases:
            if unknown:
                return True  # a class from elsewhere: its bases are not known here
            continue
        current += bases[name]
    return False


@lru_cache(maxsize=8)  # asked for each documented exception of each section: the module is walked once
def _module_bases(module_source: str) -> Mapping[str, tuple[str, ...]]:
    module = module_tree(module_source)
    if module is None:
        return MappingProxyType({})
    return MappingProxyType({n.name: tuple(ast.unparse(b).rsplit(".", 1)[-1] for b in n.bases)
                             for n in ast.walk(module) if isinstance(n, ast.ClassDef)})


def _raises_in(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[Raise]:
    params = {a.arg for a in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]}
    return [r for r in collect_raises(function, params) if r.exception and not r.is_reraise and not r.caught_locally]


def _raises_deep(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[Raise, str]]:
    found = [(r, function.name) for r in _raises_in(function)]
    for node in ast.walk(function):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node is not function:
            found += [(r, f"{function.name}.{node.name}") for r in _raises_in(node)]
    return found


def _receiving_parameter(call: ast.Call, callee: ast.FunctionDef | ast.AsyncFunctionDef, param: str) -> str | None:
    """The callee's parameter that ``param`` is passed to in ``call``, if it is passed as it is."""
    positional = [a.arg for a in [*callee.args.posonlyargs, *callee.args.args]]
    for index, arg in enumerate(call.args):
        if isinstance(arg, ast.Name) and arg.id == param and index < len(positional):
            return positional[index]
    for keyword in call.keywords:
        if keyword.arg and isinstance(keyword.value, ast.Name) and keyword.value.id == param:
            return keyword.arg
    return None


def _names(raise_: Raise, param: str) -> bool:
    text = f"{raise_.condition or ''} {raise_.message or ''}"
    return param in raise_.depends_on or bool(re.search(rf"(?<![\w.]){re.escape(param)}\b", text))
