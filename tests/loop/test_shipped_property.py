"""Done when: no doc docbot ships contains a contradiction its own checks detect.

A property over whole loop runs: any writer answers, any critic scores and claims, any adjudicator
answer, through the real graph and the real exact checks (examples judged by the fake runner). The
recorded SmolLM2 run is checked the same way, with its examples really run, in test_replay_real.py.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from docbot.docmodel import DocModel, Example, ParameterDoc, RaisesDoc
from docbot.facts.function import Facts
from docbot.loop.graph import build_graph
from docbot.loop.nodes import facts_of
from docbot.loop.runner import stream_loop
from docbot.loop.state import new_state
from docbot.apidocs.render import render_section
from docbot.config.settings import Settings
from docbot.verify.checks.examples import ExampleContext
from docbot.verify.findings import Finding
from docbot.verify.checks.model import check_model
from tests.support.docmodel_samples import DEPOSIT_SOURCE, FakeRunner
from tests.support.events import CollectingSink
from tests.support.fakes import critique, scripted_models

NAMES = st.sampled_from(["amount", "memo", "**tags", "colour", "self", "", "amount: float"])
TYPES = st.sampled_from(["ValueError", "MemoError", "KeyError", "AccountFrozen", "TypeError"])
MESSAGES = st.sampled_from(["", "amount must be positive", "amount must be > 0", "memo too long: 3 characters"])
CONDITIONS = st.sampled_from(["", "amount <= 0", "self.frozen", "sometimes"])
CODES = st.sampled_from(["print(1)", "boom()", "flaky()", "x = 2\nprint(x)"])
MODELS = st.builds(
    DocModel, summary=st.sampled_from(["Add money.", ""]),
    parameters=st.lists(st.builds(ParameterDoc, name=NAMES), max_size=4).map(tuple),
    raises=st.lists(st.builds(RaisesDoc, type=TYPES, message=MESSAGES, condition=CONDITIONS), max_size=4).map(tuple),
    examples=st.lists(st.builds(Example, code=CODES), max_size=3).map(tuple),
)
ANSWERS = st.one_of(MODELS.map(lambda m: m.model_dump_json()), st.just("not json"))
CRITIQUES = st.builds(lambda a, c, quote: critique(a, c, fatal=[{"quote": quote, "problem": "false"}] if quote else []),
                      st.integers(0, 100), st.integers(0, 100), st.sampled_from(["", "Add money", "invented text"]))


def exact(model: DocModel, facts: Facts, examples: ExampleContext | None) -> list[Finding]:
    return check_model(model, facts, FakeRunner())


@settings(max_examples=100, deadline=None, database=None)
@given(writer=st.lists(ANSWERS, min_size=9, max_size=9), critic=st.lists(CRITIQUES, min_size=3, max_size=3),
       adjudicator=st.lists(ANSWERS, min_size=3, max_size=3), when_needed=st.booleans())
def test_no_shipped_doc_contains_a_contradiction_its_checks_detect(writer: list[str], critic: list[str],
                                                                   adjudicator: list[str], when_needed: bool) -> None:
    loop = Settings(max_attempts=2, adjudicate="when_needed" if when_needed else "always")
    models = scripted_models(writer, critic, adjudicator)
    start = new_state("Account.deposit", "bank", DEPOSIT_SOURCE, "", None)
    final, _ = stream_loop(build_graph(models, loop, exact), start, loop, CollectingSink())
    if final["final_model"] is None:
        assert final["final_markdown"] == "" and final["approval"] == "unapproved"
        return
    shipped = DocModel.model_validate(final["final_model"])
    facts = facts_of(DEPOSIT_SOURCE, "Account.deposit")  # the facts the loop itself used
    assert [f for f in exact(shipped, facts, None) if f.fatal] == [], json.dumps(final["final_model"])
    assert final["final_markdown"] == render_section(shipped, facts, "bank")
    if final["approval"] == "approved":
        assert final["exit_reason"] == "approved" and final["repairs"] == [] and final["final_fatal"] == []
    else:
        assert final["approval"] == "unapproved"
