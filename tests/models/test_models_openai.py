"""The OpenAI-compatible backend for real: llama-cpp-python's own server running SmolLM2, on loopback."""

from __future__ import annotations

import json
import operator
from functools import reduce

import pytest
from langchain_core.messages import AIMessage

from docbot.errors import ModelServerError
from docbot.models.factory import build_models
from docbot.models.openai import OpenAICompatibleChat, build_openai_chat, response_format
from docbot.models.servers import openai_url
from docbot.models.preflight import preflight
from docbot.models.resilience import ResilientChatModel
from tests.support.smol import MAX_TOKENS, MESSAGES, OPENAI_ALIAS, Verdict, smol_settings

pytest_plugins = ["tests.support.fixtures"]  # smollm_path, ollama_server, ...: one per session



@pytest.mark.parametrize(("server", "expected"), [
    ("http://box:8080", "http://box:8080/v1"),
    ("http://box:8080/", "http://box:8080/v1"),
    ("http://box:8000/v1", "http://box:8000/v1"),
    ("http://box:8000/v1/", "http://box:8000/v1"),
])
def test_openai_url(server: str, expected: str) -> None:
    assert openai_url(server) == expected


def test_response_format_dialects() -> None:
    schema = Verdict.model_json_schema()
    assert response_format(schema, "json_schema") == {
        "type": "json_schema", "json_schema": {"name": "Verdict", "schema": schema}}
    assert response_format(schema, "json_object") == {"type": "json_object", "schema": schema}
    assert response_format("json", "json_schema") == {"type": "json_object"}


def _inner(model: object) -> OpenAICompatibleChat:
    assert isinstance(model, ResilientChatModel) and isinstance(model.inner, OpenAICompatibleChat)
    return model.inner


def test_plain_call_with_usage_and_token_limit(llama_openai_server: str) -> None:
    models = build_models(smol_settings("openai", llama_openai_server))

    answer = models.generator.invoke(MESSAGES)

    assert isinstance(answer, AIMessage) and answer.text.strip()
    usage = answer.usage_metadata
    assert usage is not None and usage["input_tokens"] > 20
    # max_tokens is honoured: ChatOpenAI's max_completion_tokens is ignored by this server.
    assert 0 < usage["output_tokens"] <= MAX_TOKENS
    assert _inner(models.generator).openai_api_base == f"{llama_openai_server}/v1"


def test_structured_call_falls_back_to_the_servers_json_dialect(llama_openai_server: str) -> None:
    models = build_models(smol_settings("openai", llama_openai_server))
    critic = _inner(models.critic)
    assert critic.schema_dialect == "json_schema"

    out = models.critic.with_structured_output(Verdict, include_raw=True).invoke(MESSAGES)

    # llama-cpp-python rejects {"type": "json_schema"}; the model switched and remembers it.
    assert critic.schema_dialect == "json_object"
    assert isinstance(json.loads(out["raw"].text), dict)  # grammar-constrained
    assert (out["parsed"] is None) != (out["parsing_error"] is None)
    assert out["raw"].usage_metadata is not None and out["raw"].usage_metadata["output_tokens"] > 0
    # The second structured call goes straight to the working dialect.
    again = models.critic.with_structured_output(Verdict, include_raw=True).invoke(MESSAGES)
    assert isinstance(json.loads(again["raw"].text), dict)


def test_streaming_yields_token_chunks(llama_openai_server: str) -> None:
    chat = build_openai_chat(smol_settings("openai", llama_openai_server, max_tokens=24), "GENERATOR",
                             llama_openai_server)

    chunks = list(chat.stream(MESSAGES))

    assert len(chunks) > 3
    assert reduce(operator.add, chunks).text.strip()


def test_preflight_passes_and_warns_that_one_model_plays_every_role(llama_openai_server: str) -> None:
    warnings = preflight(smol_settings("openai", llama_openai_server))

    assert len(warnings) == 1
    assert "GENERATOR, CRITIC and ADJUDICATOR use the same model (smollm2)" in warnings[0]


def test_preflight_names_the_model_the_server_lacks(llama_openai_server: str) -> None:
    roles = {"GENERATOR": OPENAI_ALIAS, "CRITIC": "qwen2.5-coder-7b", "ADJUDICATOR": OPENAI_ALIAS}

    with pytest.raises(ModelServerError) as caught:
        preflight(smol_settings("openai", llama_openai_server, model_registry=roles))

    assert caught.value.exit_code == 3
    assert (f"qwen2.5-coder-7b (CRITIC) is not served at {llama_openai_server}/v1 (it serves: smollm2)"
            in str(caught.value))
