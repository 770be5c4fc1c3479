"""Where a package's private modules are documented, remembered by the files griffe reads (docs/design.md#cache).

Finding a private module's page loads its package with griffe (``docbot.apidocs.homes.reexported``): on the stdlib
that was 31% of a cold ``check --all`` and 44% of a warm one, every run, for an answer that changes only when the
package's files do. So the answer is kept in ``.docbot/cache/pages.json`` under a fingerprint of every ``.py`` and
``.pyi`` file griffe could read for the package (under the repository root and ``src/``: each file's path, size and
modification time, from ``stat`` alone), and under the version of docbot's reading and griffe's. A warm run stats
those files and reads none of them. The folder is the scan cache's, refused in the same cases (a tracked
``.docbot``, a symlink, a folder outside the repository): a refused or faulty cache means griffe, never a failure.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

SOURCES = (".py", ".pyi")
_READERS = [Path(__file__).parent / name for name in ("homes.py", "api_model.py", "reach.py", "page_cache.py")]


def fingerprint(root: Path, package: str) -> list[list[Any]]:
    """Each file griffe could read for ``package`` under ``root``: ``[relative path, size, mtime_ns]``, sorted."""
    found: list[list[Any]] = []
    for base in (root, root / "src"):
        for single in (base / f"{package}.py", base / f"{package}.pyi"):
            found += _stat(root, single)
        folder = base / package
        if folder.is_dir() and not folder.is_symlink():
            for current, dirs, files in os.walk(folder):
                dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
                for name in sorted(files):
                    if name.endswith(SOURCES):
                        found += _stat(root, Path(current) / name)
    return found


def _stat(root: Path, path: Path) -> list[list[Any]]:
    try:
        info = path.stat()
    except OSError:
        return []
    return [[path.relative_to(root).as_posix(), info.st_size, info.st_mtime_ns]]


def version() -> str:
    """docbot's reading of the packages and griffe's version: another of either forgets every answer."""
    import hashlib
    from importlib.metadata import PackageNotFoundError, version as installed

    digest = hashlib.sha256()
    for path in _READERS:
        digest.update(path.read_bytes())
    try:
        digest.update(installed("griffe").encode())
    except PackageNotFoundError:
        pass
    return digest.hexdigest()[:16]


class PageCache:
    """The remembered page maps of ``path``'s packages; ``save`` writes what was added since it was read."""

    def __init__(self, path: Path) -> None:
        import json

        self.path = path
        self.version = version()
        self.packages: dict[str, Any] = {}
        self.added = False
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("version") == self.version and isinstance(data.get("packages"), dict):
                self.packages = data["packages"]
        except (OSError, ValueError, AttributeError):
            pass

    @classmethod
    def in_repo(cls, repo_root: Path) -> PageCache | None:
        """The page cache of the repository at ``repo_root``; None when its folder is refused or faulty."""
        from docbot.errors import ConfigError
        from docbot.scan.cache import cache_folder

        try:
            return cls(cache_folder(repo_root) / "pages.json")
        except (ConfigError, OSError):
            return None

    def get(self, package: str, key: list[list[Any]]) -> dict[str, str] | None:
        entry = self.packages.get(package)
        if not isinstance(entry, dict) or entry.get("files") != key or not isinstance(entry.get("pages"), dict):
            return None
        pages = entry["pages"]
        return pages if all(isinstance(k, str) and isinstance(v, str) for k, v in pages.items()) else None

    def put(self, package: str, key: list[list[Any]], pages: dict[str, str]) -> None:
        self.packages[package] = {"files": key, "pages": pages}
        self.added = True

    def save(self) -> None:
        if not self.added:
            return
        import json

        from docbot.paths import write_atomic

        self.added = False
        try:
            write_atomic(self.path, json.dumps({"version": self.version, "packages": self.packages}))
        except OSError:  # a read-only or vanished folder: this run's answer stands, unremembered
            pass
