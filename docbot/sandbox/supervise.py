"""Start the example child, feed it its plan and read what it says, within caps; always end it.

The child is untrusted: it may write gigabytes to its stdout, flood the result pipe, or ignore its
plan. docbot reads at most ``OUTPUT_CAP`` bytes of its stdout+stderr (keeping a short tail for
messages) and a bounded result channel, and kills the child's whole process group past a cap, at the
deadline, and on every way out of here, Ctrl-C and SIGTERM included.

The time limit is each example's, not the doc's: the deadline moves to ``timeout_s`` after each result line
(one per step), within a hard ``total_s`` for the whole run, so a slow first example does not leave the next one
a sliver of time and a child that writes newlines to the result pipe cannot keep itself alive.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Iterator

OUTPUT_CAP = 1024 * 1024  # bytes of the child's own stdout+stderr read before it is stopped
_TAIL = 4096
_CHUNK = 65536


@dataclass
class Transcript:
    """What the child wrote, and how it ended."""

    results: bytes = b""
    output_tail: bytes = b""
    overflow: str | None = None  # which cap the child went past before it was killed
    timed_out: bool = False
    exit_code: int | None = None


def supervise(command: list[str], env: dict[str, str], cwd: str, plan: dict[str, Any], timeout_s: float,
              result_cap: int, total_s: float | None = None) -> Transcript:
    """Run ``command`` with ``plan`` (plus ``result_fd``, the result pipe's end) on stdin, within caps: ``timeout_s``
    from the start and from each result line, ``total_s`` (default ``timeout_s``) in all."""
    read_end, write_end = os.pipe()
    try:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   cwd=cwd, env=env, pass_fds=(write_end,), start_new_session=True)
    except BaseException:
        os.close(read_end)
        raise
    finally:
        os.close(write_end)
    transcript = Transcript()
    try:
        stdin = json.dumps({**plan, "result_fd": write_end}).encode()
        clock = _Deadline(timeout_s, time.monotonic() + max(timeout_s, total_s or timeout_s))
        _read(process, read_end, stdin, clock, result_cap, transcript)
        _wait_exited(process, clock.extended(), transcript)
    finally:
        os.close(read_end)
        kill_group(process)
        code = process.wait()
        with contextlib.suppress(OSError):
            process.stdin.close()  # type: ignore[union-attr]  # a plan the child never read
        with contextlib.suppress(OSError):
            process.stdout.close()  # type: ignore[union-attr]
    transcript.exit_code = None if transcript.timed_out or transcript.overflow else code
    return transcript


@dataclass
class _Deadline:
    """``step_s`` after the last progress, never past ``end``."""

    step_s: float
    end: float
    last: float = field(default_factory=time.monotonic)

    @property
    def at(self) -> float:
        return min(self.last + self.step_s, self.end)

    def extended(self) -> float:
        self.last = time.monotonic()
        return self.at


def _read(process: subprocess.Popen[bytes], results: int, pending: bytes, deadline: _Deadline, result_cap: int,
          transcript: Transcript) -> None:
    assert process.stdin is not None and process.stdout is not None
    os.set_blocking(process.stdin.fileno(), False)
    output_total, reading = 0, 2
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdin, selectors.EVENT_WRITE)
        selector.register(process.stdout, selectors.EVENT_READ)
        selector.register(results, selectors.EVENT_READ)
        while reading:
            left = deadline.at - time.monotonic()
            if left <= 0:
                transcript.timed_out = True
                return
            for key, _ in selector.select(left):
                if key.fileobj is process.stdin:
                    pending = _feed(process, pending, selector)
                    continue
                data = os.read(key.fd, _CHUNK)
                if not data:
                    selector.unregister(key.fileobj)
                    reading -= 1
                elif key.fileobj is results:
                    if b"\n" in data:
                        deadline.extended()  # a step finished: the next one gets its own time
                    transcript.results += data
                    if len(transcript.results) > result_cap:
                        transcript.overflow = f"wrote more than {result_cap} bytes of results"
                        return
                else:
                    output_total += len(data)
                    transcript.output_tail = (transcript.output_tail + data)[-_TAIL:]
                    if output_total > OUTPUT_CAP:
                        transcript.overflow = f"wrote more than {OUTPUT_CAP // 1024} KiB of output"
                        return


def _feed(process: subprocess.Popen[bytes], pending: bytes, selector: selectors.BaseSelector) -> bytes:
    assert process.stdin is not None
    try:
        pending = pending[os.write(process.stdin.fileno(), pending[:_CHUNK]):]
    except BlockingIOError:
        return pending
    except BrokenPipeError:
        pending = b""  # the child died before reading its plan: its exit says why
    if not pending:
        selector.unregister(process.stdin)
        process.stdin.close()
    return pending


def _wait_exited(process: subprocess.Popen[bytes], deadline: float, transcript: Transcript) -> None:
    """Wait for the child to exit without reaping it: its group is killed before the pid can be reused."""
    if transcript.timed_out or transcript.overflow:
        return
    if not hasattr(os, "waitid"):  # macOS: reap it; its group's id is then only briefly reusable
        try:
            process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            transcript.timed_out = True
        return
    while time.monotonic() < deadline:
        try:
            if os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return
        except ChildProcessError:
            return
        time.sleep(0.005)
    transcript.timed_out = True  # it closed its pipes but kept running


def kill_group(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)  # the child leads its own session: take anything it started
    except (ProcessLookupError, PermissionError):
        pass


@contextlib.contextmanager
def sigterm_unwinds() -> Iterator[None]:
    """Make SIGTERM raise ``SystemExit`` here, as Ctrl-C raises ``KeyboardInterrupt``, so the ``finally``
    blocks that kill the child and remove its folder run. Left alone when someone else handles SIGTERM."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return

    def unwind(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, unwind)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
