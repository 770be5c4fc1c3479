"""Run a doc's example steps in one sandboxed subprocess and collect a result per step.

The child (``docbot.verify.child``) gets a scrubbed environment with no proxies, a fresh temporary
folder as its working directory, memory/CPU/file-size/process limits, and an audit hook refusing
network, new processes and writes outside that folder. One process per doc, not per example: a doc's
examples share names the way a doctest does, and startup is paid once.
"""

from __future__ import annotations

import json
import math
import os
import secrets
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docbot.verify.examples import Step

_VERIFY_DIR = Path(__file__).resolve().parent
# The child needs two stdlib-only modules, not docbot's whole import graph: empty stand-in packages
# keep its startup short (it runs once per doc).
_BOOTSTRAP = f"""
import sys, types
for name, path in (("docbot", {str(_VERIFY_DIR.parent)!r}), ("docbot.verify", {str(_VERIFY_DIR)!r})):
    package = types.ModuleType(name)
    package.__path__ = [path]
    sys.modules[name] = package
from docbot.verify.child import main
main()
"""
_EXTRA_PROCESSES = 16  # headroom over what the user already runs, for RLIMIT_NPROC


@dataclass
class SandboxRun:
    """What came back: one result per step that finished, and why the rest did not."""

    results: list[dict[str, Any]] = field(default_factory=list)
    ready: bool = False  # the documented object was imported; failures after this are the examples'
    import_error: str | None = None
    timed_out: bool = False
    exit_code: int | None = 0
    stderr_tail: str = ""


def run_steps(steps: list[Step], module: str, name: str, sys_path: tuple[str, ...], timeout_s: float = 10.0,
              memory_mb: int = 512) -> SandboxRun:
    """Import ``name`` from ``module`` in a sandboxed child and run ``steps`` there, in order."""
    nonce = f"@@docbot-{secrets.token_hex(8)}@@"
    with tempfile.TemporaryDirectory(prefix="docbot-example-") as folder:
        plan = {
            "nonce": nonce, "module": module, "name": name,
            "sys_path": [os.path.abspath(p) for p in sys_path],
            "steps": [s.to_json() for s in steps],
            "memory_mb": memory_mb, "cpu_s": math.ceil(timeout_s) + 1, "nproc": _process_budget(),
        }
        process = subprocess.Popen(
            [sys.executable, "-s", "-B", "-P", "-c", _BOOTSTRAP],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=folder, env=_scrubbed_env(folder), start_new_session=True,
        )
        run = SandboxRun()
        try:
            out, err = process.communicate(json.dumps(plan).encode(), timeout=timeout_s)
        except subprocess.TimeoutExpired:
            _kill_group(process)
            out, err = process.communicate()
            run.timed_out = True
        run.exit_code = process.returncode
    _read_results(out.decode("utf-8", "replace"), nonce, len(steps), run)
    run.stderr_tail = err.decode("utf-8", "replace").strip()[-500:]
    return run


def _read_results(out: str, nonce: str, step_count: int, run: SandboxRun) -> None:
    """Keep only well-formed result lines: a child killed mid-write leaves a cut line behind."""
    for line in out.splitlines():
        if not line.startswith(nonce):
            continue
        try:
            payload = json.loads(line[len(nonce) :])
        except json.JSONDecodeError:
            continue
        if "import_error" in payload:
            run.import_error = payload["import_error"]
        elif "ready" in payload:
            run.ready = True
        elif isinstance(payload.get("index"), int) and 0 <= payload["index"] < step_count:
            run.results.append(payload)


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)  # the child leads its own session: take anything it started
    except ProcessLookupError:
        pass


def _scrubbed_env(folder: str) -> dict[str, str]:
    """Nothing from the user's environment: no tokens, no proxies, no PYTHONPATH."""
    return {
        "PATH": os.defpath, "HOME": folder, "TMPDIR": folder, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
        "PYTHONIOENCODING": "utf-8", "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1",
        "NO_PROXY": "*", "no_proxy": "*",
        # numeric libraries start one thread per core at import; one is plenty and fits the limits
        "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
    }


def _process_budget() -> int | None:
    """RLIMIT_NPROC for the child: the tasks this user already runs plus a little headroom.

    The limit counts every task of the user, so a fixed small number would fail at once on a busy
    machine. Root ignores the limit, so there is nothing to compute.
    """
    if os.geteuid() == 0 or not os.path.isdir("/proc"):
        return None
    uid, tasks = os.getuid(), 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat().st_uid == uid:
                tasks += len(os.listdir(f"/proc/{entry.name}/task"))
        except OSError:
            continue  # the process ended while we looked
    return tasks + _EXTRA_PROCESSES if tasks else None
