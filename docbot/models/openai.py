"""The ``openai`` backend: any OpenAI-compatible server (vLLM, llama.cpp's server, LM Studio, Ollama's /v1).

Built on langchain-openai's ``BaseChatOpenAI`` rather than ``ChatOpenAI``: the latter renames
``max_tokens`` to ``max_completion_tokens``, which local servers do not all know, and an ignored
limit lets a small model ramble up to the context size.

Structured output uses docbot's ``format`` keyword (see ``structured.py``) mapped to
``response_format``. Servers disagree on its shape: OpenAI, vLLM, LM Studio and llama.cpp's C++
server take ``{"type": "json_schema", ...}``; llama-cpp-python's server only takes
``{"type": "json_object", "schema": ...}`` and answers the standard shape with a validation error
(HTTP 500 in llama-cpp-python 0.3.36, not 4xx). The model sends the standard shape first and, when the
server rejects it naming ``response_format``, switches to the other shape for good.

A structured answer stopped at ``max_tokens`` makes the OpenAI client raise ``LengthFinishReasonError``
(it refuses to parse it). That is not a transport failure: the model answered, and the tokens were
spent. The cut answer is returned as it came (``finish_reason`` "length"), so the loop's parse-retry
rule re-asks for a shorter one and records the call, as it does on Ollama (docs/design.md#parse-failures).
"""

from __future__ import annotations

from typing import Any, Literal

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from langchain_openai.chat_models.base import BaseChatOpenAI
from openai import LengthFinishReasonError
from pydantic import SecretStr

from docbot.models.resilience import status_code
from docbot.models.servers import openai_url, request_timeout
from docbot.config.settings import Settings

Dialect = Literal["json_schema", "json_object"]
_REFUSED_FORMAT = {400, 422, 500}


def response_format(schema: Any, dialect: Dialect) -> dict[str, Any]:
    """docbot's ``format`` value (a JSON schema, or "json") as an OpenAI ``response_format``."""
    if not isinstance(schema, dict):
        return {"type": "json_object"}
    if dialect == "json_object":
        return {"type": "json_object", "schema": schema}
    return {"type": "json_schema",
            "json_schema": {"name": str(schema.get("title") or "answer"), "schema": schema}}


def _refuses_json_schema(err: BaseException) -> bool:
    return status_code(err) in _REFUSED_FORMAT and "response_format" in str(err)


class OpenAICompatibleChat(BaseChatOpenAI):
    """An OpenAI-compatible chat model that understands docbot's ``format`` keyword."""

    schema_dialect: Dialect = "json_schema"

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        schema = kwargs.pop("format", None)
        if schema is None or schema == "":
            return super()._generate(messages, stop, run_manager, **kwargs)
        try:
            return self._structured(messages, stop, run_manager, schema, **kwargs)
        except Exception as err:
            if self.schema_dialect != "json_schema" or not _refuses_json_schema(err):
                raise
        self.schema_dialect = "json_object"  # remembered: one refused request per model, not per call
        return self._structured(messages, stop, run_manager, schema, **kwargs)

    def _structured(self, messages: list[BaseMessage], stop: list[str] | None,
                    run_manager: CallbackManagerForLLMRun | None, schema: Any, **kwargs: Any) -> ChatResult:
        try:
            return super()._generate(messages, stop, run_manager,
                                     response_format=response_format(schema, self.schema_dialect), **kwargs)
        except LengthFinishReasonError as err:  # the answer, cut: the loop re-asks (module docstring)
            return self._create_chat_result(err.completion, {})


def build_openai_chat(settings: Settings, role: str, server: str) -> BaseChatModel:
    """The chat model for one role on an OpenAI-compatible server at ``server``."""
    return OpenAICompatibleChat(
        model=settings.model_for(role),
        base_url=openai_url(server),
        # Local servers accept any key, but the client insists on one.
        api_key=SecretStr(settings.api_key or "not-needed"),
        temperature=settings.temperature_for(role),
        seed=settings.seed,
        max_tokens=settings.max_tokens_for(role),
        timeout=request_timeout(settings),
        max_retries=0,  # ResilientChatModel retries, with docbot's messages
        use_responses_api=False,  # local servers speak Chat Completions only
        stream_usage=True,
    )
