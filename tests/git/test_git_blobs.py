"""BlobReader: every blob of a scan through one ``git cat-file --batch`` process, on a real repository."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.errors import RepoError
from docbot.git.blobs import BlobReader
from tests.support.git_repo import GitRepo


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "project")
    repo.write("pkg/a b.py", "x = 1\n").write("pkg/empty.py", "").commit("first")
    repo.write("pkg/a b.py", "x = 2\n").commit("second")
    return repo.write("pkg/a b.py", "x = 3\n").stage("pkg/a b.py")


def test_reads_commits_and_the_index_in_one_process(repo: GitRepo) -> None:
    with BlobReader(repo.root) as blobs:
        assert blobs.read("HEAD~1:pkg/a b.py") == b"x = 1\n"
        first = blobs._process
        assert blobs.read("HEAD:pkg/a b.py") == b"x = 2\n"
        assert blobs.read(":pkg/a b.py") == b"x = 3\n"  # the index
        assert blobs.read("HEAD:pkg/empty.py") == b""
        assert blobs._process is first and first is not None
    assert blobs._process is None and first.returncode == 0


@pytest.mark.parametrize("name", ["HEAD:pkg/missing.py", "HEAD:pkg", "nosuchrev:pkg/a b.py", "HEAD:pkg/a\nb.py"])
def test_what_is_not_a_blob_is_a_repo_error_and_reading_goes_on(repo: GitRepo, name: str) -> None:
    with BlobReader(repo.root) as blobs:
        with pytest.raises(RepoError):
            blobs.read(name)
        assert blobs.read("HEAD:pkg/a b.py") == b"x = 2\n"
