"""The contracts between stages are typed values: scan errors, removed sections, the comment's outcome,
the loop's state and its records. Each test fails on a one-line slip in the rule it names."""

from __future__ import annotations

import json
from typing import Any

import pytest

from docbot.github.publish import CommentOutcome, CommentStatus
from docbot.loop.graph import build_graph
from docbot.loop.runner import document_target, initial_state, stream_loop, tokens_by_role
from docbot.loop.state import LoopState, new_state
from docbot.plan import CodeNow
from docbot.results import CallRecord, TrajectoryEntry
from docbot.scan.repo import Scan
from docbot.results import FunctionResult, RunReport, ScanError, SectionStatus, Target
from docbot.config.settings import Role, Settings
from tests.support.events import CollectingSink
from tests.support.fakes import critique, doc, scripted_models

SOURCE = "def f(x):\n    return x\n"


@pytest.mark.parametrize("outcome,text", [
    (CommentOutcome(CommentStatus.CREATED), "created"),
    (CommentOutcome(CommentStatus.UPDATED), "updated"),
    (CommentOutcome(CommentStatus.SKIPPED, "not a pull request"), "skipped: not a pull request"),
    (CommentOutcome(CommentStatus.FAILED, "HTTP 403: failed: no"), "failed: HTTP 403: failed: no"),
])
def test_the_comment_outcome_reads_as_the_report_always_said(outcome: CommentOutcome, text: str) -> None:
    assert str(outcome) == text


def test_a_scan_error_keeps_its_path_whatever_the_path_holds() -> None:
    odd = ScanError("pkg/a: b.py", "cannot parse (line 3): bad: token")
    assert str(odd) == "pkg/a: b.py: cannot parse (line 3): bad: token"
    code = CodeNow.from_scan(Scan("base", "head", errors=[odd]), include_dunder=False, every=False)
    assert code.unparsed == frozenset({"pkg.a: b"})  # parsing "path: message" back would say "pkg.a"
    assert code.functions("pkg.a: b", []) is None and code.functions("pkg.a", []) == []


def test_the_report_json_keeps_scan_errors_as_text() -> None:
    report = RunReport(scan_errors=[ScanError("pkg/bad.py", "tracked but missing")])
    assert report.to_json()["scan_errors"] == ["pkg/bad.py: tracked but missing"]
    json.dumps(report.to_json())


def test_a_removed_section_is_an_outcome_and_the_json_keeps_its_word() -> None:
    gone = FunctionResult.removed_section("pkg.geo", "area", "pkg/geo.py")
    assert gone.removed and (gone.status, gone.reason, gone.path) == ("updated", "removed", "pkg/geo.py")
    assert not FunctionResult("pkg.geo", "area", "updated", reason="removed").removed
    data = gone.to_json()
    assert "removed" not in data and data["reason"] == "removed"
    # schema_version 1: keys are only added, never renamed
    assert list(data) == ["module", "qualname", "status", "reason", "path", "doc_path", "markdown", "scores",
                          "rounds", "exit_reason", "fatal_issues", "bar", "tokens", "approval", "repairs",
                          "doc_model", "warnings", "outcome", "cause", "key", "approved"]
    assert (data["approval"], data["repairs"], data["doc_model"], data["outcome"]) == (None, [], None, "removed")


def test_the_json_carries_the_gate_and_the_typed_doc() -> None:
    from docbot.docmodel import DocModel

    model = DocModel(summary="Area of a circle.")
    result = FunctionResult("pkg.geo", "area", "updated", approval=SectionStatus.UNAPPROVED,
                            repairs=("removed example 1: it raised ValueError",), doc_model=model)
    data = result.to_json()
    assert data["approval"] == "unapproved" and data["repairs"] == ["removed example 1: it raised ValueError"]
    assert data["doc_model"] == model.model_dump(mode="json") and data["doc_model"]["summary"] == "Area of a circle."


def test_the_start_state_sets_every_required_key() -> None:
    state = new_state("f", "m", SOURCE, "", None)
    assert set(state) == LoopState.__required_keys__
    assert LoopState.__optional_keys__ == {"route"}  # set by the router before anything reads it
    assert (state["round"], state["revise_count"], state["best_score"], state["best_model"]) == (0, 0, -1, None)
    assert (state["model"], state["current"], state["approval"], state["repairs"]) == (None, "", "", [])
    target = Target("m", "f", "m.py", 1, 2, "added", SOURCE)
    assert set(initial_state(target, None)) == LoopState.__required_keys__


def _run_once() -> tuple[LoopState, list[Any]]:
    models = scripted_models([doc("f", "v1"), doc("f", "v2")], [critique(60, 60), critique(96, 96)],
                             [doc("f", "final")])
    sink = CollectingSink()
    final, _ = stream_loop(build_graph(models, Settings(), lambda *a: []), new_state("f", "m", SOURCE, "", None),
                           Settings(), sink)
    return final, sink.events


def test_records_have_their_declared_shape_in_order() -> None:
    final, _ = _run_once()
    assert [list(c) for c in final["calls"]] == [list(CallRecord.__annotations__)] * len(final["calls"])
    assert [list(t) for t in final["trajectory"]] == [list(TrajectoryEntry.__annotations__)] * 2
    assert [c["role"] for c in final["calls"]] == [Role.GENERATOR, Role.CRITIC, Role.GENERATOR, Role.CRITIC,
                                                  Role.ADJUDICATOR]
    assert [(c["role"], c["round"]) for c in final["trajectory"][1]["calls"]] == [("GENERATOR", 2), ("CRITIC", 2)]
    assert json.loads(json.dumps(final["calls"][0]))["role"] == "GENERATOR"  # a role is its name in JSON


def test_tokens_by_role_adds_up_each_role() -> None:
    calls = [CallRecord(role="CRITIC", round=1, tokens_in=10, tokens_out=2, seconds=0.25),
             CallRecord(role="CRITIC", round=2, tokens_in=5, tokens_out=1, seconds=0.5),
             CallRecord(role="GENERATOR", round=1, tokens_in=7, tokens_out=3, seconds=1.0)]
    assert tokens_by_role(calls) == {"CRITIC": {"in": 15, "out": 3, "seconds": 0.75, "calls": 2},
                                     "GENERATOR": {"in": 7, "out": 3, "seconds": 1.0, "calls": 1}}


def test_a_loop_result_comes_from_the_final_state() -> None:
    models = scripted_models([doc("f", "v1")], [critique(96, 96)], [doc("f", "final")])
    settings = Settings(adjudicate="always")  # the adjudicator's answer is what ships
    target = Target("m", "f", "m.py", 1, 2, "added", SOURCE)
    result, final = document_target(build_graph(models, settings, lambda *a: []), target, settings,
                                     CollectingSink())
    assert (result.scores, result.rounds, result.exit_reason) == ([96], 1, "approved")
    assert result.markdown == final["final_markdown"] and "\n\nfinal\n" in result.markdown
    assert result.doc_model is not None and result.doc_model.summary == "final"
    assert result.approval is SectionStatus.APPROVED and result.repairs == ()
    assert result.approved and set(result.tokens) == {"GENERATOR", "CRITIC", "ADJUDICATOR"}
