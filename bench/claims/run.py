"""Planted prose edits on published docs: caught ÷ planted per class, in both verify modes (bench/claims/README.md).

    python -m bench.claims.run             # all packages of bench/published/packages.json; writes results.json
    python -m bench.claims.run --no-write  # prints only
    python -m bench.claims.run --only NAME # one package
    python -m bench.claims.run --list holdout  # bench/published/holdout.json; writes holdout_results.json

For each package: the probe imports it and lists the callables its docs use (bench.claims.probe); the planter
writes the edits (bench.claims.generate); the oracle keeps those the code shows false (bench.claims.oracle); the
worker runs docbot verify on each planted doc in project mode and in pair mode (bench.claims.worker).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from bench.claims.generate import plants_for
from bench.claims.plant import CLASSES, Plant
from bench.common import machine, publish
from bench.published.corpus import LISTS, Entry, listed, root_of
from docbot.errors import ConfigError
from docbot.verify.project.package import find_package

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SECTION = "## Planted prose edits on published docs (`python -m bench.claims.run`)"
# The held-out list gets its own results file and RESULTS.md section, so measuring it never overwrites the main
# list's figures (the ones fixes were made looking at).
SECTIONS = {"main": SECTION, "holdout": "## Planted prose edits on published docs, held out "
                                       "(`python -m bench.claims.run --list holdout`)"}
RESULTS_FILES = {"main": HERE / "results.json", "holdout": HERE / "holdout_results.json"}


def _child(module: str, args: list[str], stdin: str = "") -> Any:
    done = subprocess.run([sys.executable, "-m", module, *args], input=stdin, capture_output=True, text=True,
                          cwd=REPO, timeout=3600, check=False)
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        return {"error": (done.stderr or done.stdout)[-400:]}


def run_package(entry: Entry, others: list[str]) -> dict[str, Any]:
    root = root_of(entry)
    try:
        package = find_package(root).name
    except ConfigError as error:
        return {"package": entry.name, "error": str(error), "plants": []}
    probe = _child("bench.claims.probe", [str(root), package, *entry.docs, *(f"+{o}" for o in others)])
    if "callables" not in probe:
        return {"package": entry.name, "error": probe.get("error", "probe failed"), "plants": []}
    docs = {d: (root / d).read_text(encoding="utf-8-sig", errors="replace") for d in entry.docs}
    plants = plants_for(package, docs, probe)
    files = {c["written"]: c["source_file"] for c in probe["callables"].values()}
    plants = [Plant(**{**p.to_json(), "oracle": {**p.oracle, "source_file": files.get(p.written, "")}})
              for p in plants]
    verdicts = _child("bench.claims.oracle", [str(root), package, *others], json.dumps([p.to_json() for p in plants]))
    false = [p for p in plants if verdicts.get(p.id, [False])[0]]
    caught = _child("bench.claims.worker", [str(root)], json.dumps([p.to_json() for p in false]))
    return {"package": entry.name, "probe_error": probe.get("error", ""),
            "plants": [{**p.to_json(), "evidence": verdicts[p.id][1], "caught": caught.get(p.id, {})} for p in false],
            "not_false": len(plants) - len(false), "error": caught.get("error", "") if isinstance(caught, dict) else ""}


def summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for result in results:
        for plant in result["plants"]:
            for key in (plant["cls"], f"{plant['cls']} ({plant['markup']})", "all"):
                table[key]["planted"] += 1
                table[key]["project"] += bool(plant["caught"].get("project"))
                table[key]["pair"] += bool(plant["caught"].get("pair"))
    return {k: dict(v) for k, v in table.items()}


def section(rows: dict[str, Any], results: list[dict[str, Any]], which: str = "main") -> str:
    def share(row: dict[str, int], mode: str) -> str:
        return f"{row.get(mode, 0)} / {row['planted']} ({row.get(mode, 0) / max(1, row['planted']):.0%})"

    listed_as = LISTS[which].relative_to(REPO).as_posix()
    lines = [SECTIONS[which], "", f"Machine: {machine()}. Packages: `{listed_as}` (the ones that import "
             "here); plants that the oracle could not show false are left out.", "",
             "| class | planted | caught, project mode | caught, pair mode |", "| --- | --- | --- | --- |"]
    for cls in ("all", *CLASSES):
        if cls in rows:
            lines.append(f"| {cls} | {rows[cls]['planted']} | {share(rows[cls], 'project')} | "
                         f"{share(rows[cls], 'pair')} |")
    packages = sum(1 for r in results if r["plants"])
    lines += ["", f"{packages} packages with plants; by markup: " + ", ".join(
        f"{k} {share(v, 'project')} / {share(v, 'pair')}" for k, v in sorted(rows.items()) if "(" in k) + "."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--only", action="append")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--results", type=Path, help="write the results here too (to look at the misses)")
    parser.add_argument("--list", choices=sorted(SECTIONS), default="main", help="which package list to run")
    args = parser.parse_args(argv)
    entries = [e for e in listed(LISTS[args.list]) if not args.only or e.name in args.only]
    # Every package of the same list goes on the probe's and oracle's path, for the dependencies among them.
    roots = [str(root_of(e)) for e in listed(LISTS[args.list])]
    others = [r for root in roots for r in (f"{root}/src", root) if Path(r).is_dir()]
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda e: run_package(e, others), entries))
    rows = summary(results)
    if not args.no_write and not args.only:
        RESULTS_FILES[args.list].write_text(json.dumps({"summary": rows, "packages": results}, indent=1) + "\n",
                                            encoding="utf-8")
    if args.results:
        args.results.write_text(json.dumps({"summary": rows, "packages": results}, indent=1) + "\n", encoding="utf-8")
    publish(section(rows, results, args.list), write=not args.no_write and not args.only)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
