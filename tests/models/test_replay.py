"""Record and replay, the rules a recording alone cannot guard: order, role, fresh files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from docbot.models.replay import Recorder, Recording, ReplayChatModel

MESSAGES = [{"role": "human", "content": "Document f."}]


def entry(role: str, content: str, messages: list[dict[str, str]] = MESSAGES) -> dict[str, Any]:
    return {"role": role, "model": "m", "round": 1, "messages": messages, "answer": {"content": content}}


def test_identical_requests_get_their_answers_in_recorded_order_then_the_last_again() -> None:
    recording = Recording([entry("CRITIC", "first"), entry("CRITIC", "second"), entry("CRITIC", "third")])
    answers = [recording.answer("CRITIC", "m", MESSAGES) for _ in range(4)]
    assert [a["content"] for a in answers if a] == ["first", "second", "third", "third"]


def test_the_role_is_part_of_the_lookup() -> None:
    recording = Recording([entry("GENERATOR", "a draft"), entry("CRITIC", "a critique")])
    assert recording.answer("CRITIC", "m", MESSAGES)["content"] == "a critique"  # type: ignore[index]
    assert recording.answer("GENERATOR", "m", MESSAGES)["content"] == "a draft"  # type: ignore[index]
    assert recording.answer("ADJUDICATOR", "m", MESSAGES) is None


def test_a_replay_model_answers_for_its_own_role_only() -> None:
    recording = Recording([entry("GENERATOR", "a draft"), entry("CRITIC", "a critique")])
    critic = ReplayChatModel(role="CRITIC", model_name="m", recording=recording)
    assert critic.invoke([HumanMessage("Document f.")]).content == "a critique"


def test_the_recorder_starts_a_fresh_file(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    path.write_text(json.dumps(entry("CRITIC", "from an old run")) + "\n")
    Recorder(path)
    assert path.read_text() == ""


@pytest.mark.parametrize(("metadata", "label"), [
    ({"model_name": "SmolLM2-135M-Instruct.Q4_1.gguf", "model_provider": "llama.cpp", "llama_binding": "xllamacpp"},
     "SmolLM2-135M-Instruct.Q4_1.gguf (llama.cpp, xllamacpp)"),
    ({"model_name": "SmolLM2-135M-Instruct.Q4_1.gguf", "model_provider": "llama.cpp"},
     "SmolLM2-135M-Instruct.Q4_1.gguf (llama.cpp)"),
    ({"model": "qwen3.5:9b", "model_provider": "ollama"}, "qwen3.5:9b (ollama)"),  # ChatOllama's key
    ({}, "qwen3.5:9b"),  # a response that names no model: the configured one
])
def test_answered_by(metadata: dict[str, str], label: str) -> None:
    from docbot.models.replay import answered_by

    assert answered_by(metadata, "qwen3.5:9b") == label


def test_the_committed_recording_names_smollm2_as_every_answerer() -> None:
    """It was made with the embedded backend (on llama-cpp-python, which the label names) while the roles'
    configured names were the Ollama defaults: `model` is what a replay matches on, `answered_by` says who
    answered."""
    path = Path(__file__).resolve().parents[1] / "data" / "compound_interest.smollm2.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    assert {line["model"] for line in lines} >= {"qwen3.5:9b"}
    assert {line["answered_by"] for line in lines} == {"SmolLM2-135M-Instruct.Q4_1.gguf (llama.cpp, llama-cpp-python)"}


def test_the_recorder_labels_a_call_with_the_model_that_answered(tmp_path: Path) -> None:
    from uuid import uuid4

    from langchain_core.messages import AIMessage
    from langchain_core.outputs import ChatGeneration, LLMResult

    from docbot.models.replay import MODEL_KEY, ROLE_KEY, ROUND_KEY

    path = tmp_path / "run.jsonl"
    recorder, run = Recorder(path), uuid4()
    recorder.on_chat_model_start({}, [[HumanMessage("hi")]], run_id=run,
                                 metadata={ROLE_KEY: "CRITIC", MODEL_KEY: "deepseek-coder:6.7b", ROUND_KEY: 1})
    answer = AIMessage("{}", response_metadata={"model_name": "SmolLM2-135M-Instruct.Q4_1.gguf",
                                               "model_provider": "llama.cpp", "llama_binding": "xllamacpp"})
    recorder.on_llm_end(LLMResult(generations=[[ChatGeneration(message=answer)]]), run_id=run)
    line = json.loads(path.read_text())
    assert (line["model"], line["answered_by"]) == ("deepseek-coder:6.7b",
                                                     "SmolLM2-135M-Instruct.Q4_1.gguf (llama.cpp, xllamacpp)")
    assert Recording([line]).answer("CRITIC", "deepseek-coder:6.7b", line["messages"]) is not None  # still matches
