"""The files every reader's machine has (time zone, OS release) are in the sandbox, read-only, and nothing else new
is: the bind list is attacked as the other escapes are (tests/sandbox/test_sandbox_escapes.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from docbot.sandbox import boundary
from tests.support.sandboxing import block, outcomes, sandboxed, write_module

HOST_ETC = sorted([Path(p).name for p in (*boundary._SYSTEM_FILES, *boundary.MACHINE_FILES) if os.path.exists(p)]
                  + [Path(p).name for p in boundary.OWN_FILES])  # docbot's own passwd and group, not the host's


@pytest.fixture
def module_dir(tmp_path: Path) -> Path:
    return write_module(tmp_path)


# The sandbox's whole environment: the token, HOME's real value and the rest of the caller's are not in it.
SANDBOX_ENV = ['HOME', 'LANG', 'LC_ALL', 'MKL_NUM_THREADS', 'NO_PROXY', 'OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS',
               'PATH', 'PWD', 'PYTHONDONTWRITEBYTECODE', 'PYTHONHASHSEED', 'PYTHONIOENCODING', 'TMPDIR', 'no_proxy']


def test_the_machine_files_are_visible_and_nothing_else_new(module_dir: Path) -> None:
    home = os.path.expanduser("~")
    # the home folder holds only the path to what is bound (a pyenv interpreter, say), none of its files
    bound = boundary.read_only_paths((str(module_dir),))
    in_home = sorted(n for n in os.listdir(home) if any(p.startswith(f"{home}/{n}") for p in bound)) \
        if os.path.isdir(home) and any(p.startswith(home + "/") for p in bound) else None
    doc = block(f"""
        >>> import os, builtins
        >>> sorted(os.listdir('/etc'))
        {HOST_ETC!r}
        >>> [builtins.open(p, 'rb').read() == b'' for p in {list(boundary.MACHINE_FILES)!r} if os.path.exists(p)]
        {[False for p in boundary.MACHINE_FILES if os.path.exists(p)]!r}
        >>> os.path.islink('/etc/localtime') and os.readlink('/etc/localtime')
        {os.path.islink('/etc/localtime') and os.readlink('/etc/localtime')!r}
        >>> (sorted(os.listdir({home!r})) if os.path.exists({home!r}) else None), sorted(os.environ)
        ({in_home!r}, {SANDBOX_ENV!r})
        """)
    run, found = sandboxed(module_dir, doc)
    assert [status for status, _ in outcomes(run)] == ["ok"] * 5, outcomes(run)
    assert found == []
    assert "localtime" in HOST_ETC  # the machine this runs on has the file the tzlocal example needs


def test_the_machine_files_stay_read_only_past_the_guard(module_dir: Path, tmp_path: Path) -> None:
    """libc's open() through ctypes, where the audit hook cannot see it: refused by the OS boundary. The same
    call on a file of the test's own, under the guard alone, opens it (the attack code is live)."""
    target = tmp_path / "timezone"
    target.write_text("Etc/UTC\n")

    def attack(paths: list[str]) -> str:
        return block(">>> import ctypes, os\n>>> libc = ctypes.CDLL(None)\n" + "\n".join(
            f">>> libc.open({p.encode()!r}, os.O_WRONLY | os.O_APPEND) >= 0\nFalse" for p in paths))

    inside = [p for p in boundary.MACHINE_FILES if os.path.exists(p)] + list(boundary.OWN_FILES)
    run, found = sandboxed(module_dir, attack(inside))
    assert [status for status, _ in outcomes(run)] == ["ok"] * (2 + len(inside)) and found == []
    run, _ = sandboxed(module_dir, attack([str(target)]), guard_only=True)
    assert outcomes(run)[-1] == ("mismatch", "True")


@pytest.mark.parametrize(("make", "words"), [
    ("symlink into /usr", lambda link: ["--symlink", "/usr/bin/env", str(link)]),
    ("symlink elsewhere", lambda link: ["--ro-bind", str(link), str(link)]),
    ("plain file", lambda link: ["--ro-bind", str(link), str(link)]),
    ("missing", lambda link: []),
])
def test_a_machine_file_is_bound_as_the_host_has_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make: str,
                                                    words: object) -> None:
    link = tmp_path / "localtime"
    elsewhere = tmp_path / "zone"
    elsewhere.write_text("zone")
    if make == "symlink into /usr":
        link.symlink_to("/usr/bin/env")
    elif make == "symlink elsewhere":
        link.symlink_to(elsewhere)
    elif make == "plain file":
        link.write_text("zone")
    monkeypatch.setattr(boundary, "MACHINE_FILES", (str(link),))
    monkeypatch.setattr(boundary, "_SYSTEM_FILES", ())
    monkeypatch.setattr(boundary, "OWN_FILES", {})
    bound = boundary._system_binds()
    tail = bound[-3:] if str(link) in bound else []
    assert tail == words(link)  # type: ignore[operator]
