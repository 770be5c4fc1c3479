"""Prompts that fit (docs/design.md#fit): each request is measured before it is sent, a reduced one goes out
when the full one would not fit, and a function whose reduced prompt still does not fit fails naming the setting."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from docbot.errors import PromptTooLarge
from docbot.loop import fit
from docbot.loop.graph import build_graph
from docbot.loop.runner import documenter_for, stream_loop
from docbot.loop.state import new_state
from docbot.config.settings import Role, RoleModel, Settings
from docbot.results import Outcome, Status, Target
from tests.support.events import CollectingSink
from tests.support.fakes import critique, doc, scripted_models

REDUCE_CASES = [
    # (name, source, lines kept, lines left out)
    ("a long body keeps its signature, docstring, raises and returns",
     'def f(a,\n      b=1):\n    """Doc."""\n    x = a\n    y = b\n    if x:\n        raise ValueError("no x")\n'
     '    z = 3\n    return x + y\n',
     ["def f(a,", "      b=1):", '    """Doc."""', '        raise ValueError("no x")', "    return x + y"],
     ["x = a", "y = b", "z = 3", "if x:"]),
    ("decorators are part of the signature", "@cache\n@other(1)\ndef f():\n    a = 1\n    return a\n",
     ["@cache", "@other(1)", "def f():", "    return a"], ["a = 1"]),
    ("a nested function's return is its own", "def f():\n    def g():\n        return 1\n    return g\n",
     ["def f():", "    return g"], ["return 1"]),
    ("a method's text keeps its indentation", "    def m(self):\n        q = 1\n        return q\n",
     ["def m(self):", "    return q"], ["q = 1"]),
]


@pytest.mark.parametrize(("name", "source", "kept", "dropped"), REDUCE_CASES, ids=[c[0] for c in REDUCE_CASES])
def test_the_reduced_source_keeps_what_the_checks_hold_a_doc_to(name: str, source: str, kept: list[str],
                                                                 dropped: list[str]) -> None:
    qualname = "C.m" if "self" in source else "f"
    reduced = fit.reduced_source(source, qualname).splitlines()
    assert [line for line in kept if line not in reduced] == [], name
    assert [line for line in dropped if any(line in r for r in reduced)] == [], name
    assert fit.GAP in "\n".join(reduced)


def test_a_source_that_does_not_parse_is_sent_as_it_is() -> None:
    assert fit.reduced_source("def f(:\n  pass\n", "f") == "def f(:\n  pass\n"


def test_the_characters_bound_counts_every_message_and_its_markers() -> None:
    messages: list[BaseMessage] = [SystemMessage("x" * 10), HumanMessage("y" * 11)]
    assert fit.estimate(messages, 2.5) == 4 + 8 + 5 + 8  # ceil(10/2.5), ceil(11/2.5), a template's 8 each


def test_a_model_s_own_tokenizer_is_asked_where_it_has_one() -> None:
    class Counting:
        def count_prompt_tokens(self, messages: list[BaseMessage]) -> int:
            return 7

    settings = Settings()
    assert fit.counter_for(Counting(), settings)([HumanMessage("z" * 1000)]) == 7
    assert fit.counter_for(object(), settings)([HumanMessage("z" * 1000)]) == 400 + 8


def test_a_tokenizer_that_cannot_answer_falls_back_to_the_characters_bound() -> None:
    class Silent:  # xllamacpp's binding: a counter exists but has no tokenizer behind it
        def count_prompt_tokens(self, messages: list[BaseMessage]) -> None:
            return None

    assert fit.counter_for(Silent(), Settings())([HumanMessage("z" * 1000)]) == 400 + 8


def _build(source: str) -> list[BaseMessage]:
    return [SystemMessage("Document it."), HumanMessage(f"Source:\n{source}")]


BIG = "def f(x):\n" + "".join(f"    v{i} = x + {i}\n" for i in range(400)) + "    raise ValueError('bad x')\n"


@pytest.mark.parametrize(("num_ctx", "max_tokens", "outcome"), [
    (16_384, 1024, "full"),  # 400 lines fit
    (2048, 1024, "reduced"),  # they do not; the signature and the raise do
    (1024, 740, "too large"),  # not even those, once the answer's 740 tokens and a re-ask are kept free
])
def test_a_prompt_is_sent_whole_reduced_or_not_at_all(num_ctx: int, max_tokens: int, outcome: str) -> None:
    limit = fit.Budget(Role.GENERATOR, num_ctx, max_tokens)
    count = fit.counter_for(object(), Settings())
    if outcome == "too large":
        with pytest.raises(PromptTooLarge, match=r"raise num_ctx \(or model_registry.GENERATOR.num_ctx\) to at least"):
            fit.fitted(_build, BIG, "f", limit, count, "draft")
        return
    got = fit.fitted(_build, BIG, "f", limit, count, "draft")
    assert got.tokens <= limit.prompt
    assert ("v399 = x + 399" in got.messages[-1].text) is (outcome == "full")
    assert "raise ValueError('bad x')" in got.messages[-1].text
    assert bool(got.warning) is (outcome == "reduced")
    if got.warning:
        assert "sent a reduced prompt" in got.warning and "num_ctx 2048" in got.warning


def test_the_budget_leaves_the_answer_and_a_re_ask_their_room() -> None:
    assert fit.Budget(Role.CRITIC, 8192, 1024).prompt == 8192 - 1024 - fit.REASK_TOKENS


def test_each_role_s_budget_is_its_own() -> None:
    settings = Settings(num_ctx=4096, max_tokens=512, model_registry={
        "GENERATOR": RoleModel(model="g", num_ctx=32_768, max_tokens=4096), "CRITIC": RoleModel(model="c"),
        "ADJUDICATOR": RoleModel(model="a", max_tokens=2048)})
    assert [(b.num_ctx, b.max_tokens) for b in (fit.budget(settings, r) for r in Role)] == [
        (32_768, 4096), (4096, 512), (4096, 2048)]


def _loop(settings: Settings, models: Any) -> tuple[dict[str, Any], list[Any]]:
    sink = CollectingSink()
    start = new_state("f", "m", BIG, "Raises: ValueError('bad x')", None)
    final, _ = stream_loop(build_graph(models, settings, lambda *_: []), start, settings, sink)
    return final, sink.events


def test_the_loop_sends_every_role_the_reduced_prompt_and_says_so() -> None:
    settings = Settings(num_ctx=2048, max_tokens=1024, adjudicate="always")
    models = scripted_models([doc("f", "v1")], [critique(97, 97)], [doc("f", "final")])
    final, emitted = _loop(settings, models)
    for model in (models.generator, models.critic, models.adjudicator):
        sent = model.seen[0]
        assert "v399" not in sent[-1].text and "raise ValueError('bad x')" in sent[-1].text
        assert fit.estimate(sent, settings.chars_per_token) <= fit.budget(settings, Role.GENERATOR).prompt
    reduced = [w for w in final["warnings"] if "sent a reduced prompt" in w]
    assert len(reduced) == 3 and {w.split(" prompt ")[0] for w in reduced} == {
        "the draft", "the critique", "the adjudication"}
    assert sum("sent a reduced prompt" in getattr(e, "message", "") for e in emitted) == 3


def test_a_function_whose_reduced_prompt_does_not_fit_fails_alone_naming_the_setting(tmp_path: Path) -> None:
    settings = Settings(num_ctx=600, max_tokens=300)
    models = scripted_models([], [], [])  # nothing may be sent
    document = documenter_for(models, settings, tmp_path, CollectingSink())
    result = document(Target("m", "f", "m.py", 1, 402, "added", BIG))
    assert result.status is Status.FAILED and result.outcome is Outcome.FAILED
    assert "num_ctx" in result.reason and "reduced" in result.reason
    assert models.generator.seen == []
