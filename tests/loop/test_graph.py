"""The whole loop with scripted models: node chain and final state captured from one stream run."""

from __future__ import annotations

import json
from typing import Any

from docbot import events
from docbot.docmodel import LARGE, DocModel, doc_model_schema
from docbot.loop.bounds import writer_bounds
from docbot.facts.function import Facts, extract_facts
from docbot.loop.graph import build_graph
from docbot.loop.runner import stream_loop
from docbot.loop.scoring import GENERIC_FIX
from docbot.loop.state import new_state
from docbot.apidocs.render import render_section
from docbot.config.settings import Role, Settings
from docbot.loop.truth import CodeContext
from docbot.verify.findings import Check, Finding
from docbot.verify.checks.model import check_model
from tests.support.docmodel_samples import FakeRunner
from tests.support.events import CollectingSink
from tests.support.fakes import claim, critique, doc, scripted_models

ROUND = ["truth_check", "critic", "router"]
END = ["adjudicate", "finish"]
SOURCE = "def f(x):\n    return x\n"
ALWAYS = Settings(adjudicate="always")  # most tests here follow the adjudicator's path


def no_findings(model: DocModel, facts: Facts, code: CodeContext) -> list[Finding]:
    return []


def exact(model: DocModel, facts: Facts, code: CodeContext) -> list[Finding]:
    """The real exact checks, with examples mentioning ``boom`` failing."""
    return check_model(model, facts, FakeRunner())


def run(models: Any, settings: Settings | None = None, checker: Any = no_findings,
        facts: str = "", current: str = "") -> tuple[dict, list[str], list]:
    settings = settings or ALWAYS
    sink = CollectingSink()
    start = new_state("f", "m", SOURCE, facts, None, current)
    final, chain = stream_loop(build_graph(models, settings, checker), start, settings, sink)
    return final, chain, sink.events


def page(summary: str, **fields: Any) -> str:
    return render_section(DocModel(summary=summary, **fields), extract_facts(SOURCE, "f"), "m")


def warnings(emitted: list) -> list[str]:
    return [e.message for e in emitted if e.kind is events.EventKind.WARNING]


def test_approved_in_round_one() -> None:
    models = scripted_models([doc("f", "v1")], [critique(96, 95)], [doc("f", "final")])
    final, chain, _ = run(models)
    assert chain == ["draft", *ROUND, *END]
    assert final["exit_reason"] == "approved" and final["approval"] == "approved"
    assert [t["score"] for t in final["trajectory"]] == [96]  # 95.5 rounds half up
    assert final["final_markdown"] == page("final") and final["final_model"]["summary"] == "final"
    assert final["best_model"]["summary"] == "v1" and final["repairs"] == []
    assert models.critic.seen[0][-1].content.endswith(page("v1"))  # the critic reads the rendered page


def test_improves_then_approves() -> None:
    models = scripted_models([doc("f", "v1"), doc("f", "v2"), doc("f", "v3")],
                             [critique(70, 74), critique(85, 85), critique(96, 96)], [doc("f", "done")])
    final, chain, emitted = run(models)
    assert chain == ["draft", *ROUND, "revise", *ROUND, "revise", *ROUND, *END]
    assert [t["score"] for t in final["trajectory"]] == [72, 85, 96]
    assert final["exit_reason"] == "approved" and final["revise_count"] == 2
    routes = [e.reason for e in emitted if isinstance(e, events.RouteEvent)]
    assert routes == ["below the bar", "below the bar", "approved"]
    reviser_prompt = models.generator.seen[1][-1].content
    assert "scored 72/100" in reviser_prompt and '"summary":"v1"' in reviser_prompt  # previous model as JSON
    assert "v1" not in models.generator.seen[2][-1].content  # only the current draft: no growing prompt


def test_regression_keeps_the_best_model() -> None:
    models = scripted_models([doc("f", "good draft"), doc("f", "worse draft")],
                             [critique(80, 80), critique(70, 70)], [doc("f", "adjudicated")])
    final, chain, _ = run(models)
    assert chain == ["draft", *ROUND, "revise", *ROUND, *END]
    assert final["exit_reason"] == "regression" and final["approval"] == "unapproved"
    assert final["best_model"]["summary"] == "good draft" and final["best_score"] == 80
    adjudicator_prompt = models.adjudicator.seen[0][-1].content
    assert "good draft" in adjudicator_prompt and "worse draft" not in adjudicator_prompt


def test_attempts_exhausted_ends_the_loop() -> None:
    settings = Settings(max_attempts=2, quality_score_bar=100, stop_on_regression=False)
    models = scripted_models([doc("f", f"v{i}") for i in range(1, 4)],
                             [critique(50, 50), critique(40, 40), critique(60, 60)], [doc("f", "final")])
    final, chain, _ = run(models, settings)
    assert chain == ["draft", *ROUND, "revise", *ROUND, "revise", *ROUND, *END]
    assert final["exit_reason"] == "attempts"
    assert final["best_model"]["summary"] == "v3"  # 60 beat the 50 of v1


def test_three_unparseable_critiques_never_approve_and_reasks_are_short() -> None:
    rambling = "I think this is great, 100/100! " * 40
    garbage = [rambling, '{"technical_accuracy": 150, "completeness": 99}', '{"verdict": "pass"}']
    models = scripted_models([doc("f", "v1"), doc("f", "v2")], garbage * 2, [doc("f", "final")])
    final, chain, emitted = run(models, Settings(max_attempts=1))
    assert [t["score"] for t in final["trajectory"]] == [0, 0]
    assert [t["parsed"] for t in final["trajectory"]] == [False, False]
    assert final["trajectory"][0]["issues"] == ["evaluation could not be parsed"]
    assert len(models.critic.seen) == 6  # three tries per round
    reask = models.critic.seen[1]
    assert "could not be used" in reask[-1].content and "I think this is great" in reask[-1].content
    assert rambling.strip() not in "".join(str(m.content) for m in reask)  # an excerpt, not the whole answer
    assert len(reask) == len(models.critic.seen[0]) + 1  # the request plus one short follow-up
    assert final["exit_reason"] == "attempts" and final["approval"] == "unapproved"
    assert len([w for w in warnings(emitted) if "critique" in w]) == 6


def test_an_unparseable_doc_model_is_asked_again_with_an_excerpt() -> None:
    rambling = "Sure! The function f returns x. " * 30
    models = scripted_models([rambling, doc("f", "v1")], [critique(97, 97)], [doc("f", "final")])
    final, _, emitted = run(models)
    assert final["approval"] == "approved" and len(models.generator.seen) == 2
    reask = models.generator.seen[1][-1].content
    assert "could not be used" in reask and "Sure! The function f returns x." in reask
    assert len(reask) < len(rambling)
    assert any("doc model 1/3 could not be parsed" in w for w in warnings(emitted))


def test_a_writer_that_never_answers_a_doc_model_ships_nothing() -> None:
    models = scripted_models(["no json"] * 6, [], [])
    final, chain, _ = run(models, Settings(max_attempts=1))
    assert chain == ["draft", *ROUND, "revise", *ROUND, *END]
    assert models.critic.seen == [] and models.adjudicator.seen == []  # nothing to read, nothing to edit
    assert final["final_model"] is None and final["final_markdown"] == ""


def test_truth_check_blocks_approval_the_critic_gave() -> None:
    wrong = doc("f", "v1", examples=[{"code": "boom()", "output": "1"}])
    models = scripted_models([wrong, doc("f", "v2")], [critique(99, 99), critique(99, 99)], [doc("f", "v2")])
    final, chain, _ = run(models, checker=exact)
    assert chain == ["draft", *ROUND, "revise", *ROUND, *END]
    assert final["trajectory"][0]["fatal_issues"] == ["example 1 fails when run: boom() raised RuntimeError: boom"]
    assert "boom() raised RuntimeError" in models.generator.seen[1][-1].content  # evidence handed over
    assert final["exit_reason"] == "approved" and final["final_fatal"] == []


def test_gaps_are_not_fatal_in_the_truth_check_and_reach_the_reviser() -> None:
    gap = Finding(Check.MISSING_PARAMETER, "parameter x is not documented", "", "signature: f(x)",
                  where="parameters")
    models = scripted_models([doc("f", "v1"), doc("f", "v2")], [critique(60, 60), critique(97, 97)],
                             [doc("f", "final")])
    final, _, emitted = run(models, checker=lambda *_: [gap])
    assert final["trajectory"][0]["fatal_issues"] == [] and final["gaps"] == ["parameter x is not documented: "
                                                                              "signature: f(x)"]
    assert "parameter x is not documented" in models.generator.seen[1][-1].content
    assert not [e for e in emitted if e.kind is events.EventKind.INFO]  # no "fatal issues found" event
    assert final["exit_reason"] == "approved" and final["approval"] == "approved"


def test_contradictions_left_at_the_end_are_repaired_and_ship_unapproved() -> None:
    invented = doc("f", "v", parameters=[{"name": "x", "description": "the value"},
                                         {"name": "y", "description": "invented"}])
    models = scripted_models([invented, invented], [critique(99, 99)] * 2, [invented])
    final, _, _ = run(models, Settings(max_attempts=1), checker=exact)
    assert final["exit_reason"] == "attempts" and final["best_model"] is None  # no clean draft ever existed
    assert final["approval"] == "unapproved"
    assert [p["name"] for p in final["final_model"]["parameters"]] == ["x"]
    assert final["repairs"] == ["dropped parameter 'y': not in def f(x)"]
    assert final["final_fatal"] == []  # repair removed the only contradiction
    assert "invented" not in final["final_markdown"]


def test_adjudicator_that_introduces_a_contradiction_is_not_shipped() -> None:
    models = scripted_models([doc("f", "clean")], [critique(97, 97)],
                             [doc("f", "adjudicated", parameters=[{"name": "verbose", "description": "?"}])])
    final, _, emitted = run(models, checker=exact)
    assert final["final_model"]["summary"] == "clean" and final["approval"] == "approved"
    assert final["final_fatal"] == []
    assert any("adjudicator introduced" in w for w in warnings(emitted))


def test_an_empty_adjudicator_answer_never_replaces_the_best_draft() -> None:
    for answer in [json.dumps({"summary": ""}), json.dumps({"summary": "   ", "notes": "x"})]:
        models = scripted_models([doc("f", "best")], [critique(97, 97)], [answer])
        final, _, emitted = run(models)
        assert final["final_model"]["summary"] == "best", answer
        assert any("no usable doc model" in w for w in warnings(emitted))


def test_an_unparseable_adjudicator_answer_ships_the_best_draft() -> None:
    models = scripted_models([doc("f", "best")], [critique(97, 97)], ["## f\nnot json"] * 3)
    final, _, _ = run(models)
    assert final["final_model"]["summary"] == "best" and final["approval"] == "approved"


def test_an_adjudication_keeping_the_same_contradiction_is_kept_and_repaired() -> None:
    def with_y(summary: str) -> str:
        return doc("f", summary, parameters=[{"name": "y", "description": "invented"}])

    models = scripted_models([with_y("v1"), with_y("v2")], [critique(99, 99)] * 2, [with_y("adjudicated")])
    final, _, emitted = run(models, Settings(max_attempts=1), checker=exact)
    assert final["final_model"]["summary"] == "adjudicated"  # it introduced nothing new: kept
    assert final["final_model"]["parameters"] == [] and final["approval"] == "unapproved"
    assert not any("adjudicator" in w for w in warnings(emitted))


def test_the_critics_pass_verdict_is_not_obeyed() -> None:
    models = scripted_models([doc("f", "v1"), doc("f", "v2")], [critique(50, 50, verdict="pass"), critique(97, 97)],
                             [doc("f", "final")])
    final, chain, emitted = run(models)
    assert chain == ["draft", *ROUND, "revise", *ROUND, *END]
    assert final["trajectory"][0]["score"] == 50
    assert [e.decision for e in emitted if isinstance(e, events.RouteEvent)] == ["revise", "adjudicate"]
    assert "round 1: the critic's verdict 'pass' overruled: score 50 vs bar 95, 0 fatal issue(s) -> fail" in \
        warnings(emitted)


def test_model_verdict_fail_at_97_is_overruled_with_a_warning() -> None:
    models = scripted_models([doc("f")], [critique(97, 97, verdict="fail")], [doc("f", "final")])
    final, _, emitted = run(models)
    assert final["exit_reason"] == "approved"
    assert warnings(emitted) == ["round 1: the critic's verdict 'fail' overruled: score 97 vs bar 95, "
                                 "0 fatal issue(s) -> pass"]


def test_a_fatal_claim_quoting_the_page_blocks_approval() -> None:
    models = scripted_models([doc("f", "Returns the input doubled."), doc("f", "Returns x.")],
                             [critique(97, 97, fatal=[claim("the input doubled", "it returns x")]), critique(97, 97)],
                             [doc("f", "Returns x.")])
    final, chain, _ = run(models)
    assert chain == ["draft", *ROUND, "revise", *ROUND, *END]
    assert final["trajectory"][0]["fatal_issues"] == ['"the input doubled": it returns x']
    assert '"the input doubled": it returns x' in models.generator.seen[1][-1].content


def test_a_fatal_claim_quoting_nothing_on_the_page_never_blocks() -> None:
    models = scripted_models([doc("f", "Returns x.")],
                             [critique(97, 97, fatal=[claim("raises KeyError"), "the example output is wrong"])],
                             [doc("f", "Returns x.")])
    final, chain, emitted = run(models)
    assert chain == ["draft", *ROUND, *END] and final["approval"] == "approved"
    assert final["trajectory"][0]["fatal_issues"] == []
    assert final["trajectory"][0]["issues"] == ['"raises KeyError": this is false', "the example output is wrong"]
    assert any("2 fatal claim(s) of the critic quote nothing" in w for w in warnings(emitted))


def test_adjudicate_when_needed_skips_a_clean_first_round() -> None:
    settings = Settings(adjudicate="when_needed")
    models = scripted_models([doc("f", "v1")], [critique(97, 97)], [])
    final, chain, _ = run(models, settings)
    assert chain == ["draft", *ROUND, "finish"] and models.adjudicator.seen == []
    assert final["final_model"]["summary"] == "v1" and final["approval"] == "approved"
    models = scripted_models([doc("f", "v1")], [critique(97, 97, issues=["say more"])], [doc("f", "final")])
    _, chain, _ = run(models, settings)
    assert chain == ["draft", *ROUND, *END]  # a concern is left: the adjudicator is asked
    models = scripted_models([doc("f", "v1")], [critique(97, 97)], [doc("f", "final")])
    assert run(models, ALWAYS)[1] == ["draft", *ROUND, *END]  # always (the seed's loop) asks it
    models = scripted_models([doc("f", "v1")], [critique(97, 97)], [])
    final, chain, _ = run(models, Settings())
    assert chain == ["draft", *ROUND, "finish"]  # when_needed is the default: a clean first draft, 2 calls
    assert [c["role"] for c in final["calls"]] == ["GENERATOR", "CRITIC"]


def test_degenerate_fix_reaches_the_reviser_as_the_generic_fix() -> None:
    models = scripted_models([doc("f", "v1"), doc("f", "v2")],
                             [critique(60, 60, fix="../" * 100), critique(97, 97)], [doc("f", "final")])
    final, _, _ = run(models)
    assert final["trajectory"][0]["critical_fix"] == GENERIC_FIX
    assert GENERIC_FIX in models.generator.seen[1][-1].content
    assert "../../" not in models.generator.seen[1][-1].content


def test_output_is_tidied_and_calls_are_counted() -> None:
    chatty = "<think>hmm</think>\n" + doc("f", "Body.", description="Doubles.\n\nI hope this helps!")
    models = scripted_models([chatty], [critique(96, 96)], [chatty])
    final, _, _ = run(models)
    assert final["final_model"]["description"] == "Doubles."
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


def test_writers_get_the_facts_and_the_doc_model_schema_and_the_critic_its_own() -> None:
    facts = 'Raises: ValueError("x must be positive") when x <= 0'
    models = scripted_models([doc("f")], [critique(97, 97)], [doc("f")])
    run(models, facts=facts)
    assert facts in models.generator.seen[0][-1].content
    assert facts in models.critic.seen[0][-1].content
    # the plain schema, for grammars, bounded for this function (1 parameter) and a server's writer
    bounds = writer_bounds(extract_facts(SOURCE, "f"), ALWAYS, Role.GENERATOR)
    assert bounds.parameters == 1 and bounds.paragraph == LARGE.paragraph
    assert models.generator.seen_kwargs[0]["format"] == doc_model_schema(bounds)
    assert models.adjudicator.seen_kwargs[0]["format"] == doc_model_schema(bounds)
    schema = models.critic.seen_kwargs[0]["format"]  # what a server's grammar would enforce
    assert set(schema["required"]) >= {"technical_accuracy", "completeness"}
    assert "Start at 100" in schema["properties"]["technical_accuracy"]["description"]
    assert schema["properties"]["technical_accuracy"]["maximum"] == 100
    assert "critical_fix" in models.critic.seen[0][0].content  # the system prompt names the keys too


def test_the_current_section_is_the_writers_starting_point() -> None:
    edited = page("Returns x unchanged. (A person wrote this line.)", notes="Mind *x*_value & y.")
    models = scripted_models([doc("f")], [critique(97, 97)], [doc("f")])
    run(models, current=edited)
    prompt = models.generator.seen[0][-1].content
    assert "(A person wrote this line.)" in prompt and "keep every" in prompt
    assert "Mind x_value & y." in prompt and "<a id" not in prompt  # readable text, not the page's markup
    models = scripted_models([doc("f")], [critique(97, 97)], [doc("f")])
    run(models)
    assert "as it stands now" not in models.generator.seen[0][-1].content  # no section: nothing to keep


def test_the_reviser_receives_the_critics_own_fix_not_the_generic_one() -> None:
    fix = "Say that x is returned unchanged."
    models = scripted_models([doc("f", "v1"), doc("f", "v2")], [critique(60, 60, fix=fix), critique(97, 97)],
                             [doc("f", "final")])
    run(models)
    reviser_prompt = models.generator.seen[1][-1].content
    assert fix in reviser_prompt and GENERIC_FIX not in reviser_prompt


def _invented(summary: str) -> str:
    return doc("f", summary, parameters=[{"name": "x", "description": "the value"},
                                         {"name": "y", "description": "invented"}])


def test_a_last_round_that_does_not_parse_ships_the_best_earlier_draft() -> None:
    """The issue's run: scores 0, 18, 18, 0 and a last round with no doc model. No draft was clean, so the best
    of any round ships, repaired and unapproved, instead of the function failing with nothing written."""
    unparsable = ["## f\nnot json"] * 3  # every parse attempt of the round
    models = scripted_models(["nope"] * 3 + [_invented("second"), _invented("third")] + unparsable,
                             [critique(18, 18), critique(17, 19)], [doc("f", "adjudicated", parameters=[
                                 {"name": "z", "description": "also invented"}])])
    final, _, _ = run(models, Settings(max_attempts=3, adjudicate="always", stop_on_regression=False),
                      checker=exact)
    assert [t["score"] for t in final["trajectory"]] == [0, 18, 18, 0]
    assert final["model"] is None and final["best_model"] is None  # the last round had none; none was clean
    assert final["final_model"]["summary"] == "third"  # a tie: the later, revised draft
    assert final["approval"] == "unapproved" and final["repairs"] == ["dropped parameter 'y': not in def f(x)"]
    assert "adjudicator introduced" in " ".join(final["warnings"])  # its z was new: the base shipped
    assert '"summary":"third"' in models.adjudicator.seen[0][-1].text  # the adjudicator edited that one too


def test_the_adjudicator_edits_the_best_draft_of_any_round_when_none_was_clean() -> None:
    models = scripted_models([_invented("first"), "## not json"] + ["## not json"] * 2,
                             [critique(40, 40)], [_invented("adjudicated")])
    final, _, _ = run(models, Settings(max_attempts=1, adjudicate="always"), checker=exact)
    assert '"summary":"first"' in models.adjudicator.seen[0][-1].text  # not the unparsed last round
    assert final["final_model"]["summary"] == "adjudicated" and final["approval"] == "unapproved"
