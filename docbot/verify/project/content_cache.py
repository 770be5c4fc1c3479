"""What the drift gate computed from a text, remembered by the text's SHA-256 in one JSON file of the scan's
cache folder (docs/design.md#drift-gate).

The gate reads every hand-written doc (its mentions) and every module of the package (its bindings and
references) on each commit, and a commit changes few of them: each entry is keyed by what it was computed
from, so an entry never goes stale, only unused. A file is written back holding only the entries this run
used, so it stays the size of the repository, not of its history. The folder is the scan's, under the same
trust rules (a tracked or symlinked ``.docbot`` is never read); a file that does not read back is an empty
cache, a folder that cannot be written a cache that is not kept, and neither is ever a failure.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path


class ContentCache:
    """Entries by key (``key``: a text's SHA-256 and what else the entry depends on), at ``path``; None: a
    cache that keeps nothing. ``version``: of the entries' shape and how they are computed; another version's
    file is an empty cache."""

    def __init__(self, path: Path | None, version: str) -> None:
        self.path, self.version = path, version
        self.entries: dict[str, object] = {}
        self.used: set[str] = set()
        self.added = False
        if path is None:
            return
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(data, dict) and data.get("version") == version and isinstance(data.get("entries"), dict):
                self.entries = data["entries"]
        except (OSError, ValueError):
            pass

    @staticmethod
    def key(text: str, *depends: str) -> str:
        return ":".join([hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest(), *depends])

    def get(self, key: str) -> object | None:
        if key in self.entries:
            self.used.add(key)
        return self.entries.get(key)

    def put(self, key: str, value: object) -> None:
        if self.path is not None:
            self.entries[key], self.added = value, True
            self.used.add(key)

    def save(self) -> None:
        """Write the entries this run used, if it added one or left one unused."""
        from docbot.paths import write_atomic

        if self.path is None or not (self.added or self.used != self.entries.keys()):
            return
        self.entries = {k: v for k, v in self.entries.items() if k in self.used}
        self.added = False
        try:
            write_atomic(self.path, json.dumps({"version": self.version, "entries": self.entries}))
        except OSError:
            pass


def repo_cache_folder(root: Path) -> Path | None:
    """The repository's cache folder; None where the scan's trust rules refuse it."""
    from docbot.errors import ConfigError
    from docbot.scan.cache import cache_folder

    try:
        return cache_folder(root)
    except (ConfigError, OSError):  # refused (tracked, a symlink) or faulty: no cache, never a failure
        return None
