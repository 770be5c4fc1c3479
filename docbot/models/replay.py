"""Record and replay every model exchange of a run.

Recording is a LangChain callback handler, so it works for every backend: each chat-model call is
written as one JSON line (role, model, round, messages, answer, usage). Replaying answers each call
from such a file with no server. Requests are matched by content (role, model, messages), never by
position, so the order and concurrency of calls do not matter. This is how bugs get reported and how
prompt changes are regression-tested.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import defaultdict
from pathlib import Path
from typing import Any, Sequence
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult, LLMResult
from pydantic import ConfigDict, Field

from docbot.errors import ConfigError, ReplayMissError
from docbot.models.structured import JsonSchemaStructuredMixin

# Metadata keys the loop's nodes attach to every model call (see loop/nodes.py).
ROLE_KEY, MODEL_KEY, ROUND_KEY = "docbot_role", "docbot_model", "docbot_round"


def _plain(messages: Sequence[BaseMessage]) -> list[dict[str, str]]:
    return [{"role": m.type, "content": m.content if isinstance(m.content, str) else json.dumps(m.content)}
            for m in messages]


def exchange_key(role: str, model: str, messages: list[dict[str, str]]) -> str:
    blob = json.dumps([role, model, messages], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class Recorder(BaseCallbackHandler):
    """Appends one JSON line per finished chat-model call to ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._pending: dict[UUID, dict[str, Any]] = {}
        self._lock = threading.Lock()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("", encoding="utf-8")  # a recording is one run, never appended to an old one

    def on_chat_model_start(self, serialized: dict[str, Any], messages: list[list[BaseMessage]], *,
                            run_id: UUID, metadata: dict[str, Any] | None = None, **_: Any) -> None:
        meta = metadata or {}
        self._pending[run_id] = {"role": meta.get(ROLE_KEY, "?"), "model": meta.get(MODEL_KEY, "?"),
                                 "round": meta.get(ROUND_KEY), "messages": _plain(messages[0])}

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **_: Any) -> None:
        entry = self._pending.pop(run_id, None)
        if entry is None or not response.generations or not response.generations[0]:
            return
        generation = response.generations[0][0]
        message = getattr(generation, "message", None)
        metadata = _jsonable(getattr(message, "response_metadata", {}) or {})
        # "model" is the role's configured name, what a replay matches on; the embedded backend answers with
        # its GGUF whatever that name says, so the line also names the model that really answered.
        entry = {"role": entry["role"], "model": entry["model"], "round": entry["round"],
                 "answered_by": answered_by(metadata, entry["model"]), "messages": entry["messages"]}
        entry["answer"] = {
            "content": generation.text,
            "usage": dict(getattr(message, "usage_metadata", None) or {}),
            "response_metadata": metadata,
        }
        with self._lock, self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(entry, ensure_ascii=False) + "\n")

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **_: Any) -> None:
        self._pending.pop(run_id, None)


def answered_by(metadata: dict[str, Any], configured: str) -> str:
    """The model that answered, as its response names it ("SmolLM2-135M-Instruct.Q4_1.gguf (llama.cpp,
    xllamacpp)", "qwen3.5:9b (ollama)"); the configured name when the response names none."""
    name = str(metadata.get("model_name") or metadata.get("model") or configured)
    how = [str(metadata[key]) for key in ("model_provider", "llama_binding") if metadata.get(key)]
    return name + (f" ({', '.join(how)})" if how else "")


def _jsonable(value: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(value, default=str))


class Recording:
    """The answers of a recorded run, indexed by request content."""

    def __init__(self, entries: list[dict[str, Any]]) -> None:
        self._answers: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self._lock = threading.Lock()
        for entry in entries:
            key = exchange_key(entry["role"], entry["model"], entry["messages"])
            self._answers[key].append(entry["answer"])

    @classmethod
    def load(cls, path: Path) -> "Recording":
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError as err:
            raise ConfigError(f"{path}: cannot read the replay file ({err.strerror}).") from err
        entries = []
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                entries.append(json.loads(line))
            except json.JSONDecodeError as err:
                raise ConfigError(f"{path}: line {number} is not JSON ({err.msg}); "
                                  "was it written by `--record`?") from err
        return cls(entries)

    def answer(self, role: str, model: str, messages: list[dict[str, str]]) -> dict[str, Any] | None:
        """The next recorded answer for this request; identical requests get answers in recorded order,
        and the last one again once they run out (a cache, for reruns of the same function)."""
        with self._lock:
            answers = self._answers.get(exchange_key(role, model, messages))
            if not answers:
                return None
            return answers.pop(0) if len(answers) > 1 else answers[0]


class ReplayChatModel(JsonSchemaStructuredMixin, BaseChatModel):
    """A chat model that answers from a recording, for one role."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    role: str
    model_name: str
    recording: Recording = Field(exclude=True)

    @property
    def _llm_type(self) -> str:
        return "docbot-replay"

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        answer = self.recording.answer(self.role, self.model_name, _plain(messages))
        if answer is None:
            round_ = (run_manager.metadata.get(ROUND_KEY) if run_manager else None)
            raise ReplayMissError(
                f"replay: no recorded answer for the {self.role} ({self.model_name}) request in round "
                f"{round_}; the prompt, the model or the source changed since the recording. "
                "Record again with --record FILE.")
        message = AIMessage(content=answer["content"], response_metadata=answer.get("response_metadata", {}),
                            usage_metadata=answer.get("usage") or None)
        return ChatResult(generations=[ChatGeneration(message=message)])
