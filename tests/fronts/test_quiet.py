"""`-q` on the real SmolLM2 recording: only warnings, failures and the result, a line each, not one line
per round's warning and per repair (the recording's one function printed 8 warnings and 9 repairs)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RECORDING = ROOT / "tests" / "data" / "compound_interest.smollm2.jsonl"


@pytest.mark.parametrize(("quiet", "most"), [(True, 3), (False, 100)])
def test_quiet_replay_of_the_recording(tmp_path: Path, quiet: bool, most: int) -> None:
    argv = [sys.executable, "-c", "import sys; from docbot.fronts.cli import reflexion_main; "
            "sys.exit(reflexion_main(sys.argv[1:]))", *(["-q"] if quiet else []), "--backend", "replay",
            "--replay", str(RECORDING), "-i", "input/compound_interest.py", "-o", str(tmp_path / "out.md")]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    warnings = [line for line in lines if line.startswith("warning:")]
    if quiet:
        assert len(lines) <= most and len(warnings) == 1, lines
        assert "unapproved" in "\n".join(lines) and "repaired: 9 repairs" in "\n".join(lines)
    else:
        assert len(warnings) == 8 and sum("repaired:" in line for line in lines) == 9, lines


def test_the_commands_the_readme_says_take_json_q_and_v_take_them() -> None:
    import argparse
    import re

    from docbot.fronts.cli import main_parser

    readme = (ROOT / "README.md").read_text()
    said = re.search(r"(`run`, .*?) take `--json`, `-q`", readme, re.S)
    assert said, "the README lost its sentence on --json, -q and -v"
    commands = re.findall(r"`(\w+)`", said.group(1))
    assert "demo" in commands  # `docbot demo -q` was refused: "unrecognized arguments: -q"
    sub = next(a for a in main_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for name in commands:
        assert {"-q", "-v", "--json"} <= set(sub.choices[name]._option_string_actions), name
