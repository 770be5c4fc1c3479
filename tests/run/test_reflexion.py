"""`reflexion` end to end: record a run, replay it with no server, get the same run back."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from docbot import events
from docbot.fronts import cli
from docbot.loop.graph import build_graph
from docbot.loop.runner import document_target, example_context
from docbot.models.replay import Recorder
from docbot.config.sources import load_settings
from docbot.scan.targets import public_functions
from tests.support.fakes import critique, scripted_models

REPO = Path(__file__).parents[2]
SAMPLE = REPO / "input" / "compound_interest.py"

DRAFT_1 = json.dumps({
    "summary": "Computes compound interest.",
    "parameters": [{"name": "amount", "description": "the starting sum."}],  # not in the signature
    "raises": [{"type": "ValueError", "message": "", "condition": "an input is negative"}],
})
DRAFT_2 = json.dumps({
    "summary": "Return the balance after `years` of compounding `rate`, rounded to cents.",
    "raises": [{"type": "ValueError", "message": "principal, rate and years must be non-negative"},
               {"type": "ValueError", "message": "periods_per_year must be at least 1"}],
})


def record_run(tmp_path: Path, source_file: Path) -> tuple[Path, str, list[int]]:
    """Run the loop on the sample with scripted models, recording every exchange."""
    settings = load_settings(REPO / "config.json", {"run_examples": False})
    models = scripted_models([DRAFT_1, DRAFT_2], [critique(70, 72), critique(96, 97)],
                             ["Here is the final version:\n\n```json\n" + DRAFT_2 + "\n```\nI hope this helps!"])
    recording = tmp_path / "run.jsonl"
    target = public_functions(source_file.read_text(), "compound_interest", str(source_file))[0]
    result, _ = document_target(build_graph(models, settings), target, settings, events.discard,
                                example_context(settings, source_file.parent, "compound_interest"),
                                [Recorder(recording)])
    return recording, result.markdown, result.scores


def test_replay_reproduces_the_recorded_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recording, markdown, scores = record_run(tmp_path, SAMPLE)
    assert scores == [71, 97] and len(recording.read_text().splitlines()) == 5
    output = tmp_path / "deep" / "result.md"
    code = cli.reflexion_main(["--input", str(SAMPLE), "--output", str(output), "--replay", str(recording),
                               "--config", str(REPO / "config.json"), "--no-examples", "--json"])
    assert code == 0
    assert output.read_text() == markdown  # byte-identical, parent folders created
    assert "rounded to cents" in markdown and "Here is" not in markdown  # the adjudicated model, no chatter
    results = json.loads(capsys.readouterr().out)["results"]
    assert [(r["qualname"], r["scores"], r["rounds"], r["exit_reason"]) for r in results] == [
        ("compound_interest", [71, 97], 2, "approved")]


def test_console_script_replays_with_a_bare_output_name(tmp_path: Path) -> None:
    recording, markdown, _ = record_run(tmp_path, SAMPLE)
    console_script = "import sys; from docbot.fronts.cli import reflexion_main; sys.exit(reflexion_main())"
    run = subprocess.run([sys.executable, "-c", console_script, "--input", str(SAMPLE), "-o",
                          "result.md", "--replay", str(recording), "--no-examples"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "result.md").read_text() == markdown
    assert "71 → 97" in run.stderr and "approved" in run.stderr  # the score curve and exit reason
    assert "round 1: accuracy 70" in run.stderr and "→ revise (fatal issues stand)" in run.stderr


def test_replay_miss_names_role_and_round(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    recording, _, _ = record_run(tmp_path, SAMPLE)
    changed = tmp_path / "compound_interest.py"
    shutil.copy(SAMPLE, changed)
    changed.write_text(changed.read_text().replace("rounded to cents", "rounded to 2 places"))
    code = cli.reflexion_main(["--input", str(changed), "--output", str(tmp_path / "out.md"),
                               "--replay", str(recording), "--no-examples"])
    err = capsys.readouterr().err
    assert code == 1  # the function failed; the run reports it instead of crashing
    assert "no recorded answer for the GENERATOR (qwen3.5:9b) request in round 1" in err


def test_missing_input_is_exit_2_not_a_placeholder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.reflexion_main(["--input", str(tmp_path / "nope.py"), "--output", str(tmp_path / "o.md"),
                               "--replay", str(tmp_path / "r.jsonl")])
    assert code == 2
    assert "nope.py: no such input file" in capsys.readouterr().err
    assert not (tmp_path / "o.md").exists()


def test_broken_config_is_exit_2_before_any_model_call(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"quality_score_bar": "high"}')
    code = cli.reflexion_main(["--input", str(SAMPLE), "--output", str(tmp_path / "o.md"), "--config", str(broken)])
    err = capsys.readouterr().err
    assert code == 2 and "broken.json" in err and "quality_score_bar" in err
    assert not (tmp_path / "o.md").exists()
