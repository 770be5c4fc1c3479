"""The sources of the settings, read without pydantic: each file, the environment and the flags as a ``Layer``.

Both loaders start here: ``docbot.config.sources`` validates the merged layers with the pydantic model (a
model run, ``config --show``), ``docbot.config.plain`` with the schema alone (a check, a screen, a scan: no
pydantic, docs/design.md#lazy-imports). They read the same layers, so a file means the same to both.

A config.json with none of docbot's keys belongs to the repository, not to docbot (a web app's
``{"app_name": ...}``): unless it was named with ``--config``, it is ignored with one info line. One
with any docbot key is validated strictly: every bad key is named with its line and column.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from docbot.config.choices import BACKEND_NAMES
from docbot.config.pyproject import parse_pyproject
from docbot.errors import ConfigError

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


def servers_in(text: str) -> str | list[str]:
    """A ``DOCBOT_BASE_URL`` or ``--base-url`` value: one URL, or several separated by commas (a
    variable or a flag holds one string; a config file can hold a list). An empty entry stays in the
    list, so ``urls_listed`` names the mistake instead of dropping it."""
    urls = [url.strip() for url in text.split(",")]
    return urls[0] if len(urls) == 1 else urls


def urls_listed(value: str | list[str] | None) -> str | list[str] | None:
    """A list of servers names at least one, each once (a repeated URL would get twice the calls)."""
    if isinstance(value, list):
        if not value or len(set(value)) != len(value) or not all(value):
            raise ValueError("a list of base URLs needs at least one URL, each non-empty and listed once")
    return value


def parse_config(text: str, path: Path | str) -> dict[str, Any]:
    """config.json's text -> its object; ``path`` names where it came from in the errors."""
    import json  # only a checkout with a config file pays for it

    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ConfigError(f"{path}: invalid JSON at line {err.lineno}, column {err.colno}: {err.msg}. "
                          "Fix the file or delete it to use the defaults.") from err
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a JSON object at the top level, found {type(data).__name__}.")
    return data


def in_ci(env: Mapping[str, str]) -> bool:
    return env.get("CI", "").strip().lower() not in ("", "0", "false", "no")


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
    from docbot.config.schema import FIELDS  # the settings' names: only a config file asks

    data = parse_config(text, source)
    data.pop(SCHEMA_KEY, None)
    if named or any(key in FIELDS for key in data):
        return Layer(label, source, data, text), None
    hints = [f"{key!r} -> {match!r}" for key in data for match in close(key, FIELDS)]
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
        if env["DOCBOT_BACKEND"] not in BACKEND_NAMES:
            raise ConfigError(f"environment variable DOCBOT_BACKEND={env['DOCBOT_BACKEND']!r} is not one of "
                              f"{', '.join(BACKEND_NAMES)}; fix or unset it.")
        layers.append(Layer("env DOCBOT_BACKEND", "DOCBOT_BACKEND", {"backend": env["DOCBOT_BACKEND"]}))
    for name in API_KEY_VARS:
        if env.get(name):
            layers.append(Layer(f"env {name}", name, {"api_key": env[name]}))
            break
    return layers


def merged(layers: Sequence[Layer]) -> tuple[dict[str, Any], dict[str, Layer]]:
    """The layers merged key by key (a later layer replaces a whole key; None sets nothing), and the
    layer that set each key."""
    data: dict[str, Any] = {}
    owner: dict[str, Layer] = {}
    for layer in layers:
        for key, value in layer.values.items():
            if value is not None:
                data[key], owner[key] = value, layer
    return data, owner


def close(word: str, candidates: Sequence[str]) -> list[str]:
    import difflib  # only a misspelt key asks

    return difflib.get_close_matches(word, candidates, n=1, cutoff=0.75)


def position(text: str, key: str) -> str:
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


def local_layers(root: Path, config: Path | None, overrides: Mapping[str, Any],
                 env: Mapping[str, str]) -> tuple[list[Layer], list[Note]]:
    """A checkout's layers, lowest first: its pyproject.toml and config.json at ``root`` (or the named
    ``config``), the environment, then the flags; with a warning for each file git tracks that holds an
    API key."""
    layers, notes = file_layers(root / "pyproject.toml", config or root / "config.json", named=config is not None)
    for layer in layers:
        path = Path(layer.source.removesuffix(" [tool.docbot]"))
        if (note := secret_note(layer)) and is_tracked(path.parent, path):
            notes.append(note)
    return [*layers, *env_layers(env), Layer("flag", "flags", dict(overrides))], notes


def normalise_host(host: str) -> str:
    """``OLLAMA_HOST`` as the Ollama client itself reads it (``127.0.0.1`` -> ``http://127.0.0.1:11434``,
    ``:11434`` -> ``http://127.0.0.1:11434``, ``http://h`` -> ``http://h:80``): the ``ollama`` package's own
    parser, so docbot never reaches a different server than ``ollama`` does for the same variable."""
    given = host.strip()
    try:
        # imported here: only a set OLLAMA_HOST pays for httpx. Importing `ollama` builds its default client,
        # which parses OLLAMA_HOST itself: a bad value fails the import, and must say so, not end in a traceback.
        from ollama._client import _parse_host

        url = _parse_host(given)
        parts = urlsplit(url)
    except ValueError:  # a port that is not a number in range (raised by the parse or by the import)
        parts = None
    if parts is None or parts.scheme not in ("http", "https"):
        raise ConfigError(f"OLLAMA_HOST={host!r} is not a host[:port] or http(s) URL; "
                          "e.g. OLLAMA_HOST=127.0.0.1:11434.")
    return url
