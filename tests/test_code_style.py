"""The project's own checks: ruff (lint) and mypy (types) are clean, as the README promises."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).parents[1]


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=REPO, capture_output=True, text=True, timeout=600)


def test_ruff_is_clean() -> None:
    done = run("ruff", "check", "docbot", "tests", "bench")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_is_clean() -> None:
    done = run("mypy", "docbot")
    assert done.returncode == 0, done.stdout + done.stderr
