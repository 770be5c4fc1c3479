"""The hook's lines name every section it wrote unapproved, say why and what to do (docs/design.md#gate),
and its exit code comes from the one rule in docbot/errors.py."""

from __future__ import annotations

import pytest

from docbot.fronts.hook import _report as hook_report
from docbot.results import FunctionResult, Outcome, RunReport

BELOW = FunctionResult("pkg.geo", "perimeter", "updated", doc_path="docs/api/pkg.geo.md", scores=[40, 62],
                       exit_reason="attempts", outcome=Outcome.UNAPPROVED)
FALSE = FunctionResult("pkg.geo", "area", "updated", doc_path="docs/api/pkg.geo.md", scores=[98],
                       exit_reason="approved", repairs=("removed a failing example: it raised ValueError",),
                       outcome=Outcome.UNAPPROVED)
GOOD = FunctionResult("pkg.geo", "scale", "updated", doc_path="docs/api/pkg.geo.md", scores=[97],
                      exit_reason="approved", outcome=Outcome.APPROVED)


def test_each_unapproved_section_is_named_with_why_and_what_to_do(capsys: pytest.CaptureFixture[str]) -> None:
    report = RunReport(results=[BELOW, FALSE, GOOD], written=["docs/api/pkg.geo.md"])
    hook_report(report)
    code = report.hook_exit_code()
    out = capsys.readouterr().out
    assert code == 1  # docs were written: review and stage them (pre-commit's rule)
    assert "docbot: 2 sections written unapproved; read each against the code and fix or delete" in out
    assert ("  pkg.geo.perimeter in docs/api/pkg.geo.md: not approved: the reviewer never passed a draft "
            "(best score 62, bar 95)") in out
    assert ("  pkg.geo.area in docs/api/pkg.geo.md: not approved: it contradicted the code (removed a failing "
            "example: it raised ValueError)") in out
    assert "pkg.geo.scale" not in out and "98 below" not in out


def test_no_unapproved_section_no_such_line(capsys: pytest.CaptureFixture[str]) -> None:
    for report in (RunReport(results=[GOOD], written=["docs/api/pkg.geo.md"]), RunReport(results=[GOOD])):
        hook_report(report)
    assert "unapproved" not in capsys.readouterr().out


FAILED = FunctionResult("pkg.geo", "move", "failed", outcome=Outcome.FAILED)
SKIPPED = FunctionResult("pkg.geo", "spin", "skipped")


@pytest.mark.parametrize("results, written, sources, code", [
    ([GOOD], ["docs/api/pkg.geo.md"], False, 1),  # docs to stage
    ([GOOD], [], False, 0),
    ([GOOD], [], True, 1),  # docstrings written into a source: stage it too
    ([FAILED], [], False, 1),
    ([SKIPPED], [], False, 0),  # left to CI by the time budget: the commit passes
    ([BELOW], [], False, 0),  # unapproved and already staged: named, not failing
])
def test_the_hook_exit_code_is_pre_commits_rule(results: list[FunctionResult], written: list[str], sources: bool,
                                                 code: int) -> None:
    assert RunReport(results=results, written=written).hook_exit_code(sources_written=sources) == code
