"""One outcome vocabulary (docs/design.md#gate) and one exit-code rule (docs/design.md#exit-codes): the
outcome is decided once, every reader reads it, and every report's exit code comes from ``errors``."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from docbot import errors
from docbot.errors import ExitCode, outcome_code
from docbot.results import ExitReason, FunctionResult, Outcome, RunReport, SectionStatus, Status


@pytest.mark.parametrize("fields, outcome, approval", [
    ({"status": "failed"}, Outcome.FAILED, None),
    ({"status": "skipped"}, Outcome.SKIPPED, None),
    ({"status": "unchanged"}, Outcome.UNCHANGED, None),
    ({"status": "updated", "approval": SectionStatus.APPROVED}, Outcome.APPROVED, SectionStatus.APPROVED),
    ({"status": "updated", "approval": SectionStatus.UNAPPROVED}, Outcome.UNAPPROVED, SectionStatus.UNAPPROVED),
    ({"status": "updated", "outcome": Outcome.UNAPPROVED}, Outcome.UNAPPROVED, SectionStatus.UNAPPROVED),
    ({"status": "updated", "outcome": Outcome.APPROVED}, Outcome.APPROVED, SectionStatus.APPROVED),
    ({"status": "updated"}, Outcome.UNREVIEWED, None),
    ({"status": "updated", "outcome": Outcome.REMOVED, "reason": "removed"}, Outcome.REMOVED, None),
    # The exit reason and the scores never decide: only the finish step's word does.
    ({"status": "updated", "exit_reason": "approved", "scores": [99]}, Outcome.UNREVIEWED, None),
    ({"status": "updated", "exit_reason": "attempts", "approval": SectionStatus.APPROVED}, Outcome.APPROVED,
     SectionStatus.APPROVED),
    ({"status": "updated", "exit_reason": "approved", "approval": SectionStatus.UNAPPROVED}, Outcome.UNAPPROVED,
     SectionStatus.UNAPPROVED),
])
def test_the_outcome_is_settled_once(fields: dict[str, Any], outcome: Outcome, approval: SectionStatus | None) -> None:
    result = FunctionResult("m", "f", **fields)
    assert (result.outcome, result.approval) == (outcome, approval)
    assert result.approved is (outcome is Outcome.APPROVED) and result.removed is (outcome is Outcome.REMOVED)
    assert isinstance(result.status, Status) and result.to_json()["outcome"] == outcome.value


@pytest.mark.parametrize("fields", [
    {"status": "failed", "outcome": Outcome.APPROVED},  # a status that is its own outcome wins ...
    {"status": "unchanged", "outcome": Outcome.UNAPPROVED, "approval": SectionStatus.UNAPPROVED},
])
def test_a_status_that_is_its_own_outcome_wins(fields: dict[str, Any]) -> None:
    result = FunctionResult("m", "f", **fields)
    assert result.outcome == Outcome(fields["status"]) and result.approval is None


@pytest.mark.parametrize("fields", [
    {"status": "updated", "outcome": Outcome.FAILED},
    {"status": "updated", "outcome": Outcome.SKIPPED},
    {"status": "done"},
    {"status": "updated", "exit_reason": "bored"},
])
def test_a_contradictory_result_cannot_be_built(fields: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        FunctionResult("m", "f", **fields)


@pytest.mark.parametrize("outcome, approval, expected", [
    (Outcome.APPROVED, SectionStatus.UNAPPROVED, Outcome.UNAPPROVED),  # the marker's word wins a carried outcome
    (Outcome.UNAPPROVED, SectionStatus.APPROVED, Outcome.APPROVED),
    (Outcome.UNREVIEWED, SectionStatus.APPROVED, Outcome.APPROVED),
    (Outcome.REMOVED, SectionStatus.APPROVED, Outcome.REMOVED),  # a dropped section has no verdict
])
def test_the_gates_word_wins_a_carried_outcome(outcome: Outcome, approval: SectionStatus, expected: Outcome) -> None:
    written = FunctionResult("m", "f", "updated", outcome=outcome)
    again = dataclasses.replace(written, approval=approval)
    assert again.outcome is expected and again.approval is (approval if expected.written else None)


def test_a_failure_replacing_a_written_section_is_failed() -> None:
    # The run turns a written result into a failure with replace(): the old outcome must not survive.
    written = FunctionResult("m", "f", "updated", outcome=Outcome.APPROVED)
    failed = dataclasses.replace(written, status="failed", reason="edited during the run")
    assert (failed.outcome, failed.approval, failed.approved) == (Outcome.FAILED, None, False)


def test_status_and_exit_reason_are_enums_equal_to_their_words() -> None:
    result = FunctionResult("m", "f", "updated", exit_reason="regression", outcome=Outcome.UNAPPROVED)
    assert result.status is Status.UPDATED and result.status == "updated"
    assert result.exit_reason is ExitReason.REGRESSION and result.exit_reason == "regression"
    data = result.to_json()
    assert (data["status"], data["exit_reason"], data["approval"], data["approved"]) == \
        ("updated", "regression", "unapproved", False)
    assert FunctionResult("m", "f", "failed").to_json()["exit_reason"] == ""


@pytest.mark.parametrize("failed, findings, unapproved, code", [
    (False, False, False, 0), (True, False, False, 1), (False, True, False, 1), (False, False, True, 6),
    (True, False, True, 1), (False, True, True, 1),
])
def test_one_rule_combines_outcomes_into_a_code(failed: bool, findings: bool, unapproved: bool, code: int) -> None:
    assert outcome_code(failed=failed, findings=findings, unapproved=unapproved) == code


def test_every_exit_code_is_named_once() -> None:
    assert [int(c) for c in ExitCode] == [0, 1, 2, 3, 4, 5, 6, 130]
    assert set(errors.EXIT_CODE_MEANINGS) == set(ExitCode)
    assert (errors.ConfigError.exit_code, errors.ModelServerError.exit_code, errors.RepoError.exit_code,
            errors.GitHubError.exit_code, errors.DocbotError.exit_code) == (2, 3, 4, 5, 1)


@pytest.mark.parametrize("outcomes, code", [
    ([], 0), ([Outcome.APPROVED, Outcome.UNCHANGED, Outcome.REMOVED, Outcome.SKIPPED, Outcome.UNREVIEWED], 0),
    ([Outcome.APPROVED, Outcome.UNAPPROVED], 6), ([Outcome.UNAPPROVED, Outcome.FAILED], 1), ([Outcome.FAILED], 1),
])
def test_a_run_reports_the_code_its_outcomes_imply(outcomes: list[Outcome], code: int) -> None:
    status = {Outcome.FAILED: "failed", Outcome.SKIPPED: "skipped", Outcome.UNCHANGED: "unchanged"}
    report = RunReport([FunctionResult("m", f"f{i}", status.get(o, "updated"), outcome=o)  # type: ignore[arg-type]
                        for i, o in enumerate(outcomes)])
    assert report.exit_code() == code


def test_a_shard_report_records_its_shard() -> None:
    assert RunReport(shard=(2, 3)).to_json()["shard"] == {"index": 2, "count": 3}
    assert "shard" not in RunReport().to_json()


@pytest.mark.parametrize("fields, cause, words", [
    ({"fatal_issues": ["raises KeyError, the code raises ValueError"], "scores": [60], "exit_reason": "attempts"},
     "contradictions", "it contradicted the code (raises KeyError, the code raises ValueError)"),
    ({"fatal_issues": ["a", "b", "c"], "scores": [60]}, "contradictions", "(a; +2 more)"),
    # The critic passed the draft at 98, a code check then failed it: never "98 below 95".
    ({"scores": [98], "exit_reason": "approved", "repairs": ("removed a failing example: it raised",)},
     "contradictions", "it contradicted the code (removed a failing example: it raised)"),
    ({"scores": [70, 98], "exit_reason": "attempts"}, "contradictions", "it contradicted the code"),
    ({"scores": [95], "exit_reason": "regression", "bar": 95}, "contradictions", "it contradicted the code"),
    ({"scores": [60, 94], "exit_reason": "attempts"}, "below_bar", "never passed a draft (best score 94, bar 95)"),
    ({"scores": [80, 60], "exit_reason": "regression", "repairs": ("x",)}, "below_bar", "best score 80, bar 95"),
])
def test_an_unapproved_section_says_why(fields: dict[str, Any], cause: str, words: str) -> None:
    result = FunctionResult("m", "f", "updated", outcome=Outcome.UNAPPROVED, **fields)
    assert result.cause == cause and result.to_json()["cause"] == cause
    assert result.why().startswith("not approved: ") and words in result.why()
    if cause == "contradictions":
        assert "below" not in result.why() and "best score" not in result.why()


@pytest.mark.parametrize("outcome", [Outcome.APPROVED, Outcome.UNREVIEWED, Outcome.REMOVED])
def test_only_an_unapproved_section_has_a_cause(outcome: Outcome) -> None:
    result = FunctionResult("m", "f", "updated", outcome=outcome, fatal_issues=["x"], scores=[10])
    assert (result.cause, result.why(), result.to_json()["cause"]) == (None, "", None)


def test_the_loops_troubles_go_to_the_result_not_to_annotations() -> None:
    import io

    from docbot import events
    from docbot.fronts.action import log_sink
    from docbot.loop.runner import loop_warnings
    from docbot.loop.state import new_state

    state = new_state("f", "m", "def f(): pass\n", "", None)
    entry = {"round": 1, "accuracy": 0, "completeness": 0, "score": 0, "issues": [], "fatal_issues": [],
             "critical_fix": "", "parsed": False, "draft_chars": 0, "draft_head": "", "calls": []}
    state = {**state, "trajectory": [entry, {**entry, "round": 2, "parsed": True}],  # type: ignore[typeddict-item]
             "warnings": ["round 1: degenerate feedback replaced by a generic fix"]}
    assert loop_warnings(state) == ("round 1: degenerate feedback replaced by a generic fix",  # type: ignore[arg-type]
                                    "round 1: the critic's answer could not be parsed")
    out = io.StringIO()
    sink = log_sink(out)
    sink(events.WarningEvent("critique 1/3 could not be parsed", round=1, qualname="f"))
    sink(events.WarningEvent("the adjudicator returned no usable doc model", qualname="f"))
    sink(events.WarningEvent("pkg/bad.py: cannot parse"))  # not one function's loop: a person should see it
    lines = out.getvalue().splitlines()
    assert [line for line in lines if line.startswith("::")] == ["::warning title=docbot::pkg/bad.py: cannot parse"]
    assert any("critique 1/3 could not be parsed" in line for line in lines)  # still in the log
    assert FunctionResult("m", "f", "failed", warnings=("x",)).to_json()["warnings"] == ["x"]
