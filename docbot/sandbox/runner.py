"""Run a doc's example steps in one sandboxed subprocess and collect a result per step.

The child (``docbot.sandbox.child``) runs behind an OS boundary (docbot/sandbox/boundary.py: bubblewrap,
no network, read-only files, its own /tmp, no docbot environment), with memory/CPU/file-size limits and
an audit hook as a second layer. Where no boundary can be made it runs only if the user allowed the
guard alone, in a fresh temporary folder with a scrubbed environment. Results come back on their own
pipe, each line marked with a nonce and checked for order. One process per doc, not per example: a
doc's examples share names the way a doctest does, and startup is paid once.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from docbot.config.choices import (DEFAULT_EXAMPLE_MEMORY_MB, DEFAULT_EXAMPLE_SANDBOX, DEFAULT_EXAMPLE_TIMEOUT_S,
                                   ExampleSandbox)
from docbot.sandbox.boundary import WORKDIR, Boundary, boundary_for, bwrap_command, set_aside
from docbot.sandbox.step import Step
from docbot.sandbox.supervise import sigterm_unwinds, supervise

_SANDBOX_DIR = Path(__file__).resolve().parent
# The child needs two stdlib-only modules, not docbot's whole import graph: empty stand-in packages
# keep its startup short (it runs once per doc).
_BOOTSTRAP = f"""
import sys, types
for name, path in (("docbot", {str(_SANDBOX_DIR.parent)!r}), ("docbot.sandbox", {str(_SANDBOX_DIR)!r})):
    package = types.ModuleType(name)
    package.__path__ = [path]
    sys.modules[name] = package
from docbot.sandbox.child import main
main()
"""
_EXTRA_PROCESSES = 16  # headroom over what the user already runs, for RLIMIT_NPROC
_RESULT_LINE_BYTES = 64 * 1024  # a result clips its values to 2,000 characters; JSON escapes grow them


@dataclass
class SandboxRun:
    """What came back: one result per step that finished, and why the rest did not."""

    results: list[dict[str, Any]] = field(default_factory=list)
    started: bool = False  # the child ran docbot's runner: no code of the module's had run before this
    ready: bool = False  # the documented object was imported; failures after this are the examples'
    import_error: str | None = None
    timed_out: bool = False
    exit_code: int | None = 0
    stderr_tail: str = ""
    not_run: str | None = None  # the examples were not run at all, and why
    overflow: str | None = None  # the cap the child went past before docbot stopped it
    untrusted: str | None = None  # something other than docbot's runner wrote to the result channel
    progress: dict[int, int] = field(default_factory=dict)  # step -> the last of its statements that started


def run_steps(steps: list[Step], module: str, name: str, sys_path: tuple[str, ...],
              timeout_s: float = DEFAULT_EXAMPLE_TIMEOUT_S, memory_mb: int = DEFAULT_EXAMPLE_MEMORY_MB,
              sandbox: ExampleSandbox = DEFAULT_EXAMPLE_SANDBOX, bwrap: str | None = None,
              root: str | None = None) -> SandboxRun:
    """Import ``name`` from ``module`` in a sandboxed child and run ``steps`` there, in order.

    ``sandbox`` says whether the in-process guard alone is allowed where no OS boundary can be made;
    ``bwrap`` names the bubblewrap executable instead of looking for one; ``root`` is the project whose files the
    child's working folder shows, read-only (docbot.sandbox.script.show_root). Each step has ``timeout_s``.
    """
    job = _Job({"module": module, "name": name, "steps": [s.to_json() for s in steps]}, len(steps), sys_path,
               timeout_s, memory_mb, root)
    return _run_job(job, sandbox, bwrap)


def run_script(script: dict[str, Any], sys_path: tuple[str, ...], timeout_s: float = DEFAULT_EXAMPLE_TIMEOUT_S,
               memory_mb: int = DEFAULT_EXAMPLE_MEMORY_MB, sandbox: ExampleSandbox = DEFAULT_EXAMPLE_SANDBOX,
               root: str | None = None, hash_seed: str = "0") -> SandboxRun:
    """Run one witness script (docbot.sandbox.script) in a fresh sandboxed child, behind the same boundary, limits
    and result channel as a doc's session; its one result is ``results[0]``. ``hash_seed``: the child's
    PYTHONHASHSEED (a session's is fixed, so that its two runs differ only where the code does)."""
    return _run_job(_Job({"script": script}, 1, sys_path, timeout_s, memory_mb, root, hash_seed), sandbox, None)


@dataclass(frozen=True)
class _Job:
    """What one child is asked: its plan's own part, how many results it owes, and its limits."""

    plan: dict[str, Any]
    results: int
    sys_path: tuple[str, ...]
    timeout_s: float
    memory_mb: int
    root: str | None
    hash_seed: str = "0"


def _run_job(job: _Job, sandbox: ExampleSandbox, bwrap: str | None) -> SandboxRun:
    while True:  # each bwrap that cannot start the child is set aside; at worst the fallback decides
        boundary = boundary_for(sandbox, bwrap)
        if boundary.not_run is not None:
            return SandboxRun(not_run=boundary.not_run)
        run = _run_behind(boundary, job)
        if boundary.bwrap is None or run.started:
            return run
        set_aside(boundary.bwrap, _why_not_started(run))


def _run_behind(boundary: Boundary, job: _Job) -> SandboxRun:
    """One run of the child behind ``boundary``; a bwrap that cannot be started is a run not started."""
    # What secrets.token_hex(8) returns (os.urandom, hex), without importing secrets: its hmac and hashlib
    # (OpenSSL) imports cost verify more than the nonce itself.
    nonce = f"@@docbot-{os.urandom(8).hex()}@@"
    paths = tuple(os.path.abspath(p) for p in job.sys_path)
    root = os.path.abspath(job.root) if job.root else None
    total_s = job.timeout_s * (job.results + 2)  # each step its own time, the import too, and a little more
    plan = {**job.plan, "nonce": nonce, "sys_path": list(paths), "root": root, "memory_mb": job.memory_mb,
            "cpu_s": math.ceil(total_s) + 1, "nproc": _process_budget(),
            "parent_pid": None if boundary.bwrap else os.getpid()}
    with sigterm_unwinds(), _folder(boundary) as folder:
        command = [sys.executable, "-s", "-B", "-P", "-c", _BOOTSTRAP]
        env = _scrubbed_env(folder, job.hash_seed)
        if boundary.bwrap is not None:  # bwrap itself gets nothing: it is PID 1 inside, /proc/1/environ
            command, env = bwrap_command(boundary.bwrap, paths, env, root) + command, {}
        try:
            transcript = supervise(command, env, "/" if boundary.bwrap else folder, plan, job.timeout_s,
                                   (job.results + 3) * _RESULT_LINE_BYTES, total_s)
        except OSError as error:
            if boundary.bwrap is None:
                raise
            return SandboxRun(not_run=f"cannot run {boundary.bwrap}: {error}")  # not started: set aside
    run = SandboxRun(timed_out=transcript.timed_out, overflow=transcript.overflow,
                     exit_code=_as_signal(transcript.exit_code, boundary),
                     stderr_tail=transcript.output_tail.decode("utf-8", "replace").strip()[-500:])
    _read_results(transcript.results, nonce, job.results, run)
    return run


def _why_not_started(run: SandboxRun) -> str:
    """Why a bwrap did not start the child, in bwrap's own last words where it said any."""
    if run.not_run is not None:  # bwrap itself could not be executed
        return run.not_run
    said = run.stderr_tail.strip().splitlines()
    if said:
        return f"bwrap failed: {said[-1]}"
    how = "in time" if run.timed_out else f"({describe_exit(run.exit_code)})"
    return f"bwrap failed: the child did not start {how}"


@contextlib.contextmanager
def _folder(boundary: Boundary) -> Iterator[str]:
    """The child's working folder: inside the sandbox's own /tmp (nothing on the host to clean up), or a
    fresh host folder for the guard alone, removed on every way out."""
    if boundary.bwrap is not None:
        yield WORKDIR
        return
    import tempfile  # only the guard alone needs a host folder; under bwrap, verify never loads tempfile (and random)

    with tempfile.TemporaryDirectory(prefix="docbot-example-") as folder:
        yield folder


def _as_signal(code: int | None, boundary: Boundary) -> int | None:
    """bwrap reports a child killed by signal N as 128+N; say it the way subprocess does (-N)."""
    if boundary.bwrap is not None and code is not None and 128 < code < 128 + signal.NSIG:
        return 128 - code
    return code


def describe_exit(code: int | None) -> str:
    """``exit code 3``, or ``killed by SIGSEGV (a crash in native code)``."""
    if code is None or code >= 0:
        return f"exit code {code}"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = f"signal {-code}"
    why = {"SIGSEGV": "a crash in native code", "SIGBUS": "a crash in native code", "SIGABRT": "an abort",
           "SIGKILL": "killed, likely past a limit", "SIGXCPU": "past its CPU time limit"}.get(name)
    return f"killed by {name}" + (f" ({why})" if why else "")


def _read_results(data: bytes, nonce: str, step_count: int, run: SandboxRun) -> None:
    """Keep results that arrive marked and in order; anything else means the channel was forged.

    The last piece without a newline is a line cut by a kill, not a forgery: it is dropped.
    """
    for raw in data.split(b"\n")[:-1]:
        problem = _accept(raw.decode("utf-8", "replace"), nonce, step_count, run)
        if problem is not None:
            run.untrusted, run.results = problem, []
            return


def _accept(line: str, nonce: str, step_count: int, run: SandboxRun) -> str | None:
    if not line.startswith(nonce):
        return "a line without docbot's mark"
    try:
        payload = json.loads(line[len(nonce):])
    except json.JSONDecodeError:
        return "a malformed result line"
    if not isinstance(payload, dict) or run.import_error is not None:
        return "a result after the end"
    if not run.started:
        if payload != {"started": True}:
            return "a result before the child started"
        run.started = True
        return None
    if not run.ready:
        if isinstance(payload.get("import_error"), str):
            run.import_error = payload["import_error"]
        elif payload == {"ready": True}:
            run.ready = True
        else:
            return "a result before the module was imported"
        return None
    if set(payload) == {"progress"} and isinstance(payload["progress"], int) and len(run.results) < step_count:
        run.progress[len(run.results)] = payload["progress"]
        return None
    if payload.get("index") != len(run.results) or len(run.results) >= step_count or "status" not in payload:
        return "a result out of order"
    run.results.append(payload)
    return None


def _scrubbed_env(folder: str, hash_seed: str = "0") -> dict[str, str]:
    """Nothing from the user's environment: no tokens, no proxies, no PYTHONPATH."""
    return {
        "PATH": os.defpath, "HOME": folder, "TMPDIR": folder, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
        "PYTHONIOENCODING": "utf-8", "PYTHONHASHSEED": hash_seed, "PYTHONDONTWRITEBYTECODE": "1",
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
