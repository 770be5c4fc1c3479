"""The child's other way of running a doc's code: a witness, the doc's lines as one plain script (stdlib only).

A session (``docbot.sandbox.child``) runs a doc statement by statement in one namespace, as a console runs a
doctest; a contradiction it finds may be an artifact of that (a name a failed step left behind, the namespace
docbot built, a block split into statements). A witness is what a reader repeats: the doc's own lines up to the
claim, in a fresh interpreter at the project's root, as ``python witness.py`` runs them: one parse, one real
``__main__`` module, nothing echoed but what the script prints. The script has up to three parts, split at the
lines the plan names and run in order: the doc's lines before the claim, the claim, and docbot's one ``show``
line that prints the claimed value. The claim is judged by the session's own rule (``docbot.sandbox.judge``), on
the live objects the script made: a name by ``getattr`` on what the doc's code bound, a signature by
``inspect.signature``.
"""

from __future__ import annotations

import ast
import contextlib
import linecache
import os
import sys
import types

from docbot.sandbox.judge import after_exception, clip, judge, last_line, leaf, repr_of

TYPE_CHECKING = False  # as in docbot.sandbox.child: no typing import in every child
if TYPE_CHECKING:
    from typing import Any, Callable

    from docbot.sandbox.streams import Capture
    from docbot.sandbox.witness import Witness

SCRIPT = "witness.py"
_CO_COROUTINE = 0x80  # inspect.CO_COROUTINE, without importing inspect (slow) in every child
_MISSING = ("AttributeError", "ImportError", "ModuleNotFoundError", "NameError")
REQUIRED = "<required>"  # a signature claim's default when the doc says the parameter has none


def show_root(root: str) -> None:
    """The project's top-level files and folders in the working folder, as links to the read-only originals: a
    doc that opens ``data/example.csv`` reads the project's file, and one that writes ``out.csv`` writes a new file
    of its own. Hidden entries are left out (``.git`` may hold a token)."""
    with contextlib.suppress(OSError), os.scandir(root) as entries:
        for entry in entries:
            if not entry.name.startswith(".") and not os.path.lexists(entry.name):
                with contextlib.suppress(OSError):
                    os.symlink(entry.path, entry.name)


def run_code(code: Any, namespace: dict[str, Any], echo: Callable[[Any], None] | None = None) -> Any:
    """Run compiled code in ``namespace``; a top-level ``await`` runs as ``python -m asyncio`` runs it."""
    old_hook = sys.displayhook
    if echo is not None:
        sys.displayhook = echo
    try:
        result = eval(code, namespace)  # this process is the sandbox
        if code.co_flags & _CO_COROUTINE:
            import asyncio  # only now: importing it costs more than most examples take

            result = asyncio.run(result)
    finally:
        sys.displayhook = old_hook
    return result


def run_script(plan: dict[str, Any], capture: Capture, witness: Witness) -> dict[str, Any]:
    """Run the witness script ``plan["code"]`` and judge its claim; every result names its ``part``."""
    code = plan["code"]
    linecache.cache[SCRIPT] = (len(code), None, code.splitlines(keepends=True), SCRIPT)
    try:
        tree = compile(code, SCRIPT, "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
    except SyntaxError as error:  # the reader's `python witness.py` stops here, before any line runs
        part = "claim" if (error.lineno or 0) >= plan["claim_line"] else "prefix"
        return {"status": "raised" if part == "claim" else "setup_failed", "error": last_line(error), "part": part}
    namespace = _main_module().__dict__
    parts = _parts(tree, plan["claim_line"], plan.get("show_line"))
    witness.start_step()
    capture.start()
    try:
        try:
            _run_part(parts[0], namespace)
        except BaseException as error:  # noqa: BLE001 - the doc's lines before the claim fail as a script
            return {"status": "setup_failed", "error": last_line(leaf(error)), "part": "prefix", **witness.seen()}
        before = (len(capture.printed()), len(capture.shown()))
        try:
            _run_part(parts[1], namespace)
        except BaseException as error:  # noqa: BLE001 - the claim raises: judged as the session judges it
            return {**_raised(plan, error), "part": "claim", **witness.seen()}
        value, echo_at = _claimed_value(plan, namespace), len(capture.printed())
        with contextlib.suppress(Exception):
            _run_part(parts[2], namespace)
    finally:
        capture.stop()
    result = _judged(plan, namespace, value, capture, before, echo_at)
    return {**result, "part": "claim", **witness.seen()}


def _main_module() -> types.ModuleType:
    """A real ``__main__`` for the script: pickle, dataclasses and ``inspect.getsource`` find its classes."""
    module = types.ModuleType("__main__")
    module.__file__ = os.path.abspath(SCRIPT)
    sys.modules["__main__"] = module
    return module


def _parts(tree: ast.Module, claim_line: int, show_line: int | None) -> list[ast.Module]:
    end = show_line if show_line is not None else 1 << 30
    groups: list[list[ast.stmt]] = [[], [], []]
    for node in tree.body:
        groups[0 if node.lineno < claim_line else 1 if node.lineno < end else 2].append(node)
    return [ast.Module(group, []) for group in groups]


def _run_part(module: ast.Module, namespace: dict[str, Any]) -> None:
    if module.body:
        run_code(compile(module, SCRIPT, "exec", ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True), namespace)


def _claimed_value(plan: dict[str, Any], namespace: dict[str, Any]) -> Any:
    name = plan.get("value")
    return namespace.get(name) if name else None


def _raised(plan: dict[str, Any], error: BaseException) -> dict[str, Any]:
    if plan["kind"] == "step":
        return after_exception(plan["claim"], error)
    kind = type(leaf(error)).__name__
    missing = plan["kind"] == "name" and kind in _MISSING
    return {"status": "missing" if missing else "raised", "error": last_line(leaf(error))}


def _judged(plan: dict[str, Any], namespace: dict[str, Any], value: Any, capture: Capture,
            before: tuple[int, int], echo_at: int) -> dict[str, Any]:
    """The claim's verdict on what the claim part printed (and the terminal showed) from ``before`` on."""
    printed = capture.printed()[before[0]:]
    if plan["kind"] == "name":
        return {"status": "found", "got": clip(printed.strip() or repr_of(value))}
    if plan["kind"] == "signature":
        return _signature_claim(plan, value, namespace)
    step, shown = plan["claim"], capture.shown()[before[1]:] if capture.stderr_written else None
    echoed: list[tuple[Any, int]] = []
    if plan.get("echo") and value is not None:
        echoed = [(value, echo_at - before[0])]
    else:
        printed = capture.printed()[before[0]:echo_at]  # nothing echoed: the show line printed None at most
    return judge(step, value, printed, echoed, namespace, shown)


def _signature_claim(plan: dict[str, Any], signature: Any, namespace: dict[str, Any]) -> dict[str, Any]:
    """A parameter the doc names, held to the live signature: there (with the stated default, or with none where
    the doc says it is required), or not."""
    from docbot.sandbox.compare import value_matches

    parameters = getattr(signature, "parameters", {})
    param = parameters.get(plan["parameter"])
    got = clip(str(signature))
    if param is None:
        return {"status": "mismatch", "got": got}
    stated = plan.get("default")
    if stated is None:
        return {"status": "ok", "got": got}
    empty = getattr(type(param), "empty", object())
    ok = param.default is empty if stated == REQUIRED else (
        param.default is not empty and value_matches(param.default, stated, namespace))
    return {"status": "ok" if ok else "mismatch", "got": got}
