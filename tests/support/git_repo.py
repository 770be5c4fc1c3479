"""A small builder for real git repositories in a test's tmp_path.

    repo = GitRepo(tmp_path).write("pkg/m.py", "def f():\n    return 1\n").commit("first")
    repo.write("pkg/m.py", "def f():\n    return 2\n").stage("pkg/m.py")

Every call runs the real ``git`` binary. Identity and settings are written to the repository's own
config; the user's global and system config are kept out of the builder's commands
(GIT_CONFIG_GLOBAL/GIT_CONFIG_NOSYSTEM), so a developer's ``commit.gpgsign`` cannot break a test.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


class GitRepo:
    """A git repository under ``root`` (created on construction, branch ``main``)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q")
        self.git("symbolic-ref", "HEAD", "refs/heads/main")  # `init -b` needs git >= 2.28
        self.config("user.name", "Docbot Test").config("user.email", "docbot-test@example.invalid")
        self.config("commit.gpgsign", "false").config("core.autocrlf", "false")

    def git(self, *args: str, env: dict[str, str] | None = None) -> str:
        """Run git in the repository; its stdout. Raises CalledProcessError with stderr on failure."""
        return self.git_bytes(*args, env=env).decode("utf-8", "replace")

    def git_bytes(self, *args: str, env: dict[str, str] | None = None) -> bytes:
        """Run git in the repository; its exact stdout."""
        full_env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", **(env or {})}
        done = subprocess.run(["git", *args], cwd=self.root, env=full_env, capture_output=True, check=False)
        if done.returncode != 0:
            raise subprocess.CalledProcessError(done.returncode, ["git", *args], done.stdout, done.stderr)
        return done.stdout

    def config(self, key: str, value: str) -> GitRepo:
        self.git("config", "--local", key, value)
        return self

    def write(self, path: str, text: str, *, newline: str = "\n", bom: bool = False) -> GitRepo:
        """Write ``text`` (``\\n`` line ends turned into ``newline``) as UTF-8, creating folders."""
        data = text.replace("\n", newline).encode("utf-8")
        return self.write_bytes(path, (b"\xef\xbb\xbf" if bom else b"") + data)

    def write_bytes(self, path: str, data: bytes) -> GitRepo:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        return self

    def read(self, path: str) -> str:
        return (self.root / path).read_text(encoding="utf-8")

    def delete(self, path: str) -> GitRepo:
        (self.root / path).unlink()
        return self

    def move(self, old: str, new: str) -> GitRepo:
        """``git mv``: the rename is staged at once."""
        (self.root / new).parent.mkdir(parents=True, exist_ok=True)
        self.git("mv", old, new)
        return self

    def stage(self, *paths: str) -> GitRepo:
        """``git add`` the given paths (everything, deletions included, when none are given)."""
        self.git("add", "-A", "--", *(paths or (".",)))
        return self

    def commit(self, message: str = "change", *, stage_all: bool = True) -> GitRepo:
        """Commit (staging every change first unless ``stage_all`` is False)."""
        if stage_all:
            self.stage()
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self

    def sha(self, rev: str = "HEAD") -> str:
        return self.git("rev-parse", "--verify", f"{rev}^{{commit}}").strip()

    def branch(self, name: str, start: str = "HEAD") -> GitRepo:
        """Create branch ``name`` at ``start`` and switch to it."""
        self.git("checkout", "-q", "-b", name, start)
        return self

    def switch(self, name: str) -> GitRepo:
        self.git("checkout", "-q", name)
        return self
