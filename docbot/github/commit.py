"""The git edge of the Action's commit mode: a docs-only commit on the PR head, and what a commit holds.

Plain git plumbing with a private index and identity: clearer here than through GitPython.
"""

from __future__ import annotations

import base64
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from docbot.errors import RepoError
from docbot.git.runner import run_git

BOT_NAME = "github-actions[bot]"
BOT_EMAIL = "41898282+github-actions[bot]@users.noreply.github.com"
COMMIT_MESSAGE = "docs(api): update API docs (docbot)"


def commit_docs(repo_root: Path, written: Sequence[str], head_sha: str, branch: str, token: str = "") -> str | None:
    """Commit the doc files the run wrote on top of ``head_sha`` and push them to ``branch`` on origin.

    The commit is built in a temporary index seeded from ``head_sha``, so it holds exactly the PR head
    plus those files, whatever is checked out (``pull_request`` checks out a merge commit, which must
    not end up on the PR branch). Returns the new commit, or None when the head has these docs already.
    """
    with tempfile.TemporaryDirectory(prefix="docbot-index-") as scratch:
        index = {"GIT_INDEX_FILE": str(Path(scratch) / "index")}
        _stage(repo_root, written, head_sha, index)
        tree = _git(repo_root, "write-tree", env=index)
    if tree == _git(repo_root, "rev-parse", f"{head_sha}^{{tree}}"):
        return None
    identity = {"GIT_AUTHOR_NAME": BOT_NAME, "GIT_AUTHOR_EMAIL": BOT_EMAIL,
                "GIT_COMMITTER_NAME": BOT_NAME, "GIT_COMMITTER_EMAIL": BOT_EMAIL}
    commit = _git(repo_root, "commit-tree", tree, "-p", head_sha, "-m", COMMIT_MESSAGE, env=identity)
    try:
        _git(repo_root, "push", "--quiet", "origin", f"{commit}:refs/heads/{branch}",
             env=push_auth(repo_root, token))
    except RepoError as err:
        raise RepoError(f"could not push the docs to {branch}: {err}. If the branch moved on, the next "
                        "run commits them; otherwise give the job `permissions: contents: write`.") from None
    return commit


def docs_patch(repo_root: Path, written: Sequence[str], head_sha: str) -> str:
    """The docs the run wrote, as a patch on ``head_sha`` that ``git apply`` takes ("" when none):
    built in a temporary index like :func:`commit_docs`, so it holds those files and nothing else."""
    with tempfile.TemporaryDirectory(prefix="docbot-index-") as scratch:
        index = {"GIT_INDEX_FILE": str(Path(scratch) / "index")}
        _stage(repo_root, written, head_sha, index)
        return _git(repo_root, "diff", "--cached", "--no-color", "--no-ext-diff", "--no-textconv", "--binary",
                    "--src-prefix=a/", "--dst-prefix=b/", head_sha, "--", *written, env=index, strip=False)


def _stage(repo_root: Path, written: Sequence[str], head_sha: str, index: Mapping[str, str]) -> None:
    present = [path for path in written if (repo_root / path).exists()]
    removed = [path for path in written if path not in present]
    _git(repo_root, "read-tree", head_sha, env=index)
    if present:
        _git(repo_root, "add", "--", *present, env=index)
    if removed:
        _git(repo_root, "rm", "--cached", "--quiet", "--ignore-unmatch", "--", *removed, env=index)


def push_auth(repo_root: Path, token: str) -> dict[str, str]:
    """Git configuration, in the environment (never argv, never .git/config), that authenticates the
    push with ``token``: the checkout should not keep credentials where the run step's examples could
    read them (``persist-credentials: false``). When it kept some anyway, those are used as they are:
    a second Authorization header would make GitHub refuse the push."""
    if not token:
        return {}
    try:
        _git(repo_root, "config", "--get-regexp", r"^http\..*extraheader$")
        return {}
    except RepoError:
        pass  # none configured (git exits 1)
    basic = base64.b64encode(f"x-access-token:{token}".encode()).decode()
    return {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "http.extraheader",
            "GIT_CONFIG_VALUE_0": f"AUTHORIZATION: basic {basic}"}


def docs_at(repo_root: Path, ref: str, doc_paths: set[str]) -> frozenset[str]:
    """The doc files that exist in commit ``ref``: only those get a link in the comment.

    In comment mode the docs the run wrote are not committed, so the PR head may not have them yet.
    """
    found = set()
    for path in doc_paths:
        try:
            _git(repo_root, "cat-file", "-e", f"{ref}:{path}")
            found.add(path)
        except RepoError:
            pass  # not in that commit, or not a git checkout at all
    return frozenset(found)


def _git(repo_root: Path, *args: str, env: Mapping[str, str] | None = None, strip: bool = True) -> str:
    # Plumbing with a private index and identity, through docbot's one git runner.
    out = run_git(repo_root, *args, env=env).decode("utf-8", "surrogateescape")
    return out.strip() if strip else out
