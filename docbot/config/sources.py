"""Where each setting comes from, and the one place the sources are merged into the pydantic ``Settings``.

Precedence, lowest first: defaults < ``[tool.docbot]`` in pyproject.toml < config.json < environment
< flags. Each source is a ``Layer`` (``docbot.config.layers``, which reads them without pydantic); ``resolve``
merges them key by key (a later layer replaces a whole key), validates once, and remembers which layer set
each key (``docbot config --show``). ``docbot.config.plain`` resolves the same layers without the model for
the paths that run no model, and hands any layers it doubts to ``resolve``, so both say the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from docbot.config.layers import (API_KEY_VARS as API_KEY_VARS, SCHEMA_KEY as SCHEMA_KEY, Layer as Layer,
                                  Level as Level, Note as Note, close, config_layer as config_layer,
                                  env_layers as env_layers, file_layers, in_ci, is_tracked as is_tracked,
                                  local_layers, merged, position, pyproject_layer as pyproject_layer,
                                  read_text as read_text, secret_note as secret_note)
from docbot.config.schema import FIELDS as FIELDS
from docbot.errors import ConfigError
from docbot.config.settings import RoleModel, Settings


@dataclass(frozen=True)
class Loaded:
    """The settings, which layer set each key ("default" for the rest), and the notes to show."""

    settings: Settings
    origins: Mapping[str, str]
    notes: tuple[Note, ...] = field(default=())


def resolve(layers: Sequence[Layer], env: Mapping[str, str], notes: Sequence[Note] = ()) -> Loaded:
    """Merge the layers (later wins), validate once; a ``ConfigError`` names every bad key."""
    data, owner = merged(layers)
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
            guess = close(loc[-1], _fields_at(loc))
            message = "unknown key; " + (f"did you mean {guess[0]!r}?" if guess else
                                         "remove it or check its spelling (see README, Configuration)")
        where = position(layer.text, loc[-1]) if layer and layer.text and loc else ""
        blocks.setdefault(layer.source if layer else fallback, []).append(
            f"  {'.'.join(loc) or '(top level)'}: {message}{where}")
    return "\n".join(f"{source}: invalid configuration:\n" + "\n".join(lines) for source, lines in blocks.items())


def _fields_at(loc: Sequence[str]) -> tuple[str, ...]:
    model: type[BaseModel] = RoleModel if len(loc) == 3 and loc[0] == "model_registry" else Settings
    return tuple(model.model_fields)


def load_local(root: Path, config: Path | None, overrides: Mapping[str, Any], env: Mapping[str, str]) -> Loaded:
    """A checkout's settings: its pyproject.toml and config.json at ``root`` (or the named ``config``),
    the environment, then the flags. Warns when a file git tracks holds an API key."""
    layers, notes = local_layers(root, config, overrides, env)
    return resolve(layers, env, notes)


def load_settings(config_path: Path | None, overrides: Mapping[str, Any] | None = None,
                  env: Mapping[str, str] | None = None, *, required: bool = False) -> Settings:
    """Settings from one config file (no pyproject.toml), the environment, then ``overrides``.

    An absent file means defaults, unless ``required`` (the user named it). The fronts load a checkout
    with ``load_local``, the Action with ``docbot.github.trust``.
    """
    layers, notes = file_layers(None, config_path, named=required)
    flags = Layer("flag", "flags", dict(overrides or {}))
    return resolve([*layers, *env_layers(env or {}), flags], env or {}, notes).settings
