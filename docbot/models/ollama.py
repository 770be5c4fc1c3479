"""The default backend: a role model served by Ollama, through langchain-ollama's ChatOllama."""

from __future__ import annotations

import httpx
from langchain_core.language_models import BaseChatModel

from docbot.settings import Settings

DEFAULT_OLLAMA_URL = "http://127.0.0.1:11434"


def ollama_url(settings: Settings, role: str) -> str:
    """The server for a role. ``settings.base_url`` already holds OLLAMA_HOST when it was set."""
    return (settings.base_url_for(role) or DEFAULT_OLLAMA_URL).rstrip("/")


def request_timeout(settings: Settings) -> httpx.Timeout:
    """Short connect (a dead server fails fast), long read (a 9B model on CPU is slow)."""
    return httpx.Timeout(settings.request_timeout_s, connect=settings.connect_timeout_s)


def build_ollama_chat(settings: Settings, role: str) -> BaseChatModel:
    """ChatOllama for one role, every option explicit (never the server's or client's default)."""
    from langchain_ollama import ChatOllama

    return ChatOllama(
        model=settings.model_for(role),
        base_url=ollama_url(settings, role),
        temperature=settings.temperature_for(role),
        seed=settings.seed,
        # One num_ctx for every call: Ollama reloads the model whenever it changes.
        num_ctx=settings.num_ctx,
        num_predict=settings.max_tokens,
        keep_alive=settings.keep_alive,
        # Explicit: left unset, a current server lets thinking models think, and the trace is dropped.
        reasoning=settings.reasoning,
        # ChatOllama has no timeout field (a `timeout=` is silently ignored); httpx takes it.
        client_kwargs={"timeout": request_timeout(settings)},
    )
