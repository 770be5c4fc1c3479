"""The main job at real size (docs/design.md#bounds): long functions documented whole through the path a
grammar-bound writer answers through. A scripted writer answers, the loop sends it the schema it sends any
writer, and llama.cpp's own grammar, compiled from that schema, must accept the answer token by token
(tests/support/grammar.py); the shipped doc must document every parameter."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from docbot.docmodel import LARGE, SMALL, doc_model_schema
from docbot.facts.function import extract_facts
from docbot.loop.bounds import bounds_for, writer_bounds
from docbot.loop.graph import build_graph
from docbot.loop.runner import stream_loop
from docbot.loop.state import new_state
from docbot.loop.truth import CodeContext
from docbot.config.settings import Role, Settings
from docbot.verify.checks.model import check_model
from tests.support.docmodel_samples import FakeRunner
from tests.support.events import CollectingSink
from tests.support.fakes import critique, scripted_models
from tests.support.grammar import grammar_verdicts
from tests.support.real_docs import REAL, RealFunction, answer, facts_of

pytest_plugins = ["tests.support.fixtures"]  # smollm_path: the bundled SmolLM2 GGUF (its vocabulary only here)

WIDE_PARAMS = [f"p{i}" for i in range(30)]
WIDE = RealFunction("wide", "def wide(" + ", ".join(WIDE_PARAMS) + "):\n    return p0\n",
                    {p: f"The {p} input: " + "what it means and which values it takes. " * 11 for p in WIDE_PARAMS},
                    "Combine thirty inputs into one value.", ["A paragraph a caller needs. " * 22] * 6)


def _exact(model: Any, facts: Any, code: CodeContext) -> list[Any]:
    return check_model(model, facts, FakeRunner())


def _document(real: RealFunction, settings: Settings) -> tuple[dict[str, Any], dict[str, Any], str]:
    """Run the loop with a writer answering from the real docs; (final state, the schema sent, the answer)."""
    facts = facts_of(real)
    text = json.dumps(answer(real, facts, writer_bounds(facts, settings, Role.GENERATOR)))
    models = scripted_models([text], [critique(97, 97)], [])
    start = new_state(real.qualname, "m", real.source, facts.to_prompt(), None)
    final, _ = stream_loop(build_graph(models, settings, _exact), start, settings, CollectingSink())
    return final, models.generator.seen_kwargs[0]["format"], text


SERVER = Settings(backend="ollama", num_ctx=32_768, max_tokens=4096)  # a 7-9B writer's long context


@pytest.fixture(scope="module")
def documented() -> dict[str, tuple[dict[str, Any], dict[str, Any], str]]:
    return {name: _document(real(), SERVER) for name, real in REAL.items()} | {"wide": _document(WIDE, SERVER)}


@pytest.mark.parametrize("name", [*REAL, "wide"])
def test_a_long_function_is_documented_whole_and_approved(
        documented: dict[str, tuple[dict[str, Any], dict[str, Any], str]], name: str) -> None:
    final, schema, text = documented[name]
    real = WIDE if name == "wide" else REAL[name]()
    wanted = [p.name for p in facts_of(real).documentable_parameters]
    shipped = [p["name"] for p in final["final_model"]["parameters"]]
    assert [p for p in wanted if p not in shipped] == [] and final["approval"] == "approved", name
    assert list(Draft202012Validator(schema).iter_errors(json.loads(text))) == []  # the schema the loop sent takes it
    assert final["repairs"] == [] and final["final_fatal"] == []


def test_the_old_bounds_could_not_take_them() -> None:
    """The control: SmolLM2's 12 parameters and 600 characters for every writer, as before this issue."""
    old = doc_model_schema(SMALL)
    for real in (REAL["subprocess.Popen"](), WIDE):
        doc = answer(real, facts_of(real), LARGE)
        assert any("is too long" in e.message for e in Draft202012Validator(old).iter_errors(doc)), real.qualname


def test_llama_cpp_s_own_grammar_accepts_every_answer_and_refuses_one_over(
        documented: dict[str, tuple[dict[str, Any], dict[str, Any], str]], smollm_path: Path) -> None:
    cases = [(schema, text) for schema, text in ((d[1], d[2]) for d in documented.values())]
    wide_schema, wide_text = documented["wide"][1], documented["wide"][2]
    wide = json.loads(wide_text)
    one_more = {**wide, "parameters": [*wide["parameters"], {"name": "p30", "description": "x"}]}
    long_paragraph = {**wide, "description": ["d" * (LARGE.paragraph + 1)]}
    biggest = {**wide, "description": ["d" * LARGE.paragraph] * LARGE.paragraphs,  # every bound at its maximum
               "parameters": [{"name": p, "description": "x" * LARGE.parameter_description} for p in WIDE_PARAMS],
               "examples": [{"code": "c" * LARGE.example_code, "output": "o" * LARGE.example_output}] * 3,
               "notes": "n" * LARGE.notes, "returns": "r" * LARGE.returns}
    cases += [(wide_schema, json.dumps(biggest)), (wide_schema, json.dumps(one_more)),
              (wide_schema, json.dumps(long_paragraph)), (wide_schema, wide_text[:-1])]
    verdicts = grammar_verdicts(smollm_path, cases)
    assert verdicts[: len(documented) + 1] == ["accepted"] * (len(documented) + 1), verdicts
    assert verdicts[-3].startswith("rejected") and verdicts[-2].startswith("rejected"), verdicts  # the controls
    assert verdicts[-1] == "incomplete"


def test_the_small_profile_s_whole_schema_for_30_parameters_compiles_too(smollm_path: Path) -> None:
    bounds = bounds_for(extract_facts(WIDE.source, "wide"), SMALL, 3)
    doc = answer(WIDE, facts_of(WIDE), bounds)
    assert grammar_verdicts(smollm_path, [(doc_model_schema(bounds), json.dumps(doc))]) == ["accepted"]
