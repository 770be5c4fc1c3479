"""Make a `--record` file for a repository state with scripted models, for replay-driven CLI tests.

The recording is made by the real `run_docs` on a throwaway copy of the repository, so the requests
a later `--replay` run sends match it exactly.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from docbot import events
from docbot.loop.graph import build_graph
from docbot.loop.runner import document_target, example_context
from docbot.models.replay import Recorder
from docbot.scan.repo import DiffSpec
from docbot.results import FunctionResult, Target
from docbot.run.pipeline import run_docs
from docbot.config.sources import load_settings
from tests.support.fakes import scripted_models


def record_answers(repo_root: Path, spec: DiffSpec, recording: Path, writer: list[str], critic: list[str],
                   adjudicator: list[str]) -> list[FunctionResult]:
    scratch = repo_root.parent / f"{repo_root.name}-recording"
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(repo_root, scratch)
    settings = load_settings(scratch / "config.json")
    graph = build_graph(scripted_models(writer, critic, adjudicator), settings)
    recorder = Recorder(recording)

    def document(target: Target, current: str) -> FunctionResult:
        return document_target(graph, target, settings, events.discard,
                               example_context(settings, scratch, target.module), [recorder], current)[0]

    report = run_docs(settings, scratch, spec, (), events.discard, documenter_factory=lambda: document)
    shutil.rmtree(scratch, ignore_errors=True)
    return report.results
