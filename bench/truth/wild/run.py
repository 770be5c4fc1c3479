"""Run ``docbot verify`` on the wild corpus: real docs from PyPI sdists, and single planted errors in them.

    python -m bench.truth.wild.run             # prints, writes results.json and the "Wild corpus" section
    python -m bench.truth.wild.run --no-write  # prints only
    python -m bench.truth.wild.run --mode named  # one mode only (default: both, about 10 minutes on 2 cores)

What counts (see README.md here): a correct doc with any fatal finding is a false positive; a planted edit is
detected when a fatal finding appears that the unedited doc did not have.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import subprocess
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from datetime import date
from pathlib import Path
from typing import Any

from bench.truth.wild.adapter import Checked, Found, verify
from bench.truth.wild.sdists import resolve

HERE = Path(__file__).resolve().parent
RESULTS_MD = HERE.parent / "RESULTS.md"
SECTION = "## Wild corpus"
TEMP_PATH = re.compile(r"\S*docbot-wild-[^\s'\"]*")


def load_manifest() -> dict[str, Any]:
    return json.loads((HERE / "manifest.json").read_text(encoding="utf-8"))


def check_doc(doc: dict[str, Any], doc_path: Path, cwd: Path, named: bool) -> list[Checked]:
    return [verify(resolve(doc["source"]), named_copy(doc_path, name) if named else doc_path, name, cwd)
            for name in doc["functions"]]


def named_copy(doc_path: Path, name: str) -> Path:
    """The doc under a top heading naming the function: measures the checks apart from finding sections."""
    copy = doc_path.with_name(f"{doc_path.stem}.{name}.named.md")
    copy.write_text(f"# `{name}`\n\n" + doc_path.read_text(encoding="utf-8"), encoding="utf-8")
    return copy


def fatal(checked: list[Checked]) -> list[Found]:
    return [f for c in checked for f in c.findings if f.fatal]


def run_all(manifest: dict[str, Any], jobs: int,
            named: bool) -> tuple[dict[str, list[Checked]], dict[str, list[Checked]]]:
    docs = {d["id"]: d for d in manifest["docs"]}
    with tempfile.TemporaryDirectory(prefix="docbot-wild-") as tmp, ThreadPoolExecutor(jobs) as pool:
        work = Path(tmp)
        originals = {}
        for i, d in docs.items():
            copy = work / "original" / Path(d["doc"]).name
            copy.parent.mkdir(exist_ok=True)
            copy.write_text((HERE / d["doc"]).read_text(encoding="utf-8"), encoding="utf-8")
            originals[i] = pool.submit(check_doc, d, copy, work, named)
        planted = {}
        for edit in manifest["planted"]:
            doc = docs[edit["doc"]]
            text = (HERE / doc["doc"]).read_text(encoding="utf-8")
            edited = work / edit["id"].replace("#", "_") / Path(doc["doc"]).name
            edited.parent.mkdir()
            edited.write_text(text.replace(edit["old"], edit["new"], 1), encoding="utf-8")
            planted[edit["id"]] = pool.submit(check_doc, doc, edited, work, named)
        return ({i: f.result() for i, f in originals.items()}, {i: f.result() for i, f in planted.items()})


def new_fatal(before: list[Checked], after: list[Checked]) -> list[Found]:
    """Fatal findings of the edited doc that the unedited doc did not have (as a multiset)."""
    old = Counter(same(f) for f in fatal(before))
    fresh = []
    for finding in fatal(after):
        if old[same(finding)]:
            old[same(finding)] -= 1
        else:
            fresh.append(finding)
    return fresh


def same(finding: Found) -> tuple[str, str, str]:
    """A finding's identity across the two runs: the temporary paths of the doc copies left out."""
    qualname, kind, message = finding.key()
    return qualname, kind, TEMP_PATH.sub("<doc>", message)


def summarise(manifest: dict[str, Any], originals: dict[str, list[Checked]],
              planted: dict[str, list[Checked]]) -> dict[str, Any]:
    docs = manifest["docs"]
    correct = [d["id"] for d in docs if d["verdict"] == "correct"]
    fatal_on_correct = [f for i in correct for f in fatal(originals[i])]
    classes: dict[str, list[str]] = {}
    detected: dict[str, bool] = {}
    for edit in manifest["planted"]:
        classes.setdefault(edit["class"], []).append(edit["id"])
        detected[edit["id"]] = bool(new_fatal(originals[edit["doc"]], planted[edit["id"]]))
    return {
        "correct_docs": len(correct),
        "false_positive_docs": sorted(i for i in correct if fatal(originals[i])),
        "fatal_on_correct": len(fatal_on_correct),
        "gaps_reported_fatal": sum(f.gap for f in fatal_on_correct),
        "fatal_kinds_on_correct": dict(Counter(f.kind for f in fatal_on_correct).most_common()),
        "no_section": sorted({i for i, checked in originals.items() for c in checked if not c.section_found}),
        "cli_errors": sorted({f"{i}: {c.error}" for i, checked in originals.items() for c in checked if c.error}),
        "per_class": {cls: [sum(detected[i] for i in ids), len(ids)] for cls, ids in sorted(classes.items())},
        "missed": {cls: [i for i in ids if not detected[i]] for cls, ids in sorted(classes.items())},
        "detected": detected,
        "false_contradictions": {i: [f"{f.kind}: {f.message}" for f in fatal(originals[i]) if not f.gap]
                                 for i in correct if any(not f.gap for f in fatal(originals[i]))},
        "true_error_docs": {d["id"]: {"true_errors": [e["class"] for e in d["true_errors"]],
                                      "contradictions": [f"{f.kind}: {f.message}" for f in fatal(originals[d["id"]])
                                                         if not f.gap],
                                      "gaps_fatal": sum(f.gap for f in fatal(originals[d["id"]]))}
                            for d in docs if d["verdict"] != "correct"},
    }


def rate(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.1f}%" if whole else "n/a"


def report(manifest: dict[str, Any], s: dict[str, Any], seconds: float) -> str:
    packages = {d["package"] for d in manifest["docs"]}
    fp = len(s["false_positive_docs"])
    lines = [
        f"Corpus: {len(manifest['docs'])} docs from {len(packages)} PyPI packages, {s['correct_docs']} correct "
        f"as published; {len(manifest['planted'])} planted single edits in {len(s['per_class'])} classes.",
        "",
        "| correct docs | with a fatal finding (false positive) | fatal findings on them | of which gaps |"
        " docs with a function whose section was not found |",
        "|---:|---:|---:|---:|---:|",
        f"| {s['correct_docs']} | {fp} ({rate(fp, s['correct_docs'])}) | {s['fatal_on_correct']} "
        f"| {s['gaps_reported_fatal']} | {len(s['no_section'])} |",
        "",
        "Fatal finding kinds on correct docs: "
        + (", ".join(f"{k} {n}" for k, n in s["fatal_kinds_on_correct"].items()) or "none") + ".",
        "",
    ]
    if s["false_contradictions"]:
        lines += ["False contradictions (fatal, not a gap) on correct docs:", ""]
        lines += [f"- {i}: " + "; ".join(_short(f) for f in found) for i, found in s["false_contradictions"].items()]
        lines.append("")
    lines += ["| planted class | edits | detected | rate | missed |", "|---|---:|---:|---:|---|"]
    lines += [f"| {cls} | {n} | {d} | {rate(d, n)} | {', '.join(s['missed'][cls])} |"
              for cls, (d, n) in s["per_class"].items()]
    total_d = sum(d for d, _ in s["per_class"].values())
    total_n = sum(n for _, n in s["per_class"].values())
    lines += [f"| **all** | {total_n} | {total_d} | {rate(total_d, total_n)} | |", "",
              "Docs with true errors as published (found by running them; see manifest.json):", "",
              "| doc | true errors | contradictions reported | gaps reported as fatal |", "|---|---|---|---:|"]
    for doc_id, info in s["true_error_docs"].items():
        said = "; ".join(_short(f, 90) for f in info["contradictions"]) or "none"
        lines.append(f"| {doc_id} | {', '.join(info['true_errors'])} | {said} | {info['gaps_fatal']} |")
    if s["cli_errors"]:
        lines += ["", "CLI errors (no JSON printed): " + "; ".join(s["cli_errors"])]
    lines += ["", f"Time: {seconds:.0f} s."]
    return "\n".join(lines)


def _short(text: str, limit: int = 110) -> str:
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def section_text(body: str) -> str:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=HERE)
    return (f"{SECTION}\n\nReal Markdown docs cut verbatim from PyPI sdists (`bench/truth/wild/`, verdicts decided "
            "by running the code). Rerun: `python -m bench.truth.wild.run`. Raw per-doc results: "
            "`bench/truth/wild/results.json`.\n\n"
            f"Measured on {date.today()} at commit {commit.stdout.strip() or 'unknown'}, Python "
            f"{platform.python_version()}.\n\n{body}\n")


def write_section(section: str) -> None:
    text = RESULTS_MD.read_text(encoding="utf-8") if RESULTS_MD.exists() else "# Truth-check benchmark results\n"
    RESULTS_MD.write_text(with_section(text, section), encoding="utf-8")


def with_section(text: str, section: str) -> str:
    """``text`` with its "Wild corpus" section replaced by ``section`` (or appended), other sections kept."""
    start = text.find(SECTION + "\n")
    if start < 0:
        return text.rstrip("\n") + "\n\n" + section
    end = text.find("\n## ", start + len(SECTION))
    rest = text[end + 1 :] if end >= 0 else ""
    return text[:start] + section + ("\n" + rest if rest else "")


def raw(originals: dict[str, list[Checked]], planted: dict[str, list[Checked]], s: dict[str, Any]) -> dict[str, Any]:
    return {"docs": {i: [asdict(c) for c in checked] for i, checked in originals.items()},
            "planted": {i: {"detected": s["detected"][i], "checked": [asdict(c) for c in checked]}
                        for i, checked in planted.items()},
            "summary": {k: v for k, v in s.items() if k != "detected"}}


MODES = {
    "published": "As published: `docbot verify SOURCE DOC --json --function NAME` for each documented function",
    "named": "Sections named: the same docs under a top heading `` # `NAME` `` added by the runner, so the checks "
             "are measured apart from finding the section",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--mode", choices=[*MODES, "both"], default="both")
    args = parser.parse_args(argv)
    manifest = load_manifest()
    bodies, results = [], {}
    for mode in MODES if args.mode == "both" else [args.mode]:
        started = time.monotonic()
        originals, planted = run_all(manifest, args.jobs, named=mode == "named")
        summary = summarise(manifest, originals, planted)
        bodies.append(f"### {MODES[mode]}\n\n{report(manifest, summary, time.monotonic() - started)}")
        results[mode] = raw(originals, planted, summary)
        print(bodies[-1] + "\n", flush=True)
    if not args.no_write:
        (HERE / "results.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        write_section(section_text("\n\n".join(bodies)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
