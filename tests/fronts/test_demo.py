"""The README's quick start: `docbot demo` documents a sample with the embedded model, no server."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest_plugins = ["tests.support.fixtures"]  # smollm_path fails (never skips) without the embedded extra


@pytest.mark.slow
def test_demo_runs_end_to_end_on_the_embedded_model(tmp_path: Path, smollm_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "docbot.fronts.cli", "demo", "-o", "demo.md"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    written = (tmp_path / "demo.md").read_text()
    # docbot renders the section from the model's doc model: its own anchor and heading, never the model's
    assert written.startswith('<a id="compound_interest.compound_interest"></a>\n\n## `compound_interest`\n')
    assert "compound_interest round 1: accuracy" in done.stderr  # the scorecard
    assert "→ " in done.stderr and "exit: " in done.stderr  # the router's decision and the summary
    assert "generator" in done.stderr and " tok " in done.stderr  # tokens and time per role
