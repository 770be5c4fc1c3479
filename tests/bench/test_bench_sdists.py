"""The wild corpus's sdists: fetched on demand, checked against pinned hashes, unpacked under the manifest's names."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from bench.truth.wild.sdists import HERE, LIST, Sdist, SdistError, fetch, listed, resolve, sha256_of, unpacked


def _archive(cache: Path, name: str, top: str, files: dict[str, str]) -> Path:
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / name
    with tarfile.open(path, "w:gz") as bundle:
        for inner, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"{top}/{inner}")
            info.size = len(data)
            bundle.addfile(info, io.BytesIO(data))
    return path


def test_a_cached_archive_with_the_pinned_hash_is_used_and_unpacked_under_the_manifest_folder(tmp_path: Path) -> None:
    archive = _archive(tmp_path, "ordered_set-4.1.0.tar.gz", "ordered_set-4.1.0", {"README.md": "hi\n"})
    sdist = Sdist("ordered-set", "4.1.0", archive.name, sha256_of(archive), "ordered-set-4.1.0")
    assert fetch(sdist, tmp_path) == archive
    assert (unpacked(sdist, tmp_path) / "README.md").read_text() == "hi\n"
    assert unpacked(sdist, tmp_path) == tmp_path / "unpacked" / "ordered-set-4.1.0"


def test_an_archive_whose_bytes_differ_from_the_pin_is_refused(tmp_path: Path) -> None:
    archive = _archive(tmp_path, "x-1.tar.gz", "x-1", {"a.py": "A = 1\n"})
    sdist = Sdist("x", "1", archive.name, "0" * 64, "x-1")
    with pytest.raises(SdistError, match="sha256"):
        unpacked(sdist, tmp_path)
    assert not (tmp_path / "unpacked").exists()


def test_a_missing_archive_that_pip_cannot_fetch_fails_with_what_to_do(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.executable", "false")  # pip "runs" and fetches nothing, as with no registry
    with pytest.raises(SdistError, match="could not download x==1 .*run again"):
        fetch(Sdist("x", "1", "x-1.tar.gz", "0" * 64, "x-1"), tmp_path)


def test_manifest_paths_resolve_into_the_cache_or_beside_the_manifest(tmp_path: Path) -> None:
    assert resolve("docs/a.md", tmp_path) == HERE / "docs" / "a.md"
    for sdist in listed():  # no download: every folder is already there
        (tmp_path / "unpacked" / sdist.folder).mkdir(parents=True)
    assert resolve("sources/humanize-4.17.0/README.md", tmp_path) == tmp_path / "unpacked/humanize-4.17.0/README.md"


def test_the_list_pins_every_package_once_and_no_sources_are_committed() -> None:
    sdists = listed(LIST)
    assert len({s.name for s in sdists}) == len(sdists) >= 10
    assert all(len(s.sha256) == 64 and s.archive.startswith(s.name.replace("-", "_")[:3]) for s in sdists)
    assert not (HERE / "sources").exists()
