"""``docbot pages`` next to mkdocstrings and pdoc on the same package: CPU, and which objects each documents.

    python -m bench.bench_pages --rounds 3       # writes its section of bench/RESULTS.md
    python -m bench.bench_pages --peers VENV/bin  # mkdocs (with mkdocstrings-python) and pdoc from their own venv
    python -m bench.bench_pages --peers VENV/bin --render pyrsistent.PList --out DIR  # one object, rendered

``--render`` builds two mkdocs sites with the same theme, one holding docbot's section of the object (cut
from its page as written) and one mkdocstrings' ``::: object``, and screenshots each with a headless
Chromium when one is on PATH (docs/images/pages-vs-mkdocstrings.png was made so).

The package is pyrsistent 0.20.0, the sdist kept in tests/apidocs/data (not written by us): a package that
re-exports everything from private modules and keeps its types in ``.pyi`` stubs. It is unpacked into a
fresh git repository (docbot pins source links to HEAD). What each documents is read from what it wrote:
docbot's and mkdocstrings' objects.inv (mkdocstrings at its defaults, ``::: pyrsistent`` and
``::: pyrsistent.typing`` on one page), pdoc's anchors (``id="Name.member"`` in each module page). A name
is then taken to its canonical path with griffe (``pyrsistent.PMap`` is ``pyrsistent._pmap.PMap``), so
an object counts once whichever path a tool shows it under. None needs a model. pdoc imports the
package, docbot and mkdocstrings read the source; the CPU column counts children too.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tarfile
import tempfile
import zlib
from collections.abc import Callable
from pathlib import Path

from bench.common import Sample, git, interleaved, machine, median, publish, run_child

SDIST = Path(__file__).resolve().parents[1] / "tests" / "apidocs" / "data" / "pyrsistent-0.20.0.tar.gz"
PACKAGE = "pyrsistent"
SECTION = "## API pages next to mkdocstrings and pdoc, no model (`bench/bench_pages.py`)"
_ANCHOR = re.compile(r'id="([A-Za-z_][A-Za-z0-9_.]*)"')
_NOT_OBJECTS = {"navtoggle", "togglestate"}  # pdoc's page furniture
MKDOCS_YML = """site_name: {name}
plugins:
  - mkdocstrings:
      handlers:
        python:
          paths: [{root}]
"""


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
    parser.add_argument("--peers", type=Path, help="a bin folder holding mkdocs (with mkdocstrings-python) and pdoc")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--render", metavar="OBJECT", help="render one object as docbot and mkdocstrings show it")
    parser.add_argument("--out", type=Path, help="with --render: the folder for the two sites and screenshots")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="docbot-bench-pages-"))
    try:
        root = unpack(work / "src")
        outputs = {name: work / name for name in ("docbot", "mkdocstrings", "pdoc")}
        actions = {"docbot": lambda: run_child([str(Path(sys.executable).with_name("docbot")), "pages", "--package",
                                                PACKAGE, "--out", str(outputs["docbot"])], root)}
        actions.update(_peer_actions(args.peers, root, work, outputs))
        samples = interleaved(actions, args.rounds)
        found = {"docbot": inventory_names(outputs["docbot"] / "objects.inv")}
        if "mkdocstrings" in actions:
            found["mkdocstrings"] = inventory_names(outputs["mkdocstrings"] / "objects.inv")
        if "pdoc" in actions:
            found["pdoc"] = pdoc_names(outputs["pdoc"])
        publish(report(samples, canonical(found, root), args.rounds), not args.no_write)
        if args.render and args.peers and args.out:
            render(args.render, outputs["docbot"], root, args.peers, args.out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def _peer_actions(peers: Path | None, root: Path, work: Path,
                  outputs: dict[str, Path]) -> dict[str, Callable[[], Sample]]:
    actions: dict[str, Callable[[], Sample]] = {}
    if peers is None:
        return actions
    if (peers / "mkdocs").exists():
        site = work / "mkdocs-site"
        (site / "docs").mkdir(parents=True)
        config = MKDOCS_YML.format(name=f"{PACKAGE} (mkdocstrings)", root=root)
        (site / "mkdocs.yml").write_text(config, encoding="utf-8")
        (site / "docs" / "index.md").write_text(f"# {PACKAGE}\n\n::: {PACKAGE}\n\n::: {PACKAGE}.typing\n",
                                                encoding="utf-8")
        command = [str(peers / "mkdocs"), "build", "-q", "-f", str(site / "mkdocs.yml"), "-d",
                   str(outputs["mkdocstrings"])]
        actions["mkdocstrings"] = lambda: run_child(command, site)
    if (peers / "pdoc").exists():
        pdoc = [str(peers / "pdoc"), PACKAGE, "-o", str(outputs["pdoc"])]
        actions["pdoc"] = lambda: run_child(pdoc, root, {"PYTHONPATH": str(root)})
    return actions


def render(obj: str, pages: Path, root: Path, peers: Path, out: Path) -> None:
    """Two one-object mkdocs sites, docbot's and mkdocstrings', and a screenshot of each if Chromium is here."""
    page = (pages / f"{obj.rsplit('.', 1)[0]}.md").read_text(encoding="utf-8")
    start = page.index(f'<a id="{obj}"></a>')
    following = re.compile(rf'<a id="(?!{re.escape(obj)}\.)[^"]+"></a>\n\n## ')  # the next object at its level
    end = next((m.start() for m in following.finditer(page, start + 1)), len(page))
    sites = {"docbot": ("site_name: docbot pages\n", page[start:end]),
             "mkdocstrings": (MKDOCS_YML.format(name="mkdocstrings", root=root), f"::: {obj}\n")}
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    for name, (config, text) in sites.items():
        folder = out / name
        (folder / "docs").mkdir(parents=True, exist_ok=True)
        (folder / "mkdocs.yml").write_text(config, encoding="utf-8")
        (folder / "docs" / "index.md").write_text(text, encoding="utf-8")
        run_child([str(peers / "mkdocs"), "build", "-q"], folder)
        if chromium:  # the flags a closed network needs (no background fetches), a fresh profile each time
            run_child([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                       "--disable-background-networking", "--disable-component-update", "--disable-sync",
                       "--hide-scrollbars", f"--user-data-dir={folder / 'profile'}", "--window-size=820,1250",
                       f"--screenshot={out / (name + '.png')}", (folder / "site" / "index.html").as_uri()], folder)


def canonical(found: dict[str, set[str]], root: Path) -> dict[str, set[str]]:
    """Each tool's names at their canonical paths (griffe, docbot's own dependency, resolves re-exports)."""
    import griffe

    package = griffe.load(PACKAGE, search_paths=[str(root)], resolve_aliases=True)

    def path_of(name: str) -> str:
        try:
            obj = package[name.split(".", 1)[1]] if "." in name else package
            return str(obj.final_target.path if isinstance(obj, griffe.Alias) else obj.path)
        except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
            return name  # a name griffe does not know stays as the tool wrote it

    return {tool: {path_of(name) for name in names} for tool, names in found.items()}


def report(samples: dict[str, list[Sample]], found: dict[str, set[str]], rounds: int) -> str:
    cpu = {name: median([s.cpu for s in runs]) for name, runs in samples.items()}
    lines = [SECTION, "", f"Machine: {machine()}. Package: {PACKAGE} 0.20.0 (sdist in tests/apidocs/data). "
             f"CPU seconds (user + system, children included), median of {rounds} interleaved rounds; objects "
             "at their canonical paths.", "", "| tool | CPU s | objects documented | of them, missing from docbot's |",
             "|---|---|---|---|"]
    ours = found["docbot"]
    for name in samples:
        lines.append(f"| {name} | {cpu[name]:.2f} | {len(found[name])} | {len(found[name] - ours)} |")
    lines.append("")
    for peer in (name for name in found if name != "docbot"):
        missing = sorted(found[peer] - ours)
        lines.append(f"- Only {peer}: {len(missing)} ({', '.join(missing[:8]) or 'none'}); only docbot: "
                     f"{len(ours - found[peer])}. docbot / {peer} CPU: {cpu['docbot'] / cpu[peer]:.2f}×.")
    if len(found) == 1:
        lines.append("- No peers given (--peers VENV/bin): their rows are skipped.")
    lines.append("- One object rendered by both with the same mkdocs theme: docs/images/pages-vs-mkdocstrings.png "
                 "(`--render pyrsistent.PList`). docbot fences the doctest session that mkdocstrings' defaults run "
                 "into one paragraph; mkdocstrings inlines the source, docbot links it when the project declares "
                 "its repository (this sdist's pyproject.toml does not).")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
