"""Issue 22 item 6, attacked: the token published in another shape (base64, hex, percent-encoded,
split across lines, ``_`` escaped as ``&#95;``, after a newline in the JSON run report), and model text
that ``@mentions`` people. Each shape is first shown to pass the old redaction (the literal value and the
``gh*_`` shapes), then to reach no published channel of the real Action.
"""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path

import pytest

from docbot.fronts.action import run_action
from docbot.github.logsafe import Redactor, encoded_forms
from docbot.results import FunctionResult, RunReport
from tests.github.test_published_text import PAT, published
from tests.support.action_env import PR, TOKEN, FakeRun, act, canned, runner_env
from tests.support.fake_github import FakeGitHub

pytest_plugins = ["tests.support.action_fixtures"]  # the gh fixture


def old_redact(text: str) -> str:
    """The redaction before issue 22: the literal value, then the prefixed shapes after a word boundary."""
    text = text.replace(TOKEN, "***")
    return re.sub(r"(?:(?<!\w)|(?<=%[0-9A-Fa-f]{2}))gh[pousr]_[A-Za-z0-9_]{8,}", "***", text)


def b64(prefix: str) -> str:
    return base64.b64encode((prefix + TOKEN + "!").encode()).decode()


SHAPES = {
    "base64, aligned": b64(""),
    "base64, shifted by 1": b64("a"),
    "base64, shifted by 2": b64("ab"),
    "base64, url-safe": base64.urlsafe_b64encode(("??>" + TOKEN).encode()).decode(),
    "hex": TOKEN.encode().hex(),
    "HEX": TOKEN.encode().hex().upper(),
    "percent-encoded": "".join(f"%{b:02X}" for b in TOKEN.encode()),
    "split across lines": TOKEN[:9] + "\n" + TOKEN[9:],
    "split and indented": TOKEN[:5] + "\n    " + TOKEN[5:15] + "\n    " + TOKEN[15:],
    "underscore escaped": TOKEN.replace("_", "&#95;"),
    "underscore alone percent-encoded": TOKEN.replace("_", "%5F"),  # issue 30: reached summary and comment
}


def stolen(shape: str) -> str:
    return f"the example printed {shape} and went on"


@pytest.mark.parametrize("name", SHAPES)
def test_the_old_redaction_missed_the_shape(name: str) -> None:
    shape = SHAPES[name]
    assert old_redact(stolen(shape)) == stolen(shape)  # the attack worked
    assert "***" in Redactor.of([TOKEN])(stolen(shape))  # docbot masks it


def leaky(shape: str) -> RunReport:
    return canned(FunctionResult(
        "pkg.env", "read", "updated", path="pkg/env.py", doc_path="docs/api/pkg.env.md",
        markdown=f"## read\n\nPrints {shape}.", scores=[80], rounds=1, exit_reason="attempts",
        fatal_issues=[stolen(shape)], reason=stolen(shape)))


def secret_forms() -> list[str]:
    return [form for form in encoded_forms(TOKEN) if len(form) >= 12]


@pytest.mark.parametrize("name", SHAPES)
def test_no_shape_of_the_token_is_published(tmp_path: Path, gh: FakeGitHub, name: str) -> None:
    env = runner_env(tmp_path, gh)
    code, log = act(env, FakeRun(leaky(SHAPES[name])))
    everything = published(tmp_path, gh, env, log)
    assert code == 0 and gh.comments[PR]
    flat = re.sub(r"\s+|%0A|&#95;", lambda m: "_" if m.group() == "&#95;" else "", everything)
    for form in secret_forms():
        assert form not in everything and form not in flat, (name, form)


def test_a_token_shape_after_a_newline_is_kept_out_of_the_run_report(tmp_path: Path, gh: FakeGitHub) -> None:
    """The run step holds no token: only the shape gives it away, and in JSON it follows ``\\n``."""
    env = {k: v for k, v in runner_env(tmp_path, gh).items() if k != "DOCBOT_TOKEN"}
    report = tmp_path / "temp" / "docbot-run.json"
    text = f"line one\n{PAT}"
    assert PAT in old_redact('"' + text.replace("\n", "\\n") + '"')  # the attack worked
    assert run_action(env, ["run", "--report", str(report)], run_pr=FakeRun(leaky(text)), out=io.StringIO()) == 0
    assert PAT not in report.read_text(encoding="utf-8")


def test_model_text_mentions_nobody_in_the_comment(tmp_path: Path, gh: FakeGitHub) -> None:
    env = runner_env(tmp_path, gh)
    code, _ = act(env, FakeRun(leaky("a note for @octocat and @octo-org/admins")))
    body = gh.comments[PR][0]["body"]
    assert code == 0 and "octocat" in body
    rendered = re.sub(r"```.*?```", "", body, flags=re.DOTALL)  # GitHub links no mention inside a code block
    assert not re.search(r"(?<![\w`])@[A-Za-z0-9]", rendered), body  # each @ is followed by a zero-width space


def test_single_process_mode_redacts_before_the_comment_escapes(tmp_path: Path, gh: FakeGitHub,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The order, on its own: with a redaction that knows nothing of ``&#95;``, the token the report
    carries raw is still masked, because the report is redacted before rendering escapes ``_``."""
    monkeypatch.setattr(Redactor, "__call__", lambda self, text: old_redact(text))
    env = runner_env(tmp_path, gh)
    code, log = act(env, FakeRun(leaky(f"GITHUB_TOKEN={TOKEN}")))
    everything = published(tmp_path, gh, env, log)
    assert code == 0 and gh.comments[PR]
    assert TOKEN not in everything and TOKEN.replace("_", "&#95;") not in everything


@pytest.mark.parametrize("cut", [3, 9, 20])
def test_a_token_split_by_a_plain_newline_is_kept_out_of_the_run_report(tmp_path: Path, gh: FakeGitHub,
                                                                       cut: int) -> None:
    """Issue 30: in the JSON report the newline is the two characters ``\\n``, which the break between a
    secret's characters did not match; the run step holds no token, so the shape must be found wrapped too."""
    env = {k: v for k, v in runner_env(tmp_path, gh).items() if k != "DOCBOT_TOKEN"}
    report = tmp_path / "temp" / "docbot-run.json"
    text = f"it printed {PAT[:cut]}\n{PAT[cut:]} and stopped"
    assert run_action(env, ["run", "--report", str(report)], run_pr=FakeRun(leaky(text)), out=io.StringIO()) == 0
    saved = report.read_text(encoding="utf-8")
    assert PAT[cut:] not in saved and PAT[:cut] + "\\n" + PAT[cut:] not in saved
    assert "and stopped" in saved  # the text after the token is kept


def test_the_tokens_own_value_split_by_a_plain_newline_is_kept_out_of_the_run_report(tmp_path: Path,
                                                                                    gh: FakeGitHub) -> None:
    env = runner_env(tmp_path, gh)
    report = tmp_path / "temp" / "docbot-run.json"
    text = f"it printed {TOKEN[:7]}\n{TOKEN[7:]}"
    assert run_action(env, ["run", "--report", str(report)], run_pr=FakeRun(leaky(text)), out=io.StringIO()) == 0
    assert TOKEN[7:] not in report.read_text(encoding="utf-8")
