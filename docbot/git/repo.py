"""What git says about the checkout: revisions, which paths are tracked, staged or changed, and file text.

``docbot.scan.repo`` builds scans on top of it. Every git call is a ``git`` subprocess (``docbot.git.runner``),
never an index object read in process: subprocesses honour ``GIT_INDEX_FILE``, which git points at a
temporary index during ``git commit -a`` hooks (docs/design.md#diff-rules).
"""

from __future__ import annotations

import io
import tokenize
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from docbot.errors import ConfigError, RepoError
from docbot.git.runner import Git, GitFailed, git_ok, open_git
from docbot.git.diff import REGULAR_FILE_MODES
from docbot.results import SourceParseError

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


@dataclass(frozen=True)
class DiffPlan:
    """How to get a diff and both sides' blobs for one DiffSpec."""

    diff_args: tuple[str, ...]
    old_rev: str | None  # None: no commits yet, so there is no old side
    new_rev: str | None  # a SHA, "" for the index, None for the working tree
    base: str
    head: str


def open_repo(path: Path) -> Git:
    """The checkout containing ``path`` (searching parent folders); RepoError outside one."""
    return open_git(path)


def diff_plan(repo: Git, spec: DiffSpec, at_head: Callable[[], str | None] | None = None) -> DiffPlan:
    """The revisions a (non whole-tree) ``spec`` compares; RepoError when git cannot name them. ``at_head``:
    HEAD's commit, where the caller has it (``head_sha`` otherwise)."""
    if spec.base is not None:
        base_sha = resolve_commit(repo, spec.base)
        new_sha = resolve_commit(repo, spec.head or "HEAD")
        try:  # base...head: what head changed since it forked from base, as a PR shows it
            merge_base = repo.text("merge-base", base_sha, new_sha)
        except GitFailed:
            raise RepoError(f"{spec.base} and {spec.head or 'HEAD'} share no history (no merge base). "
                            "In a shallow clone, fetch more history (fetch-depth: 0).") from None
        return DiffPlan((merge_base, new_sha), merge_base, new_sha, merge_base, new_sha)
    head = at_head() if at_head else head_sha(repo)
    old_side = head or empty_tree(repo)
    if spec.staged:
        return DiffPlan(("--cached", old_side), head, "", old_side, INDEX)
    return DiffPlan((old_side,), head, None, old_side, WORKTREE)


def tracked_python_files(repo_root: Path) -> list[str]:
    """Every regular ``*.py`` file committed at HEAD (the index in a repository without commits)."""
    repo = open_repo(repo_root)
    if head_sha(repo):
        listing = repo.run("ls-tree", "-r", "-z", "--full-tree", "HEAD")  # "mode type sha\tpath"
    else:
        listing = repo.run("ls-files", "-z", "--stage")  # "mode sha stage\tpath"
    files = []
    for entry in listing.decode("utf-8", "surrogateescape").split("\0"):
        info, _, path = entry.partition("\t")
        if path.endswith(".py") and info.split(" ")[0] in REGULAR_FILE_MODES:
            files.append(path)
    return sorted(set(files))


def tracked_under(repo_root: Path, rel: str) -> bool:
    """Whether git tracks any file under repo-relative ``rel`` (in the index, so a checkout's commit too)."""
    return bool(git_ok(repo_root, "ls-files", "-z", "--", rel))


def read_worktree(repo_root: Path, path: str) -> str:
    """The working-tree text of repo-relative ``path``. FileNotFoundError when it is gone;
    SourceParseError when it is not text in its declared encoding."""
    return decode((repo_root / path).read_bytes(), path)


def staged_entry(repo_root: Path, path: str) -> tuple[str, bytes] | None:
    """The index's entry for repo-relative ``path``: its mode (``100644``, ``120000``...) and content;
    None when the path is not staged. What ``git commit`` would take, whatever the working tree holds."""
    repo = open_repo(repo_root)
    listing = repo.run("ls-files", "-z", "--stage", "--", f":(literal){path}")  # "mode sha stage\tpath"
    info, _, staged_path = listing.decode("utf-8", "surrogateescape").split("\0")[0].partition("\t")
    if staged_path != path:
        return None
    mode, sha = info.split(" ")[:2]
    return mode, repo.run("cat-file", "blob", sha)


def resolve_commit(repo: Git, rev: str) -> str:
    """The commit SHA ``rev`` names; RepoError saying what to do when it names none."""
    sha = _rev_parse(repo, rev) if not rev.startswith("-") else None  # "-x" would be read as an option
    if sha is None:
        raise RepoError(f"Unknown revision {rev!r}: check the name, or fetch it first (in GitHub Actions "
                        "use actions/checkout with fetch-depth: 0).")
    return sha


def decode(data: bytes, path: str) -> str:
    """Bytes to text the way Python reads a source file: BOM, coding cookie, else UTF-8."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding)  # "utf-8-sig" drops a BOM
    except (SyntaxError, UnicodeDecodeError, LookupError) as err:
        raise SourceParseError(path, 1, f"not readable as Python source text ({err})") from None


def head_sha(repo: Git) -> str | None:
    """HEAD's commit SHA, or None in a repository without commits."""
    return _rev_parse(repo, "HEAD")


def empty_tree(repo: Git) -> str:
    """The empty tree's id (differs between SHA-1 and SHA-256 repositories); nothing is written."""
    return repo.run("hash-object", "-t", "tree", "--stdin").decode().strip()


def _rev_parse(repo: Git, rev: str) -> str | None:
    try:
        return repo.text("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except GitFailed:
        return None
