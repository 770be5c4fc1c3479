"""``docbot verify`` (project mode) on published docs of popular packages: precision, real errors, exit codes, time.

    python -m bench.published.run             # prints, writes results.json and its section of bench/RESULTS.md
    python -m bench.published.run --no-write  # prints only
    python -m bench.published.run --only NAME # one package (to judge its findings)
    python -m bench.published.run --list holdout  # the held-out continuation (holdout.json), its own files


Each package's sdist is fetched on demand (bench.published.corpus) and ``docbot verify DOC... --json`` runs in
its unpacked root, as a maintainer would run it. Every contradiction must have a verdict in ``verdicts.json``
(real / false / one of the noise kinds, with evidence from running the code); a contradiction without one makes
the run exit 1, so a new finding is always looked at. Precision is real ÷ (real + false).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.common import machine, publish, run_child
from bench.published.corpus import LISTS, Entry, listed, root_of

HERE = Path(__file__).resolve().parent
SECTION = "## Published docs, project mode (`python -m bench.published.run`)"
KINDS = ("real", "false", "not_runnable", "version", "time", "setup", "environment")
_VOLATILE = re.compile(r"0x[0-9a-f]+|/tmp/\S+|line \d+")  # addresses and temp paths differ between runs


@dataclass(frozen=True)
class Files:
    """Where one list's verdicts and results live: the held-out list never shares the main list's files, so
    judging one cannot leak into the other's figure."""

    verdicts: Path
    results: Path
    section: str


FILES = {"main": Files(HERE / "verdicts.json", HERE / "results.json", SECTION),
         "holdout": Files(HERE / "holdout_verdicts.json", HERE / "holdout_results.json",
                          "## Published docs, held out (`python -m bench.published.run --list holdout`)")}


@dataclass(frozen=True)
class Outcome:
    entry: Entry
    exit_code: int
    seconds: float
    findings: list[dict[str, Any]]  # every finding, with its doc path
    error: str = ""


def key(package: str, finding: dict[str, Any]) -> str:
    """A contradiction's identity across runs: package, doc line, check and message (volatile parts masked)."""
    return f"{package} {finding['doc']}:{finding['line']} {finding['check']}: " + _VOLATILE.sub("…", finding["message"])


def check_package(entry: Entry) -> Outcome:
    root = root_of(entry)
    sample = run_child([sys.executable, "-m", "docbot.fronts.cli", "verify", *entry.docs, "--json"], root)
    try:
        report = json.loads(sample.stdout)
    except json.JSONDecodeError:
        return Outcome(entry, sample.returncode, sample.wall, [], sample.stdout[-300:] or "no JSON")
    findings = [{**f, "doc": d["path"]} for d in report["docs"] for f in d["findings"]]
    return Outcome(entry, sample.returncode, sample.wall, findings)


def summarise(outcomes: list[Outcome], verdicts: dict[str, dict[str, str]]) -> dict[str, Any]:
    judged: Counter[str] = Counter()
    unjudged, real, false_docs, real_docs, wrong_exit = [], [], set(), set(), []
    for outcome in outcomes:
        contradictions = [f for f in outcome.findings if f["kind"] == "contradiction"]
        if (outcome.exit_code == 1) != bool(contradictions) or outcome.error:
            wrong_exit.append(f"{outcome.entry.name}: exit {outcome.exit_code}, {len(contradictions)} "
                              f"contradictions {outcome.error}")
        for finding in contradictions:
            verdict = verdicts.get(key(outcome.entry.name, finding))
            if verdict is None:
                unjudged.append(key(outcome.entry.name, finding))
                continue
            judged[verdict["verdict"]] += 1
            doc = f"{outcome.entry.name}/{finding['doc']}"
            if verdict["verdict"] == "real":
                real.append(f"{key(outcome.entry.name, finding)} — {verdict['evidence']}")
                real_docs.add(doc)
            elif verdict["verdict"] == "false":
                false_docs.add(doc)
    docs = [f"{o.entry.name}/{d}" for o in outcomes for d in o.entry.docs]
    correct = [d for d in docs if d not in real_docs]
    hit = judged["real"] + judged["false"]
    return {"packages": len(outcomes), "docs": len(docs), "judged": dict(judged), "unjudged": unjudged,
            "precision": judged["real"] / hit if hit else None, "real_errors": real,
            "correct_docs": len(correct), "false_docs": sorted(false_docs & set(correct)),
            "wrong_exit": wrong_exit, "exit_codes": dict(Counter(o.exit_code for o in outcomes)),
            "seconds": round(sum(o.seconds for o in outcomes), 1),
            "kinds": dict(Counter(f["kind"] for o in outcomes for f in o.findings))}


def section(summary: dict[str, Any], files: Files = FILES["main"]) -> str:
    precision = "n/a" if summary["precision"] is None else f"{summary['precision']:.3f}"
    false_share = len(summary["false_docs"]) / max(1, summary["correct_docs"])
    lines = [files.section, "", f"Machine: {machine()}. Rule and list: `bench/published/corpus.py`, "
             f"`{summary['list']}`; verdicts with evidence: `{files.verdicts.name}`.", "",
             "| packages | docs | contradictions judged | precision | correct docs with a false contradiction | "
             "exit 1 without a contradiction (or 0 with one) | wall time, all packages (2 at once) |",
             "| --- | --- | --- | --- | --- | --- | --- |",
             f"| {summary['packages']} | {summary['docs']} | {summary['judged']} | {precision} | "
             f"{len(summary['false_docs'])} of {summary['correct_docs']} ({false_share:.1%}) | "
             f"{len(summary['wrong_exit'])} | {summary['seconds']} s |", "",
             f"Exit codes: {summary['exit_codes']}. Findings by kind: {summary['kinds']}.", "",
             "Real errors found (package, doc line, check: finding — what the code does):", ""]
    lines += [f"- {line}" for line in summary["real_errors"]] or ["- none"]
    if summary["false_docs"]:
        lines += ["", "Correct docs with a false contradiction: " + ", ".join(summary["false_docs"])]
    if summary["wrong_exit"]:
        lines += ["", "Exit codes that disagree with the findings: " + "; ".join(summary["wrong_exit"])]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--only", action="append", help="check only this package (repeat)")
    parser.add_argument("--jobs", type=int, default=2, help="packages checked at once (each is one docbot process)")
    parser.add_argument("--rescore", action="store_true",
                        help="score the last run's results.json again (after judging) instead of running")
    parser.add_argument("--list", choices=sorted(LISTS), default="main",
                        help="which list: main (packages.json) or holdout (holdout.json, judged separately)")
    args = parser.parse_args(argv)
    files = FILES[args.list]
    entries = [e for e in listed(LISTS[args.list]) if not args.only or e.name in args.only]
    if args.rescore:
        stored = json.loads(files.results.read_text(encoding="utf-8"))["outcomes"]
        outcomes = [Outcome(e, stored[e.name]["exit_code"], stored[e.name]["seconds"], stored[e.name]["findings"],
                            stored[e.name]["error"]) for e in entries]
    else:
        for entry in entries:
            root_of(entry)  # fetch first, one at a time: pip runs are not to be raced
        with ThreadPoolExecutor(args.jobs) as pool:
            outcomes = list(pool.map(check_package, entries))
    verdicts = json.loads(files.verdicts.read_text(encoding="utf-8")) if files.verdicts.exists() else {}
    summary = {**summarise(outcomes, verdicts), "list": LISTS[args.list].name}
    if not args.no_write and not args.only:
        files.results.write_text(json.dumps({"summary": summary, "outcomes": {o.entry.name: {
            "exit_code": o.exit_code, "seconds": round(o.seconds, 2), "error": o.error, "findings": o.findings}
            for o in outcomes}}, indent=1) + "\n", encoding="utf-8")
    publish(section(summary, files), write=not args.no_write and not args.only)
    for item in summary["unjudged"]:
        print(f"NO VERDICT: {item}", file=sys.stderr)
    return 1 if summary["unjudged"] or summary["wrong_exit"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
