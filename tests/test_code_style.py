"""The project's own checks: ruff (lint) and mypy (types) are clean, as the README promises, and the
benchmarks run as modules."""

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


def test_benchmarks_are_modules_of_the_bench_package() -> None:
    """``python -m bench.<name>`` from the repository root: imports resolve without editing sys.path."""
    files = sorted([*REPO.glob("bench/*.py"), *REPO.glob("bench/truth/*.py")])
    assert [f for f in files if "sys.path" in f.read_text(encoding="utf-8")] == []
    modules = [".".join(f.relative_to(REPO).with_suffix("").parts) for f in files if f.name != "__init__.py"]
    assert "bench.truth.run" in modules
    done = run("bench.truth.run", "--help")
    assert done.returncode == 0, done.stderr
    importer = "import importlib, sys\nfor m in sys.argv[1:]: importlib.import_module(m)"
    done = subprocess.run([sys.executable, "-c", importer, *modules], cwd=REPO, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
