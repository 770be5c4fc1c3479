"""`docbot-hook --help` is read by a person setting up pre-commit: plain words, no reST quoting, no names
from inside docbot, and the exit codes the hook really returns."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from docbot.errors import ExitCode


@pytest.fixture(scope="module")
def shown() -> str:
    done = subprocess.run([sys.executable, "-m", "docbot.fronts.hook", "--help"], capture_output=True, text=True,
                          timeout=60, env={"COLUMNS": "100", "PATH": ""}, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("never", ["``", "docs/design.md", "run_docs", "DiffSpec", "--base/--head", ":func:"])
def test_no_rest_quoting_and_no_internal_names(shown: str, never: str) -> None:
    assert never not in shown


def test_it_names_both_hooks_and_the_way_to_skip_them(shown: str) -> None:
    assert "`docbot` and `docbot-check`" in shown and "SKIP=docbot,docbot-check git commit" in shown


def test_it_lists_exit_codes_the_hook_returns(shown: str) -> None:
    listed = re.findall(r"^  (\d+) ", shown.split("exit codes:", 1)[1], re.M)
    assert listed == ["0", "1", "2", "3", "4", "130"]
    assert all(int(code) in {c.value for c in ExitCode} for code in listed)
    assert str(ExitCode.UNAPPROVED.value) not in listed  # the hook passes an unapproved section; it never exits 6
