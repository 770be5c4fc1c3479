"""The example sandbox under attack: a module to document, a run in either mode, a loopback listener."""

from __future__ import annotations

import socket
import textwrap
import threading
from pathlib import Path

from docbot.verify.findings import Finding
from docbot.verify.checks.examples import findings_from_run
from docbot.verify.read.examples import extract_steps
from docbot.sandbox.runner import SandboxRun, run_steps

FENCE = "```"
NO_BWRAP = "/nonexistent/bwrap"  # no boundary can be made with this one


def block(body: str) -> str:
    return f"{FENCE}python\n{textwrap.dedent(body).strip()}\n{FENCE}\n"


# run_steps in a process of its own, started with the caller's environment (a token planted there is in
# that process's /proc/<pid>/environ, as it would be in docbot's): argv = module folder, Markdown, mode, bwrap.
RUN_STEPS = """
import json, sys
from docbot.verify.read.examples import extract_steps
from docbot.sandbox.runner import run_steps
run = run_steps(extract_steps(sys.argv[2]), "money", "compound", (sys.argv[1],), timeout_s=300,
                sandbox=sys.argv[3], bwrap=sys.argv[4] or None)
print(json.dumps(run.results))
"""


def write_module(tmp_path: Path) -> Path:
    """A folder with ``money.compound``, the documented function of these tests."""
    folder = tmp_path / "module"
    folder.mkdir()
    (folder / "money.py").write_text("def compound(principal, rate):\n    return principal * (1 + rate)\n")
    return folder


def sandboxed(module_dir: Path, markdown: str, *, guard_only: bool = False) -> tuple[SandboxRun, list[Finding]]:
    steps = extract_steps(markdown)
    run = run_steps(steps, "money", "compound", (str(module_dir),), timeout_s=20,
                    sandbox="allow-guard" if guard_only else "os", bwrap=NO_BWRAP if guard_only else None)
    assert run.not_run is None and run.ready, run  # the examples really ran, in the mode asked for
    return run, findings_from_run(steps, run, 20)


def outcomes(run: SandboxRun) -> list[tuple[str, str]]:
    return [(r["status"], r.get("got") or r.get("error", "")) for r in run.results]


class listener:
    """A loopback TCP listener that records whether anybody connected."""

    def __enter__(self) -> tuple[int, list[bool]]:
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(1)
        self.server.settimeout(0.2)
        self.accepted: list[bool] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve)
        self.thread.start()
        return self.server.getsockname()[1], self.accepted

    def _serve(self) -> None:
        while not self.stop.is_set() and not self.accepted:
            try:
                self.server.accept()[0].close()
                self.accepted.append(True)
            except OSError:
                continue

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join()
        self.server.close()
