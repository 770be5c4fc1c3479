"""Where each file's public functions are, remembered by the file's git blob id (docs/design.md#cache).

A warm ``check --all`` then reads each file and hashes it, but parses only the files that changed:
parsing is most of a whole-tree scan. An entry is the finder's answer for one blob (each public
qualified name and the line spans of its pieces), so the targets rebuilt from it are the ones a
parse gives. The finder's own source is part of the file's identity: a docbot whose public-function
rules differ ignores the whole file. One JSON file (``.docbot/cache/scan.json``), read once and
replaced atomically when something was added; a file that does not read back is an empty cache. An entry
is one string (``qualname<TAB>first-last,first-last`` a line), decoded when asked for: as JSON lists the
stdlib's entries took 16 MB once read, a fifth of ``check --all``'s peak, and grew with the repository.

A cache is never a trust input (docs/design.md#cache): ``cache_folder`` refuses a ``.docbot`` that git
tracks (a pull request could commit a forged ``scan.json`` hiding a public function from the gate),
one reached through a symlink, and one that resolves outside the repository. A refused or faulty
folder means a run without the cache, never a failed one.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from docbot.errors import ConfigError
from docbot.git.repo import tracked_under
from docbot.paths import ignored_by_git, real_folder, write_atomic

CACHE_DIR = ".docbot/cache"

Spans = list[tuple[str, tuple[tuple[int, int], ...]]]  # (qualname, its pieces' first and last lines)
_FINDER = [Path(__file__).parent / name for name in ("targets.py", "ast_finder.py")]


def blob_id(data: bytes) -> str:
    """git's (SHA-1) blob id of ``data``: the same bytes give the same id in every checkout."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


FORMAT = "2"  # of an entry: one string (1: JSON lists)


def finder_version() -> str:
    digest = hashlib.sha256(FORMAT.encode())
    for path in _FINDER:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_folder(repo_root: Path) -> Path:
    """``<repo>/.docbot/cache``, created as real folders; ConfigError saying why when it must not be used."""
    if tracked_under(repo_root, ".docbot"):
        raise ConfigError("files under .docbot are tracked by git, so they came with the checkout and anyone who "
                          "can commit could have forged them: docbot runs without its cache. `git rm -r --cached "
                          ".docbot` and commit to use it again.")
    folder = real_folder(repo_root, CACHE_DIR)
    ignored_by_git(folder.parent)
    return folder


class ScanCache:
    """The remembered spans of ``path``'s entries; ``save`` writes what was added since ``load``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.version = finder_version()
        self.entries: dict[str, Any] = {}
        self.added = False
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("finder") == self.version and isinstance(data.get("entries"), dict):
                self.entries = data["entries"]
        except (OSError, ValueError, AttributeError):
            pass

    @classmethod
    def in_repo(cls, repo_root: Path) -> ScanCache | None:
        """The scan cache of the repository at ``repo_root``; None when its folder is refused or faulty."""
        try:
            return cls(cache_folder(repo_root) / "scan.json")
        except (ConfigError, OSError):
            return None

    def get(self, blob: str, include_dunder: bool) -> Spans | None:
        entry = self.entries.get(f"{blob}:{int(include_dunder)}")
        if not isinstance(entry, str):
            return None
        try:
            return [_decoded(line) for line in entry.split("\n")] if entry else []
        except ValueError:
            return None

    def put(self, blob: str, include_dunder: bool, spans: Spans) -> None:
        self.entries[f"{blob}:{int(include_dunder)}"] = "\n".join(
            f"{qualname}\t{','.join(f'{a}-{b}' for a, b in pieces)}" for qualname, pieces in spans)
        self.added = True

    def save(self) -> None:
        if self.added:
            self.added = False
            try:
                write_atomic(self.path, json.dumps({"finder": self.version, "entries": self.entries}))
            except OSError:  # a read-only or vanished folder: this scan's answer stands, unremembered
                pass


def _decoded(line: str) -> tuple[str, tuple[tuple[int, int], ...]]:
    """``qualname<TAB>first-last,first-last`` -> (qualname, spans); ValueError on anything else."""
    qualname, spans = line.split("\t")
    pieces = tuple((int(a), int(b)) for a, b in (span.split("-") for span in spans.split(",")))
    if not qualname or not pieces:
        raise ValueError(line)
    return qualname, pieces
