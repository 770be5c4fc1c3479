"""Issue 12 items 3 and 6, attacked: a finding that carries a secret, and model text that tries to
issue workflow commands. Nothing published (comment, summary, JSON reports, outputs, job log) may
carry the secret, and no line of the job log that is not docbot's own may be a command."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from docbot import events
from docbot.fronts.action import log_sink, run_action
from docbot.github.logsafe import MASK, Redactor, SafeLog, escape_data, neutralize
from docbot.github.publish import annotation
from docbot.results import FunctionResult, Outcome, RunReport
from tests.support.action_env import PR, TOKEN, FakeRun, act, canned, runner_env
from tests.support.fake_github import FakeGitHub

pytest_plugins = ["tests.support.action_fixtures"]  # the gh fixture

PAT = "ghp_" + "A1b2C3d4E5" * 4
FINE = "github_pat_11ABCDEFG0" + "x" * 40
OAUTH = "gho_16C7e42F292c6912E7710c838347Ae178B4a"


def leaky_report(secret: str) -> RunReport:
    return canned(FunctionResult(
        "pkg.env", "read", "updated", path="pkg/env.py", doc_path="docs/api/pkg.env.md",
        markdown=f"## read\n\nPrints `GITHUB_TOKEN={secret}`.", scores=[80], rounds=1, exit_reason="attempts",
        fatal_issues=[f"example printed GITHUB_TOKEN={secret} and Authorization: Bearer {secret}",
                      f"also {PAT}, {FINE} and {OAUTH}"], outcome=Outcome.UNAPPROVED))


def published(tmp_path: Path, gh: FakeGitHub, env: dict[str, str], log: str) -> str:
    texts = [log, Path(env["GITHUB_STEP_SUMMARY"]).read_text(), Path(env["GITHUB_OUTPUT"]).read_text(),
             *(c["body"] for c in gh.comments.get(PR, [])), *(str(r.body) for r in gh.requests)]
    texts += [p.read_text() for p in (tmp_path / "temp").glob("*.json")]
    return "\n".join(texts)


def test_a_planted_token_is_not_published_anywhere(tmp_path: Path, gh: FakeGitHub) -> None:
    env = runner_env(tmp_path, gh)
    code, log = act(env, FakeRun(leaky_report(TOKEN)))
    everything = published(tmp_path, gh, env, log)
    assert code == 0 and gh.comments[PR]
    for secret in (TOKEN, PAT, FINE, OAUTH):
        assert secret not in everything, secret
    assert f"GITHUB_TOKEN={MASK}" in gh.comments[PR][0]["body"]


def test_the_tokens_own_value_is_redacted_whatever_its_shape(tmp_path: Path, gh: FakeGitHub) -> None:
    plain = "plain-Secret-value-42"  # no known prefix: only its value gives it away
    gh.token = plain
    env = {**runner_env(tmp_path, gh), "DOCBOT_TOKEN": plain}
    code, log = act(env, FakeRun(leaky_report(plain)))
    assert code == 0 and plain not in published(tmp_path, gh, env, log)


def test_the_two_steps_publish_nothing_secret(tmp_path: Path, gh: FakeGitHub) -> None:
    env = runner_env(tmp_path, gh)
    report = tmp_path / "temp" / "docbot-run.json"
    without_token = {k: v for k, v in env.items() if k != "DOCBOT_TOKEN"}
    out = io.StringIO()
    assert run_action(without_token, ["run", "--report", str(report)], run_pr=FakeRun(leaky_report(TOKEN)),
                      out=out) == 0
    assert gh.requests == [] and report.is_file()
    assert PAT not in report.read_text() and OAUTH not in report.read_text()  # shapes: known without the token
    out2 = io.StringIO()
    assert run_action(env, ["publish", "--report", str(report)], run_pr=FakeRun(RuntimeError("never run")),
                      out=out2) == 0
    everything = published(tmp_path, gh, env, out.getvalue() + out2.getvalue())
    assert gh.comments[PR] and "pkg.env.read" in gh.comments[PR][0]["body"]
    for secret in (TOKEN, PAT, FINE, OAUTH):
        assert secret not in everything, secret


def test_a_stage_needs_its_report_file(tmp_path: Path, gh: FakeGitHub) -> None:
    env = runner_env(tmp_path, gh)
    out = io.StringIO()
    assert run_action(env, ["publish"], run_pr=FakeRun(canned()), out=out) == 2
    assert "needs --report FILE" in out.getvalue()
    out = io.StringIO()
    assert run_action(env, ["publish", "--report", str(tmp_path / "none.json")], run_pr=FakeRun(canned()),
                      out=out) == 2
    assert "cannot read the run's report" in out.getvalue() and gh.requests == []


@pytest.mark.parametrize("text, expected", [
    (f"token {TOKEN} here", f"token {MASK} here"),
    (f"{PAT}.", f"{MASK}."),
    (f"x{FINE}", f"x{FINE}"),  # not at a word start: not a token's beginning
    (f"({FINE})", f"({MASK})"),
    ("Authorization: Bearer abc.DEF-123_xyz", f"Authorization: Bearer {MASK}"),
    ("Bearer short", "Bearer short"),
    ("ghs_", "ghs_"),
    ("the ghost_of_a_word stays", "the ghost_of_a_word stays"),
])
def test_redaction_of_secret_shapes(text: str, expected: str) -> None:
    assert Redactor.of([TOKEN])(text) == expected


def test_redaction_of_given_values_longest_first() -> None:
    redact = Redactor.of(["abcdef", "abcdefghij", "abc"])
    assert redact("abcdefghij abcdef abc") == f"{MASK} {MASK} abc"  # 3 characters are not masked


@pytest.mark.parametrize("text, expected", [
    ("100% done", "100%25 done"),
    ("a\nb", "a%0Ab"),
    ("a\r\nb", "a%0D%0Ab"),
    ("%0A", "%250A"),
    ("\n::error file=x::pwned", "%0A::error file=x::pwned"),
    ("x ##[error]y", "x # #[error]y"),
])
def test_escape_data(text: str, expected: str) -> None:
    assert escape_data(text) == expected


@pytest.mark.parametrize("line, expected", [
    ("::error file=a.py::pwned", "| ::error file=a.py::pwned"),
    ("  ::add-mask::value", "|   ::add-mask::value"),
    ("::stop-commands::abc", "| ::stop-commands::abc"),
    ("\t::set-output name=x::y", "| \t::set-output name=x::y"),
    ("ok\r::warning::x", "ok\r| ::warning::x"),
    ("##[error]old syntax", "# #[error]old syntax"),
    ("a :: b", "a :: b"),
    (": :error", ": :error"),
])
def test_neutralize(line: str, expected: str) -> None:
    assert neutralize(line) == expected


def test_annotations_escape_model_text() -> None:
    assert annotation("warning", "bad\n::add-mask::x 100%") == "::warning title=docbot::bad%0A::add-mask::x 100%25"


def test_safe_log_judges_whole_lines() -> None:
    out = io.StringIO()
    log = SafeLog(out, Redactor.of([TOKEN]), untrusted=True)
    for piece in (":", ":error::split", f" {TOKEN}\nfine\n::", "stop-commands::x\n"):
        log.write(piece)
        log.flush()
    assert out.getvalue() == f"| ::error::split {MASK}\nfine\n| ::stop-commands::x\n"


def command_lines(log: str) -> list[str]:
    return [line for line in log.replace("\r", "\n").split("\n") if line.lstrip().startswith("::")]


def test_model_text_in_events_issues_no_workflow_command() -> None:
    attack = f"looks fine\n::add-mask::{TOKEN}\n::stop-commands::pwn\r::error file=x.py::forged\n##[warning]old"
    out = io.StringIO()
    sink = log_sink(out, Redactor.of([TOKEN]))
    sink(events.WarningEvent(attack))
    sink(events.InfoEvent("f", 1, [attack]))
    sink(events.RoundEvent("f", 95, {"round": 1, "accuracy": 50, "completeness": 50, "score": 50, "issues": [attack],
                                     "fatal_issues": [attack], "critical_fix": attack, "parsed": True,
                                     "draft_chars": 10, "draft_head": attack, "calls": []}))
    log = out.getvalue()
    assert command_lines(log) == [f"::warning title=docbot::{escape_data(attack.replace(TOKEN, MASK))}"]
    assert TOKEN not in log and "##[" not in log


def test_the_action_log_has_only_docbots_commands(tmp_path: Path, gh: FakeGitHub) -> None:
    env = runner_env(tmp_path, gh, DOCBOT_HEAD="abc\n::add-mask::x")
    code, log = act(env, FakeRun(leaky_report("::stop-commands::zz\n::error::x")))
    assert code == 0
    ours = ("::group::docbot comment on ", "::endgroup::", "::warning title=docbot::", "::notice::",
            "::error file=pkg/env.py,title=docbot%3A pkg.env.read::")  # the unapproved function's annotation
    assert command_lines(log) and all(line.startswith(ours) for line in command_lines(log)), log
    assert sum(line.startswith("::error") for line in command_lines(log)) == 1
    assert "abc%0A::add-ma\n" in log  # the head input (first 12 characters), escaped inside docbot's own group command
    assert json.loads((tmp_path / "temp" / "docbot-report.json").read_text())["mode"] == "comment"
