"""The whole loop with scripted models: node chain and final state captured from one stream run."""

from __future__ import annotations

from typing import Any

from docbot import events
from docbot.loop.graph import build_graph
from docbot.loop.runner import stream_loop
from docbot.loop.scoring import GENERIC_FIX
from docbot.loop.state import new_state
from docbot.settings import Settings
from docbot.verify import Finding
from tests.support.events import CollectingSink
from tests.support.fakes import critique, doc, scripted_models

ROUND = ["truth_check", "critic", "router"]


def no_findings(doc_text: str, source: str, qualname: str, examples: Any) -> list[Finding]:
    return []


def run(models: Any, settings: Settings | None = None, checker: Any = no_findings,
        facts: str = "") -> tuple[dict, list[str], list]:
    settings = settings or Settings()
    sink = CollectingSink()
    start = new_state("f", "m", "def f(x):\n    return x\n", facts, None)
    final, chain = stream_loop(build_graph(models, settings, checker), start, settings, sink)
    return final, chain, sink.events


def test_approved_in_round_one() -> None:
    models = scripted_models([doc("f", "v1")], [critique(96, 95)], [doc("f", "final")])
    final, chain, _ = run(models)
    assert chain == ["draft", *ROUND, "adjudicate"]
    assert final["exit_reason"] == "approved"
    assert [t["score"] for t in final["trajectory"]] == [96]  # 95.5 rounds half up
    assert final["final_markdown"] == doc("f", "final")
    assert final["best_draft"] == doc("f", "v1")


def test_improves_then_approves() -> None:
    models = scripted_models([doc("f", "v1"), doc("f", "v2"), doc("f", "v3")],
                             [critique(70, 74), critique(85, 85), critique(96, 96)], [doc("f", "done")])
    final, chain, emitted = run(models)
    assert chain == ["draft", *ROUND, "revise", *ROUND, "revise", *ROUND, "adjudicate"]
    assert [t["score"] for t in final["trajectory"]] == [72, 85, 96]
    assert final["exit_reason"] == "approved" and final["revise_count"] == 2
    routes = [e.reason for e in emitted if isinstance(e, events.RouteEvent)]
    assert routes == ["below the bar", "below the bar", "approved"]
    reviser_prompt = models.generator.seen[1][-1].content
    assert "scored 72/100" in reviser_prompt and "v1" in reviser_prompt  # previous score and draft go in
    assert "v1" not in models.generator.seen[2][-1].content  # only the current draft: no growing prompt


def test_regression_keeps_the_best_draft() -> None:
    models = scripted_models([doc("f", "good draft"), doc("f", "worse draft")],
                             [critique(80, 80), critique(70, 70)], [doc("f", "adjudicated")])
    final, chain, _ = run(models)
    assert chain == ["draft", *ROUND, "revise", *ROUND, "adjudicate"]
    assert final["exit_reason"] == "regression"
    assert final["best_draft"] == doc("f", "good draft") and final["best_score"] == 80
    adjudicator_prompt = models.adjudicator.seen[0][-1].content
    assert "good draft" in adjudicator_prompt and "worse draft" not in adjudicator_prompt


def test_attempts_exhausted_ends_the_loop() -> None:
    settings = Settings(max_attempts=2, quality_score_bar=100, stop_on_regression=False)
    models = scripted_models([doc("f", f"v{i}") for i in range(1, 4)],
                             [critique(50, 50), critique(40, 40), critique(60, 60)], [doc("f", "final")])
    final, chain, _ = run(models, settings)
    assert chain == ["draft", *ROUND, "revise", *ROUND, "revise", *ROUND, "adjudicate"]
    assert final["exit_reason"] == "attempts"
    assert final["best_draft"] == doc("f", "v3")  # 60 beat the 50 of v1


def test_three_unparseable_critiques_never_approve() -> None:
    garbage = ["I think this is great, 100/100!", '{"technical_accuracy": 150, "completeness": 99}',
               '{"verdict": "pass"}']
    models = scripted_models([doc("f", "v1"), doc("f", "v2")], garbage * 2, [doc("f", "final")])
    final, chain, emitted = run(models, Settings(max_attempts=1))
    assert [t["score"] for t in final["trajectory"]] == [0, 0]
    assert [t["parsed"] for t in final["trajectory"]] == [False, False]
    assert final["trajectory"][0]["issues"] == ["evaluation could not be parsed"]
    assert len(models.critic.seen) == 6  # three tries per round
    assert "could not be used" in models.critic.seen[1][-1].content  # the retry says what went wrong
    assert final["exit_reason"] == "attempts"
    assert len([e for e in emitted if e.kind is events.EventKind.WARNING]) == 6


def test_truth_check_blocks_approval_the_critic_gave() -> None:
    def wrong_example(doc_text: str, source: str, qualname: str, examples: Any) -> list[Finding]:
        if "0.6" in doc_text:
            return [Finding("example_mismatch", "the example prints 0.5, the doc says 0.6")]
        return []

    models = scripted_models([doc("f", ">>> f(0.5)\n0.6"), doc("f", ">>> f(0.5)\n0.5")],
                             [critique(99, 99), critique(99, 99)], [doc("f", ">>> f(0.5)\n0.5")])
    final, chain, _ = run(models, checker=wrong_example)
    assert chain == ["draft", *ROUND, "revise", *ROUND, "adjudicate"]
    assert final["trajectory"][0]["fatal_issues"] == ["the example prints 0.5, the doc says 0.6"]
    assert "the example prints 0.5, the doc says 0.6" in models.generator.seen[1][-1].content  # evidence handed over
    assert final["exit_reason"] == "approved" and final["final_fatal"] == []


def test_fatal_issues_with_attempts_reached_ship_the_issues() -> None:
    def always_wrong(doc_text: str, source: str, qualname: str, examples: Any) -> list[Finding]:
        return [Finding("invented_parameter", "documents parameter `y`, which f does not have")]

    models = scripted_models([doc("f", "v1"), doc("f", "v2")], [critique(99, 99)] * 2, [doc("f", "final")])
    final, _, _ = run(models, Settings(max_attempts=1), checker=always_wrong)
    assert final["exit_reason"] == "attempts"
    assert final["best_draft"] == ""  # no clean draft ever existed
    assert final["final_fatal"] == ["documents parameter `y`, which f does not have"]


def test_adjudicator_that_introduces_a_fatal_issue_is_not_shipped() -> None:
    def flags_invented(doc_text: str, source: str, qualname: str, examples: Any) -> list[Finding]:
        return [Finding("invented_parameter", "invented `verbose`")] if "verbose" in doc_text else []

    models = scripted_models([doc("f", "clean")], [critique(97, 97)], [doc("f", "now with `verbose`")])
    final, _, emitted = run(models, checker=flags_invented)
    assert final["final_markdown"] == doc("f", "clean")
    assert final["final_fatal"] == []
    assert any("adjudicator introduced" in e.message for e in emitted if e.kind is events.EventKind.WARNING)


def test_model_verdict_fail_at_97_is_overruled_with_a_warning() -> None:
    models = scripted_models([doc("f")], [critique(97, 97, verdict="fail")], [doc("f", "final")])
    final, _, emitted = run(models)
    assert final["exit_reason"] == "approved"
    warnings = [e.message for e in emitted if e.kind is events.EventKind.WARNING]
    assert warnings == ["round 1: the critic's verdict 'fail' overruled: score 97 vs bar 95, "
                        "0 fatal issue(s) -> pass"]


def test_degenerate_fix_reaches_the_reviser_as_the_generic_fix() -> None:
    models = scripted_models([doc("f", "v1"), doc("f", "v2")],
                             [critique(60, 60, fix="../" * 100), critique(97, 97)], [doc("f", "final")])
    final, _, _ = run(models)
    assert final["trajectory"][0]["critical_fix"] == GENERIC_FIX
    assert GENERIC_FIX in models.generator.seen[1][-1].content
    assert "../../" not in models.generator.seen[1][-1].content


def test_output_is_cleaned_and_calls_are_counted() -> None:
    chatty = "Sure! Here you go:\n\n## `f`\n\nBody.\n\nI hope this helps!\nLet me know!"
    models = scripted_models([chatty], [critique(96, 96)], ["<think>hmm</think>\n" + chatty])
    final, _, _ = run(models)
    assert final["final_markdown"] == "## `f`\n\nBody.\n"
    assert [c["role"] for c in final["calls"]] == ["GENERATOR", "CRITIC", "ADJUDICATOR"]
    assert all(c["tokens_in"] > 0 and c["tokens_out"] > 0 for c in final["calls"])
    assert final["trajectory"][0]["calls"][0]["role"] == "GENERATOR"


def test_a_critique_cut_off_at_the_token_limit_is_not_trusted() -> None:
    # The parser can complete truncated JSON; a cut-off 99/99 must still not count.
    models = scripted_models([doc("f", "v1")], [critique(99, 99), critique(97, 96)], [doc("f", "final")])
    models.critic.cut_off.add(0)
    final, _, _ = run(models)
    assert final["trajectory"][0]["score"] == 97 and len(models.critic.seen) == 2
    assert "cut off at the token limit" in models.critic.seen[1][-1].content


def test_writer_gets_the_facts_and_critic_gets_the_schema_with_descriptions() -> None:
    facts = 'Raises: ValueError("x must be positive") when x <= 0'
    models = scripted_models([doc("f")], [critique(97, 97)], [doc("f")])
    run(models, facts=facts)
    assert facts in models.generator.seen[0][-1].content
    assert facts in models.critic.seen[0][-1].content
    schema = models.critic.seen_kwargs[0]["format"]  # what a server's grammar would enforce
    assert set(schema["required"]) >= {"technical_accuracy", "completeness"}
    assert "Start at 100" in schema["properties"]["technical_accuracy"]["description"]
    assert schema["properties"]["technical_accuracy"]["maximum"] == 100
    assert "critical_fix" in models.critic.seen[0][0].content  # the system prompt names the keys too
