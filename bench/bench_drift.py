"""The drift gate's cost against ``docbot check --staged`` on the same one-line edit (issue 32's row), and the
cost of a 9.4 MB README in project-mode ``verify`` (issue 30 item 6), side by side in one run.

    python -m bench.bench_drift                 # 5 interleaved rounds; writes bench/RESULTS.md
    python -m bench.bench_drift --rounds 1 --no-write

The repository is click 8.1.7's PyPI sdist (23 reStructuredText docs, a README) as one commit, then one
commit changing one line of a function no doc reaches. Measured: ``docbot check --base HEAD~1`` (the docs/api
check and the drift gate) and, on the same edit staged instead, ``docbot check --staged``; each with this
checkout's docbot and with the one at ``--before`` (default /work/main: the gate that converted every doc with
docutils to find its mentions), imported through ``PYTHONPATH`` by the same interpreter. CPU of the process
tree (user + system) and peak memory, medians; only ratios are quoted, the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from bench.bench_speed import Cost, measure, rounds_of
from bench.common import git, machine, publish

SECTION = "## The drift gate against `check --staged`, and a 9.4 MB README (`bench/bench_drift.py`)"
SDIST = ("click", "8.1.7")
# a public function of a public module that no doc's names reach (found with docbot.verify.project.reach)
EDIT = ("src/click/types.py", '        info_dict["formats"] = self.formats',
        '        info_dict["formats"] = list(self.formats)')


def click_repo(folder: Path, sdists: Path) -> Path:
    name, version = SDIST
    archive = sdists / f"{name}-{version}.tar.gz"
    if not archive.exists():
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                        f"{name}=={version}", "-d", str(sdists)], capture_output=True, check=False)
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    subprocess.run(["chown", "-R", f"{os.getuid()}:{os.getgid()}", str(folder)], check=False)
    root = folder / f"{name}-{version}"
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", version)
    return root


def _edit(root: Path) -> None:
    path, old, new = EDIT
    text = (root / path).read_text(encoding="utf-8")
    assert old in text, f"{path} changed: pick another line"
    (root / path).write_text(text.replace(old, new, 1), encoding="utf-8")


def edited_pair(root: Path, folder: Path) -> tuple[Path, Path]:
    """Two copies of ``root`` under ``folder`` with the same one-line edit: staged in the first, committed in the
    second (what ``check --staged`` and ``check --base HEAD~1`` read)."""
    staged, based = folder / "staged", folder / "based"
    shutil.copytree(root, staged)
    shutil.copytree(root, based)
    _edit(staged)
    git(staged, "add", "-A")
    _edit(based)
    git(based, "commit", "-qam", "one line")
    return staged, based


def gate_part(root: Path, before: Path, rounds: int) -> tuple[list[str], dict[str, Cost]]:
    staged, based = edited_pair(root, root.parent)
    cli = [sys.executable, "-P", "-m", "docbot.fronts.cli"]
    old = {"PYTHONPATH": str(before)}
    costs = rounds_of({
        "staged, now": lambda: measure([*cli, "check", "--staged"], staged),
        "base, now": lambda: measure([*cli, "check", "--base", "HEAD~1"], based),
        "staged, before": lambda: measure([*cli, "check", "--staged"], staged, old),
        "base, before": lambda: measure([*cli, "check", "--base", "HEAD~1"], based, old),
    }, rounds)
    docs = subprocess.run([*cli, "check", "--base", "HEAD~1", "--drift-only"], cwd=based, capture_output=True,
                          text=True).stderr.strip().splitlines()
    return docs, costs


def readme_part(root: Path, before: Path, rounds: int) -> dict[str, Cost]:
    """A README of 9.4 MB (the small one's sections repeated) against the small one, ``verify`` on each."""
    small, big = root.parent / "small", root.parent / "big"
    for folder in (small, big):
        shutil.copytree(root, folder)
        for doc in folder.glob("docs/*.rst"):
            doc.unlink()
    readme = (small / "README.rst").read_text(encoding="utf-8")
    (big / "README.rst").write_text(readme * (9_400_000 // len(readme.encode()) + 1), encoding="utf-8")
    cli = [sys.executable, "-P", "-m", "docbot.fronts.cli", "verify", "--no-examples"]
    old = {"PYTHONPATH": str(before)}
    return rounds_of({"small, now": lambda: measure(cli, small), "big, now": lambda: measure(cli, big),
                      "small, before": lambda: measure(cli, small, old),
                      "big, before": lambda: measure(cli, big, old)}, rounds)


def report(docs: list[str], gate: dict[str, Cost], readme: dict[str, Cost], rounds: int) -> str:
    def ratio(a: str, b: str, costs: dict[str, Cost]) -> float:
        return costs[a].cpu / costs[b].cpu

    lines = [SECTION, "", f"{machine()}; medians of {rounds} interleaved rounds; CPU of the process tree.", "",
             "| path | this branch | before (main) | goal |", "|---|---|---|---|"]
    if gate:
        lines.append(f"| `check --base HEAD~1` / `check --staged`, one-line edit, click 8.1.7 | "
                     f"{ratio('base, now', 'staged, now', gate):.2f}x ({gate['base, now'].cpu:.2f} s) | "
                     f"{ratio('base, before', 'staged, before', gate):.2f}x ({gate['base, before'].cpu:.2f} s) "
                     "| <= 1.5x |")
    if readme:
        lines.append(f"| `verify`, a 9.4 MB README / the 2 kB one it repeats | "
                     f"{ratio('big, now', 'small, now', readme):.1f}x, {readme['big, now'].peak_mb:.0f} MB peak | "
                     f"{ratio('big, before', 'small, before', readme):.1f}x, "
                     f"{readme['big, before'].peak_mb:.0f} MB peak | bounded |")
    lines += ["", f"The gate's own line on the edit: {docs[-1] if docs else '(none)'}"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench_drift")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--before", type=Path, default=Path("/work/main"))
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--parts", default="gate,readme")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-drift-") as tmp:
        folder = Path(tmp)
        root = click_repo(folder, Path(tempfile.gettempdir()) / "docbot-bench-sdists")
        docs, gate = gate_part(root, args.before, args.rounds) if "gate" in args.parts else ([], {})
        readme = readme_part(root, args.before, max(1, args.rounds // 2)) if "readme" in args.parts else {}
    publish(report(docs, gate, readme, args.rounds), not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
