"""Turn what the sandbox saw into findings that quote the real values.

"example `compound(100, 0.05, 2)` returns 110.25, the doc says 110.0" is evidence a reviser can act on;
"example failed" is not.
"""

from __future__ import annotations

from typing import Any

from docbot.verify.examples import Step, extract_steps
from docbot.verify.findings import ExampleContext, Finding
from docbot.verify.sandbox import SandboxRun, describe_exit, run_steps


def check_examples(section: str, qualname: str, context: ExampleContext) -> list[Finding]:
    steps = extract_steps(section)
    if not steps:
        return []
    run = run_steps(steps, context.module, qualname.split(".")[0], context.sys_path, context.timeout_s,
                    context.memory_mb, context.sandbox)
    return findings_from_run(steps, run, context.timeout_s)


def findings_from_run(steps: list[Step], run: SandboxRun, timeout_s: float) -> list[Finding]:
    if run.untrusted is not None:
        return [Finding("example_untrusted", f"the examples wrote to docbot's result channel ({run.untrusted}); "
                        "none of their results is trusted", code_fact=run.untrusted)]
    if run.import_error is not None or not run.ready:
        return [_not_run(run)]
    findings: list[Finding] = []
    failed_before = False
    for result in run.results:
        step = steps[result["index"]]
        if result["status"] == "rebound":
            return [*findings, _rebound(step)]
        finding = _finding(step, result)
        if finding is None:
            continue
        # After one failure, a NameError is usually its echo (the failed step never defined the name).
        if failed_before and result.get("error", "").startswith("NameError"):
            continue
        failed_before = True
        findings.append(finding)
    if len(run.results) < len(steps):
        findings.append(_unfinished(steps[len(run.results)], run, timeout_s))
    return findings


def _not_run(run: SandboxRun) -> Finding:
    """Not the doc's fault: no sandbox here, the module does not import, or the sandbox died early."""
    if run.not_run is not None:
        return Finding("examples_not_run", f"the examples were not run: {run.not_run}", code_fact=run.not_run,
                       fatal=False)
    if run.import_error is not None:
        why = f"importing the module failed with {run.import_error}"
    elif run.timed_out:
        why = "importing the module did not finish within the time limit"
    elif run.overflow is not None:
        why = f"importing the module {run.overflow}"
    else:
        why = f"the sandbox ended early ({describe_exit(run.exit_code)}: {_last(run.stderr_tail)})"
    return Finding("examples_not_run", f"the examples could not run: {why}", code_fact=why, fatal=False)


def _finding(step: Step, result: dict[str, Any]) -> Finding | None:
    status, shown = result["status"], step.shown or step.code.strip()
    got, error = result.get("got", ""), result.get("error", "")
    if status == "ok":
        return None
    if status == "mismatch":
        verb = "prints" if step.expect == "stdout" else "returns"
        return Finding("example_mismatch", f"example `{shown}` {verb} {_inline(got) or 'nothing'}, the doc says "
                       f"{_inline(step.want)}", step.want, got)
    if status == "raised":
        said = f"shows {_inline(step.want)}" if step.want.strip() else "implies it runs"
        return Finding("example_raises" if step.fatal else "example_setup_failed",
                       f"example `{shown}` raises {error}; the doc {said}", step.want or step.code, error,
                       fatal=step.fatal)
    if status == "no_exception":
        return Finding("example_no_exception", f"example `{shown}` returns {_inline(got)}, the doc says it raises "
                       f"{_inline(step.want)}", step.want, got)
    return Finding("example_wrong_exception", f"example `{shown}` raises {error}, the doc says "
                   f"{_inline(step.want)}", step.want, error)


def _unfinished(step: Step, run: SandboxRun, timeout_s: float) -> Finding:
    shown = step.shown or step.code.strip()
    if run.timed_out:
        return Finding("example_timeout", f"example `{shown}` did not finish within {timeout_s:g}s", step.code,
                       "time limit reached")
    if run.overflow is not None:
        return Finding("example_flood", f"example `{shown}` {run.overflow}; docbot stopped it", step.code,
                       run.overflow)
    tail = _last(run.stderr_tail)
    return Finding("example_crashed", f"example `{shown}` killed the interpreter ({describe_exit(run.exit_code)}: "
                   f"{tail})", step.code, tail)


def _rebound(step: Step) -> Finding:
    shown = step.shown or step.code.strip()
    return Finding("example_rebinds", f"example `{shown}` rebinds the documented name, so what the examples show "
                   "from here on is not the documented object's; not trusted", step.code,
                   "the documented name was rebound")


def _last(text: str) -> str:
    return text.strip().splitlines()[-1] if text.strip() else "no message"


def _inline(text: str, limit: int = 200) -> str:
    flat = " / ".join(line.strip() for line in text.strip().splitlines() if line.strip())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
