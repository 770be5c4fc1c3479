"""A package as its maintainer has it: the unpacked sdist made a git repo, and a venv with the package installed.

``docbot verify`` runs in that repo from that venv (the package and its dependencies installed from the sdist,
docbot beside them), as a maintainer runs it in their own environment; the judging helpers run the doc's code
with the same venv's python outside docbot's sandbox. Both live outside the repository, under
``$DOCBOT_BENCH_USERS`` (default ``<tmp>/docbot-bench-users``): ``roots/<folder>`` and ``venvs/<name>``.

docbot is made importable in a package's venv by one ``.pth`` line that adds this checkout's venv after the
package's own site-packages, so the package's dependencies are the versions its install chose, and docbot's
own fill in what the package does not have (a maintainer would ``pip install docbot`` into the same venv).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import zipfile
from pathlib import Path

from bench.common import git
from bench.published.corpus import Entry
from bench.truth.wild.sdists import SdistError, cache_dir, fetch

INSTALL_TIMEOUT_S = 900


def home() -> Path:
    return Path(os.environ.get("DOCBOT_BENCH_USERS") or Path(tempfile.gettempdir()) / "docbot-bench-users")


def repo_of(entry: Entry) -> Path:
    """The sdist extracted from its hash-checked archive and committed as one git repo (made once)."""
    target = home() / "roots" / entry.folder
    if (target / ".git").is_dir():
        return target
    if target.exists():
        shutil.rmtree(target)
    _extract(_archive(entry), target)  # from the hash-checked archive: the shared unpacked
    git(target, "init", "-q")  # folders are other benchmarks' to plant files in
    git(target, "add", "-A", "-f")
    git(target, "commit", "-q", "--no-verify", "-m", f"{entry.name} {entry.version} sdist")
    return target


def _base_python() -> str:
    """The interpreter this checkout's venv was made from (uv makes a venv from a real interpreter)."""
    return os.path.realpath(sys.executable)


def _archive(entry: Entry) -> Path:
    """The hash-checked sdist; when pip cannot build an sdist-only chain of build tools for it (``--no-binary
    :all:``), the same file is fetched with only this package held to its sdist, and checked the same way."""
    try:
        return fetch(entry.sdist, cache_dir())
    except SdistError:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", entry.name,
                        entry.sdist.requirement, "-d", str(cache_dir())], capture_output=True, check=False)
        return fetch(entry.sdist, cache_dir())


def _extract(archive: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="unpack-", dir=target.parent))
    try:
        if archive.name.endswith(".zip"):
            with zipfile.ZipFile(archive) as bundle:
                bundle.extractall(scratch)
        else:
            with tarfile.open(archive) as bundle:
                bundle.extractall(scratch, filter="data")
        (top,) = list(scratch.iterdir())  # an sdist holds one top folder
        top.rename(target)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def venv_of(entry: Entry) -> tuple[Path, str]:
    """The package's venv python, and why installing the package failed ("" when it did not)."""
    venv = home() / "venvs" / entry.name
    python = venv / "bin" / "python"
    marker = venv / "installed.txt"
    if marker.exists():
        return python, marker.read_text(encoding="utf-8")
    if venv.exists():
        shutil.rmtree(venv)
    uv = os.environ.get("DOCBOT_BENCH_UV") or shutil.which("uv")
    # uv installs the same sdist by the same resolution rules, several times faster than pip on this machine
    if uv:
        make = [uv, "venv", "-q", "--python", _base_python(), str(venv)]
        install = [uv, "pip", "install", "-q", "--python", str(python)]
    else:
        make, install = [sys.executable, "-m", "venv", str(venv)], [str(python), "-m", "pip", "install", "-q"]
    subprocess.run(make, check=True)
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    try:
        done = subprocess.run([*install, str(cache_dir() / entry.archive)], capture_output=True, text=True,
                              timeout=INSTALL_TIMEOUT_S, check=False)
        why = "" if done.returncode == 0 else "install failed: " + " / ".join(done.stderr.splitlines()[-3:])
    except subprocess.TimeoutExpired:
        why = f"install took over {INSTALL_TIMEOUT_S} s"
    # after the install, so the installer never takes docbot's packages for the package's own dependencies
    ours = sysconfig.get_paths()["purelib"]
    Path(site, "zz_docbot_bench.pth").write_text(f"import site; site.addsitedir({ours!r})\n", encoding="utf-8")
    marker.write_text(why, encoding="utf-8")
    return python, why
