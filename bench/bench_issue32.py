"""Issue 32's rows, before and after, side by side in one run (docbot's tree at two commits, each on PYTHONPATH).

    python -m bench.bench_issue32 --before e0bb9b9 --after HEAD --rounds 3 [--rows staged,targets,...] [--no-write]

Each tree is ``git archive``d into a temporary folder and put first on ``PYTHONPATH`` of the commands,
which run with the same interpreter and packages; the commands of one row run interleaved in rotating
order (``bench.common.interleaved``). Per row: the CPU (user + system, children included) or peak memory
of each command, the ratio to the row's floor or peer per round, and the min and median of those ratios.
Only ratios are quoted: the machine is shared.

- **staged**: ``check --staged``, one public edit (``ismodule``) in the stdlib's ``inspect.py``, no docs,
  against ``ast.parse`` of that file in a child and interrogate on it.
- **targets**: ``targets --base HEAD~1`` on click 8.1.3 -> 8.1.7 (PyPI sdists), against ``ast.parse`` of
  the changed files in a child (``bench.bench_speed.parse_only``, plus the interpreter's start).
- **noserver**: ``docbot-hook`` on the same public edit with no model server (``OLLAMA_HOST`` at port 9):
  CPU until it exits 3.
- **private**: ``docbot-hook`` with a comment staged in ``inspect.py``, against interrogate and the floor.
- **drift**: the drift gate ``check --base HEAD~1`` on a one-line edit no doc reaches in click 8.1.7's sdist
  (``bench.bench_drift``'s repository and edit), against ``check --staged`` on the same edit staged, each tree
  against itself.
- **all**: ``check --all`` on the stdlib, cold and warm, against pydoclint and the ``ast.parse`` floor; peak
  memory beside pydoclint's.
- **scale**: ``check --all`` cold at 500 and 5,000 stdlib files (the stdlib copied under three folders past
  its size), against pydoclint and the floor: CPU, peak memory and the growth exponent
  ``log(cpu5000 / cpu500) / log(10)``.
"""

from __future__ import annotations

import argparse
import math
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from bench.bench_speed import (BIG, FILE_FLOOR, FLOOR_CHILD, PARSE_CHILD, Cost, inspect_path, measure,
                               release_repo, tool)
from bench.bench_drift import click_repo, edited_pair
from bench.bench_targets import build_repo, stdlib_sources
from bench.common import git, interleaved, machine, median, publish

SECTION = "## Issue 32: the paths on every commit, before and after (`bench/bench_issue32.py`)"
ROOT = Path(__file__).resolve().parent.parent
Runs = dict[str, Callable[[], Cost]]
PEERS: dict[str, str] = {}  # a peer's executable given on the command line (its own venv: pydoclint's
# docstring_parser_fork and docbot's docstring-parser install the same module, and the last one installed wins)


def peer(name: str) -> str:
    return PEERS.get(name) or str(tool(name))


def tree(commit: str, into: Path) -> Path:
    """docbot's package at ``commit``, extracted into ``into``."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", commit, "docbot"], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(into)], check=True)  # no round pays for it
    return into


def docbot(path: Path, module: str, *args: str) -> tuple[list[str], dict[str, str]]:
    return [sys.executable, "-P", "-m", module, *args], {"PYTHONPATH": str(path)}


def run(command: tuple[list[str], dict[str, str]], cwd: Path,
        extra: dict[str, str] | None = None) -> Callable[[], Cost]:
    return lambda: measure(command[0], cwd, {**command[1], **(extra or {})})


def ratios(samples: dict[str, list[Cost]], name: str, against: str, memory: bool = False) -> str:
    values = [(a.peak_mb / b.peak_mb) if memory else (a.cpu / b.cpu)
              for a, b in zip(samples[name], samples[against], strict=True)]
    return f"{min(values):.2f}× / {median(values):.2f}×"


def inspect_repo(folder: Path, edit: str) -> None:
    source = Path(inspect_path()).read_text(encoding="utf-8")
    (folder / BIG).write_text(source, encoding="utf-8")
    git(folder, "init", "-q")
    git(folder, "add", BIG)
    git(folder, "commit", "-qm", "inspect")
    if edit == "public":
        old = "    return isinstance(object, types.ModuleType)"
        source = source.replace(old, old.replace("types.ModuleType", "(types.ModuleType,)"), 1)
    else:
        first = source.index("\nimport ") + 1
        source = source[:first] + "# a comment, no public function touched\n" + source[first:]
    (folder / BIG).write_text(source, encoding="utf-8")
    git(folder, "add", BIG)


def staged_rows(trees: dict[str, Path], folder: Path, rounds: int) -> list[str]:
    inspect_repo(folder, "public")
    runs: Runs = {"floor": lambda: measure([sys.executable, "-P", "-c", FILE_FLOOR, BIG], folder),
                  "interrogate": lambda: measure([peer("interrogate"), "-q", "-f", "0", BIG], folder)}
    for side, path in trees.items():
        runs[f"check {side}"] = run(docbot(path, "docbot.fronts.cli", "check", "--staged"), folder)
        runs[f"noserver {side}"] = run(docbot(path, "docbot.fronts.hook", BIG), folder,
                                       {"OLLAMA_HOST": "127.0.0.1:9"})
    seen = interleaved(runs, rounds)
    rows = []
    for side in trees:
        rows.append(f"| `check --staged`, one public edit, {side} | {ratios(seen, f'check {side}', 'floor')} the "
                    f"floor | {ratios(seen, f'check {side}', 'interrogate')} interrogate |")
    for side in trees:
        cpu = [c.cpu for c in seen[f"noserver {side}"]]
        rows.append(f"| the hook with no model server (public edit), {side} | {min(cpu):.2f} / {median(cpu):.2f} "
                    f"CPU-s | {ratios(seen, f'noserver {side}', 'floor')} the floor |")
    return rows


def private_rows(trees: dict[str, Path], folder: Path, rounds: int) -> list[str]:
    inspect_repo(folder, "private")
    runs: Runs = {"floor": lambda: measure([sys.executable, "-P", "-c", FILE_FLOOR, BIG], folder),
                  "interrogate": lambda: measure([peer("interrogate"), "-q", "-f", "0", BIG], folder)}
    for side, path in trees.items():
        runs[side] = run(docbot(path, "docbot.fronts.hook", BIG), folder)
    seen = interleaved(runs, rounds)
    return [f"| the hook, a private edit in {BIG}, {side} | {ratios(seen, side, 'interrogate')} interrogate | "
            f"{ratios(seen, side, 'floor')} the floor |" for side in trees]


def targets_rows(trees: dict[str, Path], folder: Path, rounds: int, sdists: Path) -> list[str]:
    if not release_repo(folder, sdists, "click", ("8.1.3", "8.1.7"), "src"):
        return ["| targets, click | sdists not downloadable: skipped | |"]
    changed = [p for p in git(folder, "diff", "--name-only", "HEAD~1", "--", "*.py").split() if (folder / p).exists()]
    runs: Runs = {"floor": lambda: measure([sys.executable, "-P", "-c", PARSE_CHILD, *changed], folder)}
    for side, path in trees.items():
        command = docbot(path, "docbot.fronts.cli", "targets", "--json", "--base", "HEAD~1")

        def fresh(command: tuple[list[str], dict[str, str]] = command) -> Cost:
            shutil.rmtree(folder / ".docbot", ignore_errors=True)
            return measure(command[0], folder, command[1])
        runs[side] = fresh
    seen = interleaved(runs, rounds)
    return [f"| `targets --base`, click 8.1.3 → 8.1.7, {side} | {ratios(seen, side, 'floor')} the floor of the "
            f"changed files | |" for side in trees]


def drift_rows(trees: dict[str, Path], folder: Path, rounds: int, sdists: Path) -> list[str]:
    staged, based = edited_pair(click_repo(folder, sdists), folder)
    runs: Runs = {}
    for side, path in trees.items():
        runs[f"staged {side}"] = run(docbot(path, "docbot.fronts.cli", "check", "--staged"), staged)
        runs[f"base {side}"] = run(docbot(path, "docbot.fronts.cli", "check", "--base", "HEAD~1"), based)
    seen = interleaved(runs, rounds)
    return [f"| the drift gate `check --base HEAD~1`, one-line edit, click 8.1.7, {side} | "
            f"{ratios(seen, f'base {side}', f'staged {side}')} `check --staged` | "
            f"{median([c.cpu for c in seen[f'base {side}']]):.2f} / "
            f"{median([c.cpu for c in seen[f'staged {side}']]):.2f} CPU-s |" for side in trees]


def pydoclint_on(folder: Path) -> Callable[[], Cost]:
    return lambda: measure([peer("pydoclint"), "-q", "--exclude", r"\.git|\.docbot", "."], folder)


def whole_tree(trees: dict[str, Path], folder: Path, rounds: int, warm: bool,
               with_pydoclint: bool = True) -> dict[str, list[Cost]]:
    runs: Runs = {"floor": lambda: measure([sys.executable, "-P", "-c", FLOOR_CHILD, str(folder)], folder)}
    if with_pydoclint:
        runs["pydoclint"] = pydoclint_on(folder)
    for side, path in trees.items():
        command = docbot(path, "docbot.fronts.cli", "check", "--all")
        cache = Path(tempfile.mkdtemp(prefix=f"cache-{side}-", dir=folder.parent))  # removed with the work folder

        def cold(command: tuple[list[str], dict[str, str]] = command) -> Cost:
            shutil.rmtree(folder / ".docbot", ignore_errors=True)
            return measure(command[0], folder, command[1])

        def warmed(command: tuple[list[str], dict[str, str]] = command, cache: Path = cache) -> Cost:
            # each side's own cache: the two trees' caches are not the same files
            shutil.rmtree(folder / ".docbot", ignore_errors=True)
            if (cache / ".docbot").exists():
                shutil.copytree(cache / ".docbot", folder / ".docbot")
            else:
                measure(command[0], folder, command[1])
                shutil.copytree(folder / ".docbot", cache / ".docbot")
            return measure(command[0], folder, command[1])
        runs[f"cold {side}"] = cold
        if warm:
            runs[f"warm {side}"] = warmed
    return interleaved(runs, rounds)


def all_rows(trees: dict[str, Path], folder: Path, rounds: int) -> list[str]:
    sources = stdlib_sources()
    build_repo(sources, folder)
    seen = whole_tree(trees, folder, rounds, warm=True)
    rows = []
    for side in trees:
        rows.append(f"| `check --all`, {len(sources)} stdlib files, {side} | cold "
                    f"{ratios(seen, f'cold {side}', 'pydoclint')}, warm "
                    f"{ratios(seen, f'warm {side}', 'pydoclint')} pydoclint | cold "
                    f"{ratios(seen, f'cold {side}', 'floor')} the floor |")
    for side in trees:
        rows.append(f"| peak memory of `check --all`, {len(sources)} files, {side} | "
                    f"{ratios(seen, f'cold {side}', 'pydoclint', memory=True)} pydoclint | "
                    f"{median([c.peak_mb for c in seen[f'cold {side}']]):.0f} MiB (pydoclint "
                    f"{median([c.peak_mb for c in seen['pydoclint']]):.0f}, floor "
                    f"{median([c.peak_mb for c in seen['floor']]):.0f}) |")
    return rows


def scaled(sources: dict[str, str], count: int) -> dict[str, str]:
    """``count`` files: the stdlib's, then copies of it under ``copy1/``, ``copy2/``, ..."""
    files = list(sources.items())
    out: dict[str, str] = {}
    for index in range(count):
        rel, text = files[index % len(files)]
        copy = index // len(files)
        out[f"copy{copy}/{rel}" if copy else rel] = text
    return out


def scale_rows(trees: dict[str, Path], base: Path, rounds: int, sizes: Sequence[int], peer_rounds: int) -> list[str]:
    """docbot and the floor in ``rounds`` interleaved rounds; pydoclint (the slowest by far) in ``peer_rounds``
    of its own after them, compared by medians."""
    sources = stdlib_sources()
    seen_at: dict[int, dict[str, list[Cost]]] = {}
    for size in sizes:
        folder = base / str(size)
        folder.mkdir()
        build_repo(scaled(sources, size), folder)
        seen_at[size] = whole_tree(trees, folder, rounds, warm=False, with_pydoclint=False)
        seen_at[size]["pydoclint"] = [pydoclint_on(folder)() for _ in range(peer_rounds)]
        shutil.rmtree(folder, ignore_errors=True)
    rows = []
    for size, seen in seen_at.items():
        peak = {name: median([c.peak_mb for c in costs]) for name, costs in seen.items()}
        cpu = {name: median([c.cpu for c in costs]) for name, costs in seen.items()}
        for side in trees:
            name = f"cold {side}"
            rows.append(f"| `check --all` cold, {size} files, {side} | {ratios(seen, name, 'floor')} the floor; "
                        f"{cpu[name] / cpu['pydoclint']:.2f}× pydoclint (medians) | peak {peak[name]:.0f} MiB = "
                        f"{peak[name] / peak['pydoclint']:.2f}× pydoclint's {peak['pydoclint']:.0f} MiB (floor "
                        f"{peak['floor']:.0f}) |")
    small, large = sizes[0], sizes[-1]
    for name in [f"cold {side}" for side in trees] + ["floor", "pydoclint"]:
        cpu2 = {size: median([c.cpu for c in seen_at[size][name]]) for size in (small, large)}
        growth = math.log(cpu2[large] / cpu2[small])
        rows.append(f"| growth {small} → {large} files, {name} | exponent {growth / math.log(large / small):.2f} | |")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_issue32", description=__doc__.split("\n")[0])
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", default="HEAD")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rows", default="staged,private,targets,drift,all,scale")
    parser.add_argument("--sizes", default="500,5000")
    parser.add_argument("--peer-rounds", type=int, default=1, help="pydoclint's rounds in the scale rows")
    parser.add_argument("--sdists", default=str(Path(tempfile.gettempdir()) / "docbot-bench-sdists"))
    parser.add_argument("--pydoclint", default="", help="pydoclint's executable (default: this venv's)")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    if args.pydoclint:
        PEERS["pydoclint"] = args.pydoclint
    work = Path(tempfile.mkdtemp(prefix="docbot-bench-issue32-"))
    lines: list[str] = []
    try:
        trees = {"before": tree(args.before, work / "before"), "after": tree(args.after, work / "after")}
        wanted = args.rows.split(",")
        for name, build in (("staged", lambda f: staged_rows(trees, f, args.rounds)),
                            ("private", lambda f: private_rows(trees, f, args.rounds)),
                            ("targets", lambda f: targets_rows(trees, f, args.rounds, Path(args.sdists))),
                            ("drift", lambda f: drift_rows(trees, f, args.rounds, Path(args.sdists))),
                            ("all", lambda f: all_rows(trees, f, args.rounds)),
                            ("scale", lambda f: scale_rows(trees, f, args.rounds,
                                                           [int(s) for s in args.sizes.split(",")],
                                                           args.peer_rounds))):
            if name in wanted:
                folder = work / name
                folder.mkdir()
                lines += build(folder)
                print("\n".join(lines[-4:]), file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    text = "\n".join([SECTION, "", f"Command: `python -m bench.bench_issue32 {' '.join(sys.argv[1:])}`. "
                      f"Machine: {machine()}, load shared. before = {args.before}, after = {args.after}. "
                      f"Ratios per round, min / median of {args.rounds} interleaved rounds.", "",
                      "| row | ratio (min / median) | beside |", "|---|---|---|", *lines]) + "\n"
    publish(text, not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
