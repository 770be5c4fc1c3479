"""One of docbot's own modules as docbot, mkdocstrings and pdoc render it: three screenshots, and what each shows.

    python -m bench.render_module --peers VENV/bin [--module docbot.models.bindings] [--out docs/images]

``--peers`` is a venv's bin folder holding mkdocs (with mkdocstrings-python) and pdoc. docbot's page is
``docbot pages``' own (docs/api/reference/MODULE.md, built by mkdocs with its default theme); mkdocstrings
renders ``::: MODULE`` at its defaults; pdoc renders the module (it imports it). Each page is screenshotted
with a headless Chromium (Debian's ``chromium``) into ``OUT/pages-MODULE-{docbot,mkdocstrings,pdoc}.png``.
Then, for each object a peer shows (its anchors), the script prints whether docbot's page shows it too,
and whether each peer's parameter, return, raise and value words are on docbot's page: what is on theirs
and missing from docbot's is listed, one line each, so the comparison is a command, not a judgement.
"""

from __future__ import annotations

import argparse
import html
import os
import re
import shutil
import site
import sys
import tempfile
from pathlib import Path

from bench.common import run_child

ROOT = Path(__file__).resolve().parents[1]
MKDOCSTRINGS = ("site_name: mkdocstrings\nplugins:\n  - mkdocstrings:\n      handlers:\n        python:\n"
                "          paths: [{root}]\n")
WINDOW = "--window-size=900,2400"
_SOURCE_VIEWS = (re.compile(r'<div class="pdoc-code[^"]*">.*?</pre></div>', re.S),  # pdoc
                 re.compile(r'<details class="(?:quote|mkdocstrings-source)">.*?</details>', re.S))  # mkdocstrings


def build(module: str, peers: Path, work: Path) -> dict[str, Path]:
    """Each tool's HTML page of ``module``."""
    pages = {}
    docbot = work / "docbot"
    (docbot / "docs").mkdir(parents=True)
    shutil.copy(ROOT / "docs" / "api" / "reference" / f"{module}.md", docbot / "docs" / "index.md")
    (docbot / "mkdocs.yml").write_text("site_name: docbot pages\n", encoding="utf-8")
    run_child([str(peers / "mkdocs"), "build", "-q"], docbot)
    pages["docbot"] = docbot / "site" / "index.html"
    strings = work / "mkdocstrings"
    (strings / "docs").mkdir(parents=True)
    (strings / "mkdocs.yml").write_text(MKDOCSTRINGS.format(root=ROOT), encoding="utf-8")
    (strings / "docs" / "index.md").write_text(f"::: {module}\n", encoding="utf-8")
    run_child([str(peers / "mkdocs"), "build", "-q"], strings)
    pages["mkdocstrings"] = strings / "site" / "index.html"
    # pdoc imports the module: docbot's own dependencies come from the venv running this script
    path = os.pathsep.join([str(ROOT), *site.getsitepackages()])
    run_child([str(peers / "pdoc"), module, "-o", str(work / "pdoc")], ROOT, {"PYTHONPATH": path})
    pages["pdoc"] = work / "pdoc" / (module.replace(".", "/") + ".html")
    return pages


def screenshot(page: Path, png: Path, work: Path) -> bool:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        return False
    run_child([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
               f"--user-data-dir={work / ('profile-' + png.stem)}", WINDOW, f"--screenshot={png}", page.as_uri()],
              work)
    return png.is_file()


def objects(page: str, module: str) -> set[str]:
    """The objects a page anchors, as dotted names under ``module`` (``ChatRequest.seed``)."""
    found = set()
    for anchor in re.findall(r'id="([A-Za-z_][\w.]*)"', page):
        name = anchor.removeprefix(module + ".")
        if name != anchor or "." in anchor or anchor[:1].isupper():
            found.add(name)
    return {n for n in found if n and not n.startswith(("__", "mkdocs", "search", "toc"))}


def words(page: str) -> set[str]:
    """The identifiers and literals a page shows as text (tags dropped), to compare what each says."""
    for shown in _SOURCE_VIEWS:  # the module's whole source, folded under "View Source": docbot links it instead
        page = shown.sub(" ", page)
    text = html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)))
    return set(re.findall(r"[A-Za-z_][\w.]*|\d+", text))


def compare(pages: dict[str, Path], module: str) -> list[str]:
    """What a peer's page shows of the module and docbot's does not: objects, and words of the module's own
    source (names, literals, docstring words; a theme's chrome, "Search" or "Next", is in no source)."""
    texts = {name: path.read_text(encoding="utf-8") for name, path in pages.items()}
    source_text = (ROOT / (module.replace(".", "/") + ".py")).read_text()
    source = set(re.findall(r"[A-Za-z_][\w.]*|\d+", source_text))
    ours_objects, ours_words = objects(texts["docbot"], module), words(texts["docbot"])
    missing = []
    for peer in ("mkdocstrings", "pdoc"):
        theirs = objects(texts[peer], module)
        # ``C.__init__``: docbot (as mkdocstrings) shows the constructor as the class's own signature
        missing += [f"{peer}: object {name} is not on docbot's page" for name in sorted(theirs - ours_objects)
                    if name.split(".")[-1] not in ours_words
                    and not (name.endswith(".__init__") and name.removesuffix(".__init__") in ours_objects)]
        # a module the source imports is a qualifier (pdoc's ``typing.Protocol`` is docbot's ``Protocol``, as written)
        imported = set(re.findall(r"^(?:from|import) ([\w.]+)", source_text, re.M))
        lost = sorted((words(texts[peer]) - ours_words) & source - imported)
        missing += [f"{peer}: shows {w!r}, docbot's page does not" for w in lost]
    return missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peers", type=Path, required=True, help="bin folder with mkdocs (+mkdocstrings) and pdoc")
    parser.add_argument("--module", default="docbot.models.bindings")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="render-module-") as tmp:
        work = Path(tmp)
        pages = build(args.module, args.peers, work)
        for name, page in pages.items():
            png = args.out / f"pages-{args.module}-{name}.png"
            made = "written" if screenshot(page, png, work) else "not made"
            print(f"{name}: {'built' if page.is_file() else 'not built'}; screenshot {made} ({png})")
        missing = compare(pages, args.module)
    print("\n".join(missing) if missing else "nothing on mkdocstrings' or pdoc's page is missing from docbot's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
