"""The truth-check node's machinery: the exact checks of a doc model, with its examples really run.

``check_model`` (docbot.verify.checks.model) is pure and takes the examples' runner as a value; the
runner here runs them in docbot's sandbox with the same step extraction and comparison rules as the
Markdown checks, by running each example the way the page shows it: its code block, then its output
block (docs/design.md#truth-checks). What only the source can disprove is judged by ``docbot verify``'s
rule on the rendered page (docbot.loop.source_rules), so the loop and ``verify`` cannot disagree on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Callable

from docbot.docmodel import DocModel, Example
from docbot.facts.function import Facts
from docbot.loop.prompts import ECHO_SENTENCES
from docbot.loop.source_rules import CodeContext, page_contradictions
from docbot.mdtext import fence
from docbot.verify.checks.examples import check_steps
from docbot.sandbox.step import Step
from docbot.verify.read.examples import extract_steps
from docbot.verify.checks.examples import ExampleContext
from docbot.verify.findings import Finding, Severity
from docbot.verify.checks.model import ExampleOutcome, ExampleRunner, ExampleVerdict, check_model
from docbot.verify.checks.text_rules import module_names

__all__ = ["CodeContext", "ModelChecker", "check_with_sandbox", "outcomes_of", "sandbox_runner"]

# (model, facts, the code around them) -> findings; the truth checks of docs/design.md#truth-checks.
ModelChecker = Callable[[DocModel, Facts, CodeContext], list[Finding]]


def example_markdown(example: Example) -> str:
    """One example as the page shows it (docbot.apidocs.render): the code, then the output it states."""
    shown = fence(example.code, "python")
    return shown + ("\n\nOutput:\n\n" + fence(example.output, "text") if example.output.strip() else "")


def _not_run(examples: Sequence[Example]) -> list[ExampleOutcome]:
    return [ExampleOutcome(ExampleVerdict.NOT_RUN)] * len(examples)


def outcomes_from(findings: Sequence[Finding], count: int) -> list[ExampleOutcome]:
    """One outcome per example from the findings of one run; a finding's ``line`` is its example's index."""
    if any(f.line is None for f in findings):  # not run at all: nothing is known about any example
        return [ExampleOutcome(ExampleVerdict.NOT_RUN, findings[0].message)] * count
    outcomes = [ExampleOutcome(ExampleVerdict.PASSED)] * count
    for finding in findings:
        index = finding.line
        if index is None or not 0 <= index < count or outcomes[index].verdict is ExampleVerdict.FAILED:
            continue
        if finding.fatal:
            outcomes[index] = ExampleOutcome(ExampleVerdict.FAILED, finding.message)
        elif finding.severity is Severity.NONDETERMINISTIC:
            outcomes[index] = ExampleOutcome(ExampleVerdict.NONDETERMINISTIC, finding.message)
    return outcomes


def sandbox_runner(context: ExampleContext | None, qualname: str) -> ExampleRunner:
    """Run a model's examples as one session in the sandbox; without a context, none is run."""

    def run(examples: Sequence[Example]) -> list[ExampleOutcome]:
        if context is None:
            return _not_run(examples)
        steps: list[Step] = []
        for index, example in enumerate(examples):
            steps += [replace(step, line=index) for step in extract_steps(example_markdown(example))]
        return outcomes_from(check_steps(steps, qualname.split(".")[0], context), len(examples))

    return run


def check_with_sandbox(model: DocModel, facts: Facts, code: CodeContext,
                       run_examples: ExampleRunner | None = None) -> list[Finding]:
    """The default checker: every exact check, examples run in the sandbox when the context says how (or by
    ``run_examples``), and ``verify``'s rule for what only the source disproves (one finding per kind and field)."""
    runner = run_examples or sandbox_runner(code.examples, facts.qualname)
    found = check_model(model, facts, runner, names=module_names(code.module_source), prompts=ECHO_SENTENCES)
    known = {(f.check, f.where) for f in found if f.fatal}
    return found + [f for f in page_contradictions(model, facts, code) if (f.check, f.where) not in known]


def outcomes_of(model: DocModel, findings: Sequence[Finding]) -> list[ExampleOutcome]:
    """The example outcomes a check found, read back from its findings (for repair; no second run)."""
    failed = {f.where: f.evidence for f in findings if f.fatal and f.where.startswith("examples[")}
    return [ExampleOutcome(ExampleVerdict.FAILED, failed[f"examples[{i}]"]) if f"examples[{i}]" in failed
            else ExampleOutcome(ExampleVerdict.PASSED) for i in range(len(model.examples))]
