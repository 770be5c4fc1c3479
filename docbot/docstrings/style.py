"""The one docstring style of a project (docs/design.md#docstrings), decided once per run.

In order: the ``docstring_style`` setting; else the convention the project declares for its linters
(ruff's ``[tool.ruff.lint.pydocstyle] convention``, pydoclint's ``[tool.pydoclint] style``); else the
style most of the project's docstrings use; Google when none shows one. Never one file's guess: a
reST project whose file has no field list yet must not get Google sections.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from docbot.config.pyproject import Pyproject, read_pyproject
from docbot.docstrings.text import DocstringStyle
from docbot.docstrings.writer import style_counts

__all__ = ["declared_style", "majority_style", "project_style"]

_NAMES = {"google": DocstringStyle.GOOGLE, "numpy": DocstringStyle.NUMPY, "sphinx": DocstringStyle.REST,
          "rest": DocstringStyle.REST, "pep257": None}
_SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "build", "dist", "__pycache__", ".tox", ".nox"}
_MAX_FILES = 2000  # a large tree's first two thousand files show its style as well as all of them


def declared_style(pyproject: Pyproject) -> DocstringStyle | None:
    """The style ``pyproject.toml`` declares for ruff's pydocstyle rules or for pydoclint, if any."""
    for table, key in ((("tool", "ruff", "lint", "pydocstyle"), "convention"),
                       (("tool", "ruff", "pydocstyle"), "convention"), (("tool", "pydoclint"), "style")):
        value = pyproject.table(*table).get(key)
        if isinstance(value, str) and _NAMES.get(value.lower()) is not None:
            return _NAMES[value.lower()]
    return None


def majority_style(sources: Iterable[str]) -> DocstringStyle:
    """The style most docstrings of ``sources`` use (counted per docstring section); Google when none."""
    counts: Counter[DocstringStyle] = Counter()
    for source in sources:
        counts.update(style_counts(source))
    best = max(counts.values(), default=0)
    return DocstringStyle.GOOGLE if best == 0 else next(s for s in DocstringStyle if counts[s] == best)


def _python_files(root: Path) -> Iterable[str]:
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".py") and seen < _MAX_FILES:
                seen += 1
                try:
                    yield (Path(folder) / name).read_bytes().decode("utf-8", "replace")
                except OSError:
                    continue


def project_style(root: Path, setting: str) -> DocstringStyle:
    """The style docbot writes every docstring of the project in (see the module docstring)."""
    if setting != "auto":
        chosen = _NAMES.get(setting)
        assert chosen is not None  # the Settings literal allows only known names
        return chosen
    return declared_style(read_pyproject(root)) or majority_style(_python_files(root))
