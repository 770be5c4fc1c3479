"""The two llama.cpp bindings the embedded backend runs on, behind one small interface.

``xllamacpp`` is the default (the ``embedded`` extra): it ships prebuilt manylinux2014 CPU wheels built
for any x86-64 CPU with AVX2 (no AVX-512, no AMX kernels), so installing takes seconds instead of a
compile. ``llama-cpp-python`` (the ``llama-cpp-python`` extra) compiles llama.cpp on install; it is the
binding the recording in tests/data was made with, and stays an alternative. Both are asked the same
request and answer llama-cpp-python's reply shape (``choices``, ``usage``), so nothing above this
module knows which one ran (docs/design.md#embedded-model).

Which one: the first installed in ``PREFERENCE``. Nothing here imports a binding before a model loads
(importing one loads native code).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol


class Binding(StrEnum):
    """A binding, by its distribution name."""

    XLLAMACPP = "xllamacpp"
    LLAMA_CPP_PYTHON = "llama-cpp-python"


MODULES = {Binding.XLLAMACPP: "xllamacpp", Binding.LLAMA_CPP_PYTHON: "llama_cpp"}
PREFERENCE = (Binding.XLLAMACPP, Binding.LLAMA_CPP_PYTHON)
# llama-cpp-python's own default (half the cores): measured on 2 busy cores, 2 threads spin against each
# other and other processes (3-20 s for 96 tokens), 1 thread holds ~40 tokens/s. xllamacpp gets the same.
THREADS = max(1, (os.cpu_count() or 2) // 2)


@dataclass(frozen=True)
class ChatRequest:
    """One chat completion, in the terms both bindings take."""

    messages: list[dict[str, str]]
    temperature: float
    seed: int
    repeat_penalty: float
    max_tokens: int
    stop: list[str]
    response_format: dict[str, Any] | None


class LoadedModel(Protocol):
    """A GGUF loaded by one binding; ``chat`` answers in llama-cpp-python's reply shape."""

    binding: Binding

    def chat(self, request: ChatRequest) -> dict[str, Any]: ...

    def count_tokens(self, text: str) -> int | None:
        """``text``'s tokens by the model's tokenizer, None where the binding cannot say."""
        ...


def installed_bindings() -> list[Binding]:
    """The bindings importable here, in order of preference (found without importing them)."""
    return [b for b in PREFERENCE if importlib.util.find_spec(MODULES[b]) is not None]


def default_binding() -> Binding | None:
    found = installed_bindings()
    return found[0] if found else None


def binding_version(binding: Binding) -> str:
    """The installed version, without importing it."""
    try:
        return importlib.metadata.version(binding.value)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def load_model(binding: Binding, path: str, n_ctx: int, extra_buffers: bool) -> LoadedModel:
    """Load ``path`` with ``binding``; extra buffer types (weight repacking) only if ``extra_buffers``."""
    if binding is Binding.XLLAMACPP:
        return XLlamaCppModel.load(path, n_ctx, extra_buffers)
    return LlamaCppPythonModel.load(path, n_ctx, extra_buffers)


@dataclass
class LlamaCppPythonModel:
    """llama-cpp-python's ``Llama``: the request maps one to one onto ``create_chat_completion``."""

    native: Any
    binding: Binding = Binding.LLAMA_CPP_PYTHON

    @classmethod
    def load(cls, path: str, n_ctx: int, extra_buffers: bool) -> LlamaCppPythonModel:
        from llama_cpp import Llama

        from docbot.models.llama_params import model_params

        with model_params(extra_buffers):
            return cls(Llama(model_path=path, n_ctx=n_ctx, verbose=False))

    def chat(self, request: ChatRequest) -> dict[str, Any]:
        reply: dict[str, Any] = self.native.create_chat_completion(
            messages=request.messages, temperature=request.temperature, seed=request.seed,
            repeat_penalty=request.repeat_penalty, max_tokens=request.max_tokens, stop=request.stop,
            response_format=request.response_format)
        return reply

    def count_tokens(self, text: str) -> int | None:
        return len(self.native.tokenize(text.encode("utf-8"), add_bos=False, special=False))


@dataclass
class XLlamaCppModel:
    """xllamacpp's in-process llama.cpp server (``Server.handle_chat_completions``), no HTTP listener."""

    native: Any
    params: Any  # the CommonParams it was loaded with (the server does not give them back)
    binding: Binding = Binding.XLLAMACPP

    @classmethod
    def load(cls, path: str, n_ctx: int, extra_buffers: bool) -> XLlamaCppModel:
        import xllamacpp

        params = xllamacpp.CommonParams()
        params.model.path = path
        params.n_ctx = n_ctx
        params.n_parallel = 1  # one slot: the whole context is one conversation, as with llama-cpp-python
        params.cpuparams.n_threads = THREADS
        params.cpuparams_batch.n_threads = THREADS
        params.no_extra_bufts = not extra_buffers
        params.verbosity = -1  # llama.cpp's own log lines would land among docbot's output
        params.warmup = False
        try:
            return cls(xllamacpp.Server(params), params)
        except RuntimeError as err:  # a file that is not a GGUF: the server cannot load it
            raise ValueError(f"xllamacpp could not load {path}: {err}") from err

    def chat(self, request: ChatRequest) -> dict[str, Any]:
        body: dict[str, Any] = {
            "messages": request.messages, "temperature": request.temperature, "seed": request.seed,
            "repeat_penalty": request.repeat_penalty, "max_tokens": request.max_tokens, "stop": request.stop}
        if request.response_format is not None:
            body["response_format"] = request.response_format
        reply: dict[str, Any] = self.native.handle_chat_completions(body)
        error = reply.get("error")
        if error:  # llama-cpp-python raises ValueError for the same (a prompt past the context): so do we
            raise ValueError(f"llama.cpp (xllamacpp) refused the request: {error.get('message', error)}")
        return reply

    def count_tokens(self, text: str) -> int | None:
        return None  # xllamacpp's Server has no tokenize call: the prompt is bounded by characters instead
