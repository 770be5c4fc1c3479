"""The scanner against the parser floor, on code we did not write: the running interpreter's stdlib.

    python -m bench.bench_targets                 # all stdlib files, 3 repeats; writes bench/RESULTS.md
    python -m bench.bench_targets --repeats 2 --no-write

Two measurements, each interleaved (every repeat runs every variant, in rotating order) and in CPU
time, because the machine is shared and wall time means little there; only ratios are quoted:

1. **Finders, in process, per file**: the bare ``ast.parse`` floor, docbot's ``ast`` pass (find the
   public functions and hash each one's source, as ``check`` does), and the libcst finder (today's
   pass before issue 15: parse plus positions). Per file and variant the fastest repeat counts.
2. **Commands, as child processes** on a git repository holding a copy of the same files:
   ``docbot check --all`` and ``docbot targets --all --json`` against a child that only runs
   ``ast.parse`` on every file (interpreter start included on both sides). CPU time of the children
   (``resource.getrusage``), git's included.
"""

from __future__ import annotations

import argparse
import ast
import os
import resource
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
import tokenize
from collections.abc import Callable
from pathlib import Path

from bench.common import machine, publish
from docbot.scan import cst_finder
from docbot.apidocs.pages import source_hash
from docbot.scan.targets import Parser, SourceParseError, clear_caches, public_functions

SECTION = "## Scanner: finding public functions vs the ast.parse floor"
FLOOR_CHILD = """\
import ast, os, sys, tokenize
for folder, _, names in os.walk(sys.argv[1]):
    for name in names:
        if name.endswith(".py") and ".git" not in folder:
            try:
                with tokenize.open(os.path.join(folder, name)) as handle:
                    ast.parse(handle.read())
            except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError):
                pass
"""


def stdlib_sources() -> dict[str, str]:
    """Repo-relative path -> text of every stdlib ``.py`` file outside site-packages that Python reads."""
    root = Path(sysconfig.get_paths()["stdlib"])
    sources = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if "site-packages" in rel.parts:
            continue
        try:
            with tokenize.open(path) as handle:
                sources[rel.as_posix()] = handle.read()
        except (SyntaxError, UnicodeDecodeError):
            continue
    return sources


def cpu_of(action: Callable[[str, str], object], text: str, path: str) -> float:
    start = time.process_time()
    try:
        action(text, path)
    except (SyntaxError, cst_finder.ParserSyntaxError, SourceParseError, RecursionError, MemoryError, ValueError):
        pass  # a file one side cannot parse still costs what it cost
    return time.process_time() - start


def ast_pass(text: str, path: str) -> None:
    clear_caches()  # cold: the cache of parsed blobs would make repeats free
    for target in public_functions(text, "m", path, parser=Parser.AST):
        source_hash(target.source)


def finder_variants() -> dict[str, Callable[[str, str], object]]:
    return {"ast.parse floor": lambda text, path: ast.parse(text),
            "docbot ast pass (find + hash)": ast_pass,
            "libcst finder (the old pass)": lambda text, path: cst_finder.find(text, False)}


def measure_finders(sources: dict[str, str], repeats: int) -> dict[str, float]:
    """Sum over files of the fastest repeat, per variant."""
    variants = finder_variants()
    names = list(variants)
    totals = dict.fromkeys(names, 0.0)
    for index, (path, text) in enumerate(sources.items()):
        best = dict.fromkeys(names, float("inf"))
        for repeat in range(repeats):
            shift = (index + repeat) % len(names)
            for name in names[shift:] + names[:shift]:
                best[name] = min(best[name], cpu_of(variants[name], text, path))
        for name in names:
            totals[name] += best[name]
    return totals


def build_repo(sources: dict[str, str], root: Path) -> None:
    for rel, text in sources.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    (root / "config.json").write_text('{"exclude": []}\n', encoding="utf-8")  # the floor reads tests too
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    for command in (["init", "-q"], ["add", "-A"],
                    ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "commit", "-qm", "stdlib"]):
        subprocess.run(["git", *command], cwd=root, env=env, check=True, capture_output=True)


def child_cpu(command: list[str], cwd: Path) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=cwd, capture_output=True, check=False, timeout=3600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure_commands(root: Path, repeats: int) -> dict[str, float]:
    """Median child CPU per command over ``repeats`` interleaved rounds."""
    docbot = [sys.executable, "-m", "docbot.fronts.cli"]
    commands = {"ast.parse floor (child)": [sys.executable, "-c", FLOOR_CHILD, str(root)],
                "docbot check --all": [*docbot, "check", "--all"],
                "docbot targets --all --json": [*docbot, "targets", "--all", "--json"]}
    names = list(commands)
    samples: dict[str, list[float]] = {name: [] for name in names}
    for repeat in range(repeats):
        shift = repeat % len(names)
        for name in names[shift:] + names[:shift]:
            samples[name].append(child_cpu(commands[name], root))
    return {name: sorted(values)[len(values) // 2] for name, values in samples.items()}


def table(figures: dict[str, float], floor: str) -> list[str]:
    rows = ["| what | CPU s | × floor |", "|---|---|---|"]
    rows += [f"| {name} | {value:.2f} | {value / figures[floor]:.2f}× |" for name, value in figures.items()]
    return rows


def report(files: int, finders: dict[str, float], commands: dict[str, float] | None) -> str:
    lines = [SECTION, "",
             f"Command: `{' '.join(['python -m bench.bench_targets', *sys.argv[1:]])}`. Machine: {machine()}.",
             f"Material: {files} files of this interpreter's stdlib (not ours). CPU time, interleaved runs;",
             "the machine is shared, so only the ratios mean much.", "",
             "Finders, in process (per file, the fastest of the repeats, summed):", "",
             *table(finders, "ast.parse floor")]
    if commands is not None:
        lines += ["", "Commands on a git repository of the same files (median child CPU, git included):", "",
                  *table(commands, "ast.parse floor (child)")]
    lines += ["", "Issue 15 targets: `check --all` cold ≤ 3× the floor; the libcst finder alone measured 37×."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_targets", description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-write", action="store_true", help="print only; leave bench/RESULTS.md alone")
    parser.add_argument("--no-commands", action="store_true", help="skip the child-process measurement")
    parser.add_argument("--every", type=int, default=1, help="only every N-th file (a quick look)")
    args = parser.parse_args(argv)
    sources = dict(list(stdlib_sources().items())[::args.every])
    finders = measure_finders(sources, args.repeats)
    commands = None
    if not args.no_commands:
        folder = Path(tempfile.mkdtemp(prefix="docbot-bench-"))
        try:
            build_repo(sources, folder)
            commands = measure_commands(folder, args.repeats)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    text = report(len(sources), finders, commands)
    publish(text, not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
