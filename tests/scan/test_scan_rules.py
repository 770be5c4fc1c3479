"""The scanner's rules end to end: the real ``docbot`` CLI on real git repositories in tmp_path."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support.git_repo import GitRepo

DEEP = "x = " + "(" * 2000 + "1" + ")" * 2000 + "\n"  # SIGSEGV in libcst's native parser


def docbot(repo: GitRepo, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "docbot.fronts.cli", *args], cwd=repo.root, capture_output=True,
                          text=True, timeout=300)


def listed(done: subprocess.CompletedProcess[str]) -> list[tuple[str, str, str]]:
    assert done.returncode == 0, (done.returncode, done.stderr[-3000:])
    return [(t["module"], t["qualname"], t["kind"]) for t in json.loads(done.stdout)["targets"]]


def test_a_file_that_crashes_libcst_is_skipped_and_the_others_are_scanned(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "project")
    repo.write("pkg/__init__.py", "").write("pkg/a.py", "def first():\n    return 1\n")
    repo.write("pkg/deep.py", "def hidden():\n    return 2\n" + DEEP)
    repo.write("pkg/z.py", "class Last:\n    def method(self):\n        return 3\n").commit("files")
    done = docbot(repo, "targets", "--all", "--json")
    assert done.returncode >= 0, f"killed by signal {-done.returncode}"
    assert listed(done) == [("pkg.a", "first", "all"), ("pkg.z", "Last.method", "all")]
    assert "skipped file: pkg/deep.py: cannot parse (line " in done.stderr
    assert "nesting too deep to parse" in done.stderr
    check = docbot(repo, "check", "--all")
    assert check.returncode == 1, (check.returncode, check.stderr[-3000:])  # docs missing: 1, not a signal
    assert "pkg.a.first" in check.stdout and "pkg.z.Last.method" in check.stdout
    assert "pkg/deep.py" in check.stdout + check.stderr
    repo.write("pkg/deep.py", "def hidden():\n    return 22\n" + DEEP)
    repo.write("pkg/a.py", "def first():\n    return 11\n")
    repo.commit("edit both")
    diff = docbot(repo, "targets", "--base", "HEAD~1", "--json")
    assert listed(diff) == [("pkg.a", "first", "modified")]
    assert "skipped file: pkg/deep.py" in diff.stderr


PACKAGE_INIT = """\
from typing import TYPE_CHECKING

from ._private import shown
from ._internal.engine import Engine

__all__ = ["shown", "Engine", "typing_only"]
if TYPE_CHECKING:
    def typing_only() -> None: ...
"""

PRIVATE = """\
def shown():
    return 1


def hidden():
    return 2
"""

ENGINE = """\
class Engine:
    def start(self):
        return 1


def helper():
    return 2
"""

SCRIPT = """\
def api():
    return 1


if __name__ == "__main__":
    def bar():
        return 2

    def error():
        return 3

    bar()
"""


def test_public_all_the_way_down(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "project")
    repo.write("pkg/__init__.py", PACKAGE_INIT).write("pkg/_private.py", PRIVATE)
    repo.write("pkg/_internal/__init__.py", "").write("pkg/_internal/engine.py", ENGINE)
    repo.write("pkg/traceback.py", SCRIPT).write("_tool.py", "def run():\n    return 1\n").commit("files")
    assert listed(docbot(repo, "targets", "--all", "--json")) == [
        ("pkg", "typing_only", "all"),
        ("pkg._internal.engine", "Engine.start", "all"),
        ("pkg._private", "shown", "all"),
        ("pkg.traceback", "api", "all")]
    repo.write("pkg/traceback.py", SCRIPT.replace("return 2", "return 22").replace("return 1", "return 11"))
    repo.write("pkg/_private.py", PRIVATE.replace("return", "return -")).commit("edit")
    assert listed(docbot(repo, "targets", "--base", "HEAD~1", "--json")) == [
        ("pkg._private", "shown", "modified"), ("pkg.traceback", "api", "modified")]


def test_a_function_moving_between_files_of_one_module_stays_live(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "project")
    repo.write("pkg/__init__.py", "").write("pkg/m.py", "def f():\n    return 1\n\n\ndef g():\n    return 2\n")
    repo.commit("module")
    package = "".join(f"def new_{i}():\n    return {i}\n\n\n" for i in range(6)) + "def f():\n    return 1\n"
    repo.delete("pkg/m.py").write("pkg/m/__init__.py", package).commit("module becomes a package")
    # Two files, not a rename: one deletes f, the other adds it, and both are module pkg.m.
    assert repo.git("diff", "-M", "--name-status", "HEAD~1", "HEAD").split() == [
        "D", "pkg/m.py", "A", "pkg/m/__init__.py"]
    assert listed(docbot(repo, "targets", "--base", "HEAD~1", "--json")) == [
        ("pkg.m", "g", "deleted"), *[("pkg.m", f"new_{i}", "added") for i in range(6)], ("pkg.m", "f", "modified")]


def test_run_and_the_hook_skip_the_deep_file_too(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "project")
    repo.write("pkg/__init__.py", "").write("pkg/_impl.py", "def helper():\n    return 1\n").commit("first")
    repo.write("pkg/deep.py", "def hidden():\n    return 2\n" + DEEP).stage()
    hook = subprocess.run([sys.executable, "-m", "docbot.fronts.hook"], cwd=repo.root, capture_output=True, text=True,
                          timeout=300)
    assert hook.returncode == 0, (hook.returncode, hook.stdout[-2000:], hook.stderr[-2000:])
    assert "docbot: skipped pkg/deep.py: cannot parse (line " in hook.stdout
    repo.commit("deep")
    run = docbot(repo, "run", "--all")
    assert run.returncode == 0, (run.returncode, run.stderr[-2000:])
    assert "skipped file: pkg/deep.py: cannot parse (line " in run.stderr
