"""The git edge: which Python files changed, their old and new text, and the targets in them.

Every git call is a ``git`` subprocess (``docbot.git_cmd``), never an index object read in process:
subprocesses honour ``GIT_INDEX_FILE``, which git points at a temporary index during ``git commit -a``
hooks (docs/design.md#diff-rules). Diffs are asked for
with ``docbot.git_diff.DIFF_FLAGS`` because user config (``color.diff``, ``diff.external``, textconv
drivers, ``diff.submodule``) otherwise changes the output ``docbot.git_diff`` reads.
"""

from __future__ import annotations

import gc
import io
import tokenize
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path

from docbot.api_scope import in_api, merge_moves
from docbot.errors import ConfigError, RepoError
from docbot.git_blobs import BlobReader
from docbot.git_cmd import Git, GitFailed, open_git
from docbot.git_diff import DIFF_FLAGS, REGULAR_FILE_MODES, DiffShapeError, FileChange, parse_git_diff
from docbot.results import ScanError, Target
from docbot.scan_cache import ScanCache, blob_id
from docbot.targets import (SourceParseError, changed_targets, module_name, public_functions, public_spans,
                            targets_at)

INDEX = "INDEX"
WORKTREE = "WORKTREE"


@dataclass(frozen=True)
class DiffSpec:
    """Which change to look at: the index (``staged``), ``base...head``, every file (``all``), or,
    with nothing set, the working tree against HEAD. ``head`` None means HEAD."""

    staged: bool = False
    base: str | None = None
    head: str | None = None
    all: bool = False

    def __post_init__(self) -> None:
        if self.head is not None and self.base is None:
            raise ConfigError("--head needs --base REV (the diff is base...head).")
        if sum([self.staged, self.base is not None, self.all]) > 1:
            raise ConfigError("Choose one of --staged, --base REV [--head REV] or --all.")


@dataclass
class Scan:
    """What a scan found. ``sources`` maps every touched Python path to its new-side text ("" when the
    file is gone, including the old path of a rename); ``base``/``head`` are SHAs or INDEX/WORKTREE."""

    base: str
    head: str
    targets: list[Target] = field(default_factory=list)
    errors: list[ScanError] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class _Plan:
    """How to get a diff and both sides' blobs for one DiffSpec."""

    diff_args: tuple[str, ...]
    old_rev: str | None  # None: no commits yet, so there is no old side
    new_rev: str | None  # a SHA, "" for the index, None for the working tree
    base: str
    head: str


def open_repo(path: Path) -> Git:
    """The checkout containing ``path`` (searching parent folders); RepoError outside one."""
    return open_git(path)


@contextmanager
def few_collections() -> Iterator[None]:
    """Parsing makes millions of short-lived AST nodes, which reference counting frees; at the cyclic
    collector's default threshold (700 allocations) it re-walks the growing heap of kept texts and
    targets thousands of times: half of a whole-tree scan's CPU. Raised for the scan, then restored."""
    old = gc.get_threshold()
    gc.set_threshold(100_000, 50, 100)
    try:
        yield
    finally:
        gc.set_threshold(*old)


def scan(repo_root: Path, spec: DiffSpec, paths: Sequence[str] = (), *,
         include_dunder: bool = False, exclude: Sequence[str] = (), cache: bool = False,
         authority: bool = True) -> Scan:
    """The targets of ``spec`` in the repository at ``repo_root``, limited to files under ``paths``
    (absolute, or relative to ``repo_root``) and not matching an ``exclude`` glob. Files that cannot be
    read or parsed go to ``errors``. With ``cache``, a whole-tree scan parses only the files whose blob
    ``.docbot/cache/scan.json`` does not know (docbot.scan_cache). ``authority`` False: a diff's targets
    from the ``ast`` pass alone (``targets.changed_targets``)."""
    with few_collections():
        return _scan(repo_root, spec, paths, include_dunder, exclude, cache, authority)


def _scan(repo_root: Path, spec: DiffSpec, paths: Sequence[str], include_dunder: bool, exclude: Sequence[str],
          cache: bool, authority: bool) -> Scan:
    repo = open_repo(repo_root)
    top = repo.top
    wanted = _excluding(_path_filter(top, Path(repo_root), paths), exclude)
    if spec.all:
        # The whole tree is what is on disk: a path that is not there is a typo, not "nothing to do".
        for given in paths:
            if not (Path(repo_root) / given).exists():
                raise ConfigError(f"{given}: no such file or folder in {top}; check the path.")
        return _scan_all(repo, top, wanted, include_dunder, cache)
    plan = _plan(repo, spec)
    try:
        changes = parse_git_diff(_git(repo, "diff", *plan.diff_args, *DIFF_FLAGS, "--", "*.py"))
    except DiffShapeError as err:
        raise RepoError(f"cannot read git's diff ({err}); please report this with `git --version`.") from None
    found = Scan(base=plan.base, head=plan.head)
    with BlobReader(top) as blobs:
        for change in changes:
            if _is_python(change) and (wanted(change.old_path) or wanted(change.new_path)):
                _scan_change(blobs, top, plan, change, include_dunder, found, authority)

        def read_init(path: str, old_side: bool) -> str | None:
            try:
                return _read_old(blobs, plan, path) if old_side else _read_new(blobs, top, plan, path)
            except (RepoError, SourceParseError, OSError):
                return None

        found.targets = merge_moves(in_api(found.targets, read_init))
    return found


def touches_nothing_public(repo_root: Path, spec: DiffSpec, paths: Sequence[str] = ()) -> bool:
    """Whether ``spec`` gives no target whatever the settings say: the widest scan (dunders included,
    nothing excluded) finds no target and no file it could not read. The fronts then finish before
    loading the settings (docs/design.md#lazy-imports). Always False for a whole-tree spec."""
    if spec.all:
        return False
    found = scan(repo_root, spec, paths, include_dunder=True, authority=False)  # no libcst: nothing or not
    return not found.targets and not found.errors


def tracked_python_files(repo_root: Path) -> list[str]:
    """Every regular ``*.py`` file committed at HEAD (the index in a repository without commits)."""
    repo = open_repo(repo_root)
    if _head_sha(repo):
        listing = _git(repo, "ls-tree", "-r", "-z", "--full-tree", "HEAD")  # "mode type sha\tpath"
    else:
        listing = _git(repo, "ls-files", "-z", "--stage")  # "mode sha stage\tpath"
    files = []
    for entry in listing.decode("utf-8", "surrogateescape").split("\0"):
        info, _, path = entry.partition("\t")
        if path.endswith(".py") and info.split(" ")[0] in REGULAR_FILE_MODES:
            files.append(path)
    return sorted(set(files))


def read_worktree(repo_root: Path, path: str) -> str:
    """The working-tree text of repo-relative ``path``. FileNotFoundError when it is gone;
    SourceParseError when it is not text in its declared encoding."""
    return _decode((repo_root / path).read_bytes(), path)


def staged_entry(repo_root: Path, path: str) -> tuple[str, bytes] | None:
    """The index's entry for repo-relative ``path``: its mode (``100644``, ``120000``...) and content;
    None when the path is not staged. What ``git commit`` would take, whatever the working tree holds."""
    repo = open_repo(repo_root)
    listing = _git(repo, "ls-files", "-z", "--stage", "--", f":(literal){path}")  # "mode sha stage\tpath"
    info, _, staged_path = listing.decode("utf-8", "surrogateescape").split("\0")[0].partition("\t")
    if staged_path != path:
        return None
    mode, sha = info.split(" ")[:2]
    return mode, _git(repo, "cat-file", "blob", sha)


def changed_python_paths(repo_root: Path, spec: DiffSpec) -> tuple[set[str], set[str]]:
    """The ``*.py`` paths ``spec`` (staged, or base...head) changed: those still there, and those gone
    (a rename counts as both, so its old path is among the gone)."""
    repo = open_repo(repo_root)
    plan = _plan(repo, spec)
    found: list[set[str]] = []
    for kept in ("d", "D"):  # lower case excludes deletions, upper case keeps only them
        listing = _git(repo, "diff", *plan.diff_args, "--name-only", "-z", "--no-renames",
                       f"--diff-filter={kept}", "--", "*.py")
        found.append({p for p in listing.decode("utf-8", "surrogateescape").split("\0") if p})
    return found[0], found[1]


def resolve_commit(repo: Git, rev: str) -> str:
    """The commit SHA ``rev`` names; RepoError saying what to do when it names none."""
    sha = _rev_parse(repo, rev) if not rev.startswith("-") else None  # "-x" would be read as an option
    if sha is None:
        raise RepoError(f"Unknown revision {rev!r}: check the name, or fetch it first (in GitHub Actions "
                        "use actions/checkout with fetch-depth: 0).")
    return sha


def _plan(repo: Git, spec: DiffSpec) -> _Plan:
    if spec.base is not None:
        base_sha = resolve_commit(repo, spec.base)
        new_sha = resolve_commit(repo, spec.head or "HEAD")
        try:  # base...head: what head changed since it forked from base, as a PR shows it
            merge_base = repo.text("merge-base", base_sha, new_sha)
        except GitFailed:
            raise RepoError(f"{spec.base} and {spec.head or 'HEAD'} share no history (no merge base). "
                            "In a shallow clone, fetch more history (fetch-depth: 0).") from None
        return _Plan((merge_base, new_sha), merge_base, new_sha, merge_base, new_sha)
    head_sha = _head_sha(repo)
    old_side = head_sha or _empty_tree(repo)
    if spec.staged:
        return _Plan(("--cached", old_side), head_sha, "", old_side, INDEX)
    return _Plan((old_side,), head_sha, None, old_side, WORKTREE)


def _scan_change(blobs: BlobReader, top: Path, plan: _Plan, change: FileChange, include_dunder: bool,
                 found: Scan, authority: bool = True) -> None:
    """Add one changed file's targets (or its error) and its new-side text to ``found``."""
    path = change.path
    try:
        old_text = None if change.old_path is None else _read_old(blobs, plan, change.old_path)
        new_text = None if change.new_path is None else _read_new(blobs, top, plan, change.new_path)
    except (RepoError, SourceParseError, OSError) as err:
        found.errors.append(err.skipped if isinstance(err, SourceParseError) else ScanError(path, str(err)))
        return
    found.sources[path] = new_text or ""
    if change.status == "renamed" and change.old_path:
        found.sources[change.old_path] = ""
    try:
        found.targets += changed_targets(old_text, new_text, change, module_name(path), path,
                                         include_dunder=include_dunder, authority=authority)
    except SourceParseError as err:
        found.errors.append(err.skipped)


def _read_old(blobs: BlobReader, plan: _Plan, path: str) -> str | None:
    if plan.old_rev is None:
        return None
    return _decode(blobs.read(f"{plan.old_rev}:{path}"), path)


def _read_new(blobs: BlobReader, top: Path, plan: _Plan, path: str) -> str:
    if plan.new_rev is None:
        return read_worktree(top, path)
    return _decode(blobs.read(f"{plan.new_rev}:{path}"), path)  # ":path" is the index


def _scan_all(repo: Git, top: Path, wanted: Callable[[str | None], bool], include_dunder: bool,
              cache: bool = False) -> Scan:
    """Every tracked file, read as it is in the working tree: the user wants their current code."""
    found = Scan(base=_head_sha(repo) or _empty_tree(repo), head=WORKTREE)
    known = ScanCache(top / SCAN_CACHE) if cache else None
    for path in tracked_python_files(top):
        if not wanted(path):
            continue
        try:
            data = (top / path).read_bytes()
            text = found.sources[path] = _decode(data, path)
            found.targets += _located(text, path, include_dunder, known, data)
        except FileNotFoundError:
            found.errors.append(ScanError(path, "tracked but missing from the working tree; skipped"))
        except SourceParseError as err:
            found.errors.append(err.skipped)
    if known is not None:
        known.save()
    found.targets = merge_moves(in_api(
        found.targets, lambda init, _old: found.sources.get(init) or _worktree_or_none(top, init)))
    return found


SCAN_CACHE = ".docbot/cache/scan.json"


def _located(text: str, path: str, include_dunder: bool, known: ScanCache | None, data: bytes) -> list[Target]:
    if known is None:
        return public_functions(text, module_name(path), path, include_dunder=include_dunder)
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


def _decode(data: bytes, path: str) -> str:
    """Bytes to text the way Python reads a source file: BOM, coding cookie, else UTF-8."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding)  # "utf-8-sig" drops a BOM
    except (SyntaxError, UnicodeDecodeError, LookupError) as err:
        raise SourceParseError(path, 1, f"not readable as Python source text ({err})") from None


def _head_sha(repo: Git) -> str | None:
    """HEAD's commit SHA, or None in a repository without commits."""
    return _rev_parse(repo, "HEAD")


def _rev_parse(repo: Git, rev: str) -> str | None:
    try:
        return repo.text("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except GitFailed:
        return None


def _empty_tree(repo: Git) -> str:
    """The empty tree's id (differs between SHA-1 and SHA-256 repositories); nothing is written."""
    return repo.run("hash-object", "-t", "tree", "--stdin").decode().strip()


def _git(repo: Git, command: str, *args: str) -> bytes:
    """Run one git command; its exact stdout as bytes, or RepoError carrying git's complaint."""
    return repo.run(command, *args)
