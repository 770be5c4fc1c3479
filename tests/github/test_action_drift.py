"""The Action's check mode with the drift gate, on a real PR repository against the loopback GitHub fake: the
hand-written doc line a PR made false is annotated, its stale output is suggested where the line is in the
diff, a contradiction the base had too does not fail, and the two steps carry the drift between them."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from docbot.apidocs.pages import marker_line, source_hash
from docbot.fronts.action import run_action
from docbot.github.drift import DRIFT_MARKER, drift_annotations
from docbot.verify.project.report import DriftReport, StaleLine
from tests.support.action_env import PR, git, outputs, pr_event, runner_env, write
from tests.support.fake_github import FakeGitHub

pytest_plugins = ["tests.support.action_fixtures"]  # the gh fixture

ADD = "def add(a, b=2):\n    return a + b\n"
SHOUT = "def shout(s):\n    return s.upper()\n"
README = ("# toy\n\n```pycon\n>>> from toy import add\n>>> add(1)\n3\n```\n\n"
          "```pycon\n>>> from toy import shout\n>>> shout('a')\n'B'\n```\n")  # shout's is false on the base


def _commit(work: Path, add: str, shout: str, readme: str, message: str, other: str = "") -> str:
    """The package, its README, and docs/api current for it (so only the drift gate can fail the check)."""
    write(work / "toy" / "core.py", "\n\n".join(f for f in (add, shout, other) if f))
    write(work / "README.md", readme)
    functions = [("add", add), ("shout", shout)] + ([("other", other)] if other else [])
    sections = "".join(f"{marker_line(name, source_hash(source))}\n## `{name}`\n\nX.\n<!-- docbot:end {name} -->\n\n"
                       for name, source in functions)
    write(work / "docs" / "api" / "toy.core.md", f"# toy.core\n\n{sections}")
    git(work, "add", "-A"), git(work, "commit", "-qm", message)
    return git(work, "rev-parse", "HEAD")


@pytest.fixture
def work(tmp_path: Path) -> dict[str, Any]:
    work = tmp_path / "work"
    work.mkdir()
    git(work, "init", "-q")
    write(work / "pyproject.toml", '[project]\nname = "toy"\nversion = "1"\n')
    write(work / "toy" / "__init__.py", "from toy.core import add, shout\n")
    write(work / "config.json", json.dumps({"example_sandbox": "allow-guard"}))
    return {"work": work, "base": _commit(work, ADD, SHOUT, README, "base")}


def _check(tmp_path: Path, gh: FakeGitHub, work: dict[str, Any], head: str, argv: list[str] | None = None,
           **env: str) -> tuple[int, str]:
    values = runner_env(tmp_path, gh, event=pr_event(work["base"], head), DOCBOT_MODE="check",
                        GITHUB_WORKSPACE=str(work["work"]), **env)
    out = io.StringIO()
    return run_action(values, argv or [], out=out), out.getvalue()


def _errors(log: str) -> list[str]:
    return [line for line in log.splitlines() if line.startswith("::error file=")]


def test_a_pr_that_makes_a_readme_example_false_is_annotated_on_the_line_and_fails(
        tmp_path: Path, gh: FakeGitHub, work: dict[str, Any]) -> None:
    readme = README + "\nTwice:\n\n```pycon\n>>> add(2)\n4\n```\n"  # new in the PR, and false after it too
    head = _commit(work["work"], ADD.replace("a + b", "a + b + 1"), SHOUT, readme, "add counts one more")
    code, log = _check(tmp_path, gh, work, head)
    assert code == 1, log
    assert _errors(log) == [
        "::error file=README.md,line=6,endLine=6,title=docbot%3A stale doc::example `add(1)` returns 4, the doc says "
        "3. This PR's code makes the doc false: fix the doc, or the code if the doc is right.",
        "::error file=README.md,line=19,endLine=19,title=docbot%3A stale doc::example `add(2)` returns 5, the doc "
        "says 4. This PR's code makes the doc false: fix the doc, or the code if the doc is right."]
    # Only the line in the PR's diff gets a suggestion; GitHub refuses review comments elsewhere.
    [review] = gh.reviews[PR]
    assert review["commit_id"] == head and review["body"].startswith(DRIFT_MARKER)
    [comment] = gh.review_comments[PR]
    assert (comment["path"], comment["line"], comment["side"]) == ("README.md", 19, "RIGHT")
    assert "```suggestion\n5\n```" in comment["body"] and "start_line" not in comment
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "- ❌ <code>README.md:6</code>" in summary and "- ⚠️ <code>README.md:12</code>" in summary
    assert outputs(str(tmp_path / "output.txt"))["outcome"] == "current"  # docs/api is current: drift failed it


@pytest.mark.parametrize("shout, other, code", [
    pytest.param(SHOUT.replace("s.upper()", "s.upper() + ''"), "", 0, id="shout changed: its example was false "
                 "on the base already"),
    pytest.param(SHOUT, "def other():\n    return 1\n", 0, id="a new function no doc mentions"),
])
def test_what_the_pr_did_not_make_false_passes(tmp_path: Path, gh: FakeGitHub, work: dict[str, Any], shout: str,
                                              other: str, code: int) -> None:
    head = _commit(work["work"], ADD, shout, README, "change", other)
    got, log = _check(tmp_path, gh, work, head)
    assert (got, _errors(log)) == (code, []), log
    assert not gh.review_comments.get(PR)


def test_the_two_steps_carry_the_drift(tmp_path: Path, gh: FakeGitHub, work: dict[str, Any]) -> None:
    head = _commit(work["work"], ADD.replace("a + b", "a + b + 1"), SHOUT, README, "change")
    report = str(tmp_path / "temp" / "run.json")
    code, log = _check(tmp_path, gh, work, head, ["run", "--report", report], DOCBOT_TOKEN="")
    assert (code, _errors(log), gh.requests) == (0, [], [])  # the run step posts nothing, annotates nothing
    assert json.loads(Path(report + ".drift.json").read_text(encoding="utf-8"))["introduced"][0]["line"] == 6
    code, log = _check(tmp_path, gh, work, head, ["publish", "--report", report])
    assert code == 1 and [e.split("::")[1] for e in _errors(log)] == [
        "error file=README.md,line=6,endLine=6,title=docbot%3A stale doc"]


def _drift(count: int, path: str = "README.md", message: str = "m") -> DriftReport:
    return DriftReport(("toy.core.add",), (path,), tuple(StaleLine(path, i + 1, "example_mismatch", message, "3")
                                                         for i in range(count)))


@pytest.mark.parametrize("count, errors, notice", [(1, 1, False), (10, 10, False), (11, 10, True)])
def test_annotations_are_capped_and_the_rest_are_counted(count: int, errors: int, notice: bool) -> None:
    found = drift_annotations(_drift(count))
    assert sum(line.startswith("::error ") for line in found) == errors
    assert any(line.startswith("::notice") and f"{count - 10} more" in line for line in found) is notice


def test_a_hostile_doc_path_and_message_cannot_add_workflow_commands() -> None:
    [line] = drift_annotations(_drift(1, path="a,line=9::x.md", message="bad\n::warning::owned ghp_" + "a" * 36),
                               redact=lambda text: text.replace("ghp_" + "a" * 36, "***"))
    assert "\n" not in line and line.startswith("::error file=a%2Cline=9%3A%3Ax.md,line=1,endLine=1,")
    assert "%0A::warning::owned ***" in line
