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

from docbot.docmodel import DocModel
from docbot.facts.function import extract_facts
from docbot.fronts import cli
from docbot.loop.truth import CodeContext, check_with_sandbox
from docbot.verify.checks.examples import ExampleContext

REPO = Path(__file__).parents[2]
DATA = REPO / "tests" / "data"


def test_recorded_smollm2_run_replays_byte_identical(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "replayed.md"
    code = cli.reflexion_main(["--input", str(REPO / "input" / "compound_interest.py"), "--output", str(output),
                               "--replay", str(DATA / "compound_interest.smollm2.jsonl"), "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert output.read_bytes() == (DATA / "compound_interest.smollm2.md").read_bytes()
    assert "> **Unapproved** (best score 18, bar 95):" in output.read_text()  # the reader is told
    result = json.loads(captured.out)["results"][0]
    # Re-recorded after issues 28-33 landed (the claims, the bounds, the docmodel's lenient JSON): round 2's
    # critique never parsed (score 0), a regression the router sends to the adjudicator; the best draft of an
    # earlier round must ship.
    assert (result["scores"], result["rounds"], result["exit_reason"]) == ([18, 0], 2, "regression")
    assert not result["approved"] and result["approval"] == "unapproved"  # a 135M model never gets past the checks
    # The writer's first request carries the existing docstring (issue 21): the model starts from its words.
    assert result["doc_model"]["summary"].startswith("Return the balance after years")
    # The shipped model is round 1's, the best draft; the adjudicator's edit was not taken, repair had nothing
    # to take out, and the unparsed critique is said.
    assert result["repairs"] == [] and "round 2: the critic's answer could not be parsed" in result["warnings"]
    critic = result["tokens"]["CRITIC"]
    assert (critic["in"], critic["out"], critic["calls"]) == (4122, 103, 4)  # recorded usage comes back too


def test_the_recorded_run_ships_no_contradiction_its_checks_detect(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """The property of docs/design.md#gate on a real model's run: the shipped model passes its own checks,
    examples really run."""
    code = cli.reflexion_main(["--input", str(REPO / "input" / "compound_interest.py"), "--output",
                               str(tmp_path / "out.md"), "--replay", str(DATA / "compound_interest.smollm2.jsonl"),
                               "--json"])
    assert code == 0
    shipped = DocModel.model_validate(json.loads(capsys.readouterr().out)["results"][0]["doc_model"])
    facts = extract_facts((REPO / "input" / "compound_interest.py").read_text(), "compound_interest")
    context = ExampleContext("compound_interest", (str(REPO / "input"),))
    module = (REPO / "input" / "compound_interest.py").read_text()
    source = "def compound_interest(" + module.split("def compound_interest(", 1)[1]
    code = CodeContext("compound_interest", source, module, context)
    assert [f for f in check_with_sandbox(shipped, facts, code) if f.fatal] == []
    assert shipped.summary.strip()  # something real shipped, not an emptied model
