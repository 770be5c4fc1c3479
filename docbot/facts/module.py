"""What a whole module says, read once per source text: its tree, and the constants it binds at the top.

The checks that follow the code beyond one function (the types it returns, the names it binds, the callees a
parameter reaches, the value of a named default) read the same module once for every function of a doc.
Parsing it each time made ``docbot verify`` quadratic in a doc's sections (issue 23): so the tree is parsed
once per source text and shared. It is shared **read-only**: a caller that needs a changed tree rewrites the
source text instead (docbot.verify.checks.return_types does). tests/verify/test_rules_cost.py counts the parses.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

__all__ = ["module_constants", "module_tree", "scope_constants"]

# A few texts at a time: one verify run reads one module per doc, the loop one per function's module.
_KEPT = 8


@lru_cache(maxsize=_KEPT)
def module_tree(source: str) -> ast.Module | None:
    """The module's tree, parsed once per source text; None when it does not parse. Never mutate it."""
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError):  # ValueError: a NUL byte in the source
        return None


@lru_cache(maxsize=_KEPT)
def module_constants(source: str) -> Mapping[str, str]:
    """``NAME`` -> the source text of its literal value, for each name bound once in the module, at its top
    level, by a plain assignment of a literal (``TIMEOUT = 30``, ``MODE: str = "fast"``).

    A name bound anywhere else too (a second assignment, a function's ``global`` rebinding or a local of the
    same name, a loop, an import) is left out: which value a default saw would depend on the order of execution.
    """
    tree = module_tree(source)
    return MappingProxyType(_literals(tree.body, tree) if tree is not None else {})


@lru_cache(maxsize=_KEPT)
def scope_constants(source: str, qualname: str) -> Mapping[str, str]:
    """The named literals a function's defaults see: the module's, and for a method its own class body's too
    (``BASE_URL = "..."`` above ``def __init__(self, base_url=BASE_URL)``), which a default is evaluated in and
    which win over the module's. Only the innermost class: a class body does not see its enclosing class's."""
    found = dict(module_constants(source))
    tree = module_tree(source)
    body: list[ast.stmt] = tree.body if tree is not None else []
    owner: ast.ClassDef | None = None
    for part in qualname.split(".")[:-1]:
        owner = next((n for n in body if isinstance(n, ast.ClassDef) and n.name == part), None)
        if owner is None:
            return MappingProxyType(found)  # a function's local class, or no such class: the module's alone
        body = owner.body
    if owner is not None:
        # No module name the class rebinds is among the module's: they count every binding in the module.
        found.update(_literals(owner.body, owner))
    return MappingProxyType(found)


def _literals(body: list[ast.stmt], scope: ast.AST) -> dict[str, str]:
    """The names ``body`` binds once to a literal, counting every binding anywhere under ``scope``."""
    bindings: dict[str, int] = {}
    for node in ast.walk(scope):
        for name in _bound_names(node):
            bindings[name] = bindings.get(name, 0) + 1
    found: dict[str, str] = {}
    for statement in body:
        target, value = _simple_assignment(statement)
        if target is None or value is None or bindings.get(target) != 1:
            continue
        try:
            ast.literal_eval(value)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            folded = _folded(value)  # `4096 + 128`: arithmetic on numbers is a literal too (issue 29)
            if folded is None:
                continue
            found[target] = repr(folded)
            continue
        found[target] = ast.unparse(value)
    return found


def _folded(node: ast.expr) -> int | float | None:
    """The value of arithmetic on number literals (``4096 + 128``, ``-1``, ``2 ** 20``); None for anything else."""
    if isinstance(node, ast.Constant):
        return node.value if type(node.value) in (int, float) else None  # type: ignore[return-value]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _folded(node.operand)
        return None if inner is None else -inner if isinstance(node.op, ast.USub) else inner
    if not isinstance(node, ast.BinOp):
        return None
    left, right = _folded(node.left), _folded(node.right)
    if left is None or right is None:
        return None
    try:
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        if isinstance(node.op, ast.Mult):
            return left * right
        if isinstance(node.op, ast.FloorDiv):
            return left // right
        if isinstance(node.op, ast.Pow) and abs(right) <= 64:
            return left ** right  # type: ignore[no-any-return]
    except (ZeroDivisionError, OverflowError):
        return None
    return None


def _bound_names(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
        return [node.id]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(alias.asname or alias.name).split(".")[0] for alias in node.names]
    return []


def _simple_assignment(statement: ast.stmt) -> tuple[str | None, ast.expr | None]:
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        return (target.id, statement.value) if isinstance(target, ast.Name) else (None, None)
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return statement.target.id, statement.value
    return None, None
