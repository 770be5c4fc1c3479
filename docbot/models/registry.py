"""The model backends by name: how each builds a role's model, and what the preflight asks it.

This table is the one place that knows the backends: the factory builds through it, the preflight
checks through it, and the fronts' ``--backend`` choices are its names (``settings.BACKEND_NAMES``,
which a test holds equal to this table's keys). Adding a backend is its module, one entry here and
its name in ``settings.Backend``. A backend's module is imported only when a role uses it:
langchain-openai and llama.cpp take a while to import, and llama.cpp may not be installed at all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import httpx

from docbot.errors import ConfigError
from docbot.models import checks
from docbot.models.servers import openai_url, role_servers
from docbot.config.settings import Backend, Settings

if TYPE_CHECKING:  # the preflight reads this table before LangChain is imported: a dead server costs seconds
    from langchain_core.language_models import BaseChatModel

    from docbot.models.resilience import ResilientChatModel

# (client, server, {role: model}, settings) -> problems, each with its fix
Check = Callable[[httpx.Client, str, Mapping[str, str], Settings], list[str]]


@dataclass(frozen=True)
class BackendSpec:
    build: Callable[[Settings, str, str], BaseChatModel]  # (settings, role, server URL) -> the model
    # (server, model): two roles with equal identities on one backend are the same model
    identity: Callable[[Settings, str], tuple[str, str]]
    check: Check | None  # None: there is no server to ask (a recording answers)
    networked: bool = True  # its servers are the role's base URLs (one model per URL)


def _resilient(settings: Settings, role: str, inner: BaseChatModel, server: str, fix: str) -> ResilientChatModel:
    """Networked models retry transient failures and end with a message naming the server and the fix."""
    from docbot.models.resilience import ResilientChatModel

    return ResilientChatModel(inner=inner, role=role, model_name=settings.model_for(role), server=server,
                              fix=fix, retries=settings.call_retries)


def _build_ollama(settings: Settings, role: str, server: str) -> BaseChatModel:
    from docbot.models.ollama import build_ollama_chat

    return _resilient(settings, role, build_ollama_chat(settings, role, server), f"Ollama at {server}",
                      f"run `ollama pull {settings.model_for(role)}`")


def _build_openai(settings: Settings, role: str, server: str) -> BaseChatModel:
    from docbot.models.openai import build_openai_chat

    # No base_url at all (``role_servers``): Ollama's own /v1 endpoint on the default host is the best guess.
    return _resilient(settings, role, build_openai_chat(settings, role, server),
                      f"the OpenAI-compatible server at {openai_url(server)}",
                      f"load {settings.model_for(role)} on that server (see its /v1/models)")


def _build_embedded(settings: Settings, role: str, _server: str) -> BaseChatModel:
    from docbot.models.embedded import build_embedded_chat

    return build_embedded_chat(settings, role)  # in-process: no connection to lose, no wrapper


def _build_replay(settings: Settings, role: str, _server: str) -> BaseChatModel:
    # With a recording every role replays (factory.build_models); here a role asked for replay alone.
    raise ConfigError(f"model_registry.{role}: backend 'replay' needs a recording; pass --replay FILE.")


def _served(settings: Settings, role: str) -> tuple[str, str]:
    return " ".join(role_servers(settings, role)), settings.model_for(role)


def _embedded_file(settings: Settings, role: str) -> tuple[str, str]:
    """The role's GGUF (server and model at once), or the bundled model's package name when it is
    not installed (the check says how to install it)."""
    from docbot.models.embedded import SMOLLM_DISTRIBUTION, embedded_model_path

    try:
        path = str(embedded_model_path(settings, role))
    except ConfigError:
        path = SMOLLM_DISTRIBUTION
    return path, path


BACKENDS: dict[Backend, BackendSpec] = {
    "ollama": BackendSpec(_build_ollama, _served, checks.check_ollama),
    "openai": BackendSpec(_build_openai, _served, checks.check_openai),
    "embedded": BackendSpec(_build_embedded, _embedded_file, checks.check_embedded, networked=False),
    "replay": BackendSpec(_build_replay, _served, None, networked=False),
}


def backend_of(settings: Settings, role: str) -> BackendSpec:
    return BACKENDS[settings.backend_for(role)]
