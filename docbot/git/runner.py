"""Running git: one subprocess per command, its exact stdout as bytes, its complaint as a ``RepoError``.

Plain ``subprocess`` instead of GitPython: docbot only ever ran ``repo.git.<command>`` (a subprocess
underneath), and importing GitPython cost a tenth of a second on every hook run, most of a commit
that touches no public function (docs/design.md#lazy-imports). Subprocesses inherit the environment,
so ``GIT_INDEX_FILE`` (set by ``git commit -a`` for its hooks) still decides what the index is.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from docbot.errors import RepoError


class GitFailed(RepoError):
    """One git command exited non-zero; ``complaint`` is its stderr (callers may turn it into advice)."""

    def __init__(self, command: str, complaint: str) -> None:
        super().__init__(f"git {command} failed: {complaint}")
        self.complaint = complaint


@dataclass(frozen=True)
class Git:
    """A checkout: ``top`` is its working tree's root, where every command runs."""

    top: Path

    def run(self, command: str, *args: str, stdin: bytes = b"") -> bytes:
        """``git <command> <args>``: its stdout, byte for byte; ``GitFailed`` when it exits non-zero."""
        return run_git(self.top, command, *args, stdin=stdin)

    def text(self, command: str, *args: str) -> str:
        """The command's stdout as text, without the trailing newline."""
        return self.run(command, *args).decode("utf-8", "surrogateescape").rstrip("\n")


def run_git(cwd: Path, command: str, *args: str, stdin: bytes = b"", env: Mapping[str, str] | None = None) -> bytes:
    """The one place docbot starts git (tests/test_layout.py holds every other module to it).

    ``env`` is added to the inherited environment (a private index, a commit identity). A complaint
    never carries URL credentials: a push's stderr can echo its remote URL.
    """
    try:
        done = subprocess.run(["git", command, *args], cwd=cwd, input=stdin, capture_output=True, check=False,
                              env=None if env is None else {**os.environ, **env})
    except OSError as err:  # no git at all, or cwd gone
        raise RepoError(f"cannot run git in {cwd} ({err.strerror or err}); install git and make sure it is on "
                        "PATH.") from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip() or done.stdout.decode("utf-8", "replace").strip()
        raise GitFailed(command, _URL_CREDENTIALS.sub("://***@", said) or f"exit status {done.returncode}")
    return done.stdout


def git_ok(cwd: Path, command: str, *args: str) -> bytes | None:
    """git's stdout, or None when git fails or is missing: for questions whose failure is an answer
    ("is this path tracked?", "is this file in that commit?")."""
    try:
        return run_git(cwd, command, *args)
    except RepoError:
        return None


_URL_CREDENTIALS = re.compile(r"://[^/@\s]+@")


# Checkout tops already asked for, keyed by what decides git's answer: the folder and git's location
# variables. A hook run opens its checkout five times (the paths, the screen, the scan, two doc reads);
# each open was a git process (docs/design.md#speed).
_TOPS: dict[tuple[str, str | None, str | None], Path] = {}


def open_git(path: Path) -> Git:
    """The checkout containing ``path`` (searching parent folders); RepoError outside one or in a bare one.

    Asked of git once per folder and process: the answer is kept only for a folder that is its own
    checkout's top and still holds ``.git``, where git could not answer otherwise."""
    key = _top_key(path)
    known = _TOPS.get(key)
    if known is not None and (known / ".git").exists():
        return Git(known)
    found = _open_git(path)
    if os.path.abspath(found.top) == key[0]:
        _TOPS[key] = found.top
    return found


def _top_key(path: Path) -> tuple[str, str | None, str | None]:
    """What git's answer for a folder's top depends on: the folder, and the variables that name the checkout."""
    return os.path.abspath(path), os.environ.get("GIT_DIR"), os.environ.get("GIT_WORK_TREE")


def open_git_at_head(path: Path) -> tuple[Git, str | None]:
    """``open_git`` and HEAD's commit (None: no commits yet), from one git process where the folder's top is
    not known yet: the hook's screen asked git for each (issue 32). ``--revs-only`` prints an unborn HEAD as
    nothing, and git's complaint outside a checkout is ``open_git``'s."""
    key = _top_key(path)
    known = _TOPS.get(key)
    if known is None and path.exists():
        try:
            lines = run_git(path, "rev-parse", "--show-toplevel", "--revs-only", "HEAD^{commit}").decode(
                "utf-8", "surrogateescape").splitlines()
        except GitFailed:
            lines = []
        if lines:
            top = Path(lines[0])
            if os.path.abspath(top) == key[0]:
                _TOPS[key] = top
            return Git(top), lines[1] if len(lines) > 1 else None
    repo = open_git(path)
    try:
        return repo, repo.text("rev-parse", "--verify", "--quiet", "HEAD^{commit}")
    except GitFailed:
        return repo, None


def _open_git(path: Path) -> Git:
    if not path.exists():
        raise RepoError(f"{path}: no such folder. Run docbot from your project's checkout.")
    try:
        top = run_git(path, "rev-parse", "--show-toplevel").decode("utf-8", "surrogateescape").rstrip("\n")
    except GitFailed:
        try:
            bare = run_git(path, "rev-parse", "--is-bare-repository").strip() == b"true"
        except GitFailed:
            bare = False
        if bare:
            raise RepoError(f"{path} is a bare git repository; docbot needs a checkout with a working tree.") from None
        raise RepoError(f"{path} is not inside a git repository. Run docbot from your project's "
                        "checkout, or run `git init` there first.") from None
    return Git(Path(top))
