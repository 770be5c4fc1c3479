"""Model calls per function for a clean first draft, ``adjudicate`` both ways, over real functions.

    python -m bench.bench_calls --click /path/to/click     # writes bench/RESULTS.md
    python -m bench.bench_calls --click /path/to/click --no-write

The corpus: every public function and method of click (``bench.bench_fit``'s rule). The writer answers each
with its own docstring read into the doc model (the function's real words, its parameters filled in from the
signature where the docstring leaves them out), the critic approves it (97/97, no issue), and the loop runs
as ``docbot run`` runs it, with the real exact checks (examples off). What is counted is what the run's report
counts: the model calls each function made, by role. The seed's loop (``always``) asks the adjudicator even
then; ``when_needed``, the default, does not.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bench.bench_fit import Function, functions
from bench.common import machine, publish
from docbot.config.settings import Settings
from docbot.docmodel import DocModel, ParameterDoc, writer_json
from docbot.facts.function import extract_facts
from docbot.loop.graph import build_graph
from docbot.loop.runner import stream_loop, tokens_by_role
from docbot.loop.state import new_state
from docbot.loop.truth import CodeContext
from docbot.verify.checks.model import check_model
from tests.support.docmodel_samples import FakeRunner
from tests.support.fakes import critique, scripted_models

SECTION = "## Model calls for a clean first draft, click (`bench/bench_calls.py`)"
MODES = ("always", "when_needed")


def writer_answer(function: Function) -> str:
    from docbot.docstrings.existing import existing_docstring, seed_model

    facts = extract_facts(function.source, function.qualname)
    seed = seed_model(existing_docstring(function.source)) or DocModel(summary=f"Run {facts.name}.")
    given = {p.name: p.description for p in seed.parameters}
    parameters = tuple(ParameterDoc(name=p.name, description=given.get(p.name) or f"The {p.name} value.")
                       for p in facts.documentable_parameters)
    return writer_json(seed.model_copy(update={"parameters": parameters, "raises": (), "examples": ()})
                       .model_dump(mode="json"))


def calls(function: Function, mode: str) -> tuple[dict[str, Any], bool]:
    """The function's calls by role, and whether its first draft was approved (a check can stop one)."""
    settings = Settings(adjudicate=mode)  # type: ignore[arg-type]
    answer = writer_answer(function)
    models = scripted_models([answer] * 20, [critique(97, 97)] * 20, [answer] * 20)

    def exact(model: DocModel, facts: Any, code: CodeContext) -> list[Any]:
        return check_model(model, facts, FakeRunner())

    start = new_state(function.qualname, function.module, function.source,
                      extract_facts(function.source, function.qualname).to_prompt(), None)
    final, _ = stream_loop(build_graph(models, settings, exact), start, settings, lambda _event: None)
    clean = final["approval"] == "approved" and len(final["trajectory"]) == 1
    return tokens_by_role(final["calls"]), clean


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--click", type=Path, required=True, help="click's package folder")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    corpus = list(functions(args.click, "click"))
    rows = []
    for mode in MODES:
        results = [calls(function, mode) for function in corpus]
        approved = [spent for spent, clean in results if clean]
        per_role = {role: sum(s.get(role, {}).get("calls", 0) for s in approved) / max(len(approved), 1)
                    for role in ("GENERATOR", "CRITIC", "ADJUDICATOR")}
        rows.append(f"| {mode} | {len(corpus)} | {len(approved)} | {sum(per_role.values()):.2f} | "
                    + " | ".join(f"{value:.2f}" for value in per_role.values()) + " |")
    text = "\n".join([SECTION, "", f"Command: `{' '.join(['python -m bench.bench_calls', *sys.argv[1:]])}`. "
                      f"Machine: {machine()}. A scripted writer answering each function's own docstring, a critic "
                      "approving it; the loop, the exact checks and the call records are docbot's.", "",
                      "| adjudicate | functions | approved in round 1 | calls per approved function | generator | "
                      "critic | adjudicator |", "|---|---|---|---|---|---|---|", *rows]) + "\n"
    publish(text, not args.no_write)
    print(json.dumps({"functions": len(corpus)}), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
