"""The example sandbox, attacked: each escape runs through the real sandbox and is shown to fail.

Every escape also runs once under the in-process guard alone (no OS boundary), where it succeeds: that
proves the attack code is live, so the boundary run is what stops it (a broken attack would pass too).
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Iterator

import pytest

from tests.support.sandboxing import block, listener, outcomes, sandboxed, write_module


@pytest.fixture
def module_dir(tmp_path: Path) -> Path:
    return write_module(tmp_path)

@pytest.fixture
def targets(tmp_path: Path, module_dir: Path) -> Iterator[list[Path]]:
    """Files an escape tries to create: outside the sandbox, in the (read-only) module folder, in /tmp."""
    outside = tmp_path / "outside"
    outside.mkdir()
    paths = [outside / "escaped", module_dir / "escaped", Path(f"/tmp/docbot-escape-{uuid.uuid4().hex}")]
    yield paths
    for path in paths:
        path.unlink(missing_ok=True)


def touch_all(targets: list[Path], call: str) -> str:
    """An example running ``call`` (which has TOUCH in place of a shell command) for every target."""
    lines = [f">>> {call.replace('TOUCH', repr(f'touch {path}'))}\n0" for path in targets]
    return "\n".join(lines)


@pytest.mark.parametrize(("setup", "call"), [
    pytest.param(">>> import ctypes", "os.waitstatus_to_exitcode(ctypes.CDLL(None).system(TOUCH.encode()))",
                 id="ctypes.CDLL(None).system"),
    pytest.param(">>> import sys, os\n>>> sys.modules['docbot.sandbox.child']._REFUSED.clear()",
                 "os.waitstatus_to_exitcode(os.system(TOUCH))", id="_REFUSED.clear() then os.system"),
    pytest.param(">>> import _posixsubprocess, os\n"
                 ">>> def spawn(command):\n"
                 "...     r, w = os.pipe()\n"
                 "...     pid = _posixsubprocess.fork_exec(['/bin/sh', '-c', command], [b'/bin/sh'], True, (w,), None, "
                 "None, -1, -1, -1, -1, -1, -1, r, w, True, False, -1, None, None, None, -1, None, False)\n"
                 "...     return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])",
                 "spawn(TOUCH)", id="_posixsubprocess.fork_exec"),
])
def test_a_process_started_around_the_guard_cannot_touch_the_host(module_dir: Path, targets: list[Path],
                                                                   setup: str, call: str) -> None:
    doc = block(">>> import os\n" + setup + "\n" + touch_all(targets, call))
    run, found = sandboxed(module_dir, doc)
    # touch ran and failed outside and in the read-only module folder; /tmp in there is the sandbox's own
    assert outcomes(run)[-3:] == [("mismatch", "1"), ("mismatch", "1"), ("ok", "0")]
    assert not any(path.exists() for path in targets)
    assert [f.check for f in found] == ["example_mismatch"] * 2

    run, _ = sandboxed(module_dir, doc, guard_only=True)  # the same attack without the OS boundary
    assert outcomes(run)[-3:] == [("ok", "0")] * 3
    assert all(path.exists() for path in targets)


def test_sqlite_cannot_create_a_file_on_the_host(module_dir: Path, targets: list[Path]) -> None:
    doc = block(">>> import sqlite3\n" + "\n".join(
        f">>> sqlite3.connect({str(path)!r}).execute('create table t (x)').fetchall()\n[]" for path in targets))
    run, found = sandboxed(module_dir, doc)
    assert not any(path.exists() for path in targets)
    assert [status for status, _ in outcomes(run)] == ["ok", "raised", "raised", "ok"]  # /tmp: its own
    assert len(found) == 2 and all("sqlite3.OperationalError" in f.message for f in found)

    run, _ = sandboxed(module_dir, doc, guard_only=True)
    assert all(path.exists() for path in targets)


GC_UNHOOK = """
import gc

hooks = [f for f in gc.get_objects() if callable(f) and getattr(f, "__name__", "") == "guard"
         and getattr(getattr(f, "__code__", None), "co_filename", "").endswith("child.py")]
for hook in hooks:
    free = hook.__code__.co_freevars
    source = "def outer():\\n" + "".join(f"    {v} = None\\n" for v in free) + \\
        "    def guard(event, args):\\n        return " + ("(" + ", ".join(free) + ",)" if free else "None") + \\
        "\\n    return guard\\n"
    scope = {}
    exec(source, scope)
    hook.__code__ = scope["outer"]().__code__
"""


def test_rewriting_the_guard_then_connecting_reaches_no_listener(module_dir: Path) -> None:
    for guard_only, connected in ((False, []), (True, [True])):
        with listener() as (port, accepted):
            doc = block(GC_UNHOOK) + block(f">>> len(hooks)\n1\n>>> import socket\n"
                                           f">>> socket.create_connection(('127.0.0.1', {port}), timeout=2).close()")
            run, found = sandboxed(module_dir, doc, guard_only=guard_only)
        assert accepted == connected
        assert outcomes(run)[1] == ("ok", "1")  # the guard really was rewritten
        if not guard_only:
            assert [f.check for f in found] == ["example_raises"]
            assert "Connection refused" in found[0].message or "unreachable" in found[0].message



# 120 MB in three files (each file is held to 64 MB by RLIMIT_FSIZE, the folder is not), past the guard
# through ctypes as a real attack would go.
SHM_FILL = block("""
    >>> import ctypes, os
    >>> fill = b"for i in 1 2 3; do dd if=/dev/zero of=/dev/shm/f$i bs=1M count=40 2>/dev/null || exit 1; done"
    >>> os.waitstatus_to_exitcode(ctypes.CDLL(None).system(fill))
    0
    """)


def without_the_shm_cap(words: list[str]) -> list[str]:
    """A bwrap command line as it was before issue 22: ``--dev``'s own, uncapped ``/dev/shm``."""
    at = words.index("/dev/shm")
    start = at - 3 if words[at - 3] == "--size" else at - 1
    end = at + 3 if words[at + 1:at + 2] == ["--remount-ro"] else at + 1
    return words[:start] + words[end:]


def test_dev_shm_is_capped_like_tmp(module_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22 item 5: ``/dev/shm`` was an uncapped tmpfs (about half the host's memory): 120 MB fitted,
    past the 64 MB cap of ``/tmp``. Now the write fails there."""
    from docbot.sandbox import boundary, runner

    real = boundary.bwrap_command
    with monkeypatch.context() as patch:  # the defence switched off
        patch.setattr(runner, "bwrap_command", lambda *args, **kw: without_the_shm_cap(real(*args, **kw)))
        run, _ = sandboxed(module_dir, SHM_FILL)
        assert outcomes(run)[-1] == ("ok", "0")
    run, found = sandboxed(module_dir, SHM_FILL)
    assert outcomes(run)[-1][0] == "mismatch" and outcomes(run)[-1][1] != "0", outcomes(run)
    assert [f.check for f in found] == ["example_mismatch"]
