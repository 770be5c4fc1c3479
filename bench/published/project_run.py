"""``docbot verify --json`` as a user runs it (no arguments, default settings) on the grown corpus (issue 28).

    python -m bench.published.project_run --set held_out            # run, write held_out_results.json + RESULTS
    python -m bench.published.project_run --set dev --jobs 2         # the dev set (the other three quarters)
    python -m bench.published.project_run --set dev --rescore        # score the stored run again after judging
    python -m bench.published.project_run --set dev --only NAME      # one package (prints, writes nothing)
    python -m bench.published.project_run --set dev --store-real     # after judging: keep today's real errors

Each package runs at the root of its unpacked sdist made a git repo, from a venv with the package installed
(``bench.published.setups``), so every doc project mode reads (README.*, docs/**/*.md, docs/**/*.rst) counts.
Every contradiction needs a verdict in ``<set>_verdicts.json`` (``key`` below): ``real`` (the doc is false for
this code), ``false`` (the doc is right), or a noise kind; each with the evidence of running the code in plain
Python (``bench.published.replay``). The run exits 1 on a contradiction without a verdict, on an exit code that
disagrees with the findings (1 exactly when there is a contradiction; exit 2 where a package exists is a
failure), on a docbot traceback, and on a real error of ``<set>_real.json`` (found before) no longer found.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.common import GIT_ENV, machine, publish
from bench.published.corpus import HERE, Entry
from bench.published.setups import repo_of, venv_of

GROWN = HERE / "grown.json"
SETS = ("held_out", "dev", "held_out2", "held_out3")
# Noise: the doc is neither false for this code nor simply right (a sketch, an older Python, a date or a random
# order, setup it leaves out, a machine it needs, markup or history read as code).
NOISE = ("not_runnable", "version", "time", "random", "setup", "environment", "markup", "history")
KINDS = ("real", "false", *NOISE)
RUN_TIMEOUT_S = 1800
_CRASH = "Traceback (most recent call last)"


@dataclass(frozen=True)
class Outcome:
    name: str
    exit_code: int
    seconds: float
    findings: list[dict[str, Any]]  # every finding, with its doc path
    docs: list[str]  # the docs project mode read
    traceback: str = ""  # docbot's own traceback, or why there is no JSON
    install: str = ""  # why the package's install failed ("" when it did not)


def entries(which: str) -> list[Entry]:
    fields = ("name", "version", "archive", "sha256", "folder", "docs", "rank")
    return [Entry(**{k: e[k] for k in fields}) for e in json.loads(GROWN.read_text(encoding="utf-8"))["packages"]
            if e["set"] == which]


def files(which: str) -> dict[str, Path]:
    return {kind: HERE / f"{which}_{kind}.json" for kind in ("verdicts", "results", "real")}


def stated(finding: dict[str, Any]) -> str:
    """What the doc states, as one short line: the stable part of a key (docbot's wording may change)."""
    text = " ".join(str(finding.get("doc_text") or finding["message"]).split())
    return text[:100]


def keys(package: str, findings: list[dict[str, Any]]) -> list[str]:
    """Each contradiction's identity: package, doc, line, check and stated text (#2, #3 when these repeat)."""
    seen: Counter[str] = Counter()
    out = []
    for finding in findings:
        base = f"{package} {finding['doc']}:{finding['line']} {finding['check']}: {stated(finding)}"
        seen[base] += 1
        out.append(base if seen[base] == 1 else f"{base} #{seen[base]}")
    return out


def check_package(entry: Entry) -> Outcome:
    root = repo_of(entry)
    python, install = venv_of(entry)
    started = time.monotonic()
    try:
        done = subprocess.run([str(python), "-m", "docbot.fronts.cli", "verify", "--json"], cwd=root, text=True,
                              capture_output=True, timeout=RUN_TIMEOUT_S, check=False,
                              env={**_plain_env(), **GIT_ENV})
    except subprocess.TimeoutExpired:
        return Outcome(entry.name, -1, time.monotonic() - started, [], [], f"timeout {RUN_TIMEOUT_S} s", install)
    seconds = time.monotonic() - started
    crash = done.stderr[-2000:] if _CRASH in done.stderr else ""
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        return Outcome(entry.name, done.returncode, seconds, [], [],
                       crash or f"no JSON: {(done.stdout or done.stderr)[-300:]}", install)
    findings = [{**f, "doc": d["path"]} for d in report["docs"] for f in d["findings"]]
    return Outcome(entry.name, done.returncode, seconds, findings, [d["path"] for d in report["docs"]], crash,
                   install)


def _plain_env() -> dict[str, str]:
    import os
    return {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}


def contradictions(outcome: Outcome) -> list[tuple[str, dict[str, Any]]]:
    found = [f for f in outcome.findings if f["kind"] == "contradiction"]
    return list(zip(keys(outcome.name, found), found, strict=True))


def summarise(outcomes: list[Outcome], verdicts: dict[str, dict[str, str]],
              stored_real: list[dict[str, Any]]) -> dict[str, Any]:
    judged: Counter[str] = Counter()
    classes: Counter[str] = Counter()
    unjudged, real, wrong_exit = [], [], []
    where = set()
    for outcome in outcomes:
        found = contradictions(outcome)
        if outcome.exit_code != (1 if found else 0) or outcome.traceback:
            wrong_exit.append(f"{outcome.name}: exit {outcome.exit_code}, {len(found)} contradictions"
                              + (f", {outcome.traceback.splitlines()[-1][:160]}" if outcome.traceback else ""))
        for item, finding in found:
            where.add((outcome.name, finding["doc"], finding["line"]))
            verdict = verdicts.get(item)
            if verdict is None:
                unjudged.append(item)
                continue
            judged[verdict["verdict"]] += 1
            if verdict["verdict"] != "real":
                classes[f"{verdict['verdict']}: {verdict.get('class', '?')}"] += 1
            else:
                real.append(f"{item} — {verdict['evidence']}")
    lost = [r["key"] for r in stored_real if (r["package"], r["doc"], r["line"]) not in where]
    total = sum(judged.values())
    hit = judged["real"] + judged["false"]
    return {"packages": len(outcomes), "docs": sum(len(o.docs) for o in outcomes),
            "contradictions": total + len(unjudged), "judged": dict(judged), "unjudged": unjudged,
            "precision_all": judged["real"] / total if total else None,
            "precision_real_false": judged["real"] / hit if hit else None,
            "real_errors": real, "lost": lost, "classes": dict(classes.most_common()),
            "exit_codes": dict(Counter(str(o.exit_code) for o in outcomes)), "wrong_exit": wrong_exit,
            "tracebacks": [f"{o.name}: {o.traceback.splitlines()[-1][:200]}" for o in outcomes
                           if _CRASH in o.traceback],
            "real_distinct": len({(r.split(" ", 1)[0], r.split(": ", 1)[1].split(" — ")[0]) for r in real}),
            "install_failed": [f"{o.name}: {o.install[:200]}" for o in outcomes if o.install],
            "seconds": round(sum(o.seconds for o in outcomes), 1),
            "kinds": dict(Counter(f["kind"] for o in outcomes for f in o.findings))}


def section(which: str, summary: dict[str, Any], elapsed: float) -> str:
    def share(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.3f}"
    judged = ", ".join(f"{n} {k}" for k, n in sorted(summary["judged"].items(), key=lambda kv: -kv[1]))
    lines = [f"## Published docs, default `docbot verify`, {which.replace('_', '-')} set "
             f"(`python -m bench.published.project_run --set {which}`)", "",
             f"Machine: {machine()}. List and rule: `bench/published/grown.json`; verdicts with evidence: "
             f"`{which}_verdicts.json`.", "",
             "| packages | docs read | contradictions | real ÷ all | real ÷ (real + false) | real errors (distinct) | "
             "lost since last run | exit codes | exit disagreeing / traceback | time: sum of runs (elapsed) |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
             f"| {summary['packages']} | {summary['docs']} | {summary['contradictions']} ({judged}"
             f"{', ' + str(len(summary['unjudged'])) + ' unjudged' if summary['unjudged'] else ''}) | "
             f"{share(summary['precision_all'])} | {share(summary['precision_real_false'])} | "
             f"{len(summary['real_errors'])} ({summary['real_distinct']}) | {len(summary['lost'])} | "
             f"{summary['exit_codes']} | "
             f"{len(summary['wrong_exit'])} / {len(summary['tracebacks'])} | {summary['seconds']} s "
             f"({elapsed:.0f} s) |", "",
             f"Findings by kind: {summary['kinds']}. False and noise by class: {summary['classes']}.", ""]
    if summary["wrong_exit"]:
        lines += ["Exit codes that disagree with the findings, or tracebacks: " + "; ".join(summary["wrong_exit"]), ""]
    return "\n".join(lines)


def load(path: Path, default: Any) -> Any:
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else default


def run(chosen: list[Entry], jobs: int) -> list[Outcome]:
    for entry in chosen:  # set up one at a time: pip runs are not to be raced
        repo_of(entry)
        venv_of(entry)
    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(check_package, chosen))


def stored(which: str) -> tuple[list[Outcome], float]:
    data = load(files(which)["results"], {})
    return [Outcome(**o) for o in data.get("outcomes", [])], data.get("elapsed", 0.0)


def store_real(which: str, outcomes: list[Outcome], verdicts: dict[str, dict[str, str]]) -> int:
    """Add today's real errors to the stored list a later run must still find."""
    path = files(which)["real"]
    known = load(path, [])
    have = {r["key"] for r in known}
    for outcome in outcomes:
        for item, finding in contradictions(outcome):
            if verdicts.get(item, {}).get("verdict") == "real" and item not in have:
                known.append({"key": item, "package": outcome.name, "doc": finding["doc"], "line": finding["line"]})
    path.write_text(json.dumps(known, indent=1) + "\n", encoding="utf-8")
    return len(known)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=SETS, required=True, dest="which")
    parser.add_argument("--only", action="append", help="run only this package (repeat); writes nothing")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rescore", action="store_true", help="score the stored results again (after judging)")
    parser.add_argument("--store-real", action="store_true", help="after judging: store the real errors found")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    where = files(args.which)
    chosen = [e for e in entries(args.which) if not args.only or e.name in args.only]
    started = time.monotonic()
    if args.rescore or args.store_real:
        outcomes, elapsed = stored(args.which)
    else:
        outcomes = run(chosen, args.jobs)
        elapsed = time.monotonic() - started
    verdicts = load(where["verdicts"], {})
    if args.store_real:
        print(f"{store_real(args.which, outcomes, verdicts)} real errors stored in {where['real'].name}")
        return 0
    summary = summarise(outcomes, verdicts, load(where["real"], []) if not args.only else [])
    write = not args.no_write and not args.only
    if write and not args.rescore:
        where["results"].write_text(json.dumps({"summary": summary, "elapsed": round(elapsed, 1),
                                                "outcomes": [o.__dict__ for o in outcomes]}, indent=1) + "\n",
                                    encoding="utf-8")
    publish(section(args.which, summary, elapsed), write=write)
    for item in summary["unjudged"]:
        print(f"NO VERDICT: {item}", file=sys.stderr)
    for item in summary["lost"]:
        print(f"LOST: {item}", file=sys.stderr)
    failed = summary["unjudged"] or summary["wrong_exit"] or summary["lost"] or summary["tracebacks"]
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
