"""Preflight: one clear message (exit 3) listing everything wrong and its fix, before any model call."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.errors import ModelServerError
from docbot.models.checks import missing_models, ollama_name
from docbot.models.preflight import preflight, same_model_warnings
from docbot.config.sources import load_settings
from tests.support.ollama_server import OllamaFake
from tests.support.smol import N_CTX, SMOL_MODELS, free_port, smol_settings

pytest_plugins = ["tests.support.fixtures"]  # smollm_path, ollama_server, ...: one per session


@pytest.mark.parametrize(("name", "canonical"), [
    ("llama3", "llama3:latest"),
    ("llama3:8b", "llama3:8b"),
    ("deepseek-coder:6.7b", "deepseek-coder:6.7b"),
    ("library/llama3", "library/llama3:latest"),
    ("registry.local:5000/team/coder", "registry.local:5000/team/coder:latest"),  # a port is no tag
    ("registry.local:5000/team/coder:7b", "registry.local:5000/team/coder:7b"),
])
def test_ollama_name_defaults_the_tag(name: str, canonical: str) -> None:
    assert ollama_name(name) == canonical


@pytest.mark.parametrize(("wanted", "available", "missing"), [
    ({"GENERATOR": "llama3"}, ["llama3:latest"], {}),
    ({"GENERATOR": "llama3:latest"}, ["llama3"], {}),
    ({"GENERATOR": "llama3"}, ["llama3:8b"], {"llama3": ["GENERATOR"]}),  # no implicit tag match
    ({"GENERATOR": "a:1", "CRITIC": "b:1"}, ["a:1"], {"b:1": ["CRITIC"]}),
    ({"GENERATOR": "a:1", "CRITIC": "a:1"}, [], {"a:1": ["GENERATOR", "CRITIC"]}),  # one pull, both roles
])
def test_missing_models(wanted: dict[str, str], available: list[str], missing: dict[str, list[str]]) -> None:
    assert missing_models(wanted, available) == missing


@pytest.mark.parametrize(("identities", "expected"), [
    ({"GENERATOR": ("ollama", "u", "a"), "CRITIC": ("ollama", "u", "b"), "ADJUDICATOR": ("ollama", "u", "c")}, []),
    ({"GENERATOR": ("ollama", "u", "a"), "CRITIC": ("ollama", "u", "a:latest"),
      "ADJUDICATOR": ("ollama", "u", "c")}, ["GENERATOR and CRITIC use the same model (a)"]),
    # The same name on two servers is two models.
    ({"GENERATOR": ("ollama", "u", "a"), "CRITIC": ("ollama", "v", "a"), "ADJUDICATOR": ("ollama", "u", "c")}, []),
    ({"GENERATOR": ("embedded", "f", "f"), "CRITIC": ("embedded", "f", "f"),
      "ADJUDICATOR": ("embedded", "f", "f")}, ["GENERATOR, CRITIC and ADJUDICATOR use the same model (f)"]),
])
def test_same_model_warnings(identities: dict[str, tuple[str, str, str]], expected: list[str]) -> None:
    warnings = same_model_warnings(identities)
    assert [w.split(":")[0] for w in warnings] == expected
    assert all("grading its own writing" in w for w in warnings)


def test_all_models_present_passes_without_warnings(ollama_server: str) -> None:
    assert preflight(smol_settings("ollama", ollama_server)) == []


def test_server_down_says_start_it() -> None:
    closed = f"http://127.0.0.1:{free_port()}"  # nothing listens there

    with pytest.raises(ModelServerError) as caught:
        preflight(smol_settings("ollama", closed))

    assert caught.value.exit_code == 3
    message = str(caught.value)
    assert f"Ollama not reachable at {closed} (connection refused); start it with `ollama serve` " \
           "or set OLLAMA_HOST" in message
    assert message.count("not reachable") == 1  # one server, one line, whatever the number of roles


def test_wrong_ollama_host_names_the_address_tried() -> None:
    port = free_port()
    settings = load_settings(None, overrides={"model_registry": SMOL_MODELS, "num_ctx": N_CTX},
                             env={"OLLAMA_HOST": f"127.0.0.1:{port}"})

    with pytest.raises(ModelServerError, match=rf"Ollama not reachable at http://127\.0\.0\.1:{port} .*"
                                               "OLLAMA_HOST") as caught:
        preflight(settings)
    assert caught.value.exit_code == 3


def test_missing_models_are_listed_with_their_pull_commands(ollama_server: str) -> None:
    roles = {**SMOL_MODELS, "GENERATOR": "qwen3.5:9b", "CRITIC": "deepseek-coder:6.7b"}

    with pytest.raises(ModelServerError) as caught:
        preflight(smol_settings("ollama", ollama_server, model_registry=roles))

    assert caught.value.exit_code == 3
    lines = str(caught.value).splitlines()
    assert lines[0] == "cannot start; nothing was sent to a model:"
    assert lines[1:] == [
        f"  - qwen3.5:9b (GENERATOR) is not on Ollama at {ollama_server}: run `ollama pull qwen3.5:9b`",
        (f"  - deepseek-coder:6.7b (CRITIC) is not on Ollama at {ollama_server}: "
         "run `ollama pull deepseek-coder:6.7b`")]


def test_problems_on_two_servers_come_in_one_message(ollama_server: str) -> None:
    closed = f"http://127.0.0.1:{free_port()}"
    roles = {"GENERATOR": {"model": "qwen3.5:9b"}, "CRITIC": {"model": SMOL_MODELS["CRITIC"]},
             "ADJUDICATOR": {"model": "llama3:8b", "base_url": closed}}

    with pytest.raises(ModelServerError) as caught:
        preflight(smol_settings("ollama", ollama_server, model_registry=roles))

    message = str(caught.value)
    assert "run `ollama pull qwen3.5:9b`" in message
    assert f"Ollama not reachable at {closed}" in message
    assert SMOL_MODELS["CRITIC"] not in message


def test_same_model_for_two_roles_is_a_warning(ollama_server: str) -> None:
    roles = {**SMOL_MODELS, "CRITIC": SMOL_MODELS["GENERATOR"]}

    warnings = preflight(smol_settings("ollama", ollama_server, model_registry=roles))

    assert warnings == [(f"GENERATOR and CRITIC use the same model ({SMOL_MODELS['GENERATOR']}): a model "
                         "grading its own writing tends to wave it through; give each role its own model "
                         "in config.json.")]


def test_reasoning_on_a_model_that_cannot_think(ollama_fake: OllamaFake, ollama_server: str) -> None:
    with pytest.raises(ModelServerError, match="cannot think, but reasoning is on"):
        preflight(smol_settings("ollama", ollama_server, reasoning=True))
    assert ollama_fake.requests[-1]["path"] == "/api/show"


def test_openai_server_down() -> None:
    closed = f"http://127.0.0.1:{free_port()}"

    with pytest.raises(ModelServerError, match=rf"OpenAI-compatible server not reachable at {closed}/v1 "):
        preflight(smol_settings("openai", closed))


def test_embedded_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.gguf"

    with pytest.raises(ModelServerError, match=f"embedded model file {missing} does not exist"):
        preflight(smol_settings("embedded", embedded_model_path=str(missing)))


def test_embedded_default_passes_and_warns(smollm_path: Path) -> None:
    warnings = preflight(smol_settings("embedded"))

    assert len(warnings) == 1 and warnings[0].startswith(
        f"GENERATOR, CRITIC and ADJUDICATOR use the same model ({smollm_path})")


def test_replay_checks_nothing(tmp_path: Path) -> None:
    recording = tmp_path / "run.jsonl"
    recording.write_text("")
    closed = f"http://127.0.0.1:{free_port()}"

    assert preflight(smol_settings("replay", closed, replay=str(recording))) == []
