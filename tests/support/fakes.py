"""Scripted chat models for graph tests: deterministic, free, and with structured output.

langchain-core's fakes lack ``with_structured_output``; ours get it from the same mixin docbot's
own backends use, so the critic node runs exactly the code path it runs against a real model.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from docbot.models import RoleModels
from docbot.models.structured import JsonSchemaStructuredMixin


class ScriptedChatModel(JsonSchemaStructuredMixin, BaseChatModel):
    """Answers with the next scripted reply; fails loudly when the script runs out."""

    replies: list[str]
    cut_off: set[int] = Field(default_factory=set)  # indexes of replies that "hit the token limit"
    name_: str = "scripted"
    seen: list[list[BaseMessage]] = Field(default_factory=list)
    seen_kwargs: list[dict[str, Any]] = Field(default_factory=list)  # e.g. the bound JSON schema (format)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        if len(self.seen) >= len(self.replies):
            raise AssertionError(f"{self.name_}: script exhausted after {len(self.replies)} replies")
        reply = self.replies[len(self.seen)]
        self.seen.append(list(messages))
        self.seen_kwargs.append(dict(kwargs))
        usage = {"input_tokens": sum(len(str(m.content)) // 4 for m in messages),
                 "output_tokens": len(reply) // 4}
        usage["total_tokens"] = usage["input_tokens"] + usage["output_tokens"]
        meta = {"done_reason": "length" if len(self.seen) - 1 in self.cut_off else "stop"}
        message = AIMessage(reply, usage_metadata=usage, response_metadata=meta)
        return ChatResult(generations=[ChatGeneration(message=message)])


def critique(accuracy: int, completeness: int, fix: str = "Quote the exact message.",
             fatal: list[Any] | None = None, verdict: str | None = None, issues: list[str] | None = None) -> str:
    body: dict[str, Any] = {"technical_accuracy": accuracy, "completeness": completeness,
                            "issues": issues or [], "fatal_issues": fatal or [], "critical_fix": fix}
    if verdict:
        body["verdict"] = verdict
    return json.dumps(body)


def doc(title: str = "", body: str = "Adds numbers.", **fields: Any) -> str:
    """A writer's answer: a doc model whose summary is ``body`` (``title`` names the function, for reading)."""
    return json.dumps({"summary": body, **fields})


def claim(quote: str, problem: str = "this is false") -> dict[str, str]:
    """A critic's fatal claim, quoting the page."""
    return {"quote": quote, "problem": problem}


def scripted_models(writer: list[str], critic: list[str], adjudicator: list[str]) -> RoleModels:
    return RoleModels(generator=ScriptedChatModel(replies=writer, name_="writer"),
                      critic=ScriptedChatModel(replies=critic, name_="critic"),
                      adjudicator=ScriptedChatModel(replies=adjudicator, name_="adjudicator"))
