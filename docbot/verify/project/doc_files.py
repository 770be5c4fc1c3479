"""Which files are a project's hand-written docs, how each is read from disk, and the options project mode reads
them with (docs/design.md#truth-checks).

Apart from docbot.verify.project.docs, which reads and runs a doc, so that the drift gate finds the docs a change
reaches without importing the example checks, markdown-it and the sandbox (issue 32): most commits reach none.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from docbot.config.choices import (DEFAULT_DOCS_GLOBS, DEFAULT_EXAMPLE_SANDBOX, DEFAULT_EXAMPLE_TIMEOUT_S,
                                   ExampleSandbox)
from docbot.errors import ConfigError

if TYPE_CHECKING:
    from docbot.config.plain import PlainSettings
    from docbot.config.settings import Settings


@dataclass(frozen=True)
class DocsOptions:
    """How project mode reads and runs the docs (the settings of the same names)."""

    globs: tuple[str, ...] = DEFAULT_DOCS_GLOBS
    docs_setup: Mapping[str, str] = field(default_factory=dict)
    timeout_s: float = DEFAULT_EXAMPLE_TIMEOUT_S
    sandbox: ExampleSandbox = DEFAULT_EXAMPLE_SANDBOX
    generated_dir: str = "docs/api"  # docbot's own sections: kept true by `docbot check`, not by this gate

    @classmethod
    def of(cls, settings: Settings | PlainSettings) -> DocsOptions:
        return cls(tuple(settings.docs_globs), settings.docs_setup, settings.example_timeout_s,
                   settings.example_sandbox, settings.docs_dir)


def doc_paths(root: Path, globs: Sequence[str]) -> list[Path]:
    """The docs the globs name, relative to ``root``, sorted; build outputs and hidden folders are left out.

    Only files (a ``README.d/`` folder is none) in Markdown or RST: ``README.txt`` is plain text. A ``README``
    with no extension is the README where no ``README.md`` or ``README.rst`` stands beside it (``nodeenv`` ships
    both: the one with an extension is read, once); ``is_rst_doc`` tells its format from its text."""
    found = {p for pattern in globs for p in root.glob(pattern) if p.is_file() and p.suffix in (".md", ".rst", "")}
    bare = {p for pattern in globs if pattern.endswith("README.*") for p in root.glob(pattern[:-2]) if p.is_file()}
    found |= {p for p in bare if not any(p.with_suffix(s).is_file() for s in (".md", ".rst"))}
    return sorted(p for p in found if not any(part.startswith((".", "_build")) for part in p.relative_to(root).parts))


def setup_for(relative: str, docs_setup: Mapping[str, str]) -> str:
    """The ``docs_setup`` snippets whose glob matches the doc, in the setting's order."""
    return "\n".join(code for pattern, code in docs_setup.items() if fnmatch.fnmatch(relative, pattern))


def read_doc(root: Path, path: Path) -> str:
    """A doc's text; ConfigError (exit 2) naming it when it is a symlink out of the repository (its target is
    never read) or not UTF-8 text."""
    full = path if path.is_absolute() else root / path
    inside = full.absolute().relative_to(root.absolute()) if full.absolute().is_relative_to(root.absolute()) else None
    links = [root.joinpath(*inside.parts[:i]) for i in range(1, len(inside.parts) + 1)] if inside else [full]
    if any(p.is_symlink() for p in links):
        target = full.resolve()
        # tenacity's README.rst links to doc/source/index.rst: a link inside the repository is that file
        if not (target.is_relative_to(root.resolve()) and target.is_file()):
            raise ConfigError(f"{path}: the doc is a symlink out of the repository; docbot reads no doc through "
                              "such a link. Commit the doc itself, or leave it out of docs_globs.")
        full = target
    data = full.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ConfigError(f"{path}: not UTF-8 text (byte {err.start}); save the doc as UTF-8, or leave it out of "
                          "docs_globs.") from None
