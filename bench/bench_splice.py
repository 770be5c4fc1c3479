"""The old-side splice on real release diffs: the same targets with and without it, and what it saves.

    python -m bench.bench_splice                 # eight release diffs from PyPI sdists; writes bench/RESULTS.md
    python -m bench.bench_splice --no-write      # print only

Each release pair becomes a two-commit repository (``bench.bench_speed.release_repo``), and
``repo.scan(base='HEAD~1')`` runs twice in one process, cold each time: once with
``targets._spliced_old`` disabled (every old side that the in-function shortcut does not cover is
parsed whole) and once as shipped. The targets must be equal; the table shows how many files the
splice answered for, how many it refused, and the CPU of both scans. Material nobody here wrote:
the tests hold the splice to the whole old side on stdlib edits, this holds it on what releases did.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.bench_speed import RELEASES, release_repo
from bench.common import machine, publish

SECTION = "## The old-side splice on release diffs (`bench/bench_splice.py`)"
MORE = (("flask", "2.3.3", "3.0.0", "src"), ("attrs", "23.1.0", "23.2.0", "src"),
        ("pydantic", "2.5.3", "2.6.0", "pydantic"), ("werkzeug", "2.3.7", "3.0.0", "src"))
Row = tuple[str, int, bool, int, int, float, float]  # what, targets, equal, answered, refused, cpu off, cpu on


def compare(folder: Path) -> tuple[int, bool, int, int, float, float]:
    from docbot.scan import targets
    from docbot.scan.repo import DiffSpec, scan

    shipped = targets._spliced_old
    counts = {"answered": 0, "refused": 0}

    def counting(*args: Any, **kwargs: Any) -> Any:
        found = shipped(*args, **kwargs)
        counts["answered" if found is not None else "refused"] += 1
        return found

    def timed(splice: Callable[..., Any]) -> tuple[list[Any], float]:
        targets.clear_caches()
        targets._spliced_old = splice  # type: ignore[assignment]
        try:
            started = time.process_time()
            found = scan(folder, DiffSpec(base="HEAD~1")).targets
            return found, time.process_time() - started
        finally:
            targets._spliced_old = shipped  # type: ignore[assignment]

    without, cpu_off = timed(lambda *args, **kwargs: None)
    with_it, cpu_on = timed(counting)
    return len(with_it), without == with_it, counts["answered"], counts["refused"], cpu_off, cpu_on


def report(rows: list[Row]) -> str:
    lines = [SECTION, "",
             f"Command: `{' '.join(['python -m bench.bench_splice', *sys.argv[1:]])}`. Machine: {machine()}.",
             "`repo.scan(base='HEAD~1')` twice per release, cold, in one process: the whole old side of every "
             "file the in-function shortcut does not cover, then the splice (CPU seconds, one run each).", "",
             "| release diff | targets | equal | splice answered | refused | scan, whole old sides | with the splice |",
             "|---|---|---|---|---|---|---|"]
    lines += [f"| {what} | {count} | {'yes' if equal else 'NO'} | {answered} | {refused} | {off:.3f} | {on:.3f} |"
              for what, count, equal, answered, refused, off, on in rows]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_splice", description=__doc__.split("\n")[0])
    parser.add_argument("--sdists", default=str(Path(tempfile.gettempdir()) / "docbot-bench-sdists"),
                        help="where the release sdists are kept between runs")
    parser.add_argument("--no-write", action="store_true", help="print only; leave bench/RESULTS.md alone")
    args = parser.parse_args(argv)
    sdists = Path(args.sdists)
    sdists.mkdir(parents=True, exist_ok=True)
    rows: list[Row] = []
    for name, old, new, inside in (*RELEASES, *MORE):
        folder = Path(tempfile.mkdtemp(prefix=f"docbot-bench-splice-{name}-"))
        try:
            if release_repo(folder, sdists, name, (old, new), inside):
                rows.append((f"{name} {old} → {new}", *compare(folder)))
            else:
                print(f"{name}'s sdists could not be downloaded: skipped", file=sys.stderr)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    text = report(rows)
    publish(text, not args.no_write)
    return 0 if all(row[2] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
