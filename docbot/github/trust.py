"""What the Action trusts: the configuration of the pull request's **base** commit, never its own.

A pull request can change any file in its checkout, ``config.json`` included; if docbot read that
file, a fork could turn example execution back on for its own code (docs/design.md#trust). So the
Action reads its configuration with ``git show BASE:<path>``, the version the maintainers merged.
``base_config`` is the one place that decides what the base's configuration is: the ``[tool.docbot]``
table of the base's pyproject.toml and its config file, both shown from the base commit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from docbot.errors import ConfigError, RepoError
from docbot.git.runner import git_ok
from docbot.config.sources import (Layer, Level, Note, config_layer, env_layers, pyproject_layer, resolve,
                                   secret_note)
from docbot.config.settings import Settings


def base_config(workspace: Path, base: str, config: str, *, named: bool = False) -> tuple[list[Layer], list[Note]]:
    """The base commit's configuration layers: the ``[tool.docbot]`` table of its pyproject.toml, then
    ``config`` (repo-relative), with their notes. Every file of a commit is tracked, so an API key in
    either is warned about. A named ``config`` the base lacks is an error; an unnamed one means none."""
    if git_ok(workspace, "cat-file", "-e", f"{base}^{{commit}}") is None:
        raise RepoError(f"the base commit {base[:12]} is not in the checkout at {workspace}; check out with "
                        "`fetch-depth: 0` so docbot can read the base's configuration and diff.")
    layers: list[Layer] = []
    notes: list[Note] = []
    text = _show(workspace, base, "pyproject.toml")
    if text is not None and (table := pyproject_layer(text, f"pyproject.toml at the base commit {base[:12]}")):
        layers.append(table)
    text = _show(workspace, base, config)
    if text is None and named:
        raise ConfigError(f"{config}: config file not found at the base commit {base[:12]}; the Action "
                          "reads the configuration the base branch has, never the pull request's.")
    if text is not None:
        layer, note = config_layer(text, f"{config} at the base commit {base[:12]}", config, named=named)
        layers += [layer] if layer else []
        notes += [note] if note else []
    return layers, notes + [note for layer in layers if (note := secret_note(layer))]


def _show(workspace: Path, base: str, path: str) -> str | None:
    shown = git_ok(workspace, "show", f"{base}:{path}")
    if shown is None:
        return None
    try:
        return shown.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ConfigError(f"{path} at the base commit {base[:12]}: not UTF-8 (byte {err.start}); save the "
                          "config file as UTF-8.") from err


def load_base_settings(workspace: Path, base: str, config: str, required: bool, env: Mapping[str, str],
                       warn: Callable[[str], None], info: Callable[[str], None] = lambda _text: None) -> Settings:
    """The Action's settings: the base commit's configuration, then the environment.

    Without the base commit in the checkout there is no trusted configuration: a named config file is
    then an error, else the defaults are used (``warn`` says so) and never the pull request's file.
    """
    relative = _inside(workspace, config)
    try:
        layers, notes = base_config(workspace, base, relative, named=required)
    except RepoError as err:
        if required:
            raise ConfigError(f"{relative}: config file not found: {err}") from err
        warn(f"{err} Using the default configuration meanwhile.")
        layers, notes = [], []
    for note in notes:
        (warn if note.level is Level.WARNING else info)(note.text)
    return resolve([*layers, *env_layers(env)], env).settings


def trusted_settings(settings: Settings, is_fork: bool) -> Settings:
    """A fork PR's code is untrusted: unless the base's config insists, its docs' examples are not run."""
    if is_fork and settings.run_examples == "auto":
        return settings.model_copy(update={"run_examples": False})
    return settings


def _inside(workspace: Path, config: str) -> str:
    path = Path(config)
    if path.is_absolute():
        try:
            path = path.relative_to(workspace)
        except ValueError:
            raise ConfigError(f"{config}: the config file must be inside the repository ({workspace}); "
                              "the Action reads it from the base commit.") from None
    if ".." in path.parts:
        raise ConfigError(f"{config}: the config file must be inside the repository.")
    return path.as_posix()
