"""llama.cpp's extra buffer types on and off, side by side: load, prefill and generation on SmolLM2.

    python -m bench.bench_embedded [--rounds 3]

Each measurement runs in its own child process (a fresh load, and a crash there is a row, not the end
of the benchmark), alternating off/on so that a drifting machine affects both alike. Prints CPU
seconds (user + system, of the child) and wall seconds per phase, and the on/off ratios of the medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

PREFILL_PROMPT = "The quick brown fox jumps over the lazy dog. " * 50  # about 500 tokens
GENERATED_TOKENS = 64

CHILD = """
import json, resource, sys, time
from llama_cpp import Llama
from docbot.models.embedded import bundled_model_path
from docbot.models.llama_params import model_params

def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

extra, prompt, tokens = sys.argv[1] == "1", sys.argv[2], int(sys.argv[3])
marks = [(cpu(), time.perf_counter())]
with model_params(extra):
    llama = Llama(model_path=str(bundled_model_path()), n_ctx=2048, verbose=False)
marks.append((cpu(), time.perf_counter()))
llama(prompt, max_tokens=1, temperature=0.0)
marks.append((cpu(), time.perf_counter()))
llama.reset()
llama("Write a haiku about the sea.", max_tokens=tokens, temperature=0.0)
marks.append((cpu(), time.perf_counter()))
phases = ["load", "prefill", "generate"]
print(json.dumps({p: [b[0] - a[0], b[1] - a[1]] for p, a, b in zip(phases, marks, marks[1:])}))
"""


def measure(extra_buffers: bool) -> dict[str, list[float]] | str:
    done = subprocess.run([sys.executable, "-c", CHILD, str(int(extra_buffers)), PREFILL_PROMPT,
                           str(GENERATED_TOKENS)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return f"exit {done.returncode}: {(done.stderr.strip().splitlines() or [''])[-1]}"
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args(argv).rounds
    runs: dict[bool, list[dict[str, list[float]]]] = {False: [], True: []}
    started = time.perf_counter()
    for _ in range(rounds):
        for extra in (False, True):
            result = measure(extra)
            if isinstance(result, str):
                print(f"extra buffers {'on' if extra else 'off'}: {result}")
                continue
            runs[extra].append(result)
    print(f"{rounds} rounds, {time.perf_counter() - started:.0f} s; medians, CPU s / wall s:")
    for phase in ("load", "prefill", "generate"):
        row = {extra: [statistics.median(r[phase][i] for r in runs[extra]) for i in (0, 1)]
               for extra in (False, True) if runs[extra]}
        cells = "  ".join(f"{'on' if e else 'off'} {c:.2f}/{w:.2f}" for e, (c, w) in row.items())
        ratio = f"  on/off CPU {row[True][0] / row[False][0]:.2f}" if len(row) == 2 and row[False][0] else ""
        print(f"  {phase:9s} {cells}{ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
