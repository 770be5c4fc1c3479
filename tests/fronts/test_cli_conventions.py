"""The real `docbot` CLI follows the conventions Python CLI users expect (issue 13 part 4)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from docbot import __version__, events
from docbot.fronts.console import ConsoleSink
from docbot.results import FunctionResult
from tests.fronts.test_cli_docs import docbot, make_repo

COMMANDS = ("run", "targets", "check", "verify", "demo")


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "docbot.fronts.cli", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300)


def test_version() -> None:
    done = _cli("--version")
    assert (done.returncode, done.stdout.strip()) == (0, f"docbot {__version__}")


def test_help_is_user_help_with_every_command_and_the_exit_codes() -> None:
    done = _cli("--help")
    assert done.returncode == 0
    assert "Write the API docs" in done.stdout and "Fronts parse" not in done.stdout  # not the docstring
    assert "exit codes:" in done.stdout and "130  interrupted" in done.stdout
    for command in COMMANDS:
        assert command in done.stdout


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_a_description_help_per_option_and_the_exit_codes(command: str) -> None:
    done = _cli(command, "--help")
    assert done.returncode == 0
    text = done.stdout
    assert "exit codes:" in text and "3    model server" in text
    options = [line.split()[0] for line in text.splitlines() if line.startswith("  -")]
    lines = text.splitlines()
    for i, line in enumerate(lines):  # an option's help sits after it on its line, or on the next one
        if line.startswith("  -") and line.split()[0] != "-h,":
            rest = line.strip().split("  ", 1)
            assert len(rest) == 2 or lines[i + 1].startswith("        "), f"{command}: {line!r} has no help"
    assert options


def test_check_documents_why_its_scope_differs() -> None:
    assert "unlike run and targets" in _cli("check", "--help").stdout
    assert "staged changes by default" in _cli("run", "--help").stdout
    assert "staged changes by default" in _cli("targets", "--help").stdout


def test_targets_all_shows_the_scope_not_unchanged(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    done = docbot(repo, "targets", "--all")
    assert done.returncode == 0, done.stderr
    labels = {line.split()[0] for line in done.stdout.splitlines()}
    assert labels == {"all"}, done.stdout
    assert "docbot targets: 3 functions in the whole tree." in done.stderr
    document = json.loads(docbot(repo, "targets", "--all", "--json").stdout)
    assert document["scope"] == "all" and {t["kind"] for t in document["targets"]} == {"all"}


def test_json_documents_carry_the_schema_version_and_one_shape(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    targets = json.loads(docbot(repo, "targets", "--base", "HEAD~1", "--json").stdout)
    check = json.loads(docbot(repo, "check", "--json").stdout)
    assert list(targets)[:2] == ["schema_version", "command"] and targets["schema_version"] == 1
    assert (check["schema_version"], check["command"]) == (1, "check")
    assert {e["qualname"] for e in check["stale"]} == {"area", "perimeter", "Shape.scale"}


def test_quiet_and_pluralisation(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    repo.write("geo/shapes.py", "def area(w, h):\n    return w * h\n").commit("one")
    loud = docbot(repo, "check")
    assert "docbot check: 1 function needs docs" in loud.stderr, loud.stderr
    docs = docbot(repo, "targets", "--all", "-q")
    assert docs.stderr == "" and docs.stdout.strip().startswith("all")
    both = docbot(repo, "check", "-q", "-v")
    assert both.returncode == 2  # one or the other


def _styled(env: dict[str, str], event: events.Event) -> str:
    out = io.StringIO()
    ConsoleSink(out, env=env, force_terminal=True)(event)
    return out.getvalue()


@pytest.mark.parametrize("event", [
    events.ProgressEvent(1, 2, "m", "f"),  # dim
    events.SummaryEvent(FunctionResult("m", "f", "updated", scores=[90], rounds=1, bar=95)),  # bold
    events.ResultEvent(FunctionResult("m", "f", "failed", reason="x")),  # colour
])
def test_no_color_removes_every_style(event: events.Event) -> None:
    assert "\x1b[" in _styled({}, event)
    assert "\x1b[" not in _styled({"NO_COLOR": "1"}, event)
    assert "\x1b[" in _styled({"NO_COLOR": ""}, event)  # empty means unset (no-color.org)


@pytest.mark.parametrize(("event", "shown"), [
    (events.ProgressEvent(1, 2, "m", "f"), False),
    (events.WarningEvent("careful"), True),
    (events.ResultEvent(FunctionResult("m", "f", "updated")), False),
    (events.ResultEvent(FunctionResult("m", "f", "failed")), True),
    (events.ResultEvent(FunctionResult("m", "f", "skipped")), True),
])
def test_quiet_console_keeps_warnings_and_what_did_not_end_well(event: events.Event, shown: bool) -> None:
    out = io.StringIO()
    ConsoleSink(out, quiet=True, env={})(event)
    assert bool(out.getvalue()) is shown
    loud = io.StringIO()
    ConsoleSink(loud, env={})(event)
    assert loud.getvalue()


def test_summary_rounds_are_pluralised() -> None:
    one = _styled({"NO_COLOR": "1"}, events.SummaryEvent(FunctionResult("m", "f", "updated", scores=[97],
                                                                        rounds=1, bar=95)))
    assert "1 round ·" in one and "round(s)" not in one


