"""Run ``docbot verify`` on each planted doc of one package, in both modes, and say which plant it caught.

    python -m bench.claims.worker ROOT < plants.json   # prints {plant id: {"project": bool, "pair": bool, ...}}

Project mode is ``docbot verify DOC`` in the package's root (``verify_here``, what the CLI calls); pair mode is
``docbot verify SOURCE DOC`` with SOURCE the file defining the planted statement's callable
(``verify_source_doc``, RST read as RST). Examples are not run (``--no-examples``): the plants are prose, and the
examples' findings are the same with and without them. A plant is caught when the planted doc has a
contradiction the original has not, on the planted lines (or quoting the planted text).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from bench.claims.plant import Plant
from docbot.fronts.cli_files import package_sources
from docbot.scan.targets import importable_as
from docbot.verify.checks.source_doc import verify_source_doc
from docbot.verify.project.docs import DocsOptions, verify_here


def _project(root: Path, doc: Path) -> list[tuple[str, int | None, str]]:
    report = verify_here(root, [doc], DocsOptions(), run_examples=False)
    return [(f.check.value, f.line, f.finding.doc_text) for d in report.docs for f in d.findings
            if f.severity.fatal]


def _pair(source: Path, text: str, rst: bool) -> list[tuple[str, int | None, str]]:
    module, sys_path = importable_as(source.resolve())
    report = verify_source_doc(source.read_text(encoding="utf-8", errors="replace"), text, module, sys_path,
                               run_examples=False, rst=rst, package=package_sources(module, sys_path))
    return [(f.check.value, f.line, f.doc_text) for r in report for f in r.findings if f.fatal]


def _normal(text: str) -> str:
    return " ".join(text.replace("`", "").replace("*", "").split()).lower()


def caught(found: list[tuple[str, int | None, str]], before: list[tuple[str, int | None, str]], plant: Plant,
           one_based: bool) -> list[str]:
    """The new contradictions on the plant's lines (or quoting its text)."""
    old = {(check, _normal(text)) for check, _line, text in before}
    start, end = plant.span()
    planted = _normal(plant.text)
    hits = []
    for check, line, text in found:
        if (check, _normal(text)) in old and not (line is not None and start <= line - one_based < end):
            continue
        on_lines = line is not None and start - 1 <= line - one_based <= end
        quoted = bool(_normal(text)) and (_normal(text) in planted or planted in _normal(text))
        if on_lines or quoted:
            hits.append(f"{check}: {text[:80]}")
    return hits


def main(argv: list[str]) -> int:
    root = Path(argv[0])
    plants = [Plant(**p) for p in json.loads(sys.stdin.read())]
    results: dict[str, Any] = {}
    baseline: dict[tuple[str, str], Any] = {}
    for plant in plants:
        doc = root / plant.doc
        original = doc.read_text(encoding="utf-8-sig", errors="replace")
        planted = root / f"_planted{doc.suffix}"
        source = Path(plant.oracle.get("source_file") or "")
        rst = doc.suffix == ".rst"
        try:
            if (plant.doc, "project") not in baseline:
                planted.write_text(original, encoding="utf-8")
                baseline[(plant.doc, "project")] = _project(root, planted)
            if (plant.doc, str(source)) not in baseline and source.is_file():
                baseline[(plant.doc, str(source))] = _pair(source, original, rst)
            planted.write_text(plant.apply(original), encoding="utf-8")
            project = caught(_project(root, planted), baseline[(plant.doc, "project")], plant, True)
            pair = caught(_pair(source, plant.apply(original), rst), baseline[(plant.doc, str(source))], plant,
                          False) if source.is_file() else []
            results[plant.id] = {"project": project, "pair": pair}
        except Exception as error:  # a crash is a miss, and is reported
            results[plant.id] = {"project": [], "pair": [], "error": f"{type(error).__name__}: {error}"[:300]}
        finally:
            planted.unlink(missing_ok=True)
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
