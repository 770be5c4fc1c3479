"""Paths docbot reads or writes in a repository: inside it, and never through a symlink.

A doc file path comes from configuration (``docs_dir``) and from the repository's own content, and a
pull request controls both. A committed symlink ``docs/api/m.md -> ~/.ssh/id_rsa`` would otherwise
copy the key into a doc, and ``docs_dir: "../x"`` or a symlinked ``docs/api`` would write outside the
checkout. So every such path is checked here before it is touched, and refused with a ConfigError
(exit 2) that names it. A symlink that stays inside the repository is refused too: following it is
never needed, and telling the two apart is where such checks go wrong.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from docbot.errors import ConfigError


def inside_repo(repo_root: Path, rel: str) -> Path:
    """The absolute path of repo-relative ``rel`` (a file or folder, existing or not).

    ConfigError when ``rel`` is absolute, climbs out with ``..``, or passes through a symlink on disk.
    """
    pure = relative(rel)
    root = repo_root.resolve()
    current = root
    for part in pure.parts:
        current = current / part
        if current.is_symlink():
            raise ConfigError(_symlink_message(rel, current.relative_to(root).as_posix(), current))
        if not current.exists():
            break  # nothing below a missing folder can be a symlink yet; docbot creates real folders
    return root.joinpath(*pure.parts)


def relative(rel: str) -> PurePosixPath:
    """``rel`` as a relative path that stays inside the repository; ConfigError for ``..`` or absolute."""
    pure = PurePosixPath(rel.replace("\\", "/"))
    if pure.is_absolute() or ".." in pure.parts:
        raise ConfigError(f"{rel}: this path is outside the repository, and docbot reads and writes only inside "
                          "it. Set docs_dir to a folder inside the repository (e.g. docs/api) and run again.")
    return pure


def _symlink_message(rel: str, shown: str, link: Path) -> str:
    try:
        target = f" -> {os.readlink(link)}"
    except OSError:
        target = ""
    return (f"{rel}: refusing to read or write through a symlink: {shown}{target}. docbot never follows "
            f"symlinks in the docs folder. Replace {shown} with a regular file or folder (for a committed link: "
            "`git rm` it), or set docs_dir to a real folder inside the repository, and run again.")


def read_bytes_no_follow(path: Path, rel: str) -> bytes | None:
    """The bytes of the file at ``path`` (already checked by ``inside_repo``), None when it is absent.

    ``O_NOFOLLOW`` refuses a symlink swapped in after the check, as a second layer.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        return None
    except OSError as err:
        if path.is_symlink():
            raise ConfigError(_symlink_message(rel, rel, path)) from err
        raise
    with os.fdopen(fd, "rb") as stream:
        return stream.read()


def write_atomic(path: Path, text: str | bytes | None, *, unchanged: Callable[[], bool] | None = None) -> bool:
    """Replace ``path`` with ``text`` (a str as UTF-8; bytes as they are: a source in its own encoding) in
one step, or remove it when ``text`` is None: docbot's one atomic writer, for every file docbot writes (docs,
docstrings, caches, reference pages and their inventory, reports and patches). The two files it appends to are
not replaced: GitHub's step summary and outputs files, and a ``--record`` recording, written call by call.

    The text goes to a temporary file in the same folder and is renamed over the old file, so a
    crash or a full disk mid-write leaves the old file intact and no partial file behind.
    ``unchanged`` is asked last, just before the rename: when it says the file was edited meanwhile,
    nothing is written and the result is False (a person's edit always wins over docbot's).
    """
    if text is None:
        if unchanged is not None and not unchanged():
            return False
        path.unlink(missing_ok=True)
        return True
    path.parent.mkdir(parents=True, exist_ok=True)
    import tempfile  # only a write needs it: ~3 ms (random, shutil) off every check's imports

    # The one file mode decision for everything docbot writes (docs, docstrings, caches): mkstemp makes
    # 0600 files, but a rewritten file keeps its own mode, and a new one gets 0644 as a checkout's files
    # do. Nothing docbot writes is secret: all of it is derived from the repository.
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    fd, temp_name = tempfile.mkstemp(dir=temp_folder(path.parent), prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(text if isinstance(text, bytes) else text.encode("utf-8"))
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temp_name, mode)
        if unchanged is not None and not unchanged():
            Path(temp_name).unlink()
            return False
        os.replace(temp_name, path)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
    return True


def real_folder(repo_root: Path, rel: str) -> Path:
    """The folder ``rel`` of the repository, each missing part created as a real folder.

    ConfigError when a part of it is a symlink (before or after creation: a link swapped in is caught
    when it is looked at again), is not a folder, or the result resolves outside the repository. For
    docbot's cache (docs/design.md#cache): a symlinked ``.docbot`` would read and write another
    checkout's cache, so one checkout could poison the next on a shared runner.
    """
    inside_repo(repo_root, rel)
    root = repo_root.resolve()
    current = root
    for part in relative(rel).parts:
        current = current / part
        try:
            os.mkdir(current)  # never follows a symlink at ``current``: an existing link is FileExistsError
        except FileExistsError:
            pass
        if current.is_symlink():
            raise ConfigError(_symlink_message(rel, current.relative_to(root).as_posix(), current))
        if not current.is_dir():
            raise ConfigError(f"{rel}: {current.relative_to(root).as_posix()} is not a folder. Remove or rename it "
                              "and run again.")
    if not current.resolve().is_relative_to(root):
        raise ConfigError(f"{rel}: resolves outside the repository ({current.resolve()}); docbot refuses it.")
    return current


TEMP_IN_GIT_DIR = "docbot-tmp"


def temp_folder(folder: Path) -> Path:
    """Where the temporary file for a write into ``folder`` goes: the repository's git dir when it is on
    the same filesystem (a rename stays atomic), else ``folder`` itself.

    A temporary file beside its target is removed on every exit path but one: a SIGKILL (or a power
    cut) between its creation and the rename leaves it in the working tree, where ``git add -A`` would
    commit a copy of the source. Inside ``.git`` git never sees it (docs/design.md#docstrings).
    """
    for parent in (folder, *folder.parents):
        marker = parent / ".git"
        if marker.is_dir():
            git_dir = marker
        elif marker.is_file():  # a worktree or a submodule: "gitdir: <path>"
            line = marker.read_text(encoding="utf-8", errors="replace").strip()
            if not line.startswith("gitdir:"):
                return folder
            git_dir = (parent / line[len("gitdir:"):].strip()).resolve()
        else:
            continue
        try:
            if not git_dir.is_dir() or git_dir.stat().st_dev != folder.stat().st_dev:
                return folder
            temp = git_dir / TEMP_IN_GIT_DIR
            temp.mkdir(exist_ok=True)
        except OSError:
            return folder
        return temp if not temp.is_symlink() else folder
    return folder


def ignored_by_git(folder: Path) -> None:
    """``folder/.gitignore`` ignoring everything: ``.docbot/`` is local state, never committed."""
    marker = folder / ".gitignore"
    if not marker.exists():
        write_atomic(marker, "# docbot's local cache (docs/design.md#cache)\n*\n")
