"""The one reader of ``pyproject.toml``: its text parsed once, with the few things docbot asks of it.

docbot reads the project's name (the package the docs describe, the pages' package), its ``[project.urls]`` (the
pages' source links), the docstring convention a linter declares (``[tool.ruff.lint.pydocstyle]``, pydoclint),
and its ``[tool.docbot]`` settings (docbot.config.sources, which reports invalid TOML as a configuration error;
every other reader treats a broken file as one that says nothing).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Pyproject:
    """A ``pyproject.toml`` as read: ``data`` is ``{}`` when the file is missing or not TOML (``error`` says why)."""

    data: Mapping[str, Any] = field(default_factory=dict)
    error: str = ""
    found: bool = False

    def table(self, *keys: str) -> Mapping[str, Any]:
        """The nested table at ``keys`` (``table("tool", "ruff")``), ``{}`` where any level is missing or no table."""
        data: Any = self.data
        for key in keys:
            data = data.get(key) if isinstance(data, Mapping) else None
        return data if isinstance(data, Mapping) else {}

    @property
    def name(self) -> str:
        """``[project].name`` as written ("" when unset)."""
        value = self.table("project").get("name")
        return value if isinstance(value, str) else ""

    @property
    def urls(self) -> Mapping[str, str]:
        return {str(k): str(v) for k, v in self.table("project", "urls").items()}


def parse_pyproject(text: str | None) -> Pyproject:
    if text is None:
        return Pyproject()
    import tomllib  # ~3 ms: only a checkout with a pyproject.toml pays for it

    try:
        return Pyproject(tomllib.loads(text), found=True)
    except tomllib.TOMLDecodeError as err:
        return Pyproject(error=str(err), found=True)


def read_pyproject(root: Path) -> Pyproject:
    """The ``pyproject.toml`` at ``root``; an unreadable one reads as missing (its error kept)."""
    try:
        return parse_pyproject((root / "pyproject.toml").read_text(encoding="utf-8", errors="replace"))
    except FileNotFoundError:
        return Pyproject()
    except OSError as err:
        return Pyproject(error=str(err), found=True)
