"""One model call with replay metadata, and the one parse-retry rule every structured answer follows.

The critic's critique and the writers' doc models go through ``structured_call``: an answer that does
not parse, or was cut off at the token limit, is asked again up to ``parse_attempts`` times. The
re-ask is the original request plus the parse error and a short excerpt of the failed answer, never
the whole answer: a small model's failed answer is often long repetition, and sending it back costs
context and invites more of it (docs/design.md#parse-failures).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from langchain_core.messages import BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.config import get_stream_writer
from pydantic import BaseModel

from docbot import events
from docbot.models.replay import MODEL_KEY, ROLE_KEY, ROUND_KEY
from docbot.models.structured import AnswerParser, without_reasoning
from docbot.results import CallRecord
from docbot.config.settings import Role, Settings

EXCERPT_CHARS = 160  # of a failed answer, in the re-ask


def emit(event: events.Event) -> None:
    get_stream_writer()(event)


def call_model(model: Any, messages: list[BaseMessage], role: Role, round_: int,
               settings: Settings) -> tuple[Any, CallRecord]:
    """Invoke a model (or a structured runnable) with replay metadata; return the answer and a call record."""
    config: RunnableConfig = {"metadata": {ROLE_KEY: role, MODEL_KEY: settings.model_for(role),
                                           ROUND_KEY: round_}, "run_name": role.lower()}
    started = time.perf_counter()
    answer = model.invoke(messages, config=config)
    raw = answer["raw"] if isinstance(answer, dict) else answer
    usage = getattr(raw, "usage_metadata", None) or {}
    record = CallRecord(role=role, round=round_, tokens_in=int(usage.get("input_tokens", 0)),
                        tokens_out=int(usage.get("output_tokens", 0)),
                        seconds=round(time.perf_counter() - started, 3))
    return answer, record


def text_of(message: Any) -> str:
    content = getattr(message, "content", message)
    return content if isinstance(content, str) else str(content)


def _cut_off(raw: Any) -> bool:
    """The answer hit the token limit (Ollama: done_reason, OpenAI and llama.cpp: finish_reason)."""
    meta = getattr(raw, "response_metadata", None) or {}
    return "length" in (meta.get("done_reason"), meta.get("finish_reason"))


def unusable(answer: dict[str, Any]) -> str:
    """Why a structured answer cannot be used, or "" when it can.

    A cut-off answer counts as unparsed even when the parser managed to complete its JSON: the
    scores in a truncated critique are whatever the model had written when it was stopped.
    """
    if _cut_off(answer.get("raw")):
        return "the answer was cut off at the token limit; answer with a shorter JSON object"
    if answer.get("parsed") is None:
        return " ".join(str(answer.get("parsing_error")).split())[:300]
    return ""


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """The start of a failed answer, on one line: enough to show the model what went wrong."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit] + " …"


@dataclass(frozen=True)
class Ask:
    """One structured request: who answers, in which round, with which schema and re-ask text."""

    role: Role
    round: int
    schema: type[BaseModel]
    reask: Callable[[str, str], str]  # (error, excerpt) -> the follow-up message
    format_schema: dict[str, Any] | None = None
    parser: AnswerParser | None = None
    label: str = "answer"  # for the warning: "critique", "doc model"


def structured_call(model: Any, messages: list[BaseMessage], ask: Ask, settings: Settings,
                    qualname: str) -> tuple[BaseModel | None, list[CallRecord], str]:
    """The parsed answer (None when no attempt parsed), every call made, and the last error."""
    structured = model.with_structured_output(ask.schema, include_raw=True, format_schema=ask.format_schema,
                                              parser=ask.parser)
    records: list[CallRecord] = []
    request, error = messages, ""
    for attempt in range(1, settings.parse_attempts + 1):
        answer, record = call_model(structured, request, ask.role, ask.round, settings)
        answer = without_reasoning(answer, ask.schema, ask.parser)
        records.append(record)
        error = unusable(answer)
        if not error:
            return answer["parsed"], records, ""
        emit(events.WarningEvent(f"{ask.label} {attempt}/{settings.parse_attempts} could not be parsed",
                                 round=ask.round, qualname=qualname, error=error))
        request = [*messages, HumanMessage(ask.reask(error, excerpt(text_of(answer.get("raw")))))]
    return None, records, error
