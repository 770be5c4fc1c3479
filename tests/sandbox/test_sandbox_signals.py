"""Ctrl-C, SIGTERM or SIGKILL to a running ``docbot verify`` leaves no example process and no folder behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.sandboxing import NO_BWRAP, RUN_STEPS, block

DOC = "# money\n\n## compound(principal, rate)\n\nGrows money.\n\n{example}"
def holders(path: Path) -> list[int]:
    """Processes that have ``path`` open: the example holds its marker file until it dies."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if any(os.readlink(f"/proc/{pid}/fd/{fd}") == str(path) for fd in os.listdir(f"/proc/{pid}/fd")):
                found.append(int(pid))
        except OSError:
            continue  # gone, or not ours to look at
    return found


def wait_for(condition: object, what: str, limit_s: float = 60.0) -> None:
    """Poll until ``condition()`` holds; the limit only stops a broken run from hanging the suite."""
    end = time.monotonic() + limit_s
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < end, what
        time.sleep(0.05)


@pytest.mark.parametrize("boundary", ["os", "guard-only"])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=["INT", "TERM", "KILL"])
def test_a_killed_docbot_leaves_nothing_running_or_on_disk(tmp_path: Path, boundary: str, signum: int) -> None:
    module, scratch = tmp_path / "module", tmp_path / "scratch"
    module.mkdir()
    scratch.mkdir()
    (module / "money.py").write_text("def compound(principal, rate):\n    return principal * (1 + rate)\n")
    marker = module / "marker.txt"
    marker.write_text("held open by the example\n")
    example = block(f">>> held = open({str(marker)!r})\n>>> while True: pass")
    (module / "money.md").write_text(DOC.format(example=example))
    command = [sys.executable, "-m", "docbot.fronts.cli", "verify", str(module / "money.py"), str(module / "money.md")]
    if boundary == "guard-only":
        command = [sys.executable, "-c", RUN_STEPS, str(module), example, "allow-guard", NO_BWRAP]
    docbot = subprocess.Popen(command, env={**os.environ, "TMPDIR": str(scratch)}, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, cwd=tmp_path)
    try:
        wait_for(lambda: holders(marker), "the example never started")
        if boundary == "guard-only":
            assert [p.name for p in scratch.iterdir()][0].startswith("docbot-example-")  # the folder exists
        docbot.send_signal(signum)
        assert docbot.wait(timeout=60) != 0
        wait_for(lambda: not holders(marker), "an example process survived docbot", limit_s=10)
    finally:
        docbot.kill()
        docbot.wait()
    if signum != signal.SIGKILL:  # nothing can clean up after SIGKILL: that is why bwrap's /tmp is its own
        assert list(scratch.iterdir()) == []
