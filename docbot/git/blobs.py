"""Blobs through one ``git cat-file --batch`` process per scan, instead of one process per blob.

A diff scan reads both sides of every changed file; starting git twice per file cost more than
parsing most of them. The process inherits the environment, so ``GIT_INDEX_FILE`` (set by
``git commit -a`` for its hooks) still decides what ``:path`` means.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from types import TracebackType
from typing import IO

from docbot.errors import RepoError


class BlobReader:
    """``read("REV:path")`` -> the blob's bytes. Use as a context manager; the process starts lazily."""

    def __init__(self, work_dir: Path) -> None:
        self.work_dir = work_dir
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def read(self, object_name: str) -> bytes:
        """RepoError when the name is not a blob (missing, ambiguous, a tree) or git went away."""
        if "\n" in object_name:  # one name per line: a newline would be read as a second request
            raise RepoError(f"cannot read {object_name!r} with git cat-file (a newline in the path)")
        stdin, stdout = self._pipes()
        try:
            stdin.write(os.fsencode(object_name) + b"\n")
            stdin.flush()
            header = stdout.readline().split()
            data = b""
            if len(header) == 3:  # "<sha> <type> <size>", then the content: read it even if unwanted
                data = stdout.read(int(header[2]))
                stdout.read(1)  # the newline after the content
        except (BrokenPipeError, ValueError) as err:
            self.close()
            raise RepoError(f"git cat-file --batch stopped while reading {object_name}: {err}") from None
        if len(header) != 3 or header[1] != b"blob":  # "<name> missing", "<name> ambiguous", a tree
            raise RepoError(f"git cat-file: {object_name} is not a blob "
                            f"({b' '.join(header).decode('utf-8', 'replace')})")
        return data

    def close(self) -> None:
        if self._process is not None:
            process, self._process = self._process, None
            if process.stdin:
                process.stdin.close()
            process.wait(timeout=10)
            if process.stdout:
                process.stdout.close()

    def _pipes(self) -> tuple[IO[bytes], IO[bytes]]:
        if self._process is None:
            self._process = subprocess.Popen(["git", "cat-file", "--batch"], cwd=self.work_dir,
                                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             stderr=subprocess.DEVNULL)
        assert self._process.stdin is not None and self._process.stdout is not None
        return self._process.stdin, self._process.stdout
