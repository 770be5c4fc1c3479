"""Issue 12 item 19: a reasoning block before the critic's JSON is not the JSON. The critique parses,
through the structured-output parser the scripted (and embedded) models use and through the node's
re-parse of a native answer (ChatOllama's) that failed on the block."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage

from docbot import events
from docbot.loop.state import Critique
from docbot.models.structured import parse_structured, strip_think, without_reasoning
from docbot.config.settings import Settings
from tests.support.fakes import critique, doc, scripted_models
from tests.loop.test_graph import run


@pytest.mark.parametrize("text, expected", [
    ("<think>a {b}</think>{}", "{}"),
    ("<THINK>\nx\n</THINK>\n{}", "\n{}"),
    ("<think>never closed {", ""),
    ("{} <think>x</think> {}", "{}  {}"),
    ("no block {}", "no block {}"),
])
def test_strip_think(text: str, expected: str) -> None:
    assert strip_think(text) == expected


def test_a_think_block_before_the_json_parses() -> None:
    reply = AIMessage("<think>Is it {\"good\"}? Let me see.</think>\n" + critique(96, 97))
    out = parse_structured(reply, Critique)
    assert out["parsing_error"] is None and out["parsed"].technical_accuracy == 96


def test_the_loop_takes_a_critique_after_reasoning_without_a_warning() -> None:
    models = scripted_models([doc("f", "v1")], ["<think>hmm {not json</think>" + critique(97, 96)],
                             [doc("f", "final")])
    final, _chain, emitted = run(models, Settings(max_attempts=1))
    assert final["trajectory"][0]["parsed"] is True and final["trajectory"][0]["score"] > 90
    assert [e for e in emitted if e.kind is events.EventKind.WARNING] == []
    assert len(models.critic.seen) == 1


def test_a_native_answer_that_failed_on_reasoning_is_parsed_again() -> None:
    raw = AIMessage("<think>\nreasoning\n</think>" + critique(90, 91))
    failed = {"raw": raw, "parsed": None, "parsing_error": ValueError("Invalid json output")}
    assert without_reasoning(failed, Critique)["parsed"].completeness == 91
    garbage = {"raw": AIMessage("no json at all"), "parsed": None, "parsing_error": ValueError("x")}
    assert without_reasoning(garbage, Critique) is garbage
