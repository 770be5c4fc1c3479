"""What the witness rule costs: the extra sandboxed children it starts and their time, per doc, on real projects.

    python -m bench.bench_witness [--no-write] [--only NAME]

Runs ``docbot verify`` in-process (``verify_here``, default settings, every doc its globs name) at the root of
each package of bench/published's main list, as a maintainer would, and times each witness re-run
(``docbot.verify.project.runs.replay``) inside that same run: the figure is the share of verify's wall time the
witnesses take, and the extra time per doc that has one, side by side with the run they are part of.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import machine, publish
from bench.published.corpus import LISTS, listed, root_of

SECTION = "## Witness re-runs, per doc (`python -m bench.bench_witness`)"


@dataclass
class Timed:
    """Each witness's seconds, by package, and the ones that did not reproduce (their findings became notes)."""

    seconds: dict[str, list[float]] = field(default_factory=dict)
    lowered: list[str] = field(default_factory=list)
    current: str = ""


def measure(root: Path, timed: Timed, reports: dict[str, Any]) -> tuple[float, int, int]:
    """verify's wall seconds at ``root``, how many docs it read and the contradictions it reported (its --json
    report goes into ``reports``)."""
    from docbot.verify.project.docs import DocsOptions, verify_here

    cwd = os.getcwd()
    os.chdir(root)
    try:
        start = time.perf_counter()
        report = verify_here(root, [], DocsOptions())  # the defaults, as an sdist without config gets
        reports[timed.current] = report.to_json()
        return time.perf_counter() - start, len(report.docs), report.contradictions
    finally:
        os.chdir(cwd)


def instrument(timed: Timed) -> None:
    from docbot.verify.project import runs

    real = runs.replay

    def counted(plan: Any, context: Any) -> Any:
        start = time.perf_counter()
        witness = real(plan, context)
        timed.seconds.setdefault(timed.current, []).append(time.perf_counter() - start)
        if witness is not None and not witness.reproduced:
            claim = plan.code.splitlines()[plan.claim_line - 1] if plan.code.strip() else ""
            timed.lowered.append(f"{timed.current}: `{claim.strip()[:80]}`: {witness.shown[:120]}")
        return witness

    runs.replay = counted  # type: ignore[assignment]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--only", action="append")
    parser.add_argument("--dump", help="write each package's --json report to this file, to judge the findings")
    args = parser.parse_args(argv)
    entries = [e for e in listed(LISTS["main"]) if not args.only or e.name in args.only]
    timed = Timed()
    instrument(timed)
    total, docs, found, rows = 0.0, 0, 0, []
    reports: dict[str, Any] = {}
    for entry in entries:
        timed.current = entry.name
        try:
            wall, count, contradictions = measure(root_of(entry), timed, reports)
        except Exception as error:  # noqa: BLE001 - a package verify refuses (exit 2) is reported, not fatal
            rows.append((entry.name, 0.0, 0, 0, f"{type(error).__name__}"))
            continue
        total, docs, found = total + wall, docs + count, found + contradictions
        own = timed.seconds.get(entry.name, [])
        rows.append((entry.name, wall, count, len(own), f"{sum(own):.2f}"))
    witnesses = [s for values in timed.seconds.values() for s in values]
    spent = sum(witnesses)
    with_any = sum(1 for values in timed.seconds.values() if values)
    lines = [SECTION, "", machine(), "",
             f"{len(entries)} packages, {docs} docs, {found} contradictions reported, verify {total:.1f} s in all; "
             f"{len(witnesses)} witness re-runs "
             f"in {with_any} packages took {spent:.1f} s ({100 * spent / total if total else 0:.1f}% of verify's "
             f"time), median {statistics.median(witnesses) if witnesses else 0:.2f} s each, "
             f"{spent / docs if docs else 0:.2f} s per doc read; {len(timed.lowered)} did not reproduce (their "
             "findings are notes).", "",
             "| package | verify s | docs | witnesses | witness s |", "|---|---|---|---|---|"]
    lines += [f"| {name} | {wall:.1f} | {count} | {n} | {secs} |" for name, wall, count, n, secs in rows if n]
    lines += ["", "Witnesses that did not reproduce:", "", *(f"- {item}" for item in timed.lowered)]
    if args.dump:
        Path(args.dump).write_text(json.dumps(reports, indent=1) + "\n", encoding="utf-8")
    publish("\n".join(lines) + "\n", write=not args.no_write and not args.only)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
