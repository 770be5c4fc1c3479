"""`-q` on the real SmolLM2 recording: only warnings, failures and the result, a line each, not one line
per round's warning and per repair (the recording's one function prints 4 warnings; it ships with no repair,
which tests/fronts' printer tables cover)."""

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
        assert "unapproved" in "\n".join(lines) and "4 loop warnings" in warnings[0], lines
    else:
        assert len(warnings) == 4 and not any("4 loop warnings" in line for line in lines), lines


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


@pytest.mark.parametrize(("quiet", "repairs", "lines"), [
    (True, 9, 1),   # more than QUIET_REPAIRS: one line
    (True, 2, 2),   # a few: each said
    (False, 9, 9),  # not quiet: each said
    (True, 0, 0),
])
def test_an_unapproved_function_s_repairs_fold_into_one_line_under_q(quiet: bool, repairs: int, lines: int) -> None:
    import io

    from docbot.fronts.console import ConsoleSink
    from docbot.results import FunctionResult, SectionStatus

    out = io.StringIO()
    result = FunctionResult("m", "f", "updated", approval=SectionStatus.UNAPPROVED,
                            repairs=[f"removed example {i}" for i in range(repairs)])
    ConsoleSink(out, quiet=quiet, env={})._on_result(result)
    said = [line for line in out.getvalue().splitlines() if "repaired:" in line]
    assert len(said) == lines, said
    assert not said or (f"{repairs} repairs" in said[0]) is (lines == 1 and repairs > 2)
