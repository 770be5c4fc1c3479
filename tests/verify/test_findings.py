"""The one table of checks and the one way a severity is lowered (docs/design.md#severity)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from docbot.verify.findings import CHECKS, Check, DocFinding, Family, Finding, Severity, lower

DOCBOT = Path(__file__).parents[2] / "docbot"


def test_every_check_has_one_row() -> None:
    assert set(CHECKS) == set(Check)


@pytest.mark.parametrize("check, family, severity", [
    (Check.INVENTED_PARAMETER, Family.PARAMETERS, Severity.CONTRADICTION),
    (Check.WRONG_DEFAULT, Family.PARAMETERS, Severity.CONTRADICTION),
    (Check.MISSING_PARAMETER, Family.PARAMETERS, Severity.GAP),
    (Check.WRONG_RETURN_TYPE, Family.RETURNS, Severity.CONTRADICTION),
    (Check.WRONG_RETURN_VALUE, Family.RETURNS, Severity.CONTRADICTION),
    (Check.WRONG_PARAMETER_TYPE, Family.PARAMETERS, Severity.CONTRADICTION),
    (Check.MISSING_RETURN, Family.RETURNS, Severity.GAP),
    (Check.INVENTED_EXCEPTION, Family.RAISES, Severity.CONTRADICTION),
    (Check.MISSING_EXCEPTION, Family.RAISES, Severity.GAP),
    (Check.MESSAGE_NOT_QUOTED, Family.RAISES, Severity.GAP),
    (Check.MISQUOTED_MESSAGE, Family.RAISES, Severity.CONTRADICTION),
    (Check.EXAMPLE_MISMATCH, Family.EXAMPLES, Severity.CONTRADICTION),
    (Check.EXAMPLE_TIMEOUT, Family.EXAMPLES, Severity.CONTRADICTION),  # project mode's reader lowers it
    (Check.EXAMPLE_SHOWS_FAILURE, Family.EXAMPLES, Severity.NOTE),
    (Check.EXAMPLES_NOT_RUN, Family.EXAMPLES, Severity.NOTE),
    (Check.EXAMPLE_NONDETERMINISTIC, Family.EXAMPLES, Severity.NONDETERMINISTIC),
    (Check.TEMPLATE_PLACEHOLDER, Family.TEXT, Severity.CONTRADICTION),
    (Check.UNRESOLVED_REFERENCE, Family.NAMES, Severity.CONTRADICTION),
    (Check.SOURCE_UNREADABLE, Family.SOURCE, Severity.NOTE),
])
def test_a_findings_severity_and_family_come_from_its_row(check: Check, family: Family, severity: Severity) -> None:
    found = Finding(check, "m")
    assert (found.family, found.severity, found.fatal) == (family, severity, severity is Severity.CONTRADICTION)


@pytest.mark.parametrize("severity, plain, strict", [
    (Severity.CONTRADICTION, True, True),
    (Severity.NOT_RUNNABLE, False, True),
    (Severity.SETUP_ELIDED, False, True),
    (Severity.GAP, False, True),
    (Severity.VERSION_DEPENDENT, False, False),
    (Severity.TIME_DEPENDENT, False, False),
    (Severity.NONDETERMINISTIC, False, False),
    (Severity.NOTE, False, False),
])
def test_which_severities_fail_a_report(severity: Severity, plain: bool, strict: bool) -> None:
    assert (severity.fails(False), severity.fails(True)) == (plain, strict)


def test_lower_records_its_reason_and_keeps_everything_else() -> None:
    found = Finding(Check.EXAMPLE_RAISES, "example raises", "x()", "OSError", line=3)
    why = "the error is about this machine"
    lowered = lower(found, Severity.NOTE, why)
    assert (lowered.severity, lowered.reason, lowered.fatal) == (Severity.NOTE, why, False)
    assert (lowered.check, lowered.message, lowered.doc_text, lowered.code_fact, lowered.line) == \
        (found.check, found.message, found.doc_text, found.code_fact, found.line)
    assert found.severity is Severity.CONTRADICTION  # the original is untouched (frozen)


@pytest.mark.parametrize("check, to", [
    (Check.MISSING_PARAMETER, Severity.CONTRADICTION),  # a gap never becomes a contradiction
    (Check.EXAMPLES_NOT_RUN, Severity.GAP),  # nor a note a gap
    (Check.EXAMPLE_SHOWS_FAILURE, Severity.CONTRADICTION),
])
def test_lower_never_raises_a_finding(check: Check, to: Severity) -> None:
    with pytest.raises(ValueError, match="cannot be raised"):
        lower(Finding(check, "m"), to, "why")


def test_a_finding_lowered_twice_keeps_the_lower_weight_and_its_first_reason_unless_given_one() -> None:
    once = lower(Finding(Check.EXAMPLE_MISMATCH, "m"), Severity.GAP, "first")
    with pytest.raises(ValueError):
        lower(once, Severity.CONTRADICTION, "back up")
    assert lower(once, Severity.NOTE, "").reason == "first"


def test_a_doc_finding_reads_its_findings_severity() -> None:
    placed = DocFinding(lower(Finding(Check.EXAMPLE_RAISES, "m"), Severity.NOT_RUNNABLE, "does not parse"), 12)
    assert placed.to_json() == {"kind": "not_runnable_as_printed", "check": "example_raises", "line": 12,
                                "reason": "does not parse", "message": "m", "doc_text": "", "code_fact": "",
                                "fails": False}


def _sets_a_severity(tree: ast.AST) -> list[int]:
    """Lines that give a finding a severity other than through ``lower``: the ``lowered=`` keyword anywhere."""
    return [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
            and any(k.arg in ("lowered", "severity") for k in node.keywords)]


def test_no_module_but_findings_sets_a_severity() -> None:
    offenders = {path.relative_to(DOCBOT).as_posix(): lines for path in DOCBOT.rglob("*.py")
                 if path.name != "findings.py" or path.parent.name != "verify"
                 if (lines := _sets_a_severity(ast.parse(path.read_text(encoding="utf-8"))))}
    assert offenders == {}
    assert _sets_a_severity(ast.parse("replace(found, lowered=Severity.NOTE)")) == [1]  # the rule sees one
