"""Issue 13 part 3, the rules as tables: precedence of the sources, whose config.json it is, "did you
mean", where a bad key sits, the API key's variables, the tracked-key warning, and the schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from docbot.config.show import show_json, show_lines
from docbot.config.sources import Level, config_layer, env_layers, load_local, pyproject_layer
from docbot.errors import ConfigError
from docbot.config.settings import servers_in, settings_schema
from tests.support.git_repo import GitRepo

ROOT = Path(__file__).parents[2]


def files(tmp_path: Path, pyproject: dict[str, Any] | None = None, config: dict[str, Any] | None = None) -> Path:
    if pyproject is not None:
        lines = [f"{key} = {json.dumps(value)}" for key, value in pyproject.items()]
        (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n\n[tool.docbot]\n" + "\n".join(lines) + "\n",
                                                 encoding="utf-8")
    if config is not None:
        (tmp_path / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return tmp_path


# Each row sets docs_dir in some sources; the highest one present wins and is named as the origin.
PRECEDENCE = [
    ({}, ("docs/api", "default")),
    ({"pyproject": "p"}, ("p", "pyproject")),
    ({"pyproject": "p", "config": "c"}, ("c", "config.json")),
    ({"config": "c", "flag": "f"}, ("f", "flag")),
    ({"pyproject": "p", "config": "c", "flag": "f"}, ("f", "flag")),
]


@pytest.mark.parametrize("given, expected", PRECEDENCE)
def test_docs_dir_precedence(tmp_path: Path, given: dict[str, str], expected: tuple[str, str]) -> None:
    root = files(tmp_path, {"docs_dir": given["pyproject"]} if "pyproject" in given else None,
                 {"docs_dir": given["config"]} if "config" in given else None)
    loaded = load_local(root, None, {"docs_dir": given.get("flag")}, {})
    assert (loaded.settings.docs_dir, loaded.origins["docs_dir"]) == expected


@pytest.mark.parametrize("sources, env, flag, expected", [
    ({"pyproject": "http://p:1"}, {}, None, ("http://p:1", "pyproject")),
    ({"pyproject": "http://p:1", "config": "http://c:2"}, {}, None, ("http://c:2", "config.json")),
    ({"config": "http://c:2"}, {"OLLAMA_HOST": "e:3"}, None, ("http://e:3", "env OLLAMA_HOST")),
    ({"config": "http://c:2"}, {"OLLAMA_HOST": "e:3", "DOCBOT_BASE_URL": "http://d:4"}, None,
     ("http://d:4", "env DOCBOT_BASE_URL")),
    ({"config": "http://c:2"}, {"OLLAMA_HOST": "e:3"}, "http://f:5", ("http://f:5", "flag")),
    # A variable or a flag lists several servers with commas, as a config file does with a JSON list.
    ({}, {"DOCBOT_BASE_URL": "http://a:1, http://b:2"}, None, (["http://a:1", "http://b:2"], "env DOCBOT_BASE_URL")),
    ({}, {"DOCBOT_BASE_URL": "http://a:1"}, "http://f:5,http://g:6", (["http://f:5", "http://g:6"], "flag")),
])
def test_base_url_precedence_through_the_environment(tmp_path: Path, sources: dict[str, str], env: dict[str, str],
                                                     flag: str | None, expected: tuple[str, str]) -> None:
    root = files(tmp_path, {"base_url": sources["pyproject"]} if "pyproject" in sources else None,
                 {"base_url": sources["config"]} if "config" in sources else None)
    loaded = load_local(root, None, {"base_url": None if flag is None else servers_in(flag)}, env)
    assert (loaded.settings.base_url, loaded.origins["base_url"]) == expected


@pytest.mark.parametrize("value", ["http://a:1,,http://b:2", "http://a:1,http://a:1", "http://a:1,"])
def test_a_bad_list_of_servers_in_the_environment_is_named(tmp_path: Path, value: str) -> None:
    with pytest.raises(ConfigError, match="DOCBOT_BASE_URL"):
        load_local(tmp_path, None, {}, {"DOCBOT_BASE_URL": value})


@pytest.mark.parametrize("env, expected", [
    ({}, (None, "default")),
    ({"OPENAI_API_KEY": "o"}, ("o", "env OPENAI_API_KEY")),
    ({"DOCBOT_API_KEY": "d"}, ("d", "env DOCBOT_API_KEY")),
    ({"DOCBOT_API_KEY": "d", "OPENAI_API_KEY": "o"}, ("d", "env DOCBOT_API_KEY")),
    ({"DOCBOT_API_KEY": "", "OPENAI_API_KEY": "o"}, ("o", "env OPENAI_API_KEY")),  # empty is unset
])
def test_the_api_key_comes_from_docbot_then_openai_variables(env: dict[str, str], expected: tuple[Any, str],
                                                             tmp_path: Path) -> None:
    loaded = load_local(tmp_path, None, {}, env)
    assert (loaded.settings.api_key, loaded.origins["api_key"]) == expected


def test_the_environment_beats_a_key_in_the_file(tmp_path: Path) -> None:
    loaded = load_local(files(tmp_path, config={"api_key": "in-file"}), None, {}, {"OPENAI_API_KEY": "env"})
    assert loaded.settings.api_key == "env"


@pytest.mark.parametrize("data, named, docbots", [
    ({"app_name": "shop"}, False, False),
    ({}, False, False),
    ({"$schema": "./docbot.schema.json"}, False, False),
    ({"app_name": "shop", "docs_dir": "d"}, False, True),  # one docbot key: all of it is checked
    ({"max_attempts": 2}, False, True),
    ({"app_name": "shop"}, True, True),  # named with --config: it is docbot's
])
def test_whose_config_json(data: dict[str, Any], named: bool, docbots: bool) -> None:
    layer, note = config_layer(json.dumps(data), "config.json", "config.json", named=named)
    assert (layer is not None) is docbots and (note is None) is docbots
    if note:
        assert note.level is Level.INFO and "config.json has none of docbot's keys" in note.text


def test_a_near_miss_in_an_ignored_config_is_pointed_out() -> None:
    _layer, note = config_layer('{"max_atempts": 2}', "config.json", "config.json", named=False)
    assert note and "'max_atempts' -> 'max_attempts'" in note.text


def test_the_schema_pointer_is_not_a_setting(tmp_path: Path) -> None:
    root = files(tmp_path, config={"$schema": "./docbot.schema.json", "max_attempts": 2})
    assert load_local(root, None, {}, {}).settings.max_attempts == 2


@pytest.mark.parametrize("config, expected", [
    ({"docs_dir": "d", "max_atempts": 2}, "max_atempts: unknown key; did you mean 'max_attempts'?"),
    ({"docs_dir": "d", "qualty_score_bar": 2}, "did you mean 'quality_score_bar'?"),
    ({"docs_dir": "d", "zzz": 1}, "zzz: unknown key; remove it or check its spelling"),
    ({"model_registry": {"GENERATOR": "a", "CRITIC": {"modle": "b"}, "ADJUDICATOR": "c"}},
     "model_registry.CRITIC.modle: unknown key; did you mean 'model'?"),
])
def test_did_you_mean(tmp_path: Path, config: dict[str, Any], expected: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_local(files(tmp_path, config=config), None, {}, {})
    assert expected in str(caught.value) and caught.value.exit_code == 2


def test_every_bad_key_is_named_with_its_line_and_column(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text('{\n  "docs_dir": 3,\n    "max_atempts": 1\n}', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_local(tmp_path, None, {}, {})
    message = str(caught.value)
    assert "docs_dir: Input should be a valid string (line 2, column 3)" in message
    assert "max_atempts: unknown key; did you mean 'max_attempts'? (line 3, column 5)" in message


def test_each_bad_key_is_blamed_on_its_own_file(tmp_path: Path) -> None:
    root = files(tmp_path, {"max_atempts": 1}, {"quality_score_bar": 500})
    with pytest.raises(ConfigError) as caught:
        load_local(root, None, {}, {})
    message = str(caught.value)
    assert f"{root / 'pyproject.toml'} [tool.docbot]: invalid configuration:\n  max_atempts: unknown key" in message
    assert f"{root / 'config.json'}: invalid configuration:\n  quality_score_bar:" in message


@pytest.mark.parametrize("text, expected", [
    ("[project]\nname = 'x'\n", None),
    ("[tool.ruff]\nline-length = 100\n", None),
    ("[tool.docbot]\ndocs_dir = 'ref'\n", {"docs_dir": "ref"}),
])
def test_the_pyproject_table(text: str, expected: dict[str, Any] | None) -> None:
    layer = pyproject_layer(text, "pyproject.toml")
    assert (layer.values if layer else None) == expected


@pytest.mark.parametrize("text, fragment", [
    ("[tool.docbot\n", "pyproject.toml: invalid TOML"),
    ("[tool]\ndocbot = 3\n", "[tool.docbot] must be a table"),
])
def test_a_broken_pyproject_is_named(text: str, fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment.replace("[", r"\[").replace(".", r"\.")):
        pyproject_layer(text, "pyproject.toml")


def test_a_bad_backend_variable_still_names_the_variable() -> None:
    with pytest.raises(ConfigError, match="DOCBOT_BACKEND='olama'"):
        env_layers({"DOCBOT_BACKEND": "olama"})


@pytest.mark.parametrize("where, tracked, warned", [
    ("config", True, True),
    ("config", False, False),
    ("pyproject", True, True),
    ("pyproject", False, False),
])
def test_a_key_in_a_tracked_file_is_warned_about(tmp_path: Path, where: str, tracked: bool, warned: bool) -> None:
    repo = GitRepo(tmp_path)
    files(tmp_path, {"api_key": "sk-1"} if where == "pyproject" else None,
          {"api_key": "sk-1"} if where == "config" else None)
    repo.write("keep.txt", "x\n")
    repo.git("add", "keep.txt", *(["."] if tracked else []))
    repo.git("commit", "-q", "-m", "files")
    notes = load_local(tmp_path, None, {}, {}).notes
    assert [n.level for n in notes if "sets api_key and is tracked by git" in n.text] == (
        [Level.WARNING] if warned else [])


def test_show_masks_the_key_and_names_every_source(tmp_path: Path) -> None:
    loaded = load_local(files(tmp_path, {"docs_dir": "p"}), None, {"backend": "openai"},
                        {"DOCBOT_API_KEY": "sk-secret"})
    shown = show_json(loaded)
    assert shown["api_key"] == {"value": "***", "source": "env DOCBOT_API_KEY"}
    assert shown["docs_dir"] == {"value": "p", "source": "pyproject"}
    assert shown["backend"] == {"value": "openai", "source": "flag"}
    assert shown["max_attempts"] == {"value": 4, "source": "default"}
    assert "sk-secret" not in "\n".join(show_lines(loaded))
    assert show_json(load_local(tmp_path, None, {}, {}))["api_key"]["value"] is None  # unset is not masked


def test_the_committed_schema_is_the_generated_one() -> None:
    committed = json.loads((ROOT / "docbot.schema.json").read_text(encoding="utf-8"))
    assert committed == settings_schema()


@pytest.mark.parametrize("config, valid", [
    (json.loads((ROOT / "config.json").read_text(encoding="utf-8")), True),  # the seed's role -> name form
    ({"model_registry": {"GENERATOR": {"model": "a"}, "CRITIC": "b", "ADJUDICATOR": "c"}}, True),
    ({"$schema": "./docbot.schema.json", "docs_dir": "d"}, True),
    ({"max_atempts": 2}, False),
    ({"model_registry": {"GENERATOR": "a", "CRITIC": "b", "ADJUDICATOR": "c", "JUDGE": "d"}}, False),
    ({"backend": "olama"}, False),
    ({"quality_score_bar": 101}, False),
])
def test_the_schema_judges_as_docbot_does(tmp_path: Path, config: dict[str, Any], valid: bool) -> None:
    schema = settings_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert jsonschema.Draft202012Validator(schema).is_valid(config) is valid
    root = files(tmp_path, config=config)
    if valid:
        load_local(root, None, {}, {})
    else:
        with pytest.raises(ConfigError):
            load_local(root, Path(root / "config.json"), {}, {})


def test_the_readmes_tool_docbot_example_is_valid(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = readme.split("```toml\n# pyproject.toml\n", 1)[1].split("```", 1)[0]
    (tmp_path / "pyproject.toml").write_text(example, encoding="utf-8")
    loaded = load_local(tmp_path, None, {}, {})
    assert (loaded.settings.docs_dir, loaded.settings.quality_score_bar) == ("reference", 90)
    assert loaded.origins["model_registry"] == "pyproject"


def test_a_key_that_repeats_gets_no_position_rather_than_a_wrong_one(tmp_path: Path) -> None:
    text = '{"model_registry": {"GENERATOR": {"model": "a"}, "CRITIC": {"model": "b", "x": 1}, "ADJUDICATOR": "c"},\n'
    (tmp_path / "config.json").write_text(text + ' "docs_dir": "d", "x": 2}', encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_local(tmp_path, None, {}, {})
    unknown = "unknown key; remove it or check its spelling (see README, Configuration)"
    lines = str(caught.value).splitlines()
    assert f"  model_registry.CRITIC.x: {unknown}" in lines and f"  x: {unknown}" in lines
