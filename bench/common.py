"""What the benchmarks share: the machine line, child CPU time, interleaving, and RESULTS.md sections."""

from __future__ import annotations

import os
import platform
import resource
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")  # what one run of an action gives back (a Sample, a Cost)
RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
GIT_ENV = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "bench",
           "GIT_AUTHOR_EMAIL": "bench@example.invalid", "GIT_COMMITTER_NAME": "bench",
           "GIT_COMMITTER_EMAIL": "bench@example.invalid"}


def machine() -> str:
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor() or "unknown CPU")
    return (f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}")


@dataclass(frozen=True)
class Sample:
    cpu: float  # user + system seconds of the child (and its children)
    wall: float
    returncode: int
    stdout: str


def run_child(command: Sequence[str], cwd: Path, env: dict[str, str] | None = None) -> Sample:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run(list(command), cwd=cwd, capture_output=True, text=True, check=False, timeout=3600,
                          env={**os.environ, **GIT_ENV, **(env or {})})
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Sample(cpu, wall, done.returncode, done.stdout)


def interleaved(actions: dict[str, Callable[[], T]], rounds: int) -> dict[str, list[T]]:
    """Each action once per round, the order rotated every round, so load drifts hit all alike."""
    names = list(actions)
    samples: dict[str, list[T]] = {name: [] for name in names}
    for index in range(rounds):
        shift = index % len(names)
        for name in names[shift:] + names[:shift]:
            samples[name].append(actions[name]())
    return samples


def median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True,
                          env={**os.environ, **GIT_ENV})
    return done.stdout


def write_section(text: str, path: Path = RESULTS) -> None:
    """Replace the section whose ``## `` heading is ``text``'s first line (up to the next ``## ``)."""
    heading = text.split("\n", 1)[0]
    old = path.read_text(encoding="utf-8") if path.exists() else "# Benchmark results\n"
    start = old.find(heading + "\n")
    if start < 0:
        new = old.rstrip("\n") + "\n\n" + text
    else:
        end = old.find("\n## ", start + len(heading))
        new = old[:start] + text + ("\n" + old[end + 1:] if end >= 0 else "")
    path.write_text(new, encoding="utf-8")


def publish(text: str, write: bool) -> None:
    """Print a benchmark's section and, unless ``--no-write`` was given, put it in RESULTS.md."""
    print(text)
    if write:
        write_section(text)
