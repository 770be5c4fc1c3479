"""The truth-check node's example runner: a doc model's examples run in the sandbox, one outcome each."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.docmodel import DocModel, Example
from docbot.loop.calls import excerpt
from docbot.loop.truth import example_markdown, outcomes_from, outcomes_of, sandbox_runner
from docbot.verify.checks.examples import ExampleContext
from docbot.verify.findings import Check, Finding, Severity, lower
from docbot.verify.checks.model import ExampleVerdict

FAILED, PASSED = ExampleVerdict.FAILED, ExampleVerdict.PASSED
NONDET, NOT_RUN = ExampleVerdict.NONDETERMINISTIC, ExampleVerdict.NOT_RUN


def at(line: int | None, severity: Severity = Severity.CONTRADICTION) -> Finding:
    found = Finding(Check.EXAMPLE_MISMATCH, f"finding at {line}", line=line)
    return found if severity is Severity.CONTRADICTION else lower(found, severity, "a test's")


@pytest.mark.parametrize(("findings", "verdicts"), [
    ([], [PASSED, PASSED, PASSED]),
    ([at(1)], [PASSED, FAILED, PASSED]),  # the finding's line is its example's index
    ([at(0), at(0, Severity.NONDETERMINISTIC)], [FAILED, PASSED, PASSED]),  # a failure is not downgraded
    ([at(2, Severity.NONDETERMINISTIC)], [PASSED, PASSED, NONDET]),
    ([at(1, Severity.NOTE)], [PASSED, PASSED, PASSED]),  # a note (e.g. "that error is about this machine")
    ([Finding(Check.EXAMPLES_NOT_RUN, "no sandbox here")], [NOT_RUN, NOT_RUN, NOT_RUN]),  # nothing known of any
    ([at(7)], [PASSED, PASSED, PASSED]),  # out of range: ignored, never an index error
])
def test_outcomes_from_a_run(findings: list[Finding], verdicts: list[ExampleVerdict]) -> None:
    assert [o.verdict for o in outcomes_from(findings, 3)] == verdicts


def test_outcomes_are_read_back_from_a_check_for_repair() -> None:
    model = DocModel(summary="s", examples=(Example(code="a"), Example(code="b")))
    findings = [Finding(Check.EXAMPLE_FAILS, "example 2 fails when run", "", "it raised", where="examples[1]"),
                Finding(Check.MISSING_PARAMETER, "x is not documented", where="parameters")]
    assert [(o.verdict, o.evidence) for o in outcomes_of(model, findings)] == [(PASSED, ""), (FAILED, "it raised")]


def test_an_example_is_run_the_way_the_page_shows_it() -> None:
    shown = example_markdown(Example(code="print(1)", output="1"))
    assert shown == "```python\nprint(1)\n```\n\nOutput:\n\n```text\n1\n```"
    assert example_markdown(Example(code="f()")) == "```python\nf()\n```"


def test_examples_really_run_in_the_sandbox(tmp_path: Path) -> None:
    (tmp_path / "calc.py").write_text("def double(x):\n    return 2 * x\n")
    run = sandbox_runner(ExampleContext("calc", (str(tmp_path),)), "double")
    examples = [Example(code="print(double(2))", output="4"), Example(code="print(double(2))", output="5"),
                Example(code="double(None)"), Example(code="y = double(3)")]
    outcomes = run(examples)
    assert [o.verdict for o in outcomes] == [PASSED, FAILED, FAILED, PASSED]
    assert "4" in outcomes[1].evidence and "TypeError" in outcomes[2].evidence
    assert [o.verdict for o in sandbox_runner(None, "double")(examples)] == [NOT_RUN] * 4  # execution off


def test_a_reask_carries_a_short_excerpt_on_one_line() -> None:
    assert excerpt("  a\n\n b ") == "a b"
    long = "word " * 100
    assert excerpt(long) == long[:160] + " …"
    assert excerpt("x" * 160) == "x" * 160  # at the limit: whole
