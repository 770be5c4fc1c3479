"""The default backend: a role model served by Ollama, through langchain-ollama's ChatOllama.

Which server and how long to wait are ``docbot.models.servers``' policy, shared with the openai backend.
"""

from __future__ import annotations

from langchain_core.language_models import BaseChatModel

from docbot.models.servers import request_timeout
from docbot.config.settings import Settings


def build_ollama_chat(settings: Settings, role: str, server: str) -> BaseChatModel:
    """ChatOllama for one role on the Ollama at ``server``, every option explicit (never the server's
    or client's default)."""
    from langchain_ollama import ChatOllama

    return ChatOllama(
        model=settings.model_for(role),
        base_url=server,
        temperature=settings.temperature_for(role),
        seed=settings.seed,
        # One num_ctx per model unless a role sets its own: Ollama reloads the model whenever it changes.
        num_ctx=settings.num_ctx_for(role),
        num_predict=settings.max_tokens_for(role),
        keep_alive=settings.keep_alive,
        # Explicit: left unset, a current server lets thinking models think, and the trace is dropped.
        reasoning=settings.reasoning,
        # ChatOllama has no timeout field (a `timeout=` is silently ignored); httpx takes it.
        client_kwargs={"timeout": request_timeout(settings)},
    )
