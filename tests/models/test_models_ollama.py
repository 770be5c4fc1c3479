"""The Ollama backend for real: ChatOllama over HTTP on loopback to an Ollama-speaking server running SmolLM2.

Assertions are about the protocol and the contract the loop relies on (what is sent, usage, valid
JSON under a schema, errors), never about a 135M model's prose.
"""

from __future__ import annotations

import json
import operator
from functools import reduce
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableConfig

from docbot.errors import ModelServerError
from docbot.models.factory import build_models
from docbot.models.ollama import build_ollama_chat
from docbot.models.replay import MODEL_KEY, ROLE_KEY, ROUND_KEY, Recorder
from docbot.models.resilience import ResilientChatModel
from docbot.config.sources import load_settings
from tests.support.ollama_server import OllamaFake
from tests.support.smol import MAX_TOKENS, MESSAGES, N_CTX, SMOL_MODELS, Verdict, smol_settings

pytest_plugins = ["tests.support.fixtures"]  # smollm_path, ollama_server, ...: one per session



def _assert_usage(answer: AIMessage) -> None:
    usage = answer.usage_metadata
    assert usage is not None
    assert usage["input_tokens"] > 20  # the prompt above is ~40 tokens with the chat template
    assert 0 < usage["output_tokens"] <= MAX_TOKENS
    assert usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"]


def test_plain_call_streams_ndjson_with_every_option_sent(ollama_fake: OllamaFake, ollama_server: str) -> None:
    models = build_models(smol_settings("ollama", ollama_server))
    assert isinstance(models.generator, ResilientChatModel)

    answer = models.generator.invoke(MESSAGES)

    assert isinstance(answer, AIMessage) and answer.text.strip()
    _assert_usage(answer)
    assert answer.response_metadata["model_name"] == SMOL_MODELS["GENERATOR"]
    assert answer.response_metadata["eval_count"] == answer.usage_metadata["output_tokens"]  # type: ignore[index]
    assert answer.response_metadata["total_duration"] > 1_000_000  # nanoseconds: over a millisecond
    sent = ollama_fake.chats()[-1]
    assert sent["model"] == SMOL_MODELS["GENERATOR"]
    assert sent["stream"] is True  # ChatOllama streams NDJSON unless told otherwise
    assert sent["options"] == {"num_ctx": N_CTX, "num_predict": MAX_TOKENS, "temperature": 0.7, "seed": 42}
    assert sent["keep_alive"] == "15m"
    assert sent["think"] is False  # explicit, never the server's default
    assert [m["role"] for m in sent["messages"]] == ["system", "user"]


def test_non_streaming_call_gives_the_same_contract(ollama_fake: OllamaFake, ollama_server: str) -> None:
    models = build_models(smol_settings("ollama", ollama_server))

    answer = models.adjudicator.invoke(MESSAGES, stream=False)

    assert ollama_fake.chats()[-1]["stream"] is False
    assert ollama_fake.chats()[-1]["options"]["temperature"] == 0.2
    assert answer.text.strip()
    _assert_usage(answer)


def test_chat_ollama_stream_yields_token_chunks(ollama_server: str) -> None:
    chat = build_ollama_chat(smol_settings("ollama", ollama_server, max_tokens=24), "GENERATOR", ollama_server)

    chunks = list(chat.stream(MESSAGES))

    assert len(chunks) > 3  # one chunk per token, not one blob
    whole = reduce(operator.add, chunks)
    assert whole.text.strip()
    assert whole.usage_metadata is not None and 0 < whole.usage_metadata["output_tokens"] <= 24


def test_structured_call_sends_the_schema_and_gets_json(ollama_fake: OllamaFake, ollama_server: str) -> None:
    models = build_models(smol_settings("ollama", ollama_server))

    out = models.critic.with_structured_output(Verdict, include_raw=True).invoke(MESSAGES)

    assert ollama_fake.chats()[-1]["format"] == Verdict.model_json_schema()
    assert ollama_fake.chats()[-1]["options"]["temperature"] == 0.0
    raw = out["raw"]
    assert isinstance(json.loads(raw.text), dict)  # the grammar constrains the reply to JSON
    # A 135M model may still get a field wrong: either outcome is fine, but exactly one of them.
    assert (out["parsed"] is None) != (out["parsing_error"] is None)
    if out["parsed"] is not None:
        assert isinstance(out["parsed"], Verdict)
    _assert_usage(raw)


def test_ollama_host_without_scheme_reaches_the_server(ollama_fake: OllamaFake, ollama_server: str) -> None:
    host = ollama_server.removeprefix("http://")
    settings = load_settings(None, overrides={"model_registry": SMOL_MODELS, "num_ctx": N_CTX,
                                              "max_tokens": 16}, env={"OLLAMA_HOST": host})
    before = len(ollama_fake.chats())

    answer = build_models(settings).generator.invoke(MESSAGES)

    assert answer.usage_metadata is not None
    assert len(ollama_fake.chats()) == before + 1


def test_unknown_model_fails_at_once_with_the_pull_command(ollama_fake: OllamaFake, ollama_server: str) -> None:
    roles = {**SMOL_MODELS, "GENERATOR": "qwen3.5:9b"}
    models = build_models(smol_settings("ollama", ollama_server, model_registry=roles))
    before = len(ollama_fake.chats())

    with pytest.raises(ModelServerError) as caught:
        models.generator.invoke(MESSAGES)

    assert len(ollama_fake.chats()) == before + 1  # a 404 is not retried
    message = str(caught.value)
    assert caught.value.exit_code == 3
    assert "GENERATOR model qwen3.5:9b on Ollama at " + ollama_server in message
    assert "was unloaded or removed" in message and "run `ollama pull qwen3.5:9b`" in message


def test_model_removed_mid_run(ollama_fake: OllamaFake, ollama_server: str, smollm_path: Path) -> None:
    ollama_fake.add("smollm2-doomed:135m", smollm_path)
    roles = {**SMOL_MODELS, "CRITIC": "smollm2-doomed:135m"}
    models = build_models(smol_settings("ollama", ollama_server, model_registry=roles, max_tokens=16))
    assert models.critic.invoke(MESSAGES).text  # served

    ollama_fake.remove("smollm2-doomed:135m")

    with pytest.raises(ModelServerError, match=r"smollm2-doomed:135m was unloaded or removed .*"
                                               r"run `ollama pull smollm2-doomed:135m`"):
        models.critic.invoke(MESSAGES)


def test_thinking_refused_by_the_model_is_not_retried(ollama_fake: OllamaFake, ollama_server: str) -> None:
    models = build_models(smol_settings("ollama", ollama_server, reasoning=True))
    before = len(ollama_fake.chats())

    with pytest.raises(ModelServerError, match="refused the request: .*does not support thinking"):
        models.generator.invoke(MESSAGES)

    assert len(ollama_fake.chats()) == before + 1
    assert ollama_fake.chats()[-1]["think"] is True


def test_a_recorded_call_replays_through_the_factory(ollama_server: str, tmp_path: Path) -> None:
    recording = tmp_path / "run.jsonl"
    config: RunnableConfig = {"callbacks": [Recorder(recording)],
                              "metadata": {ROLE_KEY: "CRITIC", MODEL_KEY: SMOL_MODELS["CRITIC"], ROUND_KEY: 1}}
    live = build_models(smol_settings("ollama", ollama_server, max_tokens=16)).critic.invoke(MESSAGES, config=config)

    replayed = build_models(smol_settings("ollama", ollama_server, replay=str(recording))).critic.invoke(
        MESSAGES, config={"metadata": config["metadata"]})

    assert isinstance(replayed, AIMessage) and replayed.text == live.text
    assert replayed.usage_metadata == live.usage_metadata
