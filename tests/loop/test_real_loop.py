"""The whole loop on a sample function with a real model (SmolLM2 via llama.cpp) over both protocols.

A 135M model writes poor docs and poor critiques; these tests assert the run's structure and
invariants, never its prose: every round is scored in range, nothing is approved while a fatal issue
stands, the output is the section docbot rendered from the model's doc model (docbot's own heading
and anchor), and tokens and time are counted per role. The doc model needs room: an answer cut off at
the token limit is not used, so max_tokens is the schema's, not a critique's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from docbot.fronts import cli
from docbot.results import FunctionResult, SectionStatus
from docbot.run.single_file import with_status
from tests.support.smol import N_CTX, OPENAI_ALIAS, SMOL_MODELS

pytest_plugins = ["tests.support.fixtures"]  # smollm_path, ollama_server, ...: one per session

SAMPLE = Path(__file__).parents[2] / "input" / "compound_interest.py"


def run_reflexion(tmp_path: Path, config: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    config_file = tmp_path / "config.json"
    config_file.write_text(json.dumps({"num_ctx": N_CTX, "max_tokens": 1024, "max_attempts": 1,
                                       "parse_attempts": 1, "request_timeout_s": 300, **config}))
    output = tmp_path / "out" / "doc.md"
    code = cli.reflexion_main(["--input", str(SAMPLE), "--output", str(output), "--config", str(config_file),
                               "--json"])
    captured = capsys.readouterr()
    results = json.loads(captured.out)["results"]
    assert code == 0, captured.err
    assert len(results) == 1
    result = results[0]
    assert result["status"] == "updated" and 1 <= result["rounds"] <= 2, result["reason"]
    shipped = FunctionResult(result["module"], result["qualname"], "updated", markdown=result["markdown"],
                             scores=result["scores"], bar=result["bar"],
                             approval=SectionStatus(result["approval"]) if result["approval"] else None)
    assert output.read_text() == with_status(shipped) + "\n"  # with the note when the gate never passed it
    assert output.read_text().startswith('<a id="compound_interest.compound_interest"></a>\n\n'
                                         "## `compound_interest`\n")  # docbot's heading, never the model's
    assert result["doc_model"] is not None and result["approval"] in {"approved", "unapproved"}
    assert (result["approval"] == "approved") == result["approved"]
    assert all(0 <= score <= 100 for score in result["scores"]) and len(result["scores"]) == result["rounds"]
    assert result["exit_reason"] in {"approved", "attempts", "regression"}
    assert not (result["approved"] and result["fatal_issues"])  # never approved while fatal issues stand
    assert set(result["tokens"]) == {"GENERATOR", "CRITIC", "ADJUDICATOR"}
    assert all(t["in"] > 0 and t["out"] > 0 and t["seconds"] > 0 for t in result["tokens"].values())
    events = [json.loads(line) for line in captured.err.splitlines() if line.startswith("{")]
    assert [e["event"] for e in events].count("round") == result["rounds"]
    assert any(e["event"] == "route" for e in events)
    return result


@pytest.mark.slow
def test_whole_loop_over_the_ollama_protocol(tmp_path: Path, ollama_fake: Any, ollama_server: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    before = len(ollama_fake.requests)  # the server is shared by the whole session
    run_reflexion(tmp_path, {"backend": "ollama", "base_url": ollama_server, "model_registry": SMOL_MODELS},
                  capsys)
    mine = ollama_fake.requests[before:]
    chats = [r["body"] for r in mine if r["path"] == "/api/chat"]
    assert {c["model"] for c in chats} == set(SMOL_MODELS.values())  # each role its own model
    assert any(isinstance(c.get("format"), dict) for c in chats)  # the critic's schema went over the wire
    paths = [r["path"] for r in mine]
    assert paths.index("/api/tags") < paths.index("/api/chat")  # preflight asked before any work


@pytest.mark.slow
def test_whole_loop_over_the_openai_protocol(tmp_path: Path, llama_openai_server: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    run_reflexion(tmp_path, {"backend": "openai", "base_url": llama_openai_server,
                             "model_registry": {role: OPENAI_ALIAS for role in SMOL_MODELS}}, capsys)


@pytest.mark.slow
def test_a_2500_line_function_never_goes_out_over_the_context(tmp_path: Path, ollama_fake: Any, ollama_server: str,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's measurement, through the loopback server that logs requests: with num_ctx 2048 a 2,500-line
    function went out as a 187,801-character request, eleven times, and Ollama would cut it. Now every request
    fits num_ctx less the answer's room by the characters bound, and the run says a reduced prompt went out."""
    from docbot.loop import fit

    body = "".join(f"    total_{i} = value * {i} + offset\n" for i in range(2500))
    source = tmp_path / "big.py"
    source.write_text(f"def big(value, offset=0):\n    \"\"\"Add up.\"\"\"\n{body}"
                      "    if value < 0:\n        raise ValueError('value must not be negative')\n    return total_1\n")
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"backend": "ollama", "base_url": ollama_server, "model_registry": SMOL_MODELS,
                                  "num_ctx": 2048, "max_tokens": 64, "max_attempts": 1, "parse_attempts": 1,
                                  "request_timeout_s": 300}))
    before = len(ollama_fake.requests)
    cli.reflexion_main(["--input", str(source), "--output", str(tmp_path / "big.md"), "--config", str(config),
                        "--json"])
    result = json.loads(capsys.readouterr().out)["results"][0]
    chats = [r["body"] for r in ollama_fake.requests[before:] if r["path"] == "/api/chat"]
    assert chats  # the writer was asked: the reduced prompt fits
    sizes = [sum(len(m["content"]) for m in c["messages"]) for c in chats]
    budget = 2048 - 64 - fit.REASK_TOKENS
    assert all(size / 2.5 + 8 * len(c["messages"]) <= budget for size, c in zip(sizes, chats)), sizes
    assert max(sizes) < 5_000 and all("total_2499" not in m["content"] for c in chats for m in c["messages"])
    assert any("sent a reduced prompt" in w for w in result["warnings"]), result["warnings"]
