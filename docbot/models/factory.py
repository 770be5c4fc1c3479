"""Build the three role models from the settings.

Each backend's module is imported only when a role uses it: langchain-openai and llama.cpp take
a while to import, and llama.cpp may not be installed at all. Networked models are wrapped in
``ResilientChatModel`` (retries, clear errors); the embedded and replay models cannot lose a
connection, so they are used as they are.
"""

from __future__ import annotations

from pathlib import Path

from langchain_core.language_models import BaseChatModel

from docbot.errors import ConfigError
from docbot.models import RoleModels
from docbot.models.resilience import ResilientChatModel
from docbot.models.servers import ollama_url, openai_url
from docbot.settings import ROLES, Settings


def build_models(settings: Settings) -> RoleModels:
    """One chat model per role, as the settings say. Raises ConfigError for a backend that cannot load."""
    if settings.replay:  # also the case for backend "replay": Settings refuses it without a recording
        return _replay_models(settings, Path(settings.replay))
    models = {role: build_role_model(settings, role) for role in ROLES}
    return RoleModels(generator=models["GENERATOR"], critic=models["CRITIC"],
                      adjudicator=models["ADJUDICATOR"])


def build_role_model(settings: Settings, role: str) -> BaseChatModel:
    backend = settings.backend_for(role)
    if backend == "embedded":
        from docbot.models.embedded import build_embedded_chat

        return build_embedded_chat(settings, role)
    if backend == "openai":
        from docbot.models.openai import build_openai_chat

        # No base_url at all: Ollama's own /v1 endpoint on the default host is the best guess.
        server = ollama_url(settings, role)
        inner = build_openai_chat(settings, role, server)
        return _resilient(settings, role, inner, f"the OpenAI-compatible server at {openai_url(server)}",
                          f"load {settings.model_for(role)} on that server (see its /v1/models)")
    if backend == "ollama":
        from docbot.models.ollama import build_ollama_chat

        return _resilient(settings, role, build_ollama_chat(settings, role),
                          f"Ollama at {ollama_url(settings, role)}",
                          f"run `ollama pull {settings.model_for(role)}`")
    # Only "replay" is left, set for this role alone but with no recording to answer from.
    raise ConfigError(f"model_registry.{role}: backend {backend!r} needs a recording; pass --replay FILE.")


def _resilient(settings: Settings, role: str, inner: BaseChatModel, server: str,
               fix: str) -> ResilientChatModel:
    return ResilientChatModel(inner=inner, role=role, model_name=settings.model_for(role), server=server,
                              fix=fix, retries=settings.call_retries)


def _replay_models(settings: Settings, path: Path) -> RoleModels:
    from docbot.models.replay import Recording, ReplayChatModel

    recording = Recording.load(path)

    def replay(role: str) -> ReplayChatModel:
        return ReplayChatModel(role=role, model_name=settings.model_for(role), recording=recording)

    return RoleModels(generator=replay("GENERATOR"), critic=replay("CRITIC"),
                      adjudicator=replay("ADJUDICATOR"))
