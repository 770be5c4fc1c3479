"""Where each setting comes from, and the one place the sources are merged into ``Settings``.

Precedence, lowest first: defaults < ``[tool.docbot]`` in pyproject.toml < config.json < environment
< flags. Each source is a ``Layer``; ``resolve`` merges them key by key (a later layer replaces a whole
key), validates once, and remembers which layer set each key (``docbot config --show``).

A config.json with none of docbot's keys belongs to the repository, not to docbot (a web app's
``{"app_name": ...}``): unless it was named with ``--config``, it is ignored with one info line. One
with any docbot key is validated strictly: every bad key is named with its line and column.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, get_args

from pydantic import BaseModel, ValidationError

from docbot.config.pyproject import parse_pyproject
from docbot.errors import ConfigError
from docbot.config.settings import Backend, RoleModel, Settings, in_ci, normalise_host, parse_config, servers_in

FIELDS: tuple[str, ...] = tuple(Settings.model_fields)
SCHEMA_KEY = "$schema"  # editors' pointer to docbot.schema.json; not a setting
# Environment variables, each with the key it sets; for api_key the first one set wins.
API_KEY_VARS = ("DOCBOT_API_KEY", "OPENAI_API_KEY")


class Level(StrEnum):
    INFO = "info"
    WARNING = "warning"


@dataclass(frozen=True)
class Note:
    """Something the user should know about their configuration that does not stop docbot."""

    level: Level
    text: str


@dataclass(frozen=True)
class Layer:
    """One source's values. ``label`` is what ``config --show`` prints; ``source`` names it in errors;
    ``text`` (a JSON file's) lets an error point at a key's line and column."""

    label: str
    source: str
    values: Mapping[str, Any]
    text: str | None = None


@dataclass(frozen=True)
class Loaded:
    """The settings, which layer set each key ("default" for the rest), and the notes to show."""

    settings: Settings
    origins: Mapping[str, str]
    notes: tuple[Note, ...] = field(default=())


def pyproject_layer(text: str, source: str) -> Layer | None:
    """The ``[tool.docbot]`` table of a pyproject.toml's text; None without one."""
    read = parse_pyproject(text)
    if read.error:
        raise ConfigError(f"{source}: invalid TOML: {read.error}. Fix the file.")
    table = read.data.get("tool", {}).get("docbot")
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ConfigError(f"{source}: [tool.docbot] must be a table of settings.")
    return Layer("pyproject", f"{source} [tool.docbot]", table)


def config_layer(text: str, source: str, label: str, *, named: bool) -> tuple[Layer | None, Note | None]:
    """config.json's layer, or (None, an info note) when it is not docbot's and was not named."""
    data = parse_config(text, source)
    data.pop(SCHEMA_KEY, None)
    if named or any(key in FIELDS for key in data):
        return Layer(label, source, data, text), None
    hints = [f"{key!r} -> {match!r}" for key in data for match in _close(key, FIELDS)]
    hint = f" (if it is, check the spelling: {', '.join(hints)})" if hints else ""
    return None, Note(Level.INFO, f"{source} has none of docbot's keys, so it is not docbot's configuration; "
                                  f"ignored{hint}.")


def env_layers(env: Mapping[str, str]) -> list[Layer]:
    """The environment's settings, one layer per variable used (so ``--show`` can name it)."""
    layers: list[Layer] = []
    if env.get("DOCBOT_BASE_URL"):
        layers.append(Layer("env DOCBOT_BASE_URL", "DOCBOT_BASE_URL", {"base_url": servers_in(env["DOCBOT_BASE_URL"])}))
    elif env.get("OLLAMA_HOST"):
        layers.append(Layer("env OLLAMA_HOST", "OLLAMA_HOST", {"base_url": normalise_host(env["OLLAMA_HOST"])}))
    if env.get("DOCBOT_BACKEND"):
        if env["DOCBOT_BACKEND"] not in get_args(Backend):
            raise ConfigError(f"environment variable DOCBOT_BACKEND={env['DOCBOT_BACKEND']!r} is not one of "
                              f"{', '.join(get_args(Backend))}; fix or unset it.")
        layers.append(Layer("env DOCBOT_BACKEND", "DOCBOT_BACKEND", {"backend": env["DOCBOT_BACKEND"]}))
    for name in API_KEY_VARS:
        if env.get(name):
            layers.append(Layer(f"env {name}", name, {"api_key": env[name]}))
            break
    return layers


def resolve(layers: Sequence[Layer], env: Mapping[str, str], notes: Sequence[Note] = ()) -> Loaded:
    """Merge the layers (later wins), validate once; a ``ConfigError`` names every bad key."""
    data: dict[str, Any] = {}
    owner: dict[str, Layer] = {}
    for layer in layers:
        for key, value in layer.values.items():
            if value is not None:
                data[key], owner[key] = value, layer
    try:
        settings = Settings.model_validate(data)
    except ValidationError as err:
        raise ConfigError(explain(err, owner, layers[-1].source if layers else "settings")) from err
    if settings.example_sandbox == "allow-guard" and in_ci(env):
        # A CI runner holds tokens and runs untrusted PRs: the weak guard there needs its own explicit value.
        settings = settings.model_copy(update={"example_sandbox": "os"})
    return Loaded(settings, {k: owner[k].label if k in owner else "default" for k in FIELDS}, tuple(notes))


def explain(err: ValidationError, owner: Mapping[str, Layer], fallback: str) -> str:
    """One block per source: each problem's key, what is wrong, and where the key sits in the file."""
    blocks: dict[str, list[str]] = {}
    for problem in err.errors():
        loc = [str(p) for p in problem["loc"]]
        layer = owner.get(loc[0]) if loc else None
        message = problem["msg"]
        if problem["type"] == "extra_forbidden":
            guess = _close(loc[-1], _fields_at(loc))
            message = "unknown key; " + (f"did you mean {guess[0]!r}?" if guess else
                                         "remove it or check its spelling (see README, Configuration)")
        where = _position(layer.text, loc[-1]) if layer and layer.text and loc else ""
        blocks.setdefault(layer.source if layer else fallback, []).append(
            f"  {'.'.join(loc) or '(top level)'}: {message}{where}")
    return "\n".join(f"{source}: invalid configuration:\n" + "\n".join(lines) for source, lines in blocks.items())


def _fields_at(loc: Sequence[str]) -> tuple[str, ...]:
    model: type[BaseModel] = RoleModel if len(loc) == 3 and loc[0] == "model_registry" else Settings
    return tuple(model.model_fields)


def _close(word: str, candidates: Sequence[str]) -> list[str]:
    return difflib.get_close_matches(word, candidates, n=1, cutoff=0.75)


def _position(text: str, key: str) -> str:
    """Where ``"key":`` sits in a JSON text, as " (line L, column C)"; "" unless it is there exactly once
    (a nested key may repeat: better no position than a wrong one)."""
    found = list(re.finditer(rf'"{re.escape(key)}"\s*:', text))
    if len(found) != 1:
        return ""
    found_at = found[0].start()
    line = text.count("\n", 0, found_at) + 1
    return f" (line {line}, column {found_at - text.rfind(chr(10), 0, found_at)})"


def secret_note(layer: Layer) -> Note | None:
    """A warning when a committed layer holds an API key: anyone who can read the repository has it."""
    if not layer.values.get("api_key"):
        return None
    return Note(Level.WARNING, f"{layer.source} sets api_key and is tracked by git, so anyone who can read the "
                               f"repository can read the key; set DOCBOT_API_KEY in the environment instead.")


def is_tracked(root: Path, path: Path) -> bool:
    """Whether git tracks ``path`` in the repository at ``root`` (False outside a repository)."""
    from docbot.git.runner import git_ok  # only a config file that sets api_key asks

    return git_ok(root, "ls-files", "--error-unmatch", "--", str(path)) is not None


def read_text(path: Path) -> str | None:
    """A configuration file's text; None when it does not exist."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as err:
        raise ConfigError(f"{path}: cannot read the config file ({err.strerror}).") from err
    except UnicodeDecodeError as err:
        raise ConfigError(f"{path}: not UTF-8 (byte {err.start}); save the config file as UTF-8.") from err


def file_layers(pyproject: Path | None, config: Path | None, *, named: bool) -> tuple[list[Layer], list[Note]]:
    """The layers of a checkout's files: ``pyproject``'s [tool.docbot], then ``config``; a named config
    that is missing is an error, an unnamed one means no layer."""
    layers: list[Layer] = []
    notes: list[Note] = []
    text = read_text(pyproject) if pyproject else None
    if pyproject and text is not None and (table := pyproject_layer(text, str(pyproject))):
        layers.append(table)
    text = read_text(config) if config else None
    if config and text is None and named:
        raise ConfigError(f"{config}: config file not found. Create it or omit --config for defaults.")
    if config and text is not None:
        layer, note = config_layer(text, str(config), config.name if not named else str(config), named=named)
        layers += [layer] if layer else []
        notes += [note] if note else []
    return layers, notes


def load_local(root: Path, config: Path | None, overrides: Mapping[str, Any], env: Mapping[str, str]) -> Loaded:
    """A checkout's settings: its pyproject.toml and config.json at ``root`` (or the named ``config``),
    the environment, then the flags. Warns when a file git tracks holds an API key."""
    layers, notes = file_layers(root / "pyproject.toml", config or root / "config.json", named=config is not None)
    for layer in layers:
        path = Path(layer.source.removesuffix(" [tool.docbot]"))
        if (note := secret_note(layer)) and is_tracked(path.parent, path):
            notes.append(note)
    return resolve([*layers, *env_layers(env), Layer("flag", "flags", dict(overrides))], env, notes)


def load_settings(config_path: Path | None, overrides: Mapping[str, Any] | None = None,
                  env: Mapping[str, str] | None = None, *, required: bool = False) -> Settings:
    """Settings from one config file (no pyproject.toml), the environment, then ``overrides``.

    An absent file means defaults, unless ``required`` (the user named it). The fronts load a checkout
    with ``load_local``, the Action with ``docbot.github.trust``.
    """
    layers, notes = file_layers(None, config_path, named=required)
    flags = Layer("flag", "flags", dict(overrides or {}))
    return resolve([*layers, *env_layers(env or {}), flags], env or {}, notes).settings
