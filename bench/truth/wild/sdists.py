"""The wild corpus's third-party sources, fetched on demand: the repository keeps only names, versions and hashes.

``sdists.json`` here lists each package's sdist (name, version, archive file name, sha256, and the folder the
manifest's ``sources/...`` paths name). ``sources_root()`` downloads what the cache lacks with
``pip download --no-deps --no-binary :all: NAME==VERSION`` (the registry's ordinary client, as
``bench/bench_speed.py`` does), checks each archive's sha256, and unpacks it once. The cache is outside the
repository (``$DOCBOT_BENCH_SDISTS``, default ``<tmp>/docbot-bench-sdists``) so no third-party code is committed.
A download or hash failure raises ``SdistError`` saying what to do: a benchmark or test must never run on
missing or altered sources.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIST = HERE / "sdists.json"
PREFIX = "sources/"  # manifest paths under this prefix live in the cache, not in the repository


class SdistError(RuntimeError):
    """An sdist could not be fetched, or its bytes are not the ones the list pins."""


@dataclass(frozen=True)
class Sdist:
    name: str
    version: str
    archive: str  # the file name pip saves
    sha256: str
    folder: str  # the folder name manifest paths use (``sources/<folder>/...``)

    @property
    def requirement(self) -> str:
        return f"{self.name}=={self.version}"


def listed(path: Path = LIST) -> list[Sdist]:
    return [Sdist(**entry) for entry in json.loads(path.read_text(encoding="utf-8"))]


def cache_dir() -> Path:
    return Path(os.environ.get("DOCBOT_BENCH_SDISTS") or Path(tempfile.gettempdir()) / "docbot-bench-sdists")


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch(sdist: Sdist, cache: Path) -> Path:
    """The verified archive of ``sdist`` in ``cache``, downloaded when missing."""
    archive = cache / sdist.archive
    if not archive.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        done = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                               sdist.requirement, "-d", str(cache)], capture_output=True, text=True, check=False)
        if not archive.is_file():
            said = [line for line in done.stderr.splitlines() if "is ignored" not in line][-3:]
            raise SdistError(f"pip could not download {sdist.requirement} into {cache} (exit {done.returncode}: "
                             f"{' / '.join(said) or 'no message'}); check that PyPI is reachable and run again")
    got = sha256_of(archive)
    if got != sdist.sha256:
        raise SdistError(f"{archive}: sha256 {got}, but {LIST.name} pins {sdist.sha256}; delete the file and run "
                         "again, or, if the registry really serves new bytes, re-judge the corpus before re-pinning")
    return archive


def unpacked(sdist: Sdist, cache: Path) -> Path:
    """The sdist's files under ``cache/unpacked/<folder>``, extracted once from the verified archive."""
    target = cache / "unpacked" / sdist.folder
    if target.is_dir():
        return target
    archive = fetch(sdist, cache)
    scratch = Path(tempfile.mkdtemp(prefix="unpack-", dir=cache))
    try:
        if archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as bundle:
                bundle.extractall(scratch)
        else:
            with tarfile.open(archive) as bundle:
                bundle.extractall(scratch, filter="data")
        (top,) = list(scratch.iterdir())  # an sdist holds one top folder
        target.parent.mkdir(parents=True, exist_ok=True)
        top.rename(target)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return target


def sources_root(cache: Path | None = None) -> Path:
    """The folder that ``sources/...`` manifest paths are relative to, with every listed sdist in it."""
    where = cache or cache_dir()
    for sdist in listed():
        unpacked(sdist, where)
    return where / "unpacked"


def resolve(relative: str, cache: Path | None = None) -> Path:
    """A manifest path: ``sources/...`` in the sdist cache (fetched on demand), anything else beside this file."""
    if relative.startswith(PREFIX):
        return sources_root(cache) / relative.removeprefix(PREFIX)
    return HERE / relative
