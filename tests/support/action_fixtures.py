"""TEST SUPPORT: the Action tests' fixtures: the GitHub API fake, and PR repositories on disk.

Use them with ``pytest_plugins = ["tests.support.action_fixtures"]``, not by importing them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.action_env import REPO, TOKEN, git, write
from tests.support.fake_github import FakeGitHub


@pytest.fixture
def gh() -> Iterator[FakeGitHub]:
    with FakeGitHub(token=TOKEN, repo=REPO) as fake:
        yield fake


@pytest.fixture
def pr_repos(tmp_path: Path) -> dict[str, Any]:
    """origin (bare), a developer clone with a PR branch, and the runner's checkout of the merge commit."""
    origin, dev, runner = tmp_path / "origin.git", tmp_path / "dev", tmp_path / "work"
    git(tmp_path, "init", "--bare", str(origin))
    git(tmp_path, "clone", str(origin), str(dev))
    write(dev / "pkg" / "geometry.py", "def area(w, h):\n    return w * h\n")
    git(dev, "add", "-A"), git(dev, "commit", "-m", "base"), git(dev, "push", "origin", "main")
    git(dev, "checkout", "-b", "feature")
    write(dev / "pkg" / "geometry.py", "def area(w, h):\n    return abs(w * h)\n")
    git(dev, "commit", "-am", "feature"), git(dev, "push", "origin", "feature")
    head = git(dev, "rev-parse", "HEAD")
    git(dev, "checkout", "main")
    write(dev / "other.txt", "main moved on\n")
    git(dev, "add", "-A"), git(dev, "commit", "-m", "main moves"), git(dev, "push", "origin", "main")
    base = git(dev, "rev-parse", "HEAD")
    git(tmp_path, "clone", str(origin), str(runner))  # like actions/checkout: the test merge, detached
    git(runner, "checkout", "--detach", "origin/main")
    git(runner, "merge", "--no-ff", "-m", "Merge feature into main", head)
    return {"origin": origin, "dev": dev, "runner": runner, "base": base, "head": head}
