"""Preflight from the fronts: exit code 3, the message with the fix, and nothing written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from docbot.fronts import cli
from tests.support.git_repo import GitRepo
from tests.support.smol import SMOL_MODELS, free_port

pytest_plugins = ["tests.support.fixtures"]  # ollama_server: one per session

SAMPLE = Path(__file__).parents[2] / "input" / "compound_interest.py"


def test_docbot_run_with_the_server_down_writes_nothing(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("m.py", "def f(x):\n    return x\n").commit("start")
    env = {**os.environ, "OLLAMA_HOST": f"127.0.0.1:{free_port()}"}  # bound, then released: nothing listens
    done = subprocess.run([sys.executable, "-m", "docbot.fronts.cli", "run", "--all"], cwd=repo.root, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 3, done.stderr
    assert "Ollama not reachable at http://127.0.0.1:" in done.stderr and "ollama serve" in done.stderr
    assert "OLLAMA_HOST" in done.stderr
    assert not (repo.root / "docs").exists()


def test_reflexion_with_a_missing_model_names_the_pull_command(tmp_path: Path, ollama_server: str,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"base_url": ollama_server,
                                  "model_registry": {**SMOL_MODELS, "CRITIC": "deepseek-coder:6.7b"}}))
    output = tmp_path / "out.md"
    code = cli.reflexion_main(["--input", str(SAMPLE), "--output", str(output), "--config", str(config)])
    err = capsys.readouterr().err
    assert code == 3
    assert "ollama pull deepseek-coder:6.7b" in err
    assert not output.exists()
