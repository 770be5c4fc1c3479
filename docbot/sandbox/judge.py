"""How the child judges one step: what it printed, echoed, returned or raised against what the doc states.

Both ways of running a doc's code use it: the session (``docbot.sandbox.child``, statement by statement, as a
console runs a doctest) and the witness (``docbot.sandbox.script``, the doc's lines as one plain script), so a
contradiction and its witness are judged by one rule. Stdlib and ``compare`` only: it runs inside the sandbox.
"""

from __future__ import annotations

import ast
import linecache
import re
import traceback

from docbot.sandbox.compare import output_matches, value_matches

TYPE_CHECKING = False  # as in docbot.sandbox.child: no typing import in every child
if TYPE_CHECKING:
    from typing import Any

MAX_SHOWN = 2000
_NONE = re.compile(r"None(?:\s+#.*)?$")  # `None  # inherited from the style`: the value, and a remark on it
DOC_FILE = "<doc example"  # the prefix of every file name the child gives a doc's code
# The statements with suites a console runs whole at one prompt, echoing every expression in them. Here, not in
# ``step``, because the child imports this module and ``step`` costs it dataclasses and typing.
COMPOUND = (ast.For, ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith, ast.Try, ast.TryStar, ast.Match)


def judge(step: dict[str, Any], value: Any, printed: str, echoed: list[tuple[Any, int]],
          namespace: dict[str, Any], shown: str | None = None) -> dict[str, Any]:
    """The result of a step that raised nothing. ``shown`` is what the terminal showed (stdout and stderr as
    written), when stderr had something: a doc that pastes a terminal pastes its log lines too."""
    expect, want = step["expect"], step["want"]
    if expect == "raises":
        said = repr_of(echoed[-1][0]) if echoed else printed.strip() or "None"
        return {"status": "no_exception", "got": clip(said)}
    if expect == "none":
        return {"status": "ok"}
    if expect == "value":
        ok = value_matches(value, want, namespace)
        return {"status": "ok" if ok else "mismatch", "got": clip(repr_of(value))}
    ok = output_matches(want, printed) or (bool(step.get("loose_space")) and want.split() == printed.split())
    if not ok and echoed:
        last, before = echoed[-1]
        prints_only = printed[:before]
        # The echo of a single value is compared as a value (0.50 vs 0.5, dict order, floats).
        ok = (not prints_only.strip() and value_matches(last, want, namespace)) or (
            step["echo_last"] and output_matches(want, prints_only))
    if not ok and shown is not None:
        ok = output_matches(want, shown) or (bool(echoed) and step["echo_last"] and output_matches(
            want, _before_echo(shown, echoed[-1][0])))  # the log a script shows, without the console's echo
    if expect == "output" and not want.strip():
        ok = True  # the doc shows no output: a value it does not show is not a contradiction
    if not ok and expect == "output" and _NONE.match(want.strip()) and not printed.strip() and not echoed:
        # `>>> key.kid` then `None`: the doc states the value, which a console does not echo (issue 28: 18 false)
        ok = _ends_in_expression(step["code"])
    got = printed.rstrip("\n")
    bound = _assigned(step["code"]) if not ok and expect == "output" and not printed.strip() and not echoed else None
    if bound is not None and bound in namespace and want.strip():
        # `>>> token = jwt.encode(...)` then the token (python-jose's README): the doc states what the name now
        # holds, which a console does not echo; held to that value
        ok, got = value_matches(namespace[bound], want, namespace), repr_of(namespace[bound])
    result = {"status": "ok" if ok else "mismatch", "got": clip(got)}
    if shown is None or ok:
        return result
    if echoed and step["echo_last"] and repr_of(echoed[-1][0]) not in want:
        shown = _before_echo(shown, echoed[-1][0])  # the doc shows what a script prints, its log lines
    return {**result, "terminal": clip(shown.rstrip("\n"))}


def _last_statement(code: str) -> ast.stmt | None:
    try:
        body = ast.parse(code).body
    except SyntaxError:
        return None
    return body[-1] if body else None


def _ends_in_expression(code: str) -> bool:
    """Whether the code's last statement is an expression other than a call of print (its value is what a console
    would have echoed)."""
    last = _last_statement(code)
    return isinstance(last, ast.Expr) and not (isinstance(last.value, ast.Call) and isinstance(
        last.value.func, ast.Name) and last.value.func.id == "print")


def _assigned(code: str) -> str | None:
    """The one name the code's last statement assigns (``token = ...``, ``token: str = ...``), else None."""
    last = _last_statement(code)
    targets = last.targets if isinstance(last, ast.Assign) else [last.target] if isinstance(
        last, ast.AnnAssign) and last.value is not None else []
    return targets[0].id if len(targets) == 1 and isinstance(targets[0], ast.Name) else None


def _before_echo(shown: str, value: Any) -> str:
    echo = repr_of(value) + "\n"
    return shown[: -len(echo)] if shown.endswith(echo) else shown


def after_exception(step: dict[str, Any], error: BaseException) -> dict[str, Any]:
    """The result of a step that raised ``error``."""
    if step["expect"] != "raises":
        result: dict[str, Any] = {"status": "raised", "error": last_line(leaf(error)), "line": _doc_line(error)}
        return {**result, "doc_raise": True} if doc_raises(error) else result
    said = last_line(error)
    stated = step["exc_type"].rsplit(".", 1)[-1]
    names = {cls.__name__ for cls in type(error).__mro__}
    if stated not in names:
        return {"status": "wrong_exception", "error": said}
    message = step["exc_message"]
    if message is not None and not same_message(message, str(error)):
        return {"status": "wrong_exception", "error": said}
    return {"status": "ok", "error": said}


def leaf(error: BaseException) -> BaseException:
    """The one exception an exception group wraps (anyio's and asyncio's TaskGroup wrap a NameError so), else the
    error itself: the reader's traceback ends with the leaf, and its kind (a name the doc never defines, a
    missing library) is the leaf's."""
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    return error


def _doc_line(error: BaseException) -> int | None:
    """The line of the step that was running when ``error`` left it (the outermost frame of the doc's code)."""
    tb = error.__traceback__
    while tb is not None and not tb.tb_frame.f_code.co_filename.startswith(DOC_FILE):
        tb = tb.tb_next
    return tb.tb_lineno if tb is not None else None


def doc_raises(error: BaseException) -> bool:
    """Whether ``error`` came from an unconditional ``raise`` statement of the doc's own code: a recipe that
    defines an error and raises it to show it announces the failure. A ``raise`` under an ``if`` is a check the
    doc makes of a result, which fails when the result is not what the doc expects."""
    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None or not tb.tb_frame.f_code.co_filename.startswith(DOC_FILE):
        return False
    try:
        tree = ast.parse("".join(linecache.getlines(tb.tb_frame.f_code.co_filename)))
    except SyntaxError:
        return False
    found = _raise_at(tree, tb.tb_lineno, False)
    if found is None or found[1]:
        return False
    # `raise ValueError("x").with_traceback()` fails building its exception (a TypeError): not the raise's own
    named = _class_named(found[0].exc)
    return named is None or named in {c.__name__ for c in type(error).__mro__}


def _raise_at(node: ast.AST, line: int, guarded: bool) -> tuple[ast.Raise, bool] | None:
    """The ``raise`` on ``line`` and whether it is under a test (``if``, ``while``, ``match``); None when none is
    there."""
    if isinstance(node, ast.Raise) and node.lineno == line:
        return node, guarded
    inner = guarded or isinstance(node, (ast.If, ast.While, ast.Match, ast.IfExp))
    for child in ast.iter_child_nodes(node):
        found = _raise_at(child, line, inner)
        if found is not None:
            return found
    return None


def _class_named(exc: ast.expr | None) -> str | None:
    """The class a ``raise`` builds (``ValueError`` of ``ValueError("x")``, of ``pkg.Error("x").with_traceback(tb)``),
    None for an exception it names by a variable."""
    node = exc
    while isinstance(node, ast.Call) or (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    if isinstance(node, ast.Attribute) and node is not exc:
        return node.attr  # `errors.Bad("x")`
    if isinstance(node, ast.Name) and node is not exc and node.id[:1].isupper():
        return node.id
    return None


def same_message(stated: str, actual: str) -> bool:
    """Whether a stated exception message is the raised one's: whole, or its first line alone where the message
    goes on below it after a blank line (a pasted traceback keeps the line a reader reads; jsonschema's schema
    detail is cut). Quotes are part of it: joserfc's guide shows `Algorithm of "HS384"`, a message its code wrote
    before it changed to `'HS384'`; a doc whose own test ignores the detail has no message claimed at all
    (``docbot.verify.read.examples``: IGNORE_EXCEPTION_DETAIL)."""
    def bare(text: str) -> str:
        text = " ".join(text.split())
        return text[1:-1] if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'" else text

    def same(one: str, other: str) -> bool:
        return bare(one) == bare(other) or output_matches(bare(one), bare(other))

    lines = actual.strip().splitlines()
    first = lines[0] if len(lines) > 1 and not lines[1].strip() else None  # a line, then a blank line: detail
    return same(stated, actual) or first is not None and same(stated, first)


def last_line(error: BaseException) -> str:
    return clip(traceback.format_exception_only(type(error), error)[-1].strip())


def repr_of(value: Any) -> str:
    try:
        return repr(value)
    except Exception as error:  # noqa: BLE001 - a broken __repr__ is the example's business
        return f"<unprintable {type(value).__name__}: {error}>"


def clip(text: str) -> str:
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"

