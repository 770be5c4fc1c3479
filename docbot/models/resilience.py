"""Robust model calls: retry what may pass on a second try, explain everything else.

Every networked role model is wrapped in ``ResilientChatModel``. It calls the wrapped model's
``_generate`` (so one call is one LangChain run: callbacks and recordings see it once) and:

* retries, with exponential backoff, connection errors, timeouts, 429 and 5xx answers;
* never retries other 4xx answers, or output that does not parse (parsing happens after the call,
  in the structured-output runnable, and goes to the loop's own retry/fallback path);
* turns a 404 into "the model was unloaded or removed", and anything it gave up on into a
  ``ModelServerError`` that names the server, the role and what to do next.

Errors are recognised by shape (a status code, or a transport-error class of the client that is
already imported), so this module imports neither ``ollama`` nor ``openai``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, Literal

import httpx
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from pydantic import ConfigDict, Field
from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_exponential

from docbot.errors import ModelServerError
from docbot.models.structured import JsonSchemaStructuredMixin

Verdict = Literal["retry", "missing", "refused", "foreign"]
_RETRYABLE_STATUS = {408, 425, 429}


def status_code(err: BaseException) -> int | None:
    """The HTTP status an error carries: ollama.ResponseError, openai.APIStatusError, httpx."""
    code = getattr(err, "status_code", None)
    if code is None and isinstance(err, httpx.HTTPStatusError):
        code = err.response.status_code
    return code if isinstance(code, int) else None


def _transport_errors() -> tuple[type[BaseException], ...]:
    # Only clients that are already imported can have raised; importing openai just to
    # name its exception class would cost half a second for nothing.
    types: list[type[BaseException]] = [ConnectionError, TimeoutError, httpx.TransportError]
    openai = sys.modules.get("openai")
    if openai is not None:
        types.append(openai.APIConnectionError)  # includes APITimeoutError
    return tuple(types)


def classify(err: BaseException) -> Verdict:
    """What to do about an error raised by a model call."""
    if isinstance(err, _transport_errors()):
        return "retry"
    code = status_code(err)
    if code is None:
        return "foreign"  # not an HTTP failure: a bug or a parse error, let it through
    if code == 404:
        return "missing"
    # -1: ollama's mark for an error that arrived mid-stream (a crashed runner, usually).
    if code == -1 or code >= 500 or code in _RETRYABLE_STATUS:
        return "retry"
    return "refused"


def _reason(err: BaseException) -> str:
    text = str(err).strip() or type(err).__name__
    return text if len(text) <= 300 else text[:297] + "..."


class ResilientChatModel(JsonSchemaStructuredMixin, BaseChatModel):
    """Wraps one role's chat model with retries and docbot's error messages.

    Structured output goes through the mixin: the JSON schema arrives here as the ``format``
    keyword and is passed on to the wrapped model, which maps it to its own API.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    inner: BaseChatModel = Field(exclude=True)
    role: str
    model_name: str
    server: str  # how to name the server in messages, e.g. "Ollama at http://127.0.0.1:11434"
    fix: str  # what makes the model available again, e.g. "run `ollama pull qwen3.5:9b`"
    retries: int = 2
    backoff_s: float = 1.0  # first pause; doubles on each retry
    sleep: Callable[[float], None] = Field(default=time.sleep, exclude=True)

    @property
    def _llm_type(self) -> str:
        return f"docbot-resilient-{getattr(self.inner, '_llm_type', 'chat')}"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"role": self.role, "model_name": self.model_name, "server": self.server}

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        # Backoff: backoff_s, then doubling. The last error is re-raised as it is, then explained.
        retrying = Retrying(stop=stop_after_attempt(self.retries + 1), wait=wait_exponential(multiplier=self.backoff_s),
                            retry=retry_if_exception(lambda err: classify(err) == "retry"),
                            sleep=self.sleep, reraise=True)
        try:
            return retrying(self.inner._generate, messages, stop=stop, run_manager=run_manager, **kwargs)
        except Exception as err:  # classified below; re-raised unchanged when foreign
            verdict = classify(err)
            if verdict == "foreign":
                raise
            raise self._explain(verdict, err, retrying.statistics["attempt_number"]) from err

    def _explain(self, verdict: Verdict, err: BaseException, attempts: int) -> ModelServerError:
        who = f"{self.role} model {self.model_name} on {self.server}"
        if verdict == "missing":
            return ModelServerError(
                f"{who}: model {self.model_name} was unloaded or removed ({_reason(err)}); "
                f"{self.fix}, then run docbot again.")
        if verdict == "refused":
            return ModelServerError(
                f"{who} refused the request: {_reason(err)} (HTTP {status_code(err)}). "
                "This is not transient; check the model's settings in config.json "
                "(for example `reasoning` on a model that cannot think).")
        return ModelServerError(
            f"{who} kept failing: {_reason(err)} ({type(err).__name__}) after {attempts} "
            f"attempt{'s' if attempts > 1 else ''}. "
            "Check that the server is running and not overloaded, or raise request_timeout_s "
            "or call_retries in config.json.")
