"""Issue 32: the settings a check, a screen or a scan reads load without pydantic (``docbot.config.plain``), and
say exactly what the model says: the same schema, the same defaults, the same values, the same messages."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings as hypothesis_settings, strategies as st

from docbot.config.plain import NAMES, PlainSettings, load_plain
from docbot.config.rules import ROLE_NAMES, conforms
from docbot.config.schema import FIELDS, SCHEMA
from docbot.config.schema_gen import module_text
from docbot.config.settings import ROLES, Settings, settings_schema
from docbot.config.sources import load_local
from docbot.errors import ConfigError
from tests.support.git_repo import GitRepo

ROOT = Path(__file__).parents[2]


def test_the_schema_module_is_the_models_schema() -> None:
    assert SCHEMA == json.loads(json.dumps(settings_schema())) == json.loads(
        (ROOT / "docbot.schema.json").read_text(encoding="utf-8"))
    assert FIELDS == tuple(Settings.model_fields) and ROLE_NAMES == tuple(ROLES)
    # regenerating it changes nothing: `python -m docbot.config.schema_gen` after a change to Settings
    assert module_text() == (ROOT / "docbot/config/schema.py").read_text(encoding="utf-8")


def test_the_plain_defaults_are_the_models_defaults() -> None:
    assert PlainSettings() == PlainSettings.of(Settings())
    assert set(NAMES) <= set(FIELDS)


def accepts(data: dict[str, Any]) -> Settings | None:
    try:
        return Settings.model_validate(data)
    except ValueError:  # pydantic's ValidationError is a ValueError
        return None


REGISTRY = {"GENERATOR": "a", "CRITIC": "b", "ADJUDICATOR": "c"}
# One case per rule the schema cannot state, each with its one-line twin that is valid: a rule that said yes to
# the first, or no to the second, fails here.
RULES = [
    ({"model_registry": {"GENERATOR": "a", "CRITIC": "b"}}, {"model_registry": REGISTRY}),
    ({"model_registry": {**REGISTRY, "JUDGE": "d"}}, {"model_registry": {**REGISTRY, "CRITIC": {"model": "b"}}}),
    ({"model_registry": {**REGISTRY, "CRITIC": {"model": "b", "base_url": ["u", "u"]}}},
     {"model_registry": {**REGISTRY, "CRITIC": {"model": "b", "base_url": ["u", "v"]}}}),
    ({"model_registry": {**REGISTRY, "CRITIC": {"model": ""}}}, {"model_registry": {**REGISTRY, "CRITIC": "b"}}),
    ({"temperatures": {"CRITIC": 2.5}}, {"temperatures": {"CRITIC": 2}}),
    ({"temperatures": {"JUDGE": 0.5}}, {"temperatures": {"ADJUDICATOR": 0.5}}),
    ({"base_url": []}, {"base_url": ["http://a"]}),
    ({"base_url": ["http://a", ""]}, {"base_url": "http://a"}),
    ({"base_url": ["http://a", "http://a"]}, {"base_url": ["http://a", "http://b"]}),
    ({"backend": "replay"}, {"backend": "replay", "replay": "r.jsonl"}),
    ({"$schema": "./docbot.schema.json"}, {}),
    ({"max_attempts": True}, {"max_attempts": 1}),
    ({"max_attempts": 2.0}, {"max_attempts": 20}),
    ({"chars_per_token": math.nan}, {"chars_per_token": 3}),
    ({"example_timeout_s": 0}, {"example_timeout_s": 600}),
    ({"time_budget_s": -1.0}, {"time_budget_s": 0.5}),
    ({"run_examples": "yes"}, {"run_examples": False}),
    ({"exclude": ["a", 1]}, {"exclude": []}),
    ({"docs_setup": {"a": 1}}, {"docs_setup": {"README.md": "import x"}}),
    ({"zzz": 1}, {"docs_dir": "d"}),
]


@pytest.mark.parametrize("bad, good", RULES)
def test_each_rule_agrees_with_the_model(bad: dict[str, Any], good: dict[str, Any]) -> None:
    assert (conforms(bad), accepts(bad)) == (False, None)
    assert conforms(good) and accepts(good) is not None


def field_values(name: str) -> st.SearchStrategy[Any]:
    """Values near the edges of what the field accepts, and of the wrong type."""
    node = SCHEMA["properties"][name]
    options = [node, *node.get("anyOf", [])]
    near: list[st.SearchStrategy[Any]] = []
    for option in options:
        low, high = option.get("minimum", option.get("exclusiveMinimum", -5)), option.get("maximum", 5)
        if option.get("type") == "integer":
            near.append(st.integers(low - 1, high + 1))
        if option.get("type") == "number":
            near += [st.floats(low - 1, high + 1), st.integers(int(low) - 1, int(high) + 1)]
        if "enum" in option or "const" in option:
            near.append(st.sampled_from([*option.get("enum", [option.get("const")]), "other"]))
    words = st.sampled_from(["", "a", "http://a", "http://b", "README.md", "GENERATOR", "CRITIC", "ADJUDICATOR"])
    role_entry = st.one_of(words, st.fixed_dictionaries({"model": words}, optional={"base_url": st.lists(words)}))
    junk = st.one_of(st.none(), st.booleans(), words, st.floats(allow_nan=True), st.lists(words, max_size=3),
                     st.dictionaries(words, st.one_of(words, st.floats(-1, 3), role_entry), max_size=4))
    return st.one_of(*near, junk)


def lax(registry: Any) -> bool:
    """A registry with a role's entry as an object: the model reads those laxly (not strict), the rules strictly."""
    return isinstance(registry, dict) and any(isinstance(entry, dict) for entry in registry.values())


CONFIGS = st.dictionaries(st.sampled_from([*FIELDS, "$schema", "zzz"]), st.none()).flatmap(
    lambda keys: st.fixed_dictionaries({key: field_values(key) if key in FIELDS else st.just(1) for key in keys}))


@hypothesis_settings(max_examples=600, deadline=None)
@given(CONFIGS)
def test_the_rules_say_yes_only_where_the_model_does(data: dict[str, Any]) -> None:
    data = {key: value for key, value in data.items() if value is not None}  # as the layers' merge drops them
    model = accepts(data)
    if conforms(data):
        assert model is not None and PlainSettings.from_values(data) == PlainSettings.of(model)
    elif not lax(data.get("model_registry")):
        assert model is None  # outside a role's lax entry the rules are exact: the model is never asked needlessly


def both(root: Path, config: Path | None = None, overrides: dict[str, Any] | None = None,
         env: dict[str, str] | None = None) -> tuple[str, str]:
    """What each loader says: its settings' values, or its error message."""
    said = []
    for load in (lambda: PlainSettings.of(load_local(root, config, overrides or {}, env or {}).settings),
                 lambda: load_plain(root, config, overrides or {}, env or {}).settings):
        try:
            said.append(repr(load()))
        except ConfigError as err:
            said.append(f"ConfigError({err.exit_code}): {err}")
    return said[0], said[1]


BAD_FILES = [
    ("config.json", '{\n  "max_attempts": 4,\n  oops\n}'),
    ("config.json", '{"max_attempts": "four"}'),
    ("config.json", '{"quality_score_bar": 150, "docs_dir": 3}'),
    ("config.json", '{"max_attempt": 3, "docs_dir": "d"}'),
    ("config.json", '{"model_registry": {"GENERATOR": "a", "ADJUDICATOR": "c"}}'),
    ("config.json", '{"model_registry": {"GENERATOR": "a", "CRITIC": {"modle": "b"}, "ADJUDICATOR": "c"}}'),
    ("config.json", "[1, 2]"),
    ("config.json", '{"temperatures": {"CRITIC": 5}}'),
    ("config.json", '{"exclude": "tests/*"}'),
    ("config.json", '{"example_sandbox": "none", "include_dunder": 1}'),
    ("pyproject.toml", "[tool.docbot]\ndocs_dir = 'd'\ncache = 'yes'\n"),
    ("pyproject.toml", "[tool.docbot]\n\"$schema\" = 'x'\n"),
    ("pyproject.toml", "[tool.docbot\n"),
    ("pyproject.toml", "[tool]\ndocbot = 3\n"),
]


@pytest.mark.parametrize("name, text", BAD_FILES)
def test_a_bad_file_gets_the_same_message_from_both_loaders(tmp_path: Path, name: str, text: str) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    model, plain = both(tmp_path)
    assert model.startswith("ConfigError(2): ") and model == plain


@pytest.mark.parametrize("overrides, env", [
    ({"backend": "nope"}, {}),
    ({"base_url": ["http://a", "http://a"]}, {}),
    ({"replay": None, "backend": "replay"}, {}),
    ({}, {"DOCBOT_BACKEND": "gpu"}),
    ({}, {"DOCBOT_BASE_URL": "http://a,,http://b"}),
])
def test_a_bad_flag_or_variable_gets_the_same_message(tmp_path: Path, overrides: dict[str, Any],
                                                      env: dict[str, str]) -> None:
    model, plain = both(tmp_path, overrides=overrides, env=env)
    assert model.startswith("ConfigError(2): ") and model == plain


GOOD = [
    ('{"docs_dir": "reference", "exclude": ["gen/*"], "cache": false, "example_timeout_s": 3}', {}, {}),
    ('{"model_registry": {"GENERATOR": "a", "CRITIC": {"model": "b", "num_ctx": "4096"}, "ADJUDICATOR": "c"}}',
     {}, {}),  # a lax value only the model accepts: the plain loader asks it, and loads
    ('{"example_sandbox": "allow-guard", "docs_globs": ["*.md"], "docs_setup": {"*.md": "x = 1"}}', {}, {"CI": "1"}),
    ('{"include_dunder": true}', {"backend": "embedded", "base_url": "http://a"}, {"DOCBOT_API_KEY": "k"}),
]


@pytest.mark.parametrize("text, overrides, env", GOOD)
def test_a_good_file_gives_the_same_values(tmp_path: Path, text: str, overrides: dict[str, Any],
                                           env: dict[str, str]) -> None:
    (tmp_path / "config.json").write_text(text, encoding="utf-8")
    model, plain = both(tmp_path, overrides=overrides, env=env)
    assert model.startswith("PlainSettings(") and model == plain


@pytest.mark.parametrize("config", ['{"api_key": "k"}', '{"app_name": "shop"}'])
def test_the_notes_are_the_same(tmp_path: Path, config: str) -> None:
    # a key in a tracked file (a warning), a config.json that is not docbot's (an info line)
    repo = GitRepo(tmp_path).write("config.json", config).commit("config")
    notes = load_local(repo.root, None, {}, {}).notes
    assert len(notes) == 1 and notes == load_plain(repo.root, None, {}, {}).notes
