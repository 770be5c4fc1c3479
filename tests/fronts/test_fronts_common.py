"""The guard every front ends with: each error becomes its exit code and one line saying what to do."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from docbot.errors import ConfigError, GitHubError, ModelServerError, RepoError, ReplayMissError
from docbot.fronts.common import guarded, settings_from


def _raise(error: BaseException) -> int:
    raise error


@pytest.mark.parametrize("error, code", [
    (ConfigError("fix the config"), 2),
    (ModelServerError("start the server"), 3),
    (ReplayMissError("record again"), 3),
    (RepoError("not a repository"), 4),
    (GitHubError("token cannot write"), 5),
    (KeyboardInterrupt(), 130),
])
def test_each_error_becomes_its_exit_code(error: BaseException, code: int) -> None:
    shown: list[str] = []
    assert guarded(lambda: _raise(error), shown.append) == code
    assert shown == [str(error) if str(error) else "interrupted"]


def test_a_call_that_succeeds_keeps_its_code_and_shows_nothing() -> None:
    shown: list[str] = []
    assert guarded(lambda: 1, shown.append) == 1 and shown == []


def test_other_exceptions_are_bugs_and_propagate() -> None:
    with pytest.raises(ZeroDivisionError):
        guarded(lambda: 1 // 0, lambda _message: None)


def test_the_default_shows_the_message_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert guarded(lambda: _raise(ConfigError("--head needs --base REV."))) == 2
    assert capsys.readouterr().err == "docbot: --head needs --base REV.\n"


@pytest.mark.parametrize("flags, expected", [
    ({}, ("ollama", None, "auto")),
    ({"replay": "run.jsonl"}, ("replay", "run.jsonl", "auto")),  # a recording implies the replay backend
    ({"replay": "run.jsonl", "backend": "replay"}, ("replay", "run.jsonl", "auto")),
    ({"backend": "openai"}, ("openai", None, "auto")),
    ({"no_examples": True}, ("ollama", None, False)),
])
def test_settings_from_flags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flags: dict[str, object],
                             expected: tuple[object, ...]) -> None:
    monkeypatch.delenv("DOCBOT_BACKEND", raising=False)
    settings = settings_from(argparse.Namespace(**flags), tmp_path)
    assert (settings.backend, settings.replay, settings.run_examples) == expected


def test_settings_from_a_named_config_that_is_missing(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="config file not found"):
        settings_from(argparse.Namespace(config=str(tmp_path / "nope.json")), tmp_path)
    assert settings_from(argparse.Namespace(), tmp_path).quality_score_bar == 95  # absent default file: defaults


@pytest.mark.parametrize(("columns", "width"), [("60", 58), ("200", 198), ("10", 20), ("0", None), ("x", None)])
def test_the_help_formatter_takes_the_width_shutil_would(monkeypatch: pytest.MonkeyPatch, columns: str,
                                                         width: int | None) -> None:
    import shutil

    from docbot.fronts.common import help_formatter

    monkeypatch.setenv("COLUMNS", columns)
    expected = width if width is not None else max(shutil.get_terminal_size().columns - 2, 20)
    assert help_formatter("prog")._width == expected


@pytest.mark.parametrize("config, failed, expected", [
    ("repos:\n- repo: x\n  hooks:\n  - id: docbot\n  - id: docbot-check\n  - id: docbot-verify\n", "docbot",
     "SKIP=docbot,docbot-check,docbot-verify git commit"),
    ("repos:\n- repo: x\n  hooks:\n  - id: docbot-verify\n", "docbot-verify", "SKIP=docbot-verify git commit"),
    ("repos:\n- repo: x\n  hooks:\n  -   id: 'docbot-check'  # no model\n  - id: docbotx\n", "docbot",
     "SKIP=docbot,docbot-check git commit"),
    (None, "docbot-verify", "SKIP=docbot-verify git commit"),  # no config file: the hook that printed it
])
def test_the_way_out_names_every_docbot_hook_the_config_has(tmp_path: Path, config: str | None, failed: str,
                                                           expected: str) -> None:
    """Issue 33 item 6: `SKIP=docbot,docbot-check` did not get past a failing docbot-verify."""
    from docbot.fronts.common import skip_command

    if config is not None:
        (tmp_path / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
    assert skip_command(tmp_path, failed) == expected
