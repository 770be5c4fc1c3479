"""Issue 22 item 6 (signals): Ctrl-C in the docstring phase of a real ``docbot run --write-docstrings``
process stops the run with exit 130 and leaves every source old or new, never half-written.

The signal is timed by a hook point, not a sleep: the driver wraps the docstring writer so that, at
the start of the phase (before the first file, or between two files), it says so on stderr and waits
for the test to send SIGINT. The loop is replaced by a documenter that returns doc models (no server).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.git_repo import GitRepo

FILES = 8
SOURCE = "def add{i}(a, b):\n    return a + b\n"

DRIVER = r"""
import sys
from dataclasses import replace
from docbot.apidocs.render import render_section
from docbot.docmodel import DocModel
from docbot.docstrings import apply
from docbot.facts.function import extract_facts
from docbot.fronts.cli import main
from docbot.results import FunctionResult
from docbot.run import pipeline

def document(target, current):
    model = DocModel(summary="Adds two numbers.")
    return FunctionResult(target.module, target.qualname, "updated", path=target.path, scores=[96], rounds=1,
                          exit_reason="approved", doc_model=model,
                          markdown=render_section(model, extract_facts(target.source, target.qualname), target.module))

pipeline._default_factory = lambda *args: (lambda: document)
real, calls = apply._apply_file, []

def hooked(*args, **kwargs):
    calls.append(1)
    if len(calls) == int(sys.argv[1]):  # the hook point: say where we are, wait for the signal
        print("DOCSTRING-PHASE", file=sys.stderr, flush=True)
        sys.stdin.readline()
    return real(*args, **kwargs)

apply._apply_file = hooked
sys.exit(main(["run", "--all", "--write-docstrings", "-q"]))
"""


def repo_with_sources(root: Path) -> GitRepo:
    repo = GitRepo(root).write("pkg/__init__.py", "")
    for i in range(FILES):
        repo.write(f"pkg/m{i}.py", SOURCE.format(i=i))
    return repo.commit("sources")


@pytest.mark.parametrize("at", [1, 4])  # the phase's start; between two files
def test_ctrl_c_in_the_docstring_phase_exits_130_and_leaves_files_old_or_new(tmp_path: Path, at: int) -> None:
    repo = repo_with_sources(tmp_path / "repo")
    old = {i: SOURCE.format(i=i) for i in range(FILES)}
    child = subprocess.Popen([sys.executable, "-c", DRIVER, str(at)], cwd=repo.root, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "NO_COLOR": "1"})
    assert child.stderr is not None and child.stdin is not None
    seen = []
    for line in child.stderr:
        seen.append(line)
        if line.strip() == "DOCSTRING-PHASE":
            break
    else:
        raise AssertionError("".join(seen))
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=120)
    assert child.returncode == 130, err
    rewritten = 0
    for i in range(FILES):
        now = repo.read(f"pkg/m{i}.py")
        assert now == old[i] or ('"""Adds two numbers.' in now and compile(now, "m.py", "exec")), now
        rewritten += now != old[i]
    assert rewritten == at - 1  # the files before the signal are new, the rest are old
    assert not [p for p in repo.root.rglob("*.tmp")]  # no temporary copy left for `git add -A`
