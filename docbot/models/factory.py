"""Build the three role models from the settings, each through its backend's entry in
``docbot/models/registry.py``; with a recording, every role replays it instead. When a role lists
several servers, every networked role goes through one ``ServerLoad`` (``docbot/models/pool.py``),
so a server that two roles share is counted once."""

from __future__ import annotations

from pathlib import Path

from langchain_core.language_models import BaseChatModel

from docbot.models import RoleModels
from docbot.models.pool import PooledChatModel, ServerLoad
from docbot.models.registry import backend_of
from docbot.models.servers import role_servers
from docbot.config.settings import ROLES, Role, Settings


def build_models(settings: Settings) -> RoleModels:
    """One chat model per role, as the settings say. Raises ConfigError for a backend that cannot load."""
    if settings.replay:  # also the case for backend "replay": Settings refuses it without a recording
        return _replay_models(settings, Path(settings.replay))
    load = ServerLoad(settings.jobs_per_server) if any(len(_servers(settings, r)) > 1 for r in ROLES) else None
    return RoleModels(generator=build_role_model(settings, Role.GENERATOR, load),
                      critic=build_role_model(settings, Role.CRITIC, load),
                      adjudicator=build_role_model(settings, Role.ADJUDICATOR, load))


def build_role_model(settings: Settings, role: Role, load: ServerLoad | None = None) -> BaseChatModel:
    """The role's model; with a ``load``, a pool over its servers (even one, to be counted)."""
    backend, servers = backend_of(settings, role), _servers(settings, role)
    if load is None or not servers:
        return backend.build(settings, role, servers[0] if servers else "")
    return PooledChatModel(members={url: backend.build(settings, role, url) for url in servers}, load=load,
                           role=role, model_name=settings.model_for(role))


def _servers(settings: Settings, role: Role) -> tuple[str, ...]:
    """The role's server URLs; () for a backend without servers (embedded, replay)."""
    return role_servers(settings, role) if backend_of(settings, role).networked else ()


def _replay_models(settings: Settings, path: Path) -> RoleModels:
    from docbot.models.replay import Recording, ReplayChatModel

    recording = Recording.load(path)

    def replay(role: Role) -> ReplayChatModel:
        return ReplayChatModel(role=role, model_name=settings.model_for(role), recording=recording)

    return RoleModels(generator=replay(Role.GENERATOR), critic=replay(Role.CRITIC),
                      adjudicator=replay(Role.ADJUDICATOR))
