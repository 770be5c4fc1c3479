"""A model server failing mid-run: retries happen, each function fails clearly, no doc is lost."""

from __future__ import annotations

from pathlib import Path

from docbot import events
from docbot.models.factory import build_models
from docbot.scan.repo import DiffSpec
from docbot.loop.runner import documenter_for
from docbot.run.pipeline import run_docs
from docbot.config.sources import load_settings
from docbot.config.settings import Settings
from tests.support.fakes import critique, doc, scripted_models
from tests.support.faulty_server import FaultyServer
from tests.support.git_repo import GitRepo

OLD_DOC = """# m

<!-- docbot:section f hash=000000000000 -->
## `f`

The old doc of f, kept when the new one cannot be written.
"""


def test_server_errors_fail_each_function_and_keep_the_old_docs(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "r")
    repo.write("m.py", "def f(x):\n    return x\n\n\ndef g(y):\n    return y\n")
    repo.write("docs/api/m.md", OLD_DOC).commit("start")
    with FaultyServer("error500") as server:
        settings = load_settings(None, {"base_url": server.base_url, "call_retries": 1, "run_examples": False})
        documenter = documenter_for(build_models(settings), settings, repo.root, events.discard)
        report = run_docs(settings, repo.root, DiffSpec(all=True), (), events.discard,
                          documenter_factory=lambda: documenter)
        seen = server.chat_requests
    assert [(r.qualname, r.status) for r in report.results] == [("f", "failed"), ("g", "failed")]
    assert all("GENERATOR model qwen3.5:9b on Ollama" in r.reason and "after 2 attempts" in r.reason
               for r in report.results), report.results
    assert seen == 4  # each function's first call, tried twice (call_retries=1), then given up
    assert repo.read("docs/api/m.md") == OLD_DOC  # the old section of f is kept, nothing half-written
    assert report.written == ["docs/api/index.md"]  # the first run since the index exists: it lists f


def test_a_function_that_fails_mid_loop_reports_the_calls_it_made(tmp_path: Path) -> None:
    # Round 1 is written and scored, the reviser answers, then the critic's server is gone (the script
    # runs out): the function fails, and the three calls its finished steps made are still counted.
    repo = GitRepo(tmp_path).write("m.py", "def f(x):\n    return x\n").commit("start")
    models = scripted_models([doc("f"), doc("f", "Returns x.")], [critique(60, 60)], [])
    documenter = documenter_for(models, Settings(run_examples=False), repo.root, events.discard)
    report = run_docs(Settings(run_examples=False), repo.root, DiffSpec(all=True), (), events.discard,
                      documenter_factory=lambda: documenter)
    [result] = report.results
    assert (result.status, "script exhausted" in result.reason) == ("failed", True)
    assert {role: spent["calls"] for role, spent in result.tokens.items()} == {"GENERATOR": 2, "CRITIC": 1}
    assert result.tokens["GENERATOR"]["in"] > 0
