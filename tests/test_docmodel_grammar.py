"""The doc-model schema as a grammar: llama.cpp builds it, and SmolLM2-135M fills it completely."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from docbot.docmodel import PARAGRAPH_BREAK, SMALL, Bounds, DocModel, doc_model_schema, parse_doc_model
from docbot.loop.bounds import bounds_for
from docbot.models.embedded import EmbeddedChatModel
from tests.support.docmodel_samples import interest
from tests.support.smol import N_CTX

pytest_plugins = ["tests.support.fixtures"]  # smollm_path: fails, never skips, without llama-cpp-python


def test_llama_cpp_builds_a_grammar_from_the_schema(smollm_path: Path) -> None:
    from llama_cpp import LlamaGrammar

    bounded = LlamaGrammar.from_json_schema(json.dumps(doc_model_schema()), verbose=False)._grammar
    free = json.dumps(doc_model_schema()).replace('"maxLength"', '"x-max"').replace('"maxItems"', '"x-items"')
    unbounded = LlamaGrammar.from_json_schema(free, verbose=False)._grammar
    assert "summary" in bounded
    assert "(char (char" in bounded and "(char (char" not in unbounded  # the bounds became grammar rules
    assert len(bounded) < 100_000  # still a small grammar


def _within_bounds(model: DocModel, sent: Bounds) -> None:
    assert len(model.summary) <= sent.summary and len(model.returns) <= sent.returns
    assert len(model.notes) <= sent.notes
    paragraphs = model.description.split(PARAGRAPH_BREAK) if model.description else []
    assert len(paragraphs) <= sent.paragraphs and all(len(p) <= sent.paragraph for p in paragraphs)
    assert len(model.parameters) <= sent.parameters and len(model.raises) <= sent.raises
    assert len(model.examples) <= sent.examples


@pytest.mark.slow
def test_smollm2_with_the_grammar_answers_a_complete_doc_model(smollm_path: Path) -> None:
    """Without the schema's bounds this answer ran out of tokens mid-string (measured); with the bounds the loop
    sends the embedded writer for this function (SMALL's strings, lists as long as the function needs) it ends."""
    writer = EmbeddedChatModel(model_path=str(smollm_path), n_ctx=N_CTX, max_tokens=1200)
    messages = [SystemMessage("You document Python functions. Answer with JSON only."),
                HumanMessage("Document this function.\n" + interest().to_prompt())]
    sent = bounds_for(interest(), SMALL, 3)

    answer = writer.bind(format=doc_model_schema(sent)).invoke(messages)

    assert answer.response_metadata["finish_reason"] == "stop"
    model = parse_doc_model(answer.text)
    assert model.summary.strip()
    _within_bounds(model, sent)
