"""Robust calls against servers that fail for real on loopback, through both protocols.

Each server counts the chat requests it saw, so "retried" and "not retried" are facts, not hopes.
Backoff pauses are recorded instead of slept (the values are asserted); timeouts are real.
"""

from __future__ import annotations

from typing import Any, Literal

import pytest
from langchain_core.messages import HumanMessage
from pydantic import BaseModel

from docbot.errors import ModelServerError
from docbot.models.factory import build_models
from docbot.models.resilience import ResilientChatModel, classify
from docbot.config.settings import Settings
from tests.support.faulty_server import CUT_TEXT, INVALID_TEXT, OK_TEXT, FaultyServer
from tests.support.smol import SMOL_MODELS, smol_settings

MESSAGES = [HumanMessage("Document def f(): pass")]
BACKENDS = ["ollama", "openai"]


class Verdict(BaseModel):
    score: int
    verdict: Literal["approve", "revise"]


def _settings(backend: str, server: FaultyServer, **overrides: Any) -> Settings:
    values: dict[str, Any] = {"call_retries": 2, "request_timeout_s": 5.0,
                              "model_registry": SMOL_MODELS, **overrides}
    return smol_settings(backend, server.base_url, **values)


def _generator(settings: Settings, pauses: list[float]) -> ResilientChatModel:
    model = build_models(settings).generator
    assert isinstance(model, ResilientChatModel)
    return model.model_copy(update={"sleep": pauses.append})


def _server_name(backend: str, server: FaultyServer) -> str:
    if backend == "ollama":
        return f"Ollama at {server.base_url}"
    return f"the OpenAI-compatible server at {server.base_url}/v1"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fault", ["drop", "error500"])
def test_transient_failures_are_retried_then_explained(backend: str, fault: Literal["drop", "error500"]) -> None:
    pauses: list[float] = []
    with FaultyServer(fault) as server:
        model = _generator(_settings(backend, server), pauses)
        with pytest.raises(ModelServerError) as caught:
            model.invoke(MESSAGES)

    assert server.chat_requests == 3  # the call and two retries
    assert pauses == [1.0, 2.0]  # exponential backoff
    message = str(caught.value)
    assert caught.value.exit_code == 3
    assert message.startswith(f"GENERATOR model {SMOL_MODELS['GENERATOR']} on {_server_name(backend, server)} "
                              "kept failing: ")
    assert "after 3 attempts" in message and "raise request_timeout_s or call_retries" in message


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_stalled_server_times_out_and_is_retried(backend: str) -> None:
    pauses: list[float] = []
    with FaultyServer("stall") as server:
        model = _generator(_settings(backend, server, request_timeout_s=0.4, call_retries=1), pauses)
        with pytest.raises(ModelServerError, match="kept failing: .*after 2 attempts"):
            model.invoke(MESSAGES)

    assert server.chat_requests == 2
    assert pauses == [1.0]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_flaky_server_is_got_through(backend: str) -> None:
    pauses: list[float] = []
    with FaultyServer("error500", fail_first=2) as server:
        answer = _generator(_settings(backend, server), pauses).invoke(MESSAGES)

    assert server.chat_requests == 3
    assert answer.text == OK_TEXT
    assert answer.usage_metadata is not None and answer.usage_metadata["output_tokens"] == 7


@pytest.mark.parametrize(("backend", "fix"), [
    ("ollama", f"run `ollama pull {SMOL_MODELS['GENERATOR']}`"),
    ("openai", f"load {SMOL_MODELS['GENERATOR']} on that server (see its /v1/models)"),
])
def test_a_missing_model_is_not_retried(backend: str, fix: str) -> None:
    pauses: list[float] = []
    with FaultyServer("missing") as server, pytest.raises(ModelServerError) as caught:
        _generator(_settings(backend, server), pauses).invoke(MESSAGES)

    assert server.chat_requests == 1 and pauses == []
    assert f"{SMOL_MODELS['GENERATOR']} was unloaded or removed" in str(caught.value)
    assert f"{fix}, then run docbot again." in str(caught.value)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_refused_request_is_not_retried(backend: str) -> None:
    with FaultyServer("refuse") as server, \
            pytest.raises(ModelServerError, match=r"refused the request: .*does not support thinking"):
        _generator(_settings(backend, server), []).invoke(MESSAGES)
    assert server.chat_requests == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_invalid_json_goes_to_the_parsing_error_path_without_retry(backend: str) -> None:
    with FaultyServer("invalid_json") as server:
        critic = build_models(_settings(backend, server)).critic
        out = critic.with_structured_output(Verdict, include_raw=True).invoke(MESSAGES)

    assert server.chat_requests == 1  # parse errors are the loop's to handle, not the transport's
    assert out["parsed"] is None and out["parsing_error"] is not None
    assert out["raw"].text == INVALID_TEXT
    assert out["raw"].usage_metadata["input_tokens"] == 12  # tokens were spent; the loop records them
    assert server.bodies[0].get("format") or server.bodies[0].get("response_format")  # the schema went out


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_answer_cut_at_the_token_limit_is_an_answer_not_an_error(backend: str) -> None:
    # The OpenAI client raises LengthFinishReasonError on a cut structured answer; docbot hands the loop
    # the cut answer instead, so the parse-retry rule re-asks (and its tokens are counted), as on Ollama.
    with FaultyServer("cut") as server:
        critic = build_models(_settings(backend, server)).critic
        out = critic.with_structured_output(Verdict, include_raw=True).invoke(MESSAGES)

    assert server.chat_requests == 1  # the transport does not retry it either
    assert out["raw"].text == CUT_TEXT
    meta = out["raw"].response_metadata
    assert "length" in (meta.get("finish_reason"), meta.get("done_reason"))
    assert out["raw"].usage_metadata["output_tokens"] == 7


def test_retries_zero_means_one_attempt() -> None:
    with FaultyServer("error500") as server, pytest.raises(ModelServerError, match=r"after 1 attempt\. "):
        _generator(_settings("ollama", server, call_retries=0), []).invoke(MESSAGES)
    assert server.chat_requests == 1


class _Status(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(f"HTTP {code}")
        self.status_code = code


@pytest.mark.parametrize(("error", "verdict"), [
    (ConnectionError("Failed to connect to Ollama"), "retry"),
    (TimeoutError(), "retry"),
    (_Status(500), "retry"),
    (_Status(503), "retry"),
    (_Status(429), "retry"),
    (_Status(-1), "retry"),  # ollama: an error that arrived mid-stream
    (_Status(404), "missing"),
    (_Status(400), "refused"),
    (_Status(401), "refused"),
    (_Status(422), "refused"),
    (ValueError("not JSON"), "foreign"),
    (KeyError("bug"), "foreign"),
])
def test_classify(error: BaseException, verdict: str) -> None:
    assert classify(error) == verdict
