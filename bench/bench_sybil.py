"""Project-mode ``docbot verify`` against Sybil running the same docs' blocks (issue 32's last row).

    python -m bench.bench_sybil --rounds 3                 # markdown-it-py, marshmallow, werkzeug; prints
    python -m bench.bench_sybil --rounds 3 --write         # ... and writes its section of bench/RESULTS.md
    python -m bench.bench_sybil --before /tmp/old          # also docbot's tree at /tmp/old (git archive REV docbot)

Each package is the published corpus's (``bench.published.setups``: the sdist made a git repo, its own venv with
docbot beside it, under ``$DOCBOT_BENCH_USERS``). docbot runs as a user runs it: ``docbot verify --json`` at the
root, default settings (README.*, docs/**/*.md, docs/**/*.rst; examples in the sandbox). Sybil runs through pytest
in the same venv on the same files: Markdown's ``python`` fences (doctest sessions and code), RST's doctest
blocks and ``code-block:: python``; Sybil and pytest come from a folder of their own on ``PYTHONPATH``
(``--sybil-site``, made with ``pip install --target``), so the package's venv is left as it is. CPU of the whole
process tree (the sandbox's children included), interleaved rounds, the median of the per-round ratios.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path

from bench.bench_speed import Cost, measure
from bench.common import interleaved, machine, median, publish
from bench.published.project_run import entries
from bench.published.setups import repo_of, venv_of
from docbot.config.choices import DEFAULT_DOCS_GLOBS
from docbot.verify.project.doc_files import doc_paths

PACKAGES = ("markdown-it-py", "marshmallow", "werkzeug")
PLUGIN = '''\
import os
from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser as MarkdownCode
from sybil.parsers.rest import DocTestParser as RestDocTest, PythonCodeBlockParser as RestCode

_ROOT = os.environ["SYBIL_ROOT"]
pytest_collect_file = (Sybil(parsers=[MarkdownCode()], patterns=["*.md"], path=_ROOT)
                       + Sybil(parsers=[RestDocTest(), RestCode()], patterns=["*.rst"], path=_ROOT)).pytest()
'''


def sybil_site(folder: Path) -> Path:
    """Sybil and pytest installed into ``folder`` (once), apart from every package's venv."""
    if not (folder / "sybil").is_dir():
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--target", str(folder), "sybil", "pytest"],
                       check=True)
    return folder


def commands(name: str, site: Path, plugin_dir: Path) -> tuple[Path, list[str], list[str], dict[str, str], list[str]]:
    """The root, docbot's command, Sybil's, Sybil's environment, and the docs both read."""
    entry = next(e for e in entries("dev") + entries("held_out") if e.name == name)
    root, (python, _install) = repo_of(entry), venv_of(entry)
    docs = [p.relative_to(root).as_posix() for p in doc_paths(root, DEFAULT_DOCS_GLOBS)]  # what verify reads
    docbot = [str(python), "-m", "docbot.fronts.cli", "verify", "--json"]
    sybil = [str(python), "-m", "pytest", "-p", "no:cacheprovider", "-p", "docbot_sybil_plugin", "-q",
             "--rootdir", str(plugin_dir), "-o", "python_files=NONE", *docs]
    env = {"SYBIL_ROOT": str(root), "PYTHONPATH": f"{plugin_dir}{os.pathsep}{site}"}
    return root, docbot, sybil, env, docs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sybil-site", default=str(Path(tempfile.gettempdir()) / "docbot-bench-sybil"))
    parser.add_argument("--before", help="a docbot tree (its parent folder) to run beside, on PYTHONPATH")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    site = sybil_site(Path(args.sybil_site))
    plugin_dir = Path(tempfile.mkdtemp(prefix="docbot-sybil-plugin-"))
    (plugin_dir / "docbot_sybil_plugin.py").write_text(PLUGIN, encoding="utf-8")
    rows = []
    for name in PACKAGES:
        root, docbot, sybil, env, docs = commands(name, site, plugin_dir)
        actions: dict[str, Callable[[], Cost]] = {"docbot": partial(measure, docbot, root),
                                                  "sybil": partial(measure, sybil, root, env)}
        if args.before:
            actions["before"] = partial(measure, docbot, root, {"PYTHONPATH": args.before})
        seen: dict[str, list[Cost]] = interleaved(actions, args.rounds)
        for label in [k for k in ("before", "docbot") if k in seen]:
            ratios = sorted(d.cpu / s.cpu for d, s in zip(seen[label], seen["sybil"], strict=True))
            rows.append(f"| {name}{', before' if label == 'before' else ''} | {len(docs)} | "
                        f"{median([c.cpu for c in seen[label]]):.2f} | {median([c.cpu for c in seen['sybil']]):.2f} | "
                        f"{ratios[0]:.2f}× / {median(ratios):.2f}× | ≤ 2× |")
            print(rows[-1], flush=True)
    text = "\n".join([
        "## Project-mode `verify` against Sybil on the same docs (`python -m bench.bench_sybil`)", "",
        f"Command: `python -m bench.bench_sybil --rounds {args.rounds}`. Machine: {machine()}. CPU seconds of the "
        "process tree (medians), and the per-round ratio docbot ÷ Sybil (min / median).", "",
        "| package | docs | docbot verify | Sybil (pytest) | ratio (min / median) | goal |",
        "|---|---|---|---|---|---|", *rows, ""])
    publish(text, args.write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
