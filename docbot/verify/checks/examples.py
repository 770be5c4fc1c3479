"""Turn what the sandbox saw into findings that quote the real values.

"example `compound(100, 0.05, 2)` returns 110.25, the doc says 110.0" is evidence a reviser can act on;
"example failed" is not.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from docbot.config.choices import (DEFAULT_EXAMPLE_MEMORY_MB, DEFAULT_EXAMPLE_SANDBOX, DEFAULT_EXAMPLE_TIMEOUT_S,
                                   ExampleSandbox)
from docbot.sandbox.runner import SandboxRun, describe_exit, run_steps
from docbot.sandbox.step import Step
from docbot.verify.checks.environment import Environment
from docbot.verify.findings import Check, Finding, Severity, lower
from docbot.verify.read.examples import extract_steps

# An error that says the example cannot run *here* (no data file), not that the doc is wrong; the sandbox's
# refusals, missing libraries, memory and the doc's placeholder paths are docbot.verify.checks.environment's.
_ENVIRONMENT = ("FileNotFoundError",)


@dataclass(frozen=True)
class ExampleContext:
    """How to import the documented module when running a doc's examples.

    The examples run in a copy of the module's namespace, with the module bound to its own name and
    its package importable, in one sandboxed subprocess per doc with ``sys_path`` in front of
    ``sys.path``; ``sandbox`` says whether they may run under the in-process guard alone where no OS
    boundary can be made.
    """

    module: str
    sys_path: tuple[str, ...]
    timeout_s: float = DEFAULT_EXAMPLE_TIMEOUT_S
    memory_mb: int = DEFAULT_EXAMPLE_MEMORY_MB
    sandbox: ExampleSandbox = DEFAULT_EXAMPLE_SANDBOX


def check_examples(section: str, qualname: str, context: ExampleContext) -> list[Finding]:
    return check_steps(extract_steps(section), qualname.split(".")[0], context)


def check_steps(steps: list[Step], name: str, context: ExampleContext) -> list[Finding]:
    """Run ``steps`` as one session; a mismatch is run a second time to tell a random output apart."""
    if not steps:
        return []
    def run() -> SandboxRun:
        return run_steps(steps, context.module, name, context.sys_path, context.timeout_s, context.memory_mb,
                         context.sandbox)

    first = run()
    second = run() if any(r.get("status") == "mismatch" for r in first.results) else None
    return findings_from_run(steps, first, context.timeout_s, second, context.memory_mb)


def findings_from_run(steps: list[Step], run: SandboxRun, timeout_s: float,
                      second: SandboxRun | None = None,
                      memory_mb: int = DEFAULT_EXAMPLE_MEMORY_MB) -> list[Finding]:
    if run.untrusted is not None:
        return [Finding(Check.EXAMPLE_UNTRUSTED,
                        f"the examples wrote to docbot's result channel ({run.untrusted}); "
                        "none of their results is trusted", code_fact=run.untrusted)]
    if run.import_error is not None or not run.ready:
        return [_not_run(run)]
    again = {r["index"]: r for r in second.results} if second is not None else {}
    findings: list[Finding] = []
    failed_before = False
    environment = Environment(memory_mb)
    for result in run.results:
        step = steps[result["index"]]
        if result["status"] == "rebound":
            return [*findings, _rebound(step)]
        why = environment.reason(step, result)
        finding = _finding(step, result)
        if finding is None:
            continue
        # After one failure, a NameError is usually its echo (the failed step never defined the name).
        if failed_before and result.get("error", "").startswith("NameError"):
            continue
        if why is not None:
            findings.append(lower(replace(finding, message=f"{finding.message}; not the doc's fault: {why}",
                                          line=step.line), Severity.NOTE, why))
            failed_before = True
            continue
        failed_before = True
        other = again.get(result["index"])
        if result["status"] == "mismatch" and other is not None and other.get("got") != result.get("got"):
            finding = Finding(Check.EXAMPLE_NONDETERMINISTIC,
                              f"example `{step.shown or step.code.strip()}` prints "
                              "something different on each run; its stated output cannot be checked",
                              step.want, f"{_inline(result.get('got', ''))} / {_inline(other.get('got', ''))}")
        findings.append(replace(finding, line=step.line))
    if len(run.results) < len(steps):
        step = steps[len(run.results)]
        findings.append(replace(_unfinished(step, run, timeout_s), line=step.line))
    return findings


def _not_run(run: SandboxRun) -> Finding:
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


def _finding(step: Step, result: dict[str, Any]) -> Finding | None:
    status, shown = result["status"], step.shown or step.code.strip()
    got, error = result.get("got", ""), result.get("error", "")
    if status == "ok":
        return None
    if status == "mismatch":
        verb = "prints" if step.expect == "stdout" else "returns"
        return Finding(Check.EXAMPLE_MISMATCH,
                       f"example `{shown}` {verb} {_inline(got) or 'nothing'}, the doc says "
                       f"{_inline(step.want)}", step.want, got)
    if status == "raised":
        return _raised(step, shown, error)
    if status == "no_exception":
        return Finding(Check.EXAMPLE_NO_EXCEPTION,
                       f"example `{shown}` returns {_inline(got)}, the doc says it raises "
                       f"{_inline(step.want)}", step.want, got)
    return Finding(Check.EXAMPLE_WRONG_EXCEPTION, f"example `{shown}` raises {error}, the doc says "
                   f"{_inline(step.want)}", step.want, error)


def _raised(step: Step, shown: str, error: str) -> Finding:
    said = f"shows {_inline(step.want)}" if step.want.strip() else "presents it as working"
    message = f"example `{shown}` raises {error}; the doc {said}"
    if error.startswith(_ENVIRONMENT) or "docbot sandbox refuses" in error:
        return lower(Finding(Check.EXAMPLE_RAISES, f"{message}, but that error is about this machine, not the doc",
                             step.code, error), Severity.NOTE, "the error is about this machine, not the doc")
    if not step.fatal:
        return Finding(Check.EXAMPLE_SHOWS_FAILURE, f"{message}; the text around it says it fails", step.code, error)
    kind = Check.EXAMPLE_ASSERT_FAILED if error.startswith("AssertionError") else Check.EXAMPLE_RAISES
    return Finding(kind, message, step.want or step.code, error)


def _unfinished(step: Step, run: SandboxRun, timeout_s: float) -> Finding:
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


def _rebound(step: Step) -> Finding:
    shown = step.shown or step.code.strip()
    return Finding(Check.EXAMPLE_REBINDS,
                   f"example `{shown}` rebinds the documented name, so what the examples show "
                   "from here on is not the documented object's; not trusted", step.code,
                   "the documented name was rebound")


def _last(text: str) -> str:
    return text.strip().splitlines()[-1] if text.strip() else "no message"


def _inline(text: str, limit: int = 200) -> str:
    flat = " / ".join(line.strip() for line in text.strip().splitlines() if line.strip())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
