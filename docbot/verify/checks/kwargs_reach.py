"""The keywords a function's ``**kwargs`` carries, read from the module's source.

A usage guide documents what a reader may pass, and for ``def parse(xml, **kwargs)`` that includes
the keywords ``kwargs`` is handed on to. Those are read, never guessed:

1. ``kwargs.pop('name', default)`` and ``kwargs.get('name', default)`` carry ``name`` with that default.
2. A call ``target(..., **kwargs)`` to a function or class defined at the top of the same module
   carries the target's parameters (a class's ``__init__``), less those the call passes itself
   (positionally or by keyword), with the target's defaults.
3. The route is *closed* when every use of ``kwargs`` is one of those and no target takes
   ``**kwargs`` of its own: only then is a keyword the doc names outside them provably not accepted.

Tests: tests/verify/test_kwargs_reach.py.
"""

from __future__ import annotations

import ast
import textwrap
from dataclasses import dataclass

from docbot.facts.function import Parameter, extract_facts
from docbot.facts.module import module_tree


@dataclass(frozen=True)
class Carried:
    parameters: dict[str, Parameter]  # name -> the parameter (default from the target or the pop/get)
    closed: bool  # every route is known: a keyword outside ``parameters`` is not accepted


NOTHING = Carried({}, False)


def carried_keywords(module_source: str, function_source: str) -> Carried:
    """What ``**kwargs`` of the function in ``function_source`` carries, within ``module_source``."""
    # The function first: most take no **kwargs, and for those the whole module need not be parsed again.
    if "**" not in function_source:
        return NOTHING  # no ``**name`` parameter can be written without it: not even the function is parsed
    try:
        function = ast.parse(textwrap.dedent(function_source)).body[0]
    except (SyntaxError, IndexError):
        return NOTHING
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or function.args.kwarg is None:
        return NOTHING
    module = module_tree(module_source)  # parsed once per module (docbot.facts.module)
    if module is None:
        return NOTHING
    name = function.args.kwarg.arg
    targets = {n.name: n for n in module.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    found: dict[str, Parameter] = {}
    uses = [n for n in ast.walk(function) if isinstance(n, ast.Name) and n.id == name]
    known = 0
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            carried = _from_call(node, name, targets, module_source)
            if carried is not None:
                known += 1 if carried[1] else 0
                found.update({p.name: p for p in carried[0] if p.name not in found})
    return Carried(found, bool(found) and known == len(uses))


def _from_call(call: ast.Call, name: str, targets: dict[str, ast.FunctionDef | ast.ClassDef],
               source: str) -> tuple[list[Parameter], bool] | None:
    """(parameters carried, whether this use of ``kwargs`` is fully known), or None when not a use."""
    func = call.func
    if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == name
            and func.attr in ("pop", "get") and call.args and isinstance(call.args[0], ast.Constant)
            and isinstance(call.args[0].value, str)):
        default = ast.unparse(call.args[1]) if len(call.args) > 1 else None
        return [Parameter(call.args[0].value, "keyword-only", default)], True
    if not any(k.arg is None and isinstance(k.value, ast.Name) and k.value.id == name for k in call.keywords):
        return None
    target = targets.get(func.id) if isinstance(func, ast.Name) else None
    parameters = _parameters(target, source) if target is not None else None
    if parameters is None:
        return [], False
    passed = {k.arg for k in call.keywords if k.arg}
    skip = len(call.args) + (1 if isinstance(target, ast.ClassDef) else 0)  # a class's `self`
    positional = [p for p in parameters if p.kind in ("positional-only", "positional")]
    shifted = {p.name for p in positional[:skip]}
    own_kwargs = any(p.kind == "var-keyword" for p in parameters)
    return [p for p in parameters if not p.is_variadic and p.name not in passed | shifted], not own_kwargs


def _parameters(target: ast.FunctionDef | ast.ClassDef, source: str) -> tuple[Parameter, ...] | None:
    node: ast.AST | None = target
    qualname = target.name
    if isinstance(target, ast.ClassDef):
        node = next((n for n in target.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
        qualname = f"{target.name}.__init__"
    segment = ast.get_source_segment(source, node, padded=True) if node is not None else None
    if segment is None:
        return None
    try:
        return extract_facts(segment, qualname).parameters
    except (SyntaxError, ValueError):
        return None
