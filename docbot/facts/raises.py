"""Every ``raise`` of one function: type, literal message, the condition around it, re-raise or not.

A walk over the statements keeps the stack of ``if`` conditions and enclosing ``try`` handlers, so each
raise knows when it happens ("principal < 0") and whether the function itself catches it.
"""

from __future__ import annotations

import ast
import builtins
import re
import string
from dataclasses import dataclass, field, replace

_CATCH_ALL = {"Exception", "BaseException"}
# printf-style conversion specifiers, as in "got %s" % value or "%(name)r" % mapping
_PERCENT_SPEC = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(?:\d+|\*)?(?:\.\d+)?[diouxXeEfFgGcrsa]")


@dataclass(frozen=True)
class Raise:
    """One ``raise`` statement as the code states it."""

    exception: str  # as written: "ValueError", "errors.ConfigError"; "" when not knowable
    message: str | None = None  # literal text; for a template the text with {placeholders}
    parts: tuple[str, ...] = ()  # a template's constant parts, in order (placeholders between them)
    written: str | None = None  # a template as the code writes it: `"n must be > 0: %r" % n`, `f"got {x!r}"`
    line: int = 0  # 1-based, in the source given to extract_facts
    condition: str | None = None  # e.g. "principal < 0"
    depends_on: tuple[str, ...] = ()  # parameters named in the condition or the message
    is_reraise: bool = False  # `raise` / `raise err` inside an except block
    caught_locally: bool = False  # an enclosing try of the same function catches it
    cause: str | None = None  # the expression after `from`

    @property
    def type_name(self) -> str:
        """The class name without its module: ``errors.ConfigError`` -> ``ConfigError``."""
        return self.exception.rsplit(".", 1)[-1]

    @property
    def is_template(self) -> bool:
        return len(self.parts) > 1

    @property
    def is_documentable(self) -> bool:
        """A caller sees it and a doc must mention it.

        An explicit ``AssertionError`` marks a broken invariant ("unreachable"), like ``assert``: it is
        not part of the function's contract, so a doc need not promise it.
        """
        internal = self.type_name == "AssertionError"
        return bool(self.exception) and not self.is_reraise and not self.caught_locally and not internal

    def message_pattern(self) -> re.Pattern[str] | None:
        """A regex matching every message this raise can produce (placeholders match anything)."""
        if self.message is None:
            return None
        parts = self.parts or (self.message,)
        return re.compile(".*?".join(re.escape(p) for p in parts), re.DOTALL)

    def matches_message(self, text: str) -> bool:
        """Whether ``text`` is a message this raise produces, or its template as the code writes it."""
        pattern = self.message_pattern()
        flat = " ".join(text.split())
        written = self.written is not None and flat in {" ".join(w.split()) for w in _spellings(self.written)}
        return written or bool(pattern and pattern.fullmatch(text.strip()))

    @property
    def shown(self) -> str | None:
        """The message as a reader is shown it: the literal text, or a template as the code writes it.

        A template's ``message`` (``n must be > 0: {n}``) is docbot's reading of it, not a message the code
        produces: shown to a writer as if it were, it reads as a placeholder to fill (and ``%r`` as ``str``)."""
        return self.written if self.is_template and self.written else self.message

    def describe(self) -> str:
        """One prompt line: ``ValueError("rate must be positive") when rate <= 0``."""
        if self.is_reraise:
            return f"re-raises {self.exception or 'the caught exception'} (propagates it unchanged)"
        text = self.exception or "an exception (type decided at run time)"
        if self.is_template and self.written:
            text += f"({self.written})"  # as the code writes it: the writer copies a message the code produces
        elif self.message is not None:
            quoted = self.message.replace('"', '\\"')
            text += f'("{quoted}")' if not self.is_template else f'(f"{quoted}")'
        if self.condition:
            text += f" when {self.condition}"
        if self.cause:
            text += f" (raised from {self.cause})"
        if self.caught_locally:
            text += " (caught inside the function, not seen by callers)"
        return text


@dataclass(frozen=True)
class _Context:
    conditions: tuple[str, ...] = ()
    catching: tuple[frozenset[str], ...] = ()  # handler type names of enclosing try bodies
    handler_type: str | None = None  # inside `except <type> as <name>:`
    handler_name: str | None = None
    params: frozenset[str] = field(default_factory=frozenset)
    source: str = ""  # the text the nodes were parsed from (for a template's own spelling)

    def under(self, condition: str) -> _Context:
        return replace(self, conditions=(*self.conditions, condition))


def collect_raises(function: ast.FunctionDef | ast.AsyncFunctionDef, params: set[str],
                   source: str = "") -> list[Raise]:
    """Every raise of ``function``; ``source``: the text it was parsed from, so a template keeps its spelling."""
    found: list[Raise] = []
    _walk(function.body, _Context(params=frozenset(params), source=source), found)
    return found


def _walk(body: list[ast.stmt], ctx: _Context, found: list[Raise]) -> None:
    for stmt in body:
        _walk_statement(stmt, ctx, found)


def _walk_statement(stmt: ast.stmt, ctx: _Context, found: list[Raise]) -> None:
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return  # nested definitions raise when *they* are called, not this function
    if isinstance(stmt, ast.Raise):
        found.append(_raise_fact(stmt, ctx))
    elif isinstance(stmt, ast.If):
        test = ast.unparse(stmt.test)
        _walk(stmt.body, ctx.under(test), found)
        _walk(stmt.orelse, ctx.under(f"not ({test})"), found)
    elif isinstance(stmt, (ast.Try, ast.TryStar)):
        _walk_try(stmt, ctx, found)
    elif isinstance(stmt, ast.Match):
        for case in stmt.cases:
            _walk(case.body, ctx.under(f"{ast.unparse(stmt.subject)} matches {ast.unparse(case.pattern)}"), found)
    else:  # for / while / with / async variants: the body runs under the same conditions
        for child in ("body", "orelse", "finalbody"):
            _walk(getattr(stmt, child, []), ctx, found)


def _walk_try(stmt: ast.Try | ast.TryStar, ctx: _Context, found: list[Raise]) -> None:
    caught = frozenset(name for handler in stmt.handlers for name in _handler_types(handler))
    _walk(stmt.body, replace(ctx, catching=(*ctx.catching, caught)), found)
    for handler in stmt.handlers:
        handler_type = ast.unparse(handler.type) if handler.type else None
        inner = replace(ctx, handler_type=handler_type, handler_name=handler.name)
        _walk(handler.body, inner.under(f"handling {handler_type or 'any exception'}"), found)
    _walk(stmt.orelse, ctx, found)
    _walk(stmt.finalbody, ctx, found)


def _catches(handled: frozenset[str], type_name: str) -> bool:
    """Whether handlers for ``handled`` catch ``type_name`` (builtin hierarchy known, others by name)."""
    if type_name in handled or handled & _CATCH_ALL:
        return True
    raised = getattr(builtins, type_name, None)
    return isinstance(raised, type) and any(
        isinstance(getattr(builtins, name, None), type) and issubclass(raised, getattr(builtins, name))
        for name in handled
    )


def _handler_types(handler: ast.ExceptHandler) -> list[str]:
    if handler.type is None:
        return ["BaseException"]
    nodes = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return [ast.unparse(n).rsplit(".", 1)[-1] for n in nodes]


def _raise_fact(stmt: ast.Raise, ctx: _Context) -> Raise:
    condition = " and ".join(ctx.conditions) or None
    if stmt.exc is None or (isinstance(stmt.exc, ast.Name) and stmt.exc.id == ctx.handler_name):
        return Raise(exception=ctx.handler_type or "", line=stmt.lineno, condition=condition, is_reraise=True)
    exception, message_node = _split_exception(stmt.exc)
    message, parts = _message(message_node)
    written = _written(message_node, ctx.source) if len(parts) > 1 and message_node is not None else None
    names = {n.id for n in ast.walk(stmt.exc) if isinstance(n, ast.Name)}
    for text in ctx.conditions:
        names |= set(re.findall(r"[A-Za-z_]\w*", text))
    type_name = exception.rsplit(".", 1)[-1]
    caught = any(_catches(handled, type_name) for handled in ctx.catching)
    return Raise(
        exception=exception,
        message=message,
        parts=parts,
        written=written,
        line=stmt.lineno,
        condition=condition,
        depends_on=tuple(sorted(names & ctx.params)),
        caught_locally=bool(exception) and caught,
        cause=ast.unparse(stmt.cause) if stmt.cause else None,
    )


def _spellings(written: str) -> tuple[str, ...]:
    """A template as the code writes it, and its template string alone as written between the quotes
    (``"n must be > 0: %r" % n`` -> ``n must be > 0: %r``; ``f"got {x!r}"`` -> ``got {x!r}``)."""
    try:
        node = ast.parse(written, mode="eval").body
    except SyntaxError:
        return (written,)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        node = node.left
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        node = node.func.value
    segment = ast.get_source_segment(written, node) or ""
    body = re.fullmatch(r"""[rRbBuUfF]*("{3}|'{3}|"|')(.*)\1""", segment, re.DOTALL)
    is_template = isinstance(node, ast.JoinedStr) or isinstance(node, ast.Constant) and isinstance(node.value, str)
    return (written, body.group(2)) if body and is_template else (written,)


def _written(node: ast.expr, source: str) -> str:
    """The message expression as the code spells it; one line (``ast.unparse``) when it spans several."""
    segment = ast.get_source_segment(source, node) if source else None
    return segment if segment and "\n" not in segment else ast.unparse(node)


def _split_exception(exc: ast.expr) -> tuple[str, ast.expr | None]:
    """``ValueError("m")`` -> ("ValueError", <"m">); ``err`` (an instance in a variable) -> ("", None)."""
    target = exc.func if isinstance(exc, ast.Call) else exc
    text = ast.unparse(target)
    if not isinstance(target, (ast.Name, ast.Attribute)) or not text.rsplit(".", 1)[-1].lstrip("_")[:1].isupper():
        return "", None  # not a class name we can read: the type is decided at run time
    if isinstance(exc, ast.Call) and exc.args:
        return text, exc.args[0]
    return text, None


def _message(node: ast.expr | None) -> tuple[str | None, tuple[str, ...]]:
    """The literal message and, for a template, its constant parts."""
    if node is None:
        return None, ()
    if _str_value(node) is not None:
        return _str_value(node), ()
    pieces = _template_pieces(node)
    if pieces is None:
        return None, ()
    text = "".join(p if isinstance(p, str) else "{" + p[0] + "}" for p in pieces)
    parts: list[str] = [""]
    for piece in pieces:
        if isinstance(piece, str):
            parts[-1] += piece
        else:
            parts.append("")
    return text, tuple(parts)


# A template piece: constant text, or a 1-tuple holding a placeholder's expression text.
_Piece = str | tuple[str]


def _template_pieces(node: ast.expr) -> list[_Piece] | None:
    if isinstance(node, ast.JoinedStr):
        return [_fstring_piece(v) for v in node.values]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and _str_value(node.left) is not None:
        return _percent_pieces(_str_value(node.left) or "", node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format" and (
        _str_value(node.func.value) is not None
    ):
        return _format_pieces(_str_value(node.func.value) or "", node)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _template_pieces(node.left), _template_pieces(node.right)
        if left is None and right is None:
            return None
        return (left or [(ast.unparse(node.left),)]) + (right or [(ast.unparse(node.right),)])
    text = _str_value(node)
    return [text] if text is not None else None


def _str_value(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _fstring_piece(value: ast.expr) -> _Piece:
    if isinstance(value, ast.Constant):
        return str(value.value)
    assert isinstance(value, ast.FormattedValue)
    text = ast.unparse(value.value)
    if value.conversion != -1:
        text += "!" + chr(value.conversion)
    return (text,)


def _percent_pieces(template: str, args: ast.expr) -> list[_Piece]:
    values = [ast.unparse(e) for e in args.elts] if isinstance(args, ast.Tuple) else [ast.unparse(args)]
    pieces: list[_Piece] = []
    position = 0
    # "%%" is a literal percent sign: hide it from the specifier search without shifting positions.
    for index, match in enumerate(_PERCENT_SPEC.finditer(template.replace("%%", "\0\0"))):
        pieces.append(template[position : match.start()].replace("%%", "%"))
        pieces.append((values[index] if index < len(values) else "value",))
        position = match.end()
    pieces.append(template[position:].replace("%%", "%"))
    return pieces


def _format_pieces(template: str, call: ast.Call) -> list[_Piece]:
    """Pieces of ``"...{}...".format(args)``, each placeholder named by the argument it shows."""
    positional = [ast.unparse(a) for a in call.args]
    keywords = {k.arg: ast.unparse(k.value) for k in call.keywords if k.arg}
    pieces: list[_Piece] = []
    auto_index = 0
    for literal, field_name, _spec, _conversion in string.Formatter().parse(template):
        pieces.append(literal)
        if field_name is None:
            continue
        if field_name == "":
            field_name, auto_index = str(auto_index), auto_index + 1
        index = int(field_name) if field_name.isdigit() else None
        shown = positional[index] if index is not None and index < len(positional) else None
        pieces.append((shown or keywords.get(field_name, field_name),))
    return pieces
