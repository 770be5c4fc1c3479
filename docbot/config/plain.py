"""The settings a check, a screen, a scan or ``verify`` reads, loaded without pydantic (docs/design.md#lazy-imports).

Importing and building the pydantic model was two thirds of ``check --staged``'s CPU on a one-function commit.
These paths read a handful of settings, so they get ``PlainSettings``, a frozen dataclass read from the same
layers (``docbot.config.layers``) and validated by the same schema (``docbot.config.schema``, generated from
the model) plus the model's own rules (``docbot.config.rules``). The rules only ever accept what the model
accepts: when they find anything wrong, the layers go to the model itself (``docbot.config.sources.resolve``),
so a bad file stops these paths with exactly the message a model run gives, and a value only the model's lax
parts accept still loads. tests/config/test_plain_settings.py feeds both loaders the same files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from docbot.config.choices import (DEFAULT_EXAMPLE_MEMORY_MB, DEFAULT_EXAMPLE_SANDBOX, DEFAULT_EXAMPLE_TIMEOUT_S,
                                   DEFAULT_EXCLUDE, ExampleSandbox)
from docbot.config.layers import Layer, Note, in_ci, local_layers, merged

if TYPE_CHECKING:
    from docbot.config.settings import Settings


@dataclass(frozen=True)
class PlainSettings:
    """What the no-model paths read, with the model's defaults (a test holds them equal to ``Settings()``)."""

    docs_dir: str = "docs/api"
    include_dunder: bool = False
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    cache: bool = True
    docs_globs: tuple[str, ...] = ("README.*", "docs/**/*.md", "docs/**/*.rst")
    docs_setup: Mapping[str, str] = field(default_factory=dict)
    run_examples: bool | Literal["auto"] = "auto"
    example_timeout_s: float = DEFAULT_EXAMPLE_TIMEOUT_S
    example_memory_mb: int = DEFAULT_EXAMPLE_MEMORY_MB
    example_sandbox: ExampleSandbox = DEFAULT_EXAMPLE_SANDBOX
    repo_url: str | None = None
    scan_outside_package: bool = False

    @classmethod
    def of(cls, settings: Settings) -> PlainSettings:
        """The model's values of these settings (what a loader that fell back to the model gives)."""
        return cls.from_values({name: getattr(settings, name) for name in NAMES})

    @classmethod
    def from_values(cls, data: Mapping[str, Any]) -> PlainSettings:
        """From values the schema accepted: lists become tuples, a number a float where the model's is."""
        kept: dict[str, Any] = {}
        for name in NAMES:
            if name in data:
                value = data[name]
                kept[name] = tuple(value) if isinstance(value, list) else dict(value) if isinstance(
                    value, dict) else float(value) if name == "example_timeout_s" else value
        return cls(**kept)


NAMES: tuple[str, ...] = tuple(f.name for f in fields(PlainSettings))


@dataclass(frozen=True)
class PlainLoaded:
    """The plain settings and the notes to show (a config.json that is not docbot's, a key in a tracked file)."""

    settings: PlainSettings
    notes: tuple[Note, ...] = ()


def resolve_plain(layers: Sequence[Layer], env: Mapping[str, str], notes: Sequence[Note] = ()) -> PlainLoaded:
    """``sources.resolve`` without pydantic when the schema and the rules accept the merged layers; else the
    model decides, and its ``ConfigError`` (or its settings, where only its lax parts accept a value) stands."""
    data, _owner = merged(layers)
    if not data:  # nothing set anywhere: the defaults, with no schema to load
        settings = PlainSettings()
    elif _conforms(data):
        settings = PlainSettings.from_values(data)
    else:
        from docbot.config.sources import resolve  # the model: its message, word for word

        settings = PlainSettings.of(resolve(layers, env, notes).settings)
    if settings.example_sandbox == "allow-guard" and in_ci(env):
        # As ``sources.resolve``: a CI runner holds tokens and runs untrusted PRs, so the weak guard needs its
        # own explicit value there.
        settings = PlainSettings(**{**{name: getattr(settings, name) for name in NAMES}, "example_sandbox": "os"})
    return PlainLoaded(settings, tuple(notes))


def _conforms(data: Mapping[str, Any]) -> bool:
    from docbot.config.rules import conforms  # the schema: only values to validate load it

    return conforms(data)


def load_plain(root: Path, config: Path | None, overrides: Mapping[str, Any], env: Mapping[str, str]) -> PlainLoaded:
    """``sources.load_local`` for the no-model paths: the same files, environment and flags, no pydantic."""
    layers, notes = local_layers(root, config, overrides, env)
    return resolve_plain(layers, env, notes)
