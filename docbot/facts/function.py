"""Facts about one function, read from its source with ``ast``: what a doc must not get wrong.

The generator receives these facts (it writes prose around values it cannot get wrong) and the truth
checks compare a doc against them. Only what the source states literally is a fact: a message built
at run time from a variable is "unknown", never guessed.
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from docbot.facts.raises import Raise, collect_raises

ParamKind = Literal["positional-only", "positional", "var-positional", "keyword-only", "var-keyword"]
FunctionKind = Literal["function", "method", "property", "classmethod", "staticmethod"]

__all__ = ["Facts", "Parameter", "Raise", "extract_facts"]

_PROPERTY_DECORATORS = {"property", "cached_property", "functools.cached_property"}
_IMPLICIT_FIRST = {"self", "cls"}


@dataclass(frozen=True)
class Parameter:
    name: str
    kind: ParamKind
    default: str | None = None  # source text of the default, e.g. "0.05" or "DEFAULT_RATE"
    annotation: str | None = None

    @property
    def is_variadic(self) -> bool:
        return self.kind in ("var-positional", "var-keyword")

    @property
    def starred_name(self) -> str:
        """The name with the stars a signature gives it: ``*args``, ``**options``, ``rate``."""
        return {"var-positional": "*", "var-keyword": "**"}.get(self.kind, "") + self.name

    def display(self) -> str:
        """The parameter as it reads in a signature: ``*args``, ``rate: float = 0.05``."""
        text = self.starred_name
        if self.annotation:
            text += f": {self.annotation}"
        if self.default is not None:
            text += f" = {self.default}" if self.annotation else f"={self.default}"
        return text


@dataclass(frozen=True)
class Facts:
    name: str
    qualname: str
    kind: FunctionKind
    is_async: bool
    is_generator: bool
    parameters: tuple[Parameter, ...]
    return_annotation: str | None
    returns_value: bool  # a `return <non-None expr>` or a yield somewhere in the body
    raises: tuple[Raise, ...]
    decorators: tuple[str, ...] = field(default_factory=tuple)

    @property
    def is_method(self) -> bool:
        return self.kind != "function"

    @property
    def documentable_parameters(self) -> tuple[Parameter, ...]:
        """Parameters a doc must describe: all but a leading ``self``/``cls`` (never required)."""
        params = self.parameters
        if self.kind != "staticmethod" and params and params[0].name in _IMPLICIT_FIRST:
            params = params[1:]
        return params

    def parameter(self, name: str) -> Parameter | None:
        return next((p for p in self.parameters if p.name == name.lstrip("*")), None)

    @property
    def propagated_raises(self) -> tuple[Raise, ...]:
        """Raises a caller can see and a doc must mention (not caught in the function, not re-raised)."""
        return tuple(r for r in self.raises if r.is_documentable)

    def signature(self) -> str:
        prefix = "async def " if self.is_async else "def "
        params = ", ".join(_with_markers(self.parameters))
        returns = f" -> {self.return_annotation}" if self.return_annotation else ""
        return f"{prefix}{self.name}({params}){returns}"

    def to_prompt(self) -> str:
        """A compact block of facts for a model prompt; every line is true of the code."""
        lines = [f"Function: {self.qualname} ({self._kind_words()})", f"Signature: {self.signature()}"]
        lines.append("Parameters:" if self.documentable_parameters else "Parameters: none")
        for param in self.documentable_parameters:
            default = f", default {param.default}" if param.default is not None else ", required"
            if param.is_variadic:
                default = ""
            annotation = f": {param.annotation}" if param.annotation else ""
            lines.append(f"- {param.starred_name}{annotation} ({param.kind}{default})")
        lines.append(f"Returns: {self._return_words()}")
        raises = self.raises
        lines.append("Raises:" if raises else "Raises: nothing explicitly")
        lines.extend(f"- {r.describe()}" for r in raises)
        return "\n".join(lines)

    def _kind_words(self) -> str:
        words = ("async " if self.is_async else "") + ("generator " if self.is_generator else "") + self.kind
        return words

    def _return_words(self) -> str:
        annotation = f" (annotated {self.return_annotation})" if self.return_annotation else ""
        if self.is_generator:
            return f"yields values{annotation}"
        if self.returns_value:
            return f"a value{annotation}"
        return f"nothing (None){annotation}"


def _with_markers(params: tuple[Parameter, ...]) -> list[str]:
    """Signature pieces with the ``/`` and ``*`` markers where the kinds need them."""
    out: list[str] = []
    kinds = [p.kind for p in params]
    for index, param in enumerate(params):
        if param.kind == "keyword-only" and "var-positional" not in kinds and (
            index == 0 or params[index - 1].kind != "keyword-only"
        ):
            out.append("*")
        out.append(param.display())
        if param.kind == "positional-only" and (index + 1 == len(params) or params[index + 1].kind != param.kind):
            out.append("/")
    return out


# verify asks for a function's facts once per check family (the section's checks, then its claims'): the text
# decides them, and Facts is frozen, so one reading serves both (docs/design.md#verify-speed)
@lru_cache(maxsize=1024)
def extract_facts(source: str, qualname: str) -> Facts:
    """Read the facts of the function whose own text (decorators included) is ``source``.

    Raises ``ValueError`` when ``source`` holds no function definition: the caller passed the wrong text.
    """
    text = textwrap.dedent(source)
    tree = ast.parse(text)
    node = next((n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if node is None:
        raise ValueError(f"no function definition found in the source given for {qualname}")
    decorators = tuple(ast.unparse(d) for d in node.decorator_list)
    parameters = _parameters(node.args)
    body_nodes = list(own_nodes(node))
    is_generator = any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in body_nodes)
    returns_value = is_generator or any(
        isinstance(n, ast.Return) and n.value is not None and not is_none(n.value) for n in body_nodes
    )
    return Facts(
        name=node.name,
        qualname=qualname,
        kind=_function_kind(decorators, qualname),
        is_async=isinstance(node, ast.AsyncFunctionDef),
        is_generator=is_generator,
        parameters=parameters,
        return_annotation=ast.unparse(node.returns) if node.returns else None,
        returns_value=returns_value,
        raises=tuple(collect_raises(node, {p.name for p in parameters}, text)),
        decorators=decorators,
    )


def _function_kind(decorators: tuple[str, ...], qualname: str) -> FunctionKind:
    for decorator in decorators:
        bare = re.sub(r"\(.*", "", decorator)  # a decorator call like cached(maxsize=3)
        if bare in _PROPERTY_DECORATORS or re.fullmatch(r"\w+\.(setter|getter|deleter)", bare):
            return "property"
        if bare == "classmethod":
            return "classmethod"
        if bare == "staticmethod":
            return "staticmethod"
    return "method" if "." in qualname else "function"


def _parameters(args: ast.arguments) -> tuple[Parameter, ...]:
    positional = [*args.posonlyargs, *args.args]
    # Defaults align with the *last* positional parameters.
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    params: list[Parameter] = []
    for index, (arg, default) in enumerate(zip(positional, defaults)):
        kind: ParamKind = "positional-only" if index < len(args.posonlyargs) else "positional"
        params.append(_parameter(arg, kind, default))
    if args.vararg:
        params.append(_parameter(args.vararg, "var-positional", None))
    for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults):
        params.append(_parameter(arg, "keyword-only", kw_default))
    if args.kwarg:
        params.append(_parameter(args.kwarg, "var-keyword", None))
    return tuple(params)


def _parameter(arg: ast.arg, kind: ParamKind, default: ast.expr | None) -> Parameter:
    return Parameter(
        name=arg.arg,
        kind=kind,
        default=ast.unparse(default) if default is not None else None,
        annotation=ast.unparse(arg.annotation) if arg.annotation else None,
    )


def own_nodes(function: ast.AST) -> list[ast.AST]:
    """Every node of the function body, not descending into nested functions, classes or lambdas (their returns,
    raises and yields are theirs, not the function's)."""
    found: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None
