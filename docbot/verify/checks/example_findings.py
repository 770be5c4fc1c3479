"""Turn what the sandbox saw about one step into a finding that quotes the real values.

"example `compound(100, 0.05, 2)` returns 110.25, the doc says 110.0" is evidence a reviser can act on;
"example failed" is not. A failure the doc itself announces (a comment on the failing line says it raises, or the
doc's own unconditional ``raise`` in a block that states no output) is shown, not contradicted.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from docbot.sandbox.runner import SandboxRun, describe_exit
from docbot.sandbox.step import Step
from docbot.verify.findings import Check, Finding, Severity, lower

# An error that says the example cannot run *here* (no data file), not that the doc is wrong; the sandbox's
# refusals, missing libraries, memory and the doc's placeholder paths are docbot.verify.checks.environment's.
_ENVIRONMENT = ("FileNotFoundError",)
# Words that say a line fails; "error" alone does not (`# collects every error`), a named exception does.
_FAILS = re.compile(r"\b(?:rais\w*|throws?|fails?|traceback)\b", re.IGNORECASE)
_EXCEPTION_NAME = re.compile(r"\b([A-Z]\w*(?:Error|Exception|Exit|Interrupt|Warning))\b")


def not_run(run: SandboxRun) -> Finding:
    """Not the doc's fault: no sandbox here, the module does not import, or the sandbox died early."""
    if run.not_run is not None:
        return Finding(Check.EXAMPLES_NOT_RUN, f"the examples were not run: {run.not_run}", code_fact=run.not_run)
    if run.import_error is not None:
        why = f"importing the module failed with {run.import_error}"
    elif run.timed_out:
        why = "importing the module did not finish within the time limit"
    elif run.overflow is not None:
        why = f"importing the module {run.overflow}"
    else:
        why = f"the sandbox ended early ({describe_exit(run.exit_code)}: {_last(run.stderr_tail)})"
    return Finding(Check.EXAMPLES_NOT_RUN, f"the examples could not run: {why}", code_fact=why)


def finding_for(step: Step, result: dict[str, Any]) -> Finding | None:
    status, shown = result["status"], step.shown or step.code.strip()
    # what the terminal showed, when the step wrote to stderr too (its log lines): what a reader compares
    got, error = result.get("terminal") or result.get("got", ""), result.get("error", "")
    if status == "ok":
        return None
    if status == "mismatch":
        verb = "prints" if step.expect == "stdout" else "returns"
        return Finding(Check.EXAMPLE_MISMATCH,
                       f"example `{shown}` {verb} {inline(got) or 'nothing'}, the doc says "
                       f"{inline(step.want)}", step.want, got)
    if status == "raised":
        return _raised(step, shown, error, result)
    if status == "no_exception":
        found = Finding(Check.EXAMPLE_NO_EXCEPTION, f"example `{shown}` returns {inline(got)}, the doc says it "
                        f"raises {inline(step.want)}", step.want, got)
        return found if step.fatal else lower(found, Severity.NOTE, "the text above says the failure happens on "
                                              "some machines (\"if you get the following\"), not on every one")
    return Finding(Check.EXAMPLE_WRONG_EXCEPTION, f"example `{shown}` raises {error}, the doc says "
                   f"{inline(step.want)}", step.want, error)


def _raised(step: Step, shown: str, error: str, result: dict[str, Any]) -> Finding:
    said = f"shows {inline(step.want)}" if step.want.strip() else "presents it as working"
    message = f"example `{shown}` raises {error}; the doc {said}"
    if error.startswith(_ENVIRONMENT) or "docbot sandbox refuses" in error:
        return lower(Finding(Check.EXAMPLE_RAISES, f"{message}, but that error is about this machine, not the doc",
                             step.code, error), Severity.NOTE, "the error is about this machine, not the doc")
    if not step.fatal:
        return Finding(Check.EXAMPLE_SHOWS_FAILURE, f"{message}; the text around it says it fails", step.code, error)
    if result.get("doc_raise") and step.expect == "none":  # a recipe that states no output raises to show it
        return Finding(Check.EXAMPLE_SHOWS_FAILURE, f"{message}; the doc's own `raise` statement raises it, to show "
                       "the error", step.code, error)
    if step.expect == "none" and (built := builds_its_error(step.code, result.get("line"), error)) is not None:
        return Finding(Check.EXAMPLE_SHOWS_FAILURE, f"{message}; the doc builds that exception itself "
                       f"(`{built}`), to show it raised", step.code, error)
    if announced(step.code, result.get("line"), error):
        return Finding(Check.EXAMPLE_SHOWS_FAILURE, f"{message}; a comment on that line says it fails", step.code,
                       error)
    kind = Check.EXAMPLE_ASSERT_FAILED if error.startswith("AssertionError") else Check.EXAMPLE_RAISES
    return Finding(kind, message, step.want or step.code, error)


def builds_its_error(code: str, line: int | None, error: str) -> str | None:
    """The failing statement's own making of the exception it raised, type and message (future's idioms:
    ``raise_with_traceback(ValueError("dodgy value"))``, ``raise_(ValueError, "dodgy value", tb)``), as written;
    None when it makes none. A recipe for raising does not claim to run without an error."""
    kind, _, said = error.partition(": ")
    kind = kind.rsplit(".", 1)[-1]
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    failing = [n for n in tree.body if line is not None and n.lineno <= line <= (n.end_lineno or n.lineno)]
    # a `raise` statement's own exception is judged by where it stands (judge.doc_raises: a check under an `if`)
    raised = {id(c) for node in failing for r in ast.walk(node) if isinstance(r, ast.Raise) for c in ast.walk(r)}
    for call in (c for node in failing for c in ast.walk(node) if isinstance(c, ast.Call) and id(c) not in raised):
        if _named(call.func) == kind and _says(call.args[:1], said):  # ValueError("dodgy value")
            return ast.unparse(call)
        if any(_named(a) == kind and _says([b], said) for a, b in zip(call.args, call.args[1:])):
            return ast.unparse(call)  # raise_(ValueError, "dodgy value", tb)
    return None


def _named(node: ast.expr) -> str | None:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None


def _says(args: list[ast.expr], said: str) -> bool:
    return bool(args) and isinstance(args[0], ast.Constant) and args[0].value == said


def announced(code: str, line: int | None, error: str) -> bool:
    """Whether a comment on the failing line, touching it above or below, or opening its paragraph, says it fails
    (``# raises ValueError``, ``# this throws``, ``# Traceback ...``) and names no other exception than the one
    raised."""
    if line is None:
        return False
    lines = code.splitlines()
    said = [lines[line - 1].partition("#")[2]] if 0 < line <= len(lines) and "#" in lines[line - 1] else []
    said += _body_comments(lines, line)
    for step in (-1, 1):
        at = line - 1 + step
        while 0 <= at < len(lines) and lines[at].lstrip().startswith("#"):
            said.append(lines[at])
            at += step
    top = line - 1  # the comment that opens the failing line's paragraph speaks for it (joserfc's jwt.rst:
    while 0 < top < len(lines) and lines[top - 1].strip():  # "# this will raise MissingClaimError", a setup line,
        top -= 1  # then the call that raises it)
    while 0 <= top < line - 1 and lines[top].lstrip().startswith("#"):
        said.append(lines[top])
        top += 1
    text = " ".join(said)
    named = set(_EXCEPTION_NAME.findall(text))
    if named:
        return error.split(":", 1)[0].rsplit(".", 1)[-1] in named
    return _FAILS.search(text) is not None


def _body_comments(lines: list[str], line: int) -> list[str]:
    """The comments inside the compound statement the failing line opens: a class fails as one statement where
    a method's decorator raises, and the method says so (overrides 7.7.0's README: ``class SubClass(...):`` fails
    at ``@override`` over ``def bar(self, y) -> int: # Raises, because the signature is not compatible.``)."""
    if not 0 < line <= len(lines) or not lines[line - 1].rstrip().endswith(":"):
        return []
    indent = len(lines[line - 1]) - len(lines[line - 1].lstrip())
    found = []
    for text in lines[line:]:
        if text.strip() and len(text) - len(text.lstrip()) <= indent:
            break
        found += [text.partition("#")[2]] if "#" in text else []
    return found


def unfinished(step: Step, run: SandboxRun, timeout_s: float) -> Finding:
    shown = step.shown or step.code.strip()
    if run.timed_out:
        return Finding(Check.EXAMPLE_TIMEOUT,
                       f"example `{shown}` did not finish within {timeout_s:g}s", step.code,
                       "time limit reached")
    if run.overflow is not None:
        return Finding(Check.EXAMPLE_FLOOD, f"example `{shown}` {run.overflow}; docbot stopped it", step.code,
                       run.overflow)
    tail = _last(run.stderr_tail)
    return Finding(Check.EXAMPLE_CRASHED,
                   f"example `{shown}` killed the interpreter ({describe_exit(run.exit_code)}: "
                   f"{tail})", step.code, tail)


def rebound(step: Step) -> Finding:
    shown = step.shown or step.code.strip()
    return Finding(Check.EXAMPLE_REBINDS,
                   f"example `{shown}` rebinds the documented name, so what the examples show "
                   "from here on is not the documented object's; not trusted", step.code,
                   "the documented name was rebound")


def _last(text: str) -> str:
    return text.strip().splitlines()[-1] if text.strip() else "no message"


def inline(text: str, limit: int = 200) -> str:
    flat = " / ".join(line.strip() for line in text.strip().splitlines() if line.strip())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
