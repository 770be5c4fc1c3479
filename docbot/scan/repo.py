"""Scans: the targets of a diff or of the whole tree, built on what git says (``docbot.git.repo``).

Diffs are asked for with ``docbot.git.diff.DIFF_FLAGS`` because user config (``color.diff``,
``diff.external``, textconv drivers, ``diff.submodule``) otherwise changes the output
``docbot.git.diff`` reads (docs/design.md#diff-rules). A whole-tree scan streams: one file's text at
a time is read, parsed and dropped; only the targets are kept (docs/design.md#scanner).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path
from typing import TYPE_CHECKING

from docbot.scan.scope import in_scope, package_scope
from docbot.scan.publicity import in_api, merge_moves
from docbot.errors import ConfigError, RepoError
from docbot.git.blobs import BlobReader
from docbot.git.runner import Git
from docbot.git.diff import FileChange
from docbot.git.repo import (INDEX, WORKTREE, DiffPlan, DiffSpec, decode, empty_tree,
                             head_sha, open_repo, read_worktree, resolve_commit, staged_entry, tracked_python_files)
from docbot.scan.diff_read import DiffRead, read_diff
from docbot.results import ScanError, Target
from docbot.scan.targets import (SourceParseError, changed_targets, importable, module_name, public_functions,
                                 public_spans, targets_at)

if TYPE_CHECKING:
    from docbot.scan.cache import ScanCache

__all__ = ["INDEX", "SCAN_CACHE", "WORKTREE", "DiffRead", "DiffSpec", "Scan", "WorktreeTexts", "few_collections",
           "open_repo", "read_diff", "read_worktree", "resolve_commit", "scan", "staged_entry",
           "touches_nothing_public", "tracked_python_files"]

SCAN_CACHE = ".docbot/cache/scan.json"


class WorktreeTexts(Mapping[str, str]):
    """The texts of a whole-tree scan's files, read from the working tree each time one is asked for
    and never kept: holding all of them was most of a large tree's peak memory. A file that can no
    longer be read gives "" (gone)."""

    def __init__(self, top: Path, paths: Sequence[str]) -> None:
        self.top = top
        self.paths = dict.fromkeys(paths)

    def __getitem__(self, path: str) -> str:
        if path not in self.paths:
            raise KeyError(path)
        return _worktree_or_none(self.top, path) or ""

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)


@dataclass
class Scan:
    """What a scan found. ``sources`` maps every touched Python path to its new-side text ("" when the
    file is gone, including the old path of a rename): a dict for a diff, ``WorktreeTexts`` (read on
    demand) for the whole tree. ``base``/``head`` are SHAs or INDEX/WORKTREE."""

    base: str
    head: str
    targets: list[Target] = field(default_factory=list)
    errors: list[ScanError] = field(default_factory=list)
    sources: Mapping[str, str] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)  # Python files that are no importable module: not API


@contextmanager
def few_collections() -> Iterator[None]:
    """Parsing makes millions of short-lived AST nodes, which reference counting frees; at the cyclic
    collector's default threshold (700 allocations) it re-walks the growing heap of kept targets
    thousands of times: half of a whole-tree scan's CPU. Raised for the scan, then restored."""
    old = gc.get_threshold()
    gc.set_threshold(100_000, 50, 100)
    try:
        yield
    finally:
        gc.set_threshold(*old)


def scan(repo_root: Path, spec: DiffSpec, paths: Sequence[str] = (), *,
         include_dunder: bool = False, exclude: Sequence[str] = (), cache: bool = False,
         diff: DiffRead | None = None, outside_package: bool = False) -> Scan:
    """The targets of ``spec`` in the repository at ``repo_root``, limited to files under ``paths``
    (absolute, or relative to ``repo_root``), not matching an ``exclude`` glob, and inside the packages
    ``pyproject.toml`` declares unless ``outside_package`` (docbot.scan.scope). Files that cannot be
    read or parsed go to ``errors``. With ``cache``, a whole-tree scan parses only the files whose blob
    ``.docbot/cache/scan.json`` does not know (docbot.scan.cache). ``diff``, git's answers for ``spec``
    already read (by the hook's screen), is used instead of asking git again."""
    with few_collections():
        return _scan(repo_root, spec, paths, include_dunder, exclude, cache, first_only=False, diff=diff,
                     outside_package=outside_package)


def touches_nothing_public(repo_root: Path, spec: DiffSpec, paths: Sequence[str] = (), *,
                           diff: DiffRead | None = None) -> bool:
    """Whether ``spec`` gives no target whatever the settings say: the widest scan (dunders included,
    nothing excluded) finds no target and no file it could not read. The fronts then finish before
    loading the settings (docs/design.md#lazy-imports). Always False for a whole-tree spec. The scan
    stops at the first file that gives a target or an error: the answer is known there."""
    if spec.all:
        return False
    with few_collections():
        found = _scan(repo_root, spec, paths, True, (), False, first_only=True, diff=diff, outside_package=True)
    return not found.targets and not found.errors


def _scan(repo_root: Path, spec: DiffSpec, paths: Sequence[str], include_dunder: bool, exclude: Sequence[str],
          cache: bool, *, first_only: bool, diff: DiffRead | None = None, outside_package: bool = False) -> Scan:
    skipped: dict[str, None] = {}
    repo = open_repo(repo_root)
    wanted = _wanted(repo, repo_root, paths, exclude, skipped, outside_package)
    if spec.all:
        found = _scan_tree(repo, repo_root, paths, include_dunder, cache, wanted)
    else:
        found = _scan_diff(diff if diff is not None and diff.spec == spec else read_diff(repo_root, spec),
                           include_dunder, first_only, wanted)
    found.skipped = list(skipped)
    return found


def _wanted(repo: Git, repo_root: Path, paths: Sequence[str], exclude: Sequence[str],
            skipped: dict[str, None], outside_package: bool) -> Callable[[str | None], bool]:
    """The predicate of the files a scan reads: under ``paths``, inside the declared packages unless
    ``outside_package``, not excluded, importable (the others go to ``skipped``); shared by ``scan`` and the
    module-by-module tree scan (docbot.scan.tree)."""
    scope = () if outside_package else package_scope(repo.top)
    under = _path_filter(repo.top, Path(repo_root), paths)
    return _importable_only(_excluding(lambda path: under(path) and in_scope(path or "", scope), exclude), skipped)


def check_paths(repo: Git, repo_root: Path, paths: Sequence[str]) -> None:
    """The whole tree is what is on disk: a path that is not there is a typo, not "nothing to do"."""
    for given in paths:
        if not (Path(repo_root) / given).exists():
            raise ConfigError(f"{given}: no such file or folder in {repo.top}; check the path.")


def _importable_only(wanted: Callable[[str | None], bool], skipped: dict[str, None]) -> Callable[[str | None], bool]:
    """Narrow a path predicate to importable modules; the wanted files that are not go to ``skipped``, once."""
    def narrowed(path: str | None) -> bool:
        if not wanted(path):
            return False
        if path is not None and path.endswith(".py") and not importable(path):
            skipped.setdefault(path)
            return False
        return True

    return narrowed


def _scan_tree(repo: Git, repo_root: Path, paths: Sequence[str], include_dunder: bool, cache: bool,
               wanted: Callable[[str | None], bool]) -> Scan:
    check_paths(repo, repo_root, paths)
    return _scan_all(repo, repo.top, wanted, include_dunder, cache)


def _scan_diff(diff: DiffRead, include_dunder: bool, first_only: bool, wanted: Callable[[str | None], bool]) -> Scan:
    top, plan = diff.repo.top, diff.plan
    found = Scan(base=plan.base, head=plan.head)
    texts: dict[str, str] = {}
    with BlobReader(top) as reader:  # its git process starts only for a blob ``diff`` has not read

        def blobs(name: str) -> bytes:
            return diff.blob(reader, name)

        def read_init(path: str, old_side: bool) -> str | None:
            try:
                return _read_old(blobs, plan, path) if old_side else _read_new(blobs, top, plan, path)
            except (RepoError, SourceParseError, OSError):
                return None

        for change in diff.changes:
            if _is_python(change) and (wanted(change.old_path) or wanted(change.new_path)):
                targets = _scan_change(blobs, top, plan, change, include_dunder, found, texts)
                if first_only and (found.errors or in_api(targets, read_init)):
                    break
        found.targets = merge_moves(in_api(found.targets, read_init))
    found.sources = texts
    return found


def _scan_change(blobs: Callable[[str], bytes], top: Path, plan: DiffPlan, change: FileChange, include_dunder: bool,
                 found: Scan, texts: dict[str, str]) -> list[Target]:
    """Add one changed file's targets (or its error) to ``found`` and its new-side text to ``texts``;
    the file's targets."""
    path = change.path
    try:
        old_text = None if change.old_path is None else _read_old(blobs, plan, change.old_path)
        new_text = None if change.new_path is None else _read_new(blobs, top, plan, change.new_path)
    except (RepoError, SourceParseError, OSError) as err:
        found.errors.append(err.skipped if isinstance(err, SourceParseError) else ScanError(path, str(err)))
        return []
    texts[path] = new_text or ""
    if change.status == "renamed" and change.old_path:
        texts[change.old_path] = ""
    try:
        targets = changed_targets(old_text, new_text, change, module_name(path), path, include_dunder=include_dunder)
    except SourceParseError as err:
        found.errors.append(err.skipped)
        return []
    found.targets += targets
    return targets


def _read_old(blobs: Callable[[str], bytes], plan: DiffPlan, path: str) -> str | None:
    if plan.old_rev is None:
        return None
    return decode(blobs(f"{plan.old_rev}:{path}"), path)


def _read_new(blobs: Callable[[str], bytes], top: Path, plan: DiffPlan, path: str) -> str:
    if plan.new_rev is None:
        return read_worktree(top, path)
    return decode(blobs(f"{plan.new_rev}:{path}"), path)  # ":path" is the index


def _scan_all(repo: Git, top: Path, wanted: Callable[[str | None], bool], include_dunder: bool,
              cache: bool = False) -> Scan:
    """Every tracked file, read as it is in the working tree (the user wants their current code), one
    at a time: its text is dropped once its targets are found. The largest files are parsed first:
    parsing a 300 kB file briefly needs ~36 MB, and early on few targets are held next to it, so the
    peak is the larger of the two, not their sum. The results keep the tracked files' order."""
    found = Scan(base=head_sha(repo) or empty_tree(repo), head=WORKTREE)
    from docbot.scan.cache import ScanCache  # a whole-tree scan's: the hook's diffs never read it

    known = ScanCache.in_repo(top) if cache else None
    paths = [path for path in tracked_python_files(top) if wanted(path)]
    results = {path: _file_targets(top, path, include_dunder, known)
               for path in sorted(paths, key=lambda path: -_size(top, path))}
    read: list[str] = []
    for path in paths:
        targets, error, decoded = results.pop(path)
        found.targets += targets
        found.errors += [error] if error else []
        read += [path] if decoded else []
    if known is not None:
        known.save()
    found.targets = merge_moves(in_api(found.targets, lambda init, _old: _worktree_or_none(top, init)))
    found.sources = WorktreeTexts(top, read)
    return found


def _file_targets(top: Path, path: str, include_dunder: bool,
                  known: ScanCache | None) -> tuple[list[Target], ScanError | None, bool]:
    """One working-tree file's targets, or the error that skips it; and whether its text decoded."""
    try:
        data = (top / path).read_bytes()
        text = decode(data, path)
    except FileNotFoundError:
        return [], ScanError(path, "tracked but missing from the working tree; skipped"), False
    except SourceParseError as err:
        return [], err.skipped, False
    try:
        return _located(text, path, include_dunder, known, data), None, True
    except SourceParseError as err:
        return [], err.skipped, True


def _size(top: Path, path: str) -> int:
    try:
        return (top / path).stat().st_size
    except OSError:
        return 0


def _located(text: str, path: str, include_dunder: bool, known: ScanCache | None, data: bytes) -> list[Target]:
    if known is None:
        return public_functions(text, module_name(path), path, include_dunder=include_dunder)
    from docbot.scan.cache import blob_id

    blob = blob_id(data)
    spans = known.get(blob, include_dunder)
    if spans is None:
        spans = public_spans(text, path, include_dunder=include_dunder)
        known.put(blob, include_dunder, spans)
    return targets_at(spans, text, module_name(path), path)


def _worktree_or_none(top: Path, path: str) -> str | None:
    try:
        return read_worktree(top, path)
    except (OSError, SourceParseError):
        return None


def _excluding(wanted: Callable[[str | None], bool], patterns: Sequence[str]) -> Callable[[str | None], bool]:
    """Narrow a path predicate by glob patterns (``tests/*`` also matches deeper files: fnmatch's * spans /)."""
    if not patterns:
        return wanted
    return lambda path: wanted(path) and not any(fnmatch(path or "", pattern) for pattern in patterns)


def _path_filter(top: Path, start: Path, paths: Sequence[str]) -> Callable[[str | None], bool]:
    """A predicate: is this repo-relative path under one of ``paths``? (Always true without paths.)"""
    prefixes = []
    for given in paths:
        absolute = (start / given).resolve()
        try:
            relative = absolute.relative_to(top.resolve()).as_posix()
        except ValueError:
            raise ConfigError(f"{given} is outside the repository at {top}.") from None
        prefixes.append("" if relative == "." else relative)

    def wanted(path: str | None) -> bool:
        if path is None:
            return False
        return not prefixes or any(p == "" or path == p or path.startswith(p + "/") for p in prefixes)

    return wanted


def _is_python(change: FileChange) -> bool:
    return any(p is not None and p.endswith(".py") for p in (change.old_path, change.new_path))
