"""``docbot verify`` against ``python -m doctest`` as a doc grows: 20 and 200 sections, side by side (issue 23).

    python -m bench.bench_verify_scale                 # 3 interleaved rounds; writes its section of bench/RESULTS.md
    python -m bench.bench_verify_scale --rounds 1 --no-write

The material: a module of N functions and a doc of N sections, one per function. Every section states a
return type (half by an annotation the code has, half read from the code's ``return`` syntax), lists the
parameters with a default, and holds one ``>>>`` example; half the functions raise, and their default is a
named constant. ``docbot verify mod.py doc.md`` (the examples run in its sandbox) and ``python -m doctest
doc.md`` (the same examples) run as children of one wrapper that counts their CPU, their own children
included, interleaved in rotating order; the medians are compared. A second table times the checks alone
(no examples) in this process at N, 2N and 4N: linear cost is a constant cost per section. Needs nothing but
docbot and the standard library, so it runs anywhere; only the ratios mean much on a shared machine.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_speed import compile_docbot, measure, rounds_of
from bench.common import machine, publish

SECTION = "## verify against doctest as sections grow (`bench/bench_verify_scale.py`)"
SIZES = (20, 200)
TARGET = 3.0  # issue 23: at most 3x doctest at 20 and at 200 sections


def module_text(n: int) -> str:
    parts = []
    for i in range(n):
        if i % 2:
            parts.append(f"LIMIT_{i} = {i}\n\n\ndef f{i}(x: int, scale: int = LIMIT_{i}) -> int:\n"
                         f"    if x < 0:\n        raise ValueError('x must be >= 0')\n    return x * scale + {i}\n\n\n")
        else:
            parts.append(f"def f{i}(x, sep=','):\n    return f'{{x}}{{sep}}{i}'\n\n\n")
    return "".join(parts)


def doc_text(n: int) -> str:
    sections = []
    for i in range(n):
        if i % 2:
            sections.append(f"## `f{i}`\n\nReturns an int: `x * scale + {i}`.\n\n- `x`: the value\n"
                            f"- `scale`: the factor, default {i}\n\nRaises `ValueError` when x is negative.\n\n"
                            f">>> from mod import f{i}\n>>> f{i}(1)\n{2 * i}\n")
        else:
            sections.append(f"## `f{i}`\n\nReturns a string.\n\n- `x`: the value\n- `sep`: between, default `','`\n\n"
                            f">>> from mod import f{i}\n>>> f{i}(1)\n'1,{i}'\n")
    return "# mod\n\n" + "\n".join(sections)


def side_by_side(n: int, rounds: int, base: Path | None) -> tuple[float, float, float | None]:
    """Median CPU seconds of docbot verify, of doctest, and of the ``base`` docbot, on the same N-section doc."""
    folder = Path(tempfile.mkdtemp(prefix=f"docbot-bench-scale-{n}-"))
    verify = [sys.executable, "-P", "-m", "docbot.fronts.cli", "verify", "mod.py", "doc.md"]
    try:
        (folder / "mod.py").write_text(module_text(n))
        (folder / "doc.md").write_text(doc_text(n))
        env = {"PYTHONPATH": str(folder)}
        commands = {"docbot": lambda: measure(verify, folder),
                    "doctest": lambda: measure([sys.executable, "-P", "-m", "doctest", "doc.md"], folder, env)}
        if base is not None:  # another checkout's docbot package, found first on the path
            commands["base"] = lambda: measure(verify, folder, {"PYTHONPATH": str(base)})
        costs = rounds_of(commands, rounds)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return costs["docbot"].cpu, costs["doctest"].cpu, costs["base"].cpu if "base" in costs else None


def checks_per_section(n: int, rounds: int) -> float:
    """Milliseconds of CPU per section for the checks alone (no examples), in this process, best of rounds."""
    from docbot.verify.checks.source_doc import verify_source_doc

    source, doc = module_text(n), doc_text(n)
    spent = []
    for _ in range(rounds):
        started = time.process_time()
        verify_source_doc(source, doc, "mod", (), run_examples=False)
        spent.append(time.process_time() - started)
    return min(spent) / n * 1000


def report(rows: list[tuple[int, float, float, float | None]], per_section: list[tuple[int, float]], rounds: int,
           load: str, base: str | None) -> str:
    lines = [SECTION, "",
             f"Command: `{' '.join(['python -m bench.bench_verify_scale', *sys.argv[1:]])}`. Machine: {machine()}; "
             f"{load}. N functions, N sections (each: a stated return type, parameters with a default, one `>>>` "
             f"example). CPU seconds (user + system, children included: the sandbox child too), median of "
             f"{rounds} interleaved rounds.", "",
             *([f"The base column is `docbot verify` of {base}, in the same rounds.", ""] if base else []),
             "| sections | docbot verify | python -m doctest | ratio | target |"
             + (" base | base ratio |" if base else ""), "|---|---|---|---|---|" + ("---|---|" if base else "")]
    lines += [f"| {n} | {ours:.2f} | {peer:.2f} | {ours / peer:.2f}× | ≤ {TARGET:g}× |"
              + (f" {old:.2f} | {old / peer:.2f}× |" if old is not None else "") for n, ours, peer, old in rows]
    lines += ["", "The checks alone (no examples), in process, best of the rounds: cost per section.", "",
              "| sections | ms per section |", "|---|---|"]
    lines += [f"| {n} | {ms:.2f} |" for n, ms in per_section]
    return "\n".join(lines) + "\n"


def load_average() -> str:
    try:
        return "load average " + Path("/proc/loadavg").read_text().split()[0] + " at the start"
    except OSError:
        return "load average unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_verify_scale", description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-write", action="store_true", help="print only; leave bench/RESULTS.md alone")
    parser.add_argument("--base", help="a folder holding another docbot package (e.g. `git archive REV docbot`), "
                                       "timed in the same rounds")
    parser.add_argument("--base-label", default="", help="what the base is, for the report")
    args = parser.parse_args(argv)
    load = load_average()
    compile_docbot()
    base = Path(args.base).resolve() if args.base else None
    rows = [(n, *side_by_side(n, args.rounds, base)) for n in SIZES]
    per_section = [(n, checks_per_section(n, args.rounds)) for n in (SIZES[-1] // 2, SIZES[-1], SIZES[-1] * 2)]
    label = (args.base_label or str(base)) if base else None
    publish(report(rows, per_section, args.rounds, load, label), not args.no_write)
    return 0 if all(ours / peer <= TARGET for _, ours, peer, _old in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
