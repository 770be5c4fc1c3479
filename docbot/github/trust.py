"""What the Action trusts: the configuration of the pull request's **base** commit, never its own.

A pull request can change any file in its checkout, ``config.json`` included; if docbot read that
file, a fork could turn example execution back on for its own code (docs/design.md#trust). So the
Action reads its configuration with ``git show BASE:<path>``, the version the maintainers merged.
``base_config`` is the one place that decides what the base's configuration is: a later source (the
``[tool.docbot]`` table of the base's pyproject.toml) is added there.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from docbot.errors import ConfigError, RepoError
from docbot.settings import Settings, load_settings, parse_config


def base_config(workspace: Path, base: str, config: str) -> tuple[str, dict[str, Any]] | None:
    """(where it came from, its object) for ``config`` (repo-relative) at commit ``base``; None when the
    base commit has no such file."""
    if _git(workspace, "cat-file", "-e", f"{base}^{{commit}}").returncode != 0:
        raise RepoError(f"the base commit {base[:12]} is not in the checkout at {workspace}; check out with "
                        "`fetch-depth: 0` so docbot can read the base's configuration and diff.")
    shown = _git(workspace, "show", f"{base}:{config}")
    if shown.returncode != 0:
        return None
    source = f"{config} at the base commit {base[:12]}"
    try:
        text = shown.stdout.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ConfigError(f"{source}: not UTF-8 (byte {err.start}); save the config file as UTF-8.") from err
    return source, parse_config(text, source)


def load_base_settings(workspace: Path, base: str, config: str, required: bool, env: Mapping[str, str],
                       warn: Callable[[str], None]) -> Settings:
    """The Action's settings: the base commit's configuration, then the environment.

    Without the base commit in the checkout there is no trusted configuration: a named config file is
    then an error, else the defaults are used (``warn`` says so) and never the pull request's file.
    """
    relative = _inside(workspace, config)
    try:
        found = base_config(workspace, base, relative)
    except RepoError as err:
        if required:
            raise ConfigError(f"{relative}: config file not found: {err}") from err
        warn(f"{err} Using the default configuration meanwhile.")
        found = None
    if found is None and required:
        raise ConfigError(f"{relative}: config file not found at the base commit {base[:12]}; the Action "
                          "reads the configuration the base branch has, never the pull request's.")
    return load_settings(None, env=env, config=found)


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


def _git(workspace: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], cwd=workspace, capture_output=True, check=False)
    except OSError as err:  # no git on the runner, or no workspace
        raise RepoError(f"cannot run git in {workspace}: {err.strerror}") from err
