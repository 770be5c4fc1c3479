"""A whole-tree scan one module at a time, for ``docbot check --all`` (docs/design.md#speed).

``docbot.scan.repo.scan`` hands back every target of the tree at once, each holding its function's text: on
the stdlib that was most of ``check --all``'s peak memory, and it grew with the repository (91 MiB at 500
files, 652 MiB at 5,000). Here the tracked files are grouped by the module they map to (``pkg/m.py`` and
``pkg/m/__init__.py`` are one module, as a move out of ``src/`` is) and each module's files are read, scanned
and handed over together, then dropped: what stays is one module's targets, the names of the modules seen
and the publicity of the packages read so far. The targets are the ones ``scan`` gives for the same tree
(tests/scan/test_tree_scan.py holds them equal), module by module in the order of each module's first file.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from docbot.git.repo import WORKTREE, empty_tree, head_sha, open_repo, tracked_python_files
from docbot.scan.publicity import Reexports, in_api, merge_moves
from docbot.scan.repo import (Scan, WorktreeTexts, _file_targets, _wanted, _worktree_or_none, check_paths,
                              few_collections)
from docbot.scan.targets import module_name

if TYPE_CHECKING:
    from docbot.scan.cache import ScanCache


def scan_modules(repo_root: Path, paths: Sequence[str] = (), *, include_dunder: bool = False,
                 exclude: Sequence[str] = (), cache: bool = False,
                 outside_package: bool = False) -> Iterator[Scan]:
    """The scan ``scan(repo_root, DiffSpec(all=True), paths, ...)`` gives for the same arguments, as one ``Scan``
    per module: its targets, its files' errors, and its files' texts (read again on demand, never kept)."""
    repo = open_repo(repo_root)
    check_paths(repo, repo_root, paths)
    wanted = _wanted(repo, repo_root, paths, exclude, {}, outside_package)
    from docbot.scan.cache import ScanCache

    known = ScanCache.in_repo(repo.top) if cache else None
    base = head_sha(repo) or empty_tree(repo)
    publicity: Reexports = {}  # per private package part: names only, shared by every module
    with few_collections():
        for files in _by_module([path for path in tracked_python_files(repo.top) if wanted(path)]):
            yield _module_scan(repo.top, files, base, include_dunder, known, publicity)
        if known is not None:
            known.save()


def _by_module(paths: list[str]) -> Iterator[list[str]]:
    """The paths grouped by the module each maps to, groups in the order of their first path."""
    groups: dict[str, list[str]] = {}
    for path in paths:
        groups.setdefault(module_name(path), []).append(path)
    yield from groups.values()


def _module_scan(top: Path, files: list[str], base: str, include_dunder: bool, known: ScanCache | None,
                 publicity: Reexports) -> Scan:
    found = Scan(base=base, head=WORKTREE)
    read: list[str] = []
    for path in files:
        targets, error, decoded = _file_targets(top, path, include_dunder, known)
        found.targets += targets
        found.errors += [error] if error else []
        read += [path] if decoded else []
    found.targets = merge_moves(in_api(found.targets, lambda init, _old: _worktree_or_none(top, init), publicity))
    found.sources = WorktreeTexts(top, read)
    return found

