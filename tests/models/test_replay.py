"""Record and replay, the rules a recording alone cannot guard: order, role, fresh files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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
