"""``docbot run --jobs 4`` against ``--jobs 1``, and model calls per function with the cache.

    python -m bench.bench_jobs                  # 8 functions, each call answered after 1 s; writes RESULTS.md
    python -m bench.bench_jobs --rounds 1 --no-write

The model server is ``bench.slow_ollama``: Ollama's protocol on loopback, every chat call answered after
a fixed delay, so the figure is how well docbot overlaps calls, not how fast a model is. Runs are
interleaved (1, 4, 4, 1, ...); throughput is functions per second, end to end (the process's whole
life: start-up, preflight, checks) and over the span the server was busy. Every run's doc file must
be byte-identical to the first one's.

The second part counts the model calls per function and role (from ``--json``'s ``tokens``): a first run,
a rerun with docs/api deleted, after ``ruff format`` of the module, and after ``git mv`` to another
module; the cache (``.docbot/cache``) makes the last three 0.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common import Sample, git, interleaved, machine, median, run_child, write_section
from bench.slow_ollama import SlowOllama

SECTION = "## Functions in parallel and model calls per function (`bench/bench_jobs.py`)"
FUNCTIONS = 8
MODEL = "fake:1b"
ROLES = ("GENERATOR", "CRITIC", "ADJUDICATOR")
# Not formatted the way ruff formats: the format step must change every function's text.
SOURCE = "".join(f"def f{i}( x ) :\n    return x+{i}  # add {i}\n\n" for i in range(FUNCTIONS))
DOC = "docs/api/pkg.m.md"


def make_repo(root: Path, base_url: str, cache: bool) -> None:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg/__init__.py").write_text("")
    (root / "pkg/m.py").write_text(SOURCE)
    config = {"model_registry": {role: MODEL for role in ROLES}, "base_url": base_url, "run_examples": False,
              "cache": cache, "jobs_per_server": 4}
    (root / "config.json").write_text(json.dumps(config))
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "module")


def docbot_run(root: Path, *flags: str) -> Sample:
    shutil.rmtree(root / "docs", ignore_errors=True)
    return run_child([sys.executable, "-m", "docbot.fronts.cli", "run", "--all", "--json", *flags], root)


def jobs_part(server: SlowOllama, rounds: int) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="docbot-bench-jobs-"))
    try:
        make_repo(folder, server.base_url, cache=False)
        busy: dict[str, list[float]] = {"1": [], "4": []}
        docs: set[bytes] = set()

        def one(jobs: str) -> Callable[[], Sample]:
            def action() -> Sample:
                server.reset()
                sample = docbot_run(folder, "--jobs", jobs)
                assert sample.returncode == 0, sample.stdout[-2000:]
                busy[jobs].append(server.busy_s)
                docs.add((folder / DOC).read_bytes())
                return sample
            return action

        samples = interleaved({"1": one("1"), "4": one("4")}, rounds * 2)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {"wall": {j: median([s.wall for s in samples[j]]) for j in samples},
            "busy": {j: median(busy[j]) for j in busy}, "identical": len(docs) == 1, "runs": len(samples["1"])}


def calls(sample: Sample) -> dict[str, float]:
    """Model calls per function per role, from the run's --json report."""
    report = json.loads(sample.stdout)
    results = [r for r in report["results"] if not r.get("reason") == "removed"]
    totals = {role: 0.0 for role in ROLES}
    for result in results:
        for role, spent in result["tokens"].items():
            totals[role] += spent["calls"]
    return {role: total / max(len(results), 1) for role, total in totals.items()}


def cache_part(server: SlowOllama) -> dict[str, dict[str, float]]:
    folder = Path(tempfile.mkdtemp(prefix="docbot-bench-cache-"))
    try:
        make_repo(folder, server.base_url, cache=True)
        figures = {"first run": calls(docbot_run(folder))}
        figures["rerun (docs/api deleted)"] = calls(docbot_run(folder))
        subprocess.run([sys.executable, "-m", "ruff", "format", "--isolated", "--no-cache", "pkg/m.py"],
                       cwd=folder, check=True, capture_output=True)
        assert (folder / "pkg/m.py").read_text() != SOURCE
        figures["after `ruff format`"] = calls(docbot_run(folder))
        git(folder, "commit", "-qam", "format")
        git(folder, "mv", "pkg/m.py", "pkg/moved.py")
        git(folder, "commit", "-qm", "move")
        figures["after a move to another module"] = calls(docbot_run(folder))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return figures


def report(jobs: dict[str, Any], cache: dict[str, dict[str, float]], delay: float) -> str:
    wall, busy = jobs["wall"], jobs["busy"]
    lines = [SECTION, "",
             f"Command: `{' '.join(['python -m bench.bench_jobs', *sys.argv[1:]])}`. Machine: {machine()}.",
             f"{FUNCTIONS} functions, `bench.slow_ollama` answering every chat call after {delay:g} s; "
             f"{jobs['runs']} interleaved runs of each; medians.", "",
             "| what | `--jobs 1` | `--jobs 4` | throughput × |", "|---|---|---|---|",
             f"| wall, end to end | {wall['1']:.1f} s | {wall['4']:.1f} s | {wall['1'] / wall['4']:.2f}× |",
             f"| server busy (first call to last answer) | {busy['1']:.1f} s | {busy['4']:.1f} s | "
             f"{busy['1'] / busy['4']:.2f}× |", "",
             f"Doc files identical across every run: **{'yes' if jobs['identical'] else 'NO'}**.", "",
             "Model calls per function and role (the cache on):", "",
             "| run | " + " | ".join(r.lower() for r in ROLES) + " |", "|---|" + "---|" * len(ROLES)]
    lines += [f"| {name} | " + " | ".join(f"{per[r]:.2f}" for r in ROLES) + " |" for name, per in cache.items()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_jobs", description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=2, help="interleaved pairs of runs (default 2)")
    parser.add_argument("--delay", type=float, default=1.0, help="seconds before each answer (default 1)")
    parser.add_argument("--no-write", action="store_true", help="print only; leave bench/RESULTS.md alone")
    args = parser.parse_args(argv)
    with SlowOllama([MODEL], delay_s=args.delay) as server:
        jobs = jobs_part(server, args.rounds)
        server.delay_s = 0.05
        cache = cache_part(server)
    text = report(jobs, cache, args.delay)
    print(text)
    if not args.no_write:
        write_section(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
