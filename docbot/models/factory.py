"""Build the three role models from the settings, each through its backend's entry in
``docbot/models/registry.py``; with a recording, every role replays it instead."""

from __future__ import annotations

from pathlib import Path

from langchain_core.language_models import BaseChatModel

from docbot.models import RoleModels
from docbot.models.registry import backend_of
from docbot.settings import Role, Settings


def build_models(settings: Settings) -> RoleModels:
    """One chat model per role, as the settings say. Raises ConfigError for a backend that cannot load."""
    if settings.replay:  # also the case for backend "replay": Settings refuses it without a recording
        return _replay_models(settings, Path(settings.replay))
    return RoleModels(generator=build_role_model(settings, Role.GENERATOR),
                      critic=build_role_model(settings, Role.CRITIC),
                      adjudicator=build_role_model(settings, Role.ADJUDICATOR))


def build_role_model(settings: Settings, role: Role) -> BaseChatModel:
    return backend_of(settings, role).build(settings, role)


def _replay_models(settings: Settings, path: Path) -> RoleModels:
    from docbot.models.replay import Recording, ReplayChatModel

    recording = Recording.load(path)

    def replay(role: Role) -> ReplayChatModel:
        return ReplayChatModel(role=role, model_name=settings.model_for(role), recording=recording)

    return RoleModels(generator=replay(Role.GENERATOR), critic=replay(Role.CRITIC),
                      adjudicator=replay(Role.ADJUDICATOR))
