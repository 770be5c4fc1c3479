"""The README's quick start: `docbot demo` documents a sample with the embedded model, no server."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from docbot.loop.cleanup import clean_markdown

pytest_plugins = ["tests.support.fixtures"]  # smollm_path fails (never skips) without the embedded extra


@pytest.mark.slow
def test_demo_runs_end_to_end_on_the_embedded_model(tmp_path: Path, smollm_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "docbot.fronts.cli", "demo", "-o", "demo.md"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    written = (tmp_path / "demo.md").read_text()
    assert written.startswith("## ") and written == clean_markdown(written)
    assert "compound_interest round 1: accuracy" in done.stderr  # the scorecard
    assert "→ " in done.stderr and "exit: " in done.stderr  # the router's decision and the summary
    assert "generator" in done.stderr and " tok " in done.stderr  # tokens and time per role
