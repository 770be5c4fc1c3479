"""One registry of backends and one list of roles: each backend name builds and preflights through the
registry, and the names the fronts accept are the registry's."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from pathlib import Path

import httpx
import pytest

from docbot.errors import ConfigError, ModelServerError
from docbot.fronts.cli import main_parser
from docbot.fronts.single import reflexion_parser
from docbot.fronts.hook import parser as hook_parser
from docbot.models import checks
from docbot.models.factory import build_models, build_role_model
from docbot.models.preflight import preflight, role_identities
from docbot.models.registry import BACKENDS, BackendSpec
from docbot.models.resilience import ResilientChatModel
from docbot.config.settings import BACKEND_NAMES, DEFAULT_MODELS, ROLES, Role, RoleModel, Settings

pytest_plugins = ["tests.support.fixtures"]  # smollm_path


def test_the_registry_has_exactly_the_backend_names() -> None:
    assert tuple(BACKENDS) == BACKEND_NAMES == ("ollama", "openai", "embedded", "replay")


PARSERS = [("run", lambda: main_parser(), ["run"]), ("reflexion", reflexion_parser, []), ("hook", hook_parser, [])]


@pytest.mark.parametrize("name,make,head", PARSERS, ids=[p[0] for p in PARSERS])
def test_fronts_offer_the_registry_names(name: str, make: Callable[[], argparse.ArgumentParser],
                                         head: list[str]) -> None:
    for backend in BACKEND_NAMES:
        assert make().parse_args([*head, "--backend", backend]).backend == backend
    with pytest.raises(SystemExit):
        make().parse_args([*head, "--backend", "bogus"])


def test_roles_are_one_enum_in_order() -> None:
    assert ROLES == (Role.GENERATOR, Role.CRITIC, Role.ADJUDICATOR)
    assert list(Settings().model_registry) == list(ROLES) == list(DEFAULT_MODELS)


# backend -> (the check it uses, the inner model's class name after the build)
BUILDS = [("ollama", checks.check_ollama, "ChatOllama"),
          ("openai", checks.check_openai, "OpenAICompatibleChat")]


@pytest.mark.parametrize("backend,check,inner", BUILDS, ids=[b[0] for b in BUILDS])
def test_networked_backends_build_a_resilient_model(backend: str, check: object, inner: str) -> None:
    settings = Settings(backend=backend, base_url="http://127.0.0.1:9")  # type: ignore[arg-type]
    assert BACKENDS[backend].check is check  # type: ignore[index]
    for role in ROLES:
        model = build_role_model(settings, role)
        assert isinstance(model, ResilientChatModel) and type(model.inner).__name__ == inner
        assert (model.role, model.model_name) == (role, settings.model_for(role))


def test_embedded_builds_in_process_and_is_checked_by_its_probe(smollm_path: Path) -> None:
    from docbot.models.embedded import EmbeddedChatModel

    assert BACKENDS["embedded"].check is checks.check_embedded
    model = build_role_model(Settings(backend="embedded"), Role.CRITIC)
    assert isinstance(model, EmbeddedChatModel) and model.model_path == str(smollm_path)
    assert role_identities(Settings(backend="embedded"))["CRITIC"] == ("embedded", str(smollm_path),
                                                                      str(smollm_path))


def test_replay_for_one_role_needs_a_recording() -> None:
    registry = {**DEFAULT_MODELS, "CRITIC": {"model": "x", "backend": "replay"}}
    settings = Settings(model_registry=registry)  # type: ignore[arg-type]
    assert BACKENDS["replay"].check is None
    with pytest.raises(ConfigError, match="model_registry.CRITIC: backend 'replay' needs a recording"):
        build_role_model(settings, Role.CRITIC)


def test_a_recording_replays_every_role(tmp_path: Path) -> None:
    recording = tmp_path / "rec.jsonl"
    recording.write_text("", encoding="utf-8")
    models = build_models(Settings(replay=str(recording)))
    assert [m.role for m in (models.generator, models.critic, models.adjudicator)] == list(ROLES)


class _Calls:
    def __init__(self, problems: list[str]) -> None:
        self.problems, self.seen = problems, []  # type: list[str], list[tuple[str, dict[str, str]]]

    def __call__(self, client: httpx.Client, server: str, wanted: Mapping[str, str], settings: Settings) -> list[str]:
        self.seen.append((server, dict(wanted)))
        return self.problems


@pytest.mark.parametrize("backend", ["ollama", "openai"])
def test_preflight_asks_each_server_once_through_the_registry(backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _Calls([])
    monkeypatch.setitem(BACKENDS, backend, BackendSpec(BACKENDS[backend].build, BACKENDS[backend].identity,
                                                       calls))  # type: ignore[index]
    registry = {**DEFAULT_MODELS, "CRITIC": {"model": "other", "base_url": "http://10.0.0.2:1"}}
    settings = Settings(backend=backend, base_url="http://10.0.0.1:1", model_registry=registry)  # type: ignore
    assert preflight(settings) == []
    assert calls.seen == [("http://10.0.0.1:1", {"GENERATOR": DEFAULT_MODELS["GENERATOR"],
                                                 "ADJUDICATOR": DEFAULT_MODELS["ADJUDICATOR"]}),
                          ("http://10.0.0.2:1", {"CRITIC": "other"})]


def test_preflight_raises_the_registry_checks_problems(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _Calls(["model x is missing: run `ollama pull x`"])
    monkeypatch.setitem(BACKENDS, "ollama", BackendSpec(BACKENDS["ollama"].build, BACKENDS["ollama"].identity,
                                                        calls))
    with pytest.raises(ModelServerError, match="model x is missing"):
        preflight(Settings(base_url="http://10.0.0.1:1"))


def test_a_role_on_its_own_backend_is_checked_by_that_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, _Calls] = {name: _Calls([]) for name in ("ollama", "openai")}
    for name, calls in seen.items():
        monkeypatch.setitem(BACKENDS, name, BackendSpec(BACKENDS[name].build, BACKENDS[name].identity,  # type: ignore
                                                        calls))
    registry = {**{r: RoleModel(model=m) for r, m in DEFAULT_MODELS.items()},
                "ADJUDICATOR": RoleModel(model="judge", backend="openai")}
    preflight(Settings(base_url="http://10.0.0.1:1", model_registry=registry))
    assert [set(w) for _, w in seen["ollama"].seen] == [{"GENERATOR", "CRITIC"}]
    assert seen["openai"].seen == [("http://10.0.0.1:1", {"ADJUDICATOR": "judge"})]
