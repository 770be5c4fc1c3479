"""``docbot pages`` next to pdoc on the same package: CPU, and which objects each one documents.

    python -m bench.bench_pages --rounds 3                # writes its section of bench/RESULTS.md
    python -m bench.bench_pages --pdoc /path/to/bin/pdoc  # a pdoc of its own venv (pdoc imports the package)

The package is pyrsistent 0.20.0, the sdist kept in tests/apidocs/data (not written by us): a package that
re-exports everything from private modules and keeps its types in ``.pyi`` stubs. It is unpacked into a
fresh git repository (docbot pins source links to HEAD). What each documents is read from what it wrote:
docbot's objects.inv, pdoc's anchors (``id="Name.member"`` in each module page). Neither needs a model.
pdoc imports the package, docbot reads the source; the CPU column counts children too.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tarfile
import tempfile
import zlib
from pathlib import Path

from bench.common import Sample, git, interleaved, machine, median, publish, run_child

SDIST = Path(__file__).resolve().parents[1] / "tests" / "apidocs" / "data" / "pyrsistent-0.20.0.tar.gz"
PACKAGE = "pyrsistent"
SECTION = "## API pages next to pdoc, no model (`bench/bench_pages.py`)"
_ANCHOR = re.compile(r'id="([A-Za-z_][A-Za-z0-9_.]*)"')
_NOT_OBJECTS = {"navtoggle", "togglestate"}  # pdoc's page furniture


def unpack(into: Path) -> Path:
    with tarfile.open(SDIST) as archive:
        archive.extractall(into, filter="data")  # data: no owners, links or devices from the archive
    root = next(into.iterdir())
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "sdist")
    return root


def inventory_names(path: Path) -> set[str]:
    """The object names of a Sphinx objects.inv (version 2: four header lines, then zlib)."""
    data = path.read_bytes()
    body = zlib.decompress(data.split(b"\n", 4)[4]).decode("utf-8")
    return {line.split(" ", 1)[0] for line in body.splitlines() if line.strip()}


def pdoc_names(folder: Path) -> set[str]:
    """Qualified names pdoc gave an anchor, per module page (``pyrsistent.html`` -> ``pyrsistent.X``)."""
    names: set[str] = set()
    for page in folder.rglob("*.html"):
        if page.name in ("index.html", "search.html"):
            continue
        module = ".".join(page.relative_to(folder).with_suffix("").parts)
        names.add(module)
        names |= {f"{module}.{anchor}" for anchor in _ANCHOR.findall(page.read_text(encoding="utf-8"))
                  if anchor not in _NOT_OBJECTS}
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pdoc", default=shutil.which("pdoc"))
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="docbot-bench-pages-"))
    try:
        root = unpack(work / "src")
        docbot_out, pdoc_out = work / "docbot", work / "pdoc"
        docbot = [str(Path(sys.executable).with_name("docbot")), "pages", "--package", PACKAGE,
                  "--out", str(docbot_out)]
        actions = {"docbot": lambda: run_child(docbot, root)}
        if args.pdoc:
            command = [args.pdoc, PACKAGE, "-o", str(pdoc_out)]
            actions["pdoc"] = lambda: run_child(command, root, {"PYTHONPATH": str(root)})
        samples = interleaved(actions, args.rounds)
        found = {"docbot": inventory_names(docbot_out / "objects.inv")}
        pages = {"docbot": len([p for p in docbot_out.glob("*.md") if p.name != "index.md"])}
        if args.pdoc:
            found["pdoc"] = pdoc_names(pdoc_out)
            pages["pdoc"] = len([p for p in pdoc_out.rglob("*.html") if p.name not in ("index.html", "search.html")])
        publish(report(samples, found, pages, args.rounds), not args.no_write)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def report(samples: dict[str, list[Sample]], found: dict[str, set[str]], pages: dict[str, int], rounds: int) -> str:
    cpu = {name: median([s.cpu for s in runs]) for name, runs in samples.items()}
    lines = [SECTION, "", f"Machine: {machine()}. Package: {PACKAGE} 0.20.0 (sdist in tests/apidocs/data). "
             f"CPU seconds (user + system, children included), median of {rounds} interleaved rounds.", "",
             "| tool | CPU s | objects documented | module pages |", "|---|---|---|---|"]
    for name in samples:
        lines.append(f"| {name} | {cpu[name]:.2f} | {len(found[name])} | {pages[name]} |")
    if "pdoc" in found:
        ours, theirs = found["docbot"], found["pdoc"]
        lines += ["", f"- In both: {len(ours & theirs)}. Only docbot: {len(ours - theirs)} "
                  f"(e.g. {', '.join(sorted(ours - theirs)[:6]) or '—'}). Only pdoc: {len(theirs - ours)} "
                  f"(e.g. {', '.join(sorted(theirs - ours)[:6]) or '—'}).",
                  f"- docbot / pdoc CPU: {cpu['docbot'] / cpu['pdoc']:.2f}×. docbot also writes objects.inv "
                  "(other Sphinx or mkdocs sites can link to it); pdoc writes HTML and a search index."]
    else:
        lines.append("- pdoc is not installed (pass --pdoc): its row is skipped.")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
