"""Configuration: defaults, overrides, and every broken-file case naming the problem (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from docbot.errors import ConfigError
from docbot.config.sources import load_settings


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.json"
    path.write_text(text, encoding="utf-8")
    return path


def test_absent_file_means_seed_defaults(tmp_path: Path) -> None:
    settings = load_settings(tmp_path / "config.json")
    assert (settings.model_for("GENERATOR"), settings.model_for("CRITIC"), settings.model_for("ADJUDICATOR")) == (
        "qwen3.5:9b", "deepseek-coder:6.7b", "llama3:8b")
    assert (settings.quality_score_bar, settings.max_attempts) == (95, 4)
    assert [settings.temperature_for(r) for r in ("GENERATOR", "CRITIC", "ADJUDICATOR")] == [0.7, 0.0, 0.2]


def test_repo_config_is_valid() -> None:
    settings = load_settings(Path(__file__).parents[2] / "config.json", required=True)
    assert settings.model_for("CRITIC") == "deepseek-coder:6.7b"


def test_precedence_file_then_env_then_flags(tmp_path: Path) -> None:
    path = write(tmp_path, json.dumps({"base_url": "http://file:1", "max_attempts": 2}))
    assert load_settings(path).base_url == "http://file:1"
    assert load_settings(path, env={"OLLAMA_HOST": "gpu-box:11434"}).base_url == "http://gpu-box:11434"
    flagged = load_settings(path, {"base_url": "http://flag:3"}, {"OLLAMA_HOST": "gpu-box:11434"})
    assert flagged.base_url == "http://flag:3" and flagged.max_attempts == 2


def test_role_may_name_its_own_backend(tmp_path: Path) -> None:
    path = write(tmp_path, json.dumps({"model_registry": {
        "GENERATOR": "a", "CRITIC": {"model": "b", "backend": "openai", "base_url": "http://vllm:8000"},
        "ADJUDICATOR": "c"}}))
    settings = load_settings(path)
    assert settings.backend_for("CRITIC") == "openai" and settings.backend_for("GENERATOR") == "ollama"
    assert settings.base_urls_for("CRITIC") == ("http://vllm:8000",) and settings.base_urls_for("GENERATOR") == ()


def test_settings_are_frozen() -> None:
    settings = load_settings(None)
    with pytest.raises(ValidationError):
        settings.max_attempts = 9  # type: ignore[misc]


BROKEN = [
    ("bad JSON names the line", '{\n  "max_attempts": 4,\n  oops\n}', ["line 3", "invalid JSON"]),
    ("wrong type names the field", '{"max_attempts": "four"}', ["max_attempts", "integer"]),
    ("out of range", '{"quality_score_bar": 150}', ["quality_score_bar", "100"]),
    ("unknown key", '{"max_attempt": 3, "docs_dir": "d"}',
     ["max_attempt: unknown key; did you mean 'max_attempts'? (line 1, column 2)"]),
    ("missing role", '{"model_registry": {"GENERATOR": "a", "ADJUDICATOR": "c"}}',
     ["model_registry", "missing role CRITIC", "GENERATOR, CRITIC, ADJUDICATOR"]),
    ("unknown role", '{"model_registry": {"GENERATOR": "a", "CRITIC": "b", "ADJUDICATOR": "c", "JUDGE": "d"}}',
     ["unknown role JUDGE"]),
    ("not an object", '[1, 2]', ["JSON object"]),
    ("bad temperature", '{"temperatures": {"CRITIC": 5}}', ["temperatures", "between"]),
]


@pytest.mark.parametrize("name,text,expected", BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_config_is_exit_2_naming_the_problem(tmp_path: Path, name: str, text: str,
                                                    expected: list[str]) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    assert caught.value.exit_code == 2
    message = str(caught.value)
    assert str(path) in message
    for fragment in expected:
        assert fragment in message


def test_named_but_missing_config_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        load_settings(tmp_path / "nope.json", required=True)
