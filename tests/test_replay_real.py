"""A real SmolLM2 run, recorded once, replayed with no model: the prompt regression test.

tests/data/compound_interest.smollm2.jsonl was recorded with

    reflexion --backend embedded --record tests/data/compound_interest.smollm2.jsonl \\
        -i input/compound_interest.py -o tests/data/compound_interest.smollm2.md

Any change to a prompt, the facts or the truth checks' wording changes a request, and this test then
fails with a replay miss naming the role and round: re-record with the command above and review the
new trajectory in the diff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docbot.fronts import cli

REPO = Path(__file__).parents[1]
DATA = REPO / "tests" / "data"


def test_recorded_smollm2_run_replays_byte_identical(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "replayed.md"
    code = cli.reflexion_main(["--input", str(REPO / "input" / "compound_interest.py"), "--output", str(output),
                               "--replay", str(DATA / "compound_interest.smollm2.jsonl"), "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert output.read_bytes() == (DATA / "compound_interest.smollm2.md").read_bytes()
    result = json.loads(captured.out)["results"][0]
    assert (result["scores"], result["rounds"], result["exit_reason"]) == ([18, 18, 18, 18, 18], 5, "attempts")
    assert not result["approved"] and result["fatal_issues"]  # a 135M model never gets past the code checks
    assert result["tokens"]["CRITIC"]["in"] == 4754  # recorded usage comes back too
