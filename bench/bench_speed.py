"""docbot's hook, check, targets and verify against their peers and floors, side by side (issue 15).

    python -m bench.bench_speed                     # every part, 3 interleaved rounds; writes bench/RESULTS.md
    python -m bench.bench_speed --rounds 1 --no-write --parts hook,verify

Each command runs as a child of a small wrapper that reports the CPU time (user + system, the
command's own children such as git included) and the peak resident memory of what it ran, with
``-P``: the copied stdlib in the working folder must not shadow the real one. The commands of one
part run interleaved, in rotating order, and the medians are compared. Only ratios
are quoted: the machine is shared.

- **hook**: ``docbot-hook`` with nothing staged and with a comment staged in a 3,343-line file no
  public function of which it touches (the stdlib's ``inspect.py``), against ``interrogate`` on that
  file (what its pre-commit hook runs for such a commit).
- **public** (a section of its own): ``docbot-hook --check`` on a commit that changes one public function
  of ``inspect.py`` in a repository with no docs/api, without and with a config file, against
  ``ast.parse`` of that file in a child and interrogate on it, and the git processes it starts.
- **check**: ``docbot check --all`` on the stdlib, cold (no ``.docbot/cache``) and warm, against a
  child that only ``ast.parse``s every file and against ``pydoclint``.
- **targets**: ``docbot targets --base HEAD~1`` on four release diffs (PyPI sdists: click 8.1.3 -> 8.1.7,
  rich 13.7.1 -> 13.9.4, Django 5.0.8 -> 5.1, a feature release, and Django 5.1 -> 5.1.1, a patch
  release) against ``docbot targets --all`` on the same repository, end to end
  and the scan alone (``repo.scan`` timed inside a child that has imported it: the interpreter, the
  imports and the settings, which both commands pay, left out).
- **verify**: ``docbot verify`` of a 20-section doc (one example each) against ``python -m doctest``
  on the same doc.

A peer that is not installed is skipped, and the report says so.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.bench_targets import FLOOR_CHILD, build_repo, stdlib_sources
from bench.common import GIT_ENV, git, interleaved, machine, median, publish

SECTION = "## Speed against peers and floors (`bench/bench_speed.py`)"
BIN = Path(sys.executable).parent
# The wrapper is a child subreaper (Linux prctl PR_SET_CHILD_SUBREAPER): a process its command leaves
# behind unreaped (bwrap's monitor exits without waiting for the sandboxed child) is re-parented to it
# and waited for here, so its CPU is counted too; without this verify's sandbox child was not.
WRAP = """\
import ctypes, json, os, resource, subprocess, sys
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
while True:
    try:
        os.wait()
    except ChildProcessError:
        break
used = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps([used.ru_utime + used.ru_stime, used.ru_maxrss / 1024, code]))
"""
BIG = "inspect.py"


@dataclass(frozen=True)
class Cost:
    cpu: float
    peak_mb: float


def measure(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> Cost:
    done = subprocess.run([sys.executable, "-P", "-c", WRAP, *command], cwd=cwd, capture_output=True, text=True,
                          check=True, env={**os.environ, **GIT_ENV, **(env or {})})
    cpu, peak, _ = json.loads(done.stdout)
    return Cost(cpu, peak)


def tool(name: str) -> str | None:
    found = BIN / name
    return str(found) if found.exists() else shutil.which(name)


def rounds_of(commands: dict[str, Callable[[], Cost]], rounds: int) -> dict[str, Cost]:
    seen = interleaved(commands, rounds)
    return {name: Cost(median([c.cpu for c in costs]), median([c.peak_mb for c in costs]))
            for name, costs in seen.items()}


Row = tuple[str, str, float, str, float, str]  # what, docbot label, its CPU, peer label, its CPU, target


def hook_part(sources: dict[str, str], rounds: int) -> tuple[list[Row], list[str]]:
    folder = Path(tempfile.mkdtemp(prefix="docbot-bench-hook-"))
    notes: list[str] = []
    try:
        build_repo({rel: text for rel, text in sources.items() if rel.count("/") == 0}, folder)
        hook, interrogate = [str(BIN / "docbot-hook")], tool("interrogate")
        if interrogate is None:
            return [], ["interrogate is not installed: the hook rows are skipped."]
        peer = [interrogate, "-q", "-f", "0", BIG]
        nothing = rounds_of({"hook": lambda: measure(hook, folder), "peer": lambda: measure(peer, folder)}, rounds)
        text = (folder / BIG).read_text(encoding="utf-8")
        first_import = text.index("\nimport ") + 1
        (folder / BIG).write_text(text[:first_import] + "# a comment, no public function touched\n"
                                  + text[first_import:], encoding="utf-8")
        git(folder, "add", BIG)
        staged = rounds_of({"hook": lambda: measure([*hook, BIG], folder),
                            "check": lambda: measure([*hook, "--check", BIG], folder),
                            "peer": lambda: measure(peer, folder)}, rounds)
        lines = text.count("\n")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return [("hook, nothing staged", "docbot-hook", nothing["hook"].cpu, "interrogate, one file",
             nothing["peer"].cpu, "≤ 1.0×"),
            (f"hook, a comment staged in a {lines}-line file", "docbot-hook", staged["hook"].cpu,
             "interrogate, that file", staged["peer"].cpu, "≤ 1.5×"),
            ("hook --check, the same commit", "docbot-hook --check", staged["check"].cpu,
             "interrogate, that file", staged["peer"].cpu, "≤ 1.5×")], notes


PUBLIC_SECTION = "## The hook's public-edit path against the parse floor (`bench/bench_speed.py --parts public`)"
FILE_FLOOR = "import ast, sys, tokenize\nwith tokenize.open(sys.argv[1]) as handle:\n    ast.parse(handle.read())\n"
GIT_LOGGER = '#!/bin/sh\necho "$1" >> "{log}"\nexec {git} "$@"\n'


def public_part(rounds: int) -> str:
    """``docbot-hook --check`` on a commit that changes one public function of ``inspect.py`` in a repository
    with no docs/api, against ``ast.parse`` of that file in a child (the floor: no exact check reads less)
    and interrogate on it; without a config file (the settings' defaults, no pydantic) and with one."""
    folder = Path(tempfile.mkdtemp(prefix="docbot-bench-public-"))
    try:
        source = Path(inspect_path()).read_text(encoding="utf-8")
        (folder / BIG).write_text(source, encoding="utf-8")
        git(folder, "init", "-q")
        git(folder, "add", BIG)
        git(folder, "commit", "-qm", "inspect")
        old = "    return isinstance(object, types.ModuleType)"
        (folder / BIG).write_text(source.replace(old, old.replace("types.ModuleType", "(types.ModuleType,)"), 1),
                                  encoding="utf-8")
        git(folder, "add", BIG)
        hook = [str(BIN / "docbot-hook"), "--check", BIG]
        commands = {"floor": lambda: measure([sys.executable, "-P", "-c", FILE_FLOOR, BIG], folder),
                    "hook": lambda: measure(hook, folder),
                    "hook, config file": lambda: _with_config(folder, lambda: measure(hook, folder))}
        interrogate = tool("interrogate")
        if interrogate is not None:
            commands["interrogate"] = lambda: measure([interrogate, "-q", "-f", "0", BIG], folder)
        costs = rounds_of(commands, rounds)
        processes = _git_processes(folder, hook)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    floor = costs["floor"].cpu
    lines = [PUBLIC_SECTION, "",
             f"Command: `{' '.join(['python -m bench.bench_speed', *sys.argv[1:]])}`. Machine: {machine()}.",
             f"CPU seconds (user + system, children included), median of {rounds} interleaved rounds. The commit "
             f"changes `ismodule` in a {source.count(chr(10))}-line `{BIG}`; the repository has no docs/api.", "",
             "| what | CPU s | × floor |", "|---|---|---|",
             f"| `ast.parse` of {BIG} in a child (the floor) | {floor:.3f} | 1.00× |"]
    for name, what in (("hook", "docbot-hook --check, no config file"),
                       ("hook, config file", "docbot-hook --check, a config.json (the settings loaded)"),
                       ("interrogate", f"interrogate on {BIG}")):
        if name in costs:
            lines.append(f"| {what} | {costs[name].cpu:.3f} | {costs[name].cpu / floor:.2f}× |")
    lines += ["", f"- Target: docbot-hook --check without a config file ≤ 2× the floor. git processes it starts: "
              f"{processes} (counted by a logging `git` first on PATH)."]
    if "interrogate" not in costs:
        lines.append("- interrogate is not installed: its row is skipped.")
    return "\n".join(lines) + "\n"


def inspect_path() -> str:
    import inspect

    return inspect.__file__


def _with_config(folder: Path, run: Callable[[], Cost]) -> Cost:
    (folder / "config.json").write_text('{"include_dunder": false}\n', encoding="utf-8")
    try:
        return run()
    finally:
        (folder / "config.json").unlink()


def _git_processes(folder: Path, command: list[str]) -> int:
    """How many git processes ``command`` starts: a logging ``git`` wrapper goes first on PATH."""
    wrapped = Path(tempfile.mkdtemp(prefix="docbot-bench-git-"))
    try:
        log = wrapped / "log"
        (wrapped / "git").write_text(GIT_LOGGER.format(log=log, git=shutil.which("git")), encoding="utf-8")
        (wrapped / "git").chmod(0o755)
        measure(command, folder, {"PATH": f"{wrapped}:{os.environ.get('PATH', '')}"})
        return len(log.read_text(encoding="utf-8").split()) if log.exists() else 0
    finally:
        shutil.rmtree(wrapped, ignore_errors=True)


def check_part(sources: dict[str, str], rounds: int) -> tuple[list[Row], list[str]]:
    folder = Path(tempfile.mkdtemp(prefix="docbot-bench-check-"))
    try:
        build_repo(sources, folder)
        check = [sys.executable, "-P", "-m", "docbot.fronts.cli", "check", "--all"]

        def cold() -> Cost:
            shutil.rmtree(folder / ".docbot", ignore_errors=True)
            return measure(check, folder)

        commands = {"floor": lambda: measure([sys.executable, "-P", "-c", FLOOR_CHILD, str(folder)], folder),
                    "cold": cold, "warm": lambda: measure(check, folder)}
        pydoclint = tool("pydoclint")
        if pydoclint is not None:
            commands["pydoclint"] = lambda: measure([pydoclint, "-q", "--exclude", r"\.git|\.docbot", "."], folder)
        measure(check, folder)  # the warm runs find a cache
        costs = rounds_of(commands, rounds)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    what = f"check --all, {len(sources)} stdlib files"
    rows: list[Row] = [(what + ", cold", "docbot", costs["cold"].cpu, "ast.parse floor", costs["floor"].cpu, "≤ 3×")]
    notes = [f"Peak memory, {what}: docbot cold {costs['cold'].peak_mb:.0f} MiB, warm {costs['warm'].peak_mb:.0f} "
             f"MiB, ast.parse floor {costs['floor'].peak_mb:.0f} MiB"]
    if "pydoclint" in costs:
        rows += [(what + ", cold", "docbot", costs["cold"].cpu, "pydoclint", costs["pydoclint"].cpu, "≤ 0.5×"),
                 (what + ", warm cache", "docbot", costs["warm"].cpu, "pydoclint", costs["pydoclint"].cpu, "≤ 0.2×")]
        notes[0] += (f", pydoclint {costs['pydoclint'].peak_mb:.0f} MiB (ratio cold/pydoclint "
                     f"{costs['cold'].peak_mb / costs['pydoclint'].peak_mb:.2f}×; target ≤ 2×).")
    else:
        notes.append("pydoclint is not installed: its rows are skipped.")
    return rows, notes


RELEASES = (("click", "8.1.3", "8.1.7", "src"), ("rich", "13.7.1", "13.9.4", "rich"),  # name, old, new, folder
            ("Django", "5.0.8", "5.1", "django"), ("Django", "5.1", "5.1.1", "django"))


def release_repo(folder: Path, sdists: Path, name: str, versions: tuple[str, str], inside: str) -> bool:
    """Two releases of ``name`` as two commits: each PyPI sdist's ``inside`` folder (downloaded once
    into ``sdists``)."""
    for version in versions:
        archive = sdists / f"{name}-{version}.tar.gz"
        if not archive.exists():
            subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                            f"{name}=={version}", "-d", str(sdists)], capture_output=True, check=False)
        if not archive.exists():
            return False
        shutil.rmtree(folder / inside, ignore_errors=True)
        with tarfile.open(archive) as tar:
            members = [m for m in tar.getmembers() if m.name.startswith(f"{name}-{version}/{inside}/")]
            tar.extractall(folder / "x", members=members, filter="data")
        shutil.move(str(folder / "x" / f"{name}-{version}" / inside), str(folder / inside))
        shutil.rmtree(folder / "x")
        if version == versions[0]:
            git(folder, "init", "-q")
        git(folder, "add", "-A")
        git(folder, "commit", "-qm", version)
    return True


def targets_part(rounds: int, sdists: Path) -> tuple[list[Row], list[str]]:
    rows: list[Row] = []
    notes: list[str] = []
    for name, old, new, inside in RELEASES:
        found, said = _release_rows(rounds, sdists, name, (old, new), inside)
        rows += found
        notes += said
    return rows, notes


def _release_rows(rounds: int, sdists: Path, name: str, versions: tuple[str, str],
                  inside: str) -> tuple[list[Row], list[str]]:
    folder = Path(tempfile.mkdtemp(prefix=f"docbot-bench-{name}-"))
    what = f"{name} {versions[0]} → {versions[1]}"
    try:
        if not release_repo(folder, sdists, name, versions, inside):
            return [], [f"{name}'s sdists could not be downloaded: its targets rows are skipped."]
        docbot = [sys.executable, "-P", "-m", "docbot.fronts.cli", "targets", "--json"]

        def fresh(flags: list[str]) -> Callable[[], Cost]:
            def run() -> Cost:
                shutil.rmtree(folder / ".docbot", ignore_errors=True)
                return measure([*docbot, *flags], folder)
            return run

        files = git(folder, "diff", "--name-only", "HEAD~1", "--", "*.py").split()
        kept = [path for path in files if (folder / path).exists()]
        costs = rounds_of({"base": fresh(["--base", "HEAD~1"]), "all": fresh(["--all"]),
                           "scan base": lambda: scan_only(folder, "DiffSpec(base='HEAD~1')"),
                           "scan all": lambda: scan_only(folder, "DiffSpec(all=True)"),
                           "floor": lambda: parse_only(folder, kept)}, rounds)
        every = git(folder, "ls-files", "--", "*.py").split()
        sizes = _changed_share(folder, files)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return [(f"targets, {what}, end to end", "--base HEAD~1", costs["base"].cpu, "--all",
             costs["all"].cpu, "≤ 0.7×"),
            (f"targets, {what}, the scan alone (in process, git included)", "scan(base='HEAD~1')",
             costs["scan base"].cpu, "scan(all=True)", costs["scan all"].cpu, "≤ 0.7×"),
            (f"targets, {what}, a diff's floor: `ast.parse` of the changed files' new side, nothing else",
             "ast.parse(changed)", costs["floor"].cpu, "scan(all=True)", costs["scan all"].cpu, "—")], [
        f"{what} changes {len(files)} of its {len(every)} Python files, {sizes:.0%} of their bytes."]


SCAN_CHILD = """\
import json, os, resource, time
from pathlib import Path
from docbot.scan.repo import DiffSpec, scan
start, kids = time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN)
scan(Path('.'), {spec})
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = time.process_time() - start + after.ru_utime + after.ru_stime - kids.ru_utime - kids.ru_stime
print(json.dumps([cpu, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024]))
"""


def scan_only(folder: Path, spec: str) -> Cost:
    """One scan's CPU inside a child that has already imported docbot.scan.repo: what a diff's reading costs
    against a whole tree's, without the interpreter and imports both pay."""
    done = subprocess.run([sys.executable, "-P", "-c", SCAN_CHILD.format(spec=spec)], cwd=folder, check=True,
                          capture_output=True, text=True, env={**os.environ, **GIT_ENV})
    cpu, peak = json.loads(done.stdout)
    return Cost(cpu, peak)


PARSE_CHILD = """\
import ast, json, sys, time, tokenize
start = time.process_time()
for path in sys.argv[1:]:
    with tokenize.open(path) as handle:
        ast.parse(handle.read())
print(json.dumps(time.process_time() - start))
"""


def parse_only(folder: Path, paths: list[str]) -> Cost:
    """The CPU of ``ast.parse`` of ``paths`` alone, in a child: what no exact diff of them can go below."""
    done = subprocess.run([sys.executable, "-P", "-c", PARSE_CHILD, *paths], cwd=folder, check=True,
                          capture_output=True, text=True)
    return Cost(json.loads(done.stdout), 0.0)


def _changed_share(folder: Path, changed: list[str]) -> float:
    size = {p: (folder / p).stat().st_size for p in git(folder, "ls-files", "--", "*.py").split()}
    return sum(size.get(p, 0) for p in changed) / max(sum(size.values()), 1)


VERIFY_SECTIONS = 20


def verify_part(rounds: int) -> tuple[list[Row], list[str]]:
    folder = Path(tempfile.mkdtemp(prefix="docbot-bench-verify-"))
    try:
        (folder / "mod.py").write_text("".join(f"def f{i}(x):\n    return x + {i}\n\n\n"
                                               for i in range(VERIFY_SECTIONS)))
        (folder / "doc.md").write_text("# mod\n\n" + "\n".join(
            f"## `f{i}`\n\nAdds {i}.\n\n>>> from mod import f{i}\n>>> f{i}(1)\n{i + 1}\n"
            for i in range(VERIFY_SECTIONS)))
        env = {"PYTHONPATH": str(folder)}
        costs = rounds_of({
            "docbot": lambda: measure([sys.executable, "-P", "-m", "docbot.fronts.cli", "verify", "mod.py", "doc.md"],
                                      folder),
            "doctest": lambda: measure([sys.executable, "-P", "-m", "doctest", "doc.md"], folder, env)}, rounds)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return [(f"verify, {VERIFY_SECTIONS} sections × 1 example", "docbot verify", costs["docbot"].cpu,
             "python -m doctest", costs["doctest"].cpu, "≤ 3×")], []


def report(rows: list[Row], notes: list[str], rounds: int) -> str:
    lines = [SECTION, "",
             f"Command: `{' '.join(['python -m bench.bench_speed', *sys.argv[1:]])}`. Machine: {machine()}.",
             f"CPU seconds (user + system, children included), median of {rounds} interleaved rounds.", "",
             "| what | docbot | CPU s | peer or floor | CPU s | ratio | target |", "|---|---|---|---|---|---|---|"]
    lines += [f"| {what} | {ours} | {cpu:.2f} | {peer} | {peer_cpu:.2f} | {cpu / peer_cpu:.2f}× | {target} |"
              for what, ours, cpu, peer, peer_cpu, target in rows]
    return "\n".join(lines + [""] + [f"- {note}" for note in notes]) + "\n"


def compile_docbot() -> None:
    """Write docbot's bytecode first, as installing a package does: under PYTHONDONTWRITEBYTECODE (set
    on some machines) an editable checkout would otherwise recompile every changed module on every run,
    a cost no installed docbot pays (~9 ms per verify, measured)."""
    import importlib.util

    spec = importlib.util.find_spec("docbot")
    folders = list(spec.submodule_search_locations or []) if spec else []
    subprocess.run([sys.executable, "-m", "compileall", "-q", *folders], check=False, capture_output=True,
                   env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_speed", description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--parts", default="hook,public,check,targets,verify")
    parser.add_argument("--sdists", default=str(Path(tempfile.gettempdir()) / "docbot-bench-sdists"),
                        help="where the release sdists are kept between runs")
    parser.add_argument("--no-write", action="store_true", help="print only; leave bench/RESULTS.md alone")
    args = parser.parse_args(argv)
    parts = set(args.parts.split(","))
    compile_docbot()
    sources = stdlib_sources() if parts - {"public", "verify"} else {}
    rows: list[Row] = []
    notes: list[str] = []
    Path(args.sdists).mkdir(parents=True, exist_ok=True)
    for name, part in (("hook", lambda: hook_part(sources, args.rounds)),
                       ("check", lambda: check_part(sources, args.rounds)),
                       ("targets", lambda: targets_part(args.rounds, Path(args.sdists))),
                       ("verify", lambda: verify_part(args.rounds))):
        if name in parts:
            found, said = part()
            rows += found
            notes += said
            print("\n".join(report(found, said, args.rounds).splitlines()[5:]), flush=True)
    if rows or notes:
        publish(report(rows, notes, args.rounds), not args.no_write)
    if "public" in parts:  # its own section: a floor per file, not a peer per row
        publish(public_part(args.rounds), not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
