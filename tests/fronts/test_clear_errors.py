"""Issue 12 items 16-18: inputs that used to crash with a traceback (or pass silently) end with one
line naming the file, the variable or the path, and exit 2. Each runs the real front in process: an
uncaught exception fails the test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from docbot.errors import ConfigError
from docbot.fronts import cli
from docbot.config.sources import load_settings
from tests.support.git_repo import GitRepo

LATIN1_SOURCE = '# -*- coding: latin-1 -*-\ndef greet(name):\n    """Grüße."""\n    return "Grüße " + name\n'
GREET_DOC = "## `greet`\n\nReturns `\"Grüße \" + name`.\n\n**Parameters**\n\n| Name | Description |\n|---|---|\n" \
            "| `name` | who |\n"


def run_main(front: Any, argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = front(argv)
    return code, capsys.readouterr().err


def test_verify_reads_a_latin1_source_by_its_coding_cookie(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "greet.py").write_bytes(LATIN1_SOURCE.encode("latin-1"))
    (tmp_path / "greet.md").write_text(GREET_DOC, encoding="utf-8")
    code = cli.main(["verify", str(tmp_path / "greet.py"), str(tmp_path / "greet.md"), "--no-examples"])
    assert code == 0 and "greet: 0 findings" in capsys.readouterr().out


@pytest.mark.parametrize("source, doc, message", [
    (LATIN1_SOURCE.encode("latin-1"), b"## `greet`\n\nGr\xfc\xdfe.\n", "greet.md: not UTF-8 text"),
    (b"\x7fELF\x02\x01\x01\x00\x00\x00\x00", GREET_DOC.encode(), "greet.py: a binary file"),
    (b"\x89PNG\r\n\x1a\n\xff\xfe\x00", GREET_DOC.encode(), "greet.py: not a Python source in a readable encoding"),
    ("def greet(name):\n    return 'Grüße'\n".encode("latin-1"), GREET_DOC.encode(),
     "greet.py: not a Python source in a readable encoding"),  # latin-1 without a cookie
    (b"# -*- coding: klingon -*-\n", GREET_DOC.encode(), "greet.py: not a Python source in a readable encoding"),
])
def test_verify_refuses_unreadable_files_clearly(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 source: bytes, doc: bytes, message: str) -> None:
    (tmp_path / "greet.py").write_bytes(source)
    (tmp_path / "greet.md").write_bytes(doc)
    code, err = run_main(cli.main, ["verify", str(tmp_path / "greet.py"), str(tmp_path / "greet.md")], capsys)
    assert code == 2 and message in err and "Traceback" not in err


@pytest.mark.parametrize("source, message", [
    (b"def f(:\n    pass\n", "does not parse at line 1"),
    ("def f():\n    return 'Grüße'\n".encode("latin-1"), "not a Python source in a readable encoding"),
    (b"\x00\x01\x02binary", "a binary file"),
])
def test_reflexion_refuses_bad_inputs_before_any_model(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        source: bytes, message: str) -> None:
    (tmp_path / "m.py").write_bytes(source)
    argv = ["-i", str(tmp_path / "m.py"), "-o", str(tmp_path / "out.md"), "--base-url", "http://127.0.0.1:9"]
    code, err = run_main(cli.reflexion_main, argv, capsys)
    assert code == 2 and f"m.py: {message}" in err and not (tmp_path / "out.md").exists()


def test_reflexion_with_an_unwritable_output_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "m.py").write_text("X = 1\n", encoding="utf-8")  # no functions: no model call is needed
    (tmp_path / "rec.jsonl").write_text("", encoding="utf-8")
    (tmp_path / "a_file").write_text("", encoding="utf-8")
    argv = ["-i", str(tmp_path / "m.py"), "-o", str(tmp_path / "a_file" / "out.md"), "--replay",
            str(tmp_path / "rec.jsonl")]
    code, err = run_main(cli.reflexion_main, argv, capsys)
    assert code == 2 and "out.md: cannot write the output" in err and "pass a writable --output" in err


@pytest.mark.parametrize("host", ["garbage:notaport", "gpu-box:99999", "ftp://gpu-box:11434"])
def test_a_bad_ollama_host_names_the_variable(host: str) -> None:
    with pytest.raises(ConfigError, match=r"^OLLAMA_HOST=.* is not a host\[:port\] or http\(s\) URL"):
        load_settings(None, env={"OLLAMA_HOST": host})


# As the ollama client reads them (tests/models/test_ollama_host.py): a scheme's own default port is
# spelled out, and an empty host is this machine.
@pytest.mark.parametrize("host, url", [("gpu-box:11434", "http://gpu-box:11434"),
                                       ("https://gpu.example/", "https://gpu.example:443"),
                                       ("[::1]:80", "http://[::1]:80"), ("http://:11434", "http://127.0.0.1:11434")])
def test_a_good_ollama_host_is_taken(host: str, url: str) -> None:
    assert load_settings(None, env={"OLLAMA_HOST": host}).base_url == url


def test_the_cli_stops_on_a_bad_ollama_host(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "garbage:notaport")
    (tmp_path / "m.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    code, err = run_main(cli.reflexion_main, ["-i", str(tmp_path / "m.py"), "-o", str(tmp_path / "o.md")], capsys)
    assert code == 2 and "OLLAMA_HOST='garbage:notaport'" in err


def test_a_non_utf8_config_is_named(tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    config.write_bytes('{"docs_dir": "dökumente"}'.encode("latin-1"))
    with pytest.raises(ConfigError, match=r"config.json: not UTF-8 .*save the config file as UTF-8"):
        load_settings(config)


@pytest.mark.parametrize("data, field", [
    ({"quality_score_bar": True}, "quality_score_bar"),
    ({"quality_score_bar": "80"}, "quality_score_bar"),
    ({"max_attempts": 2.5}, "max_attempts"),
    ({"run_examples": 1}, "run_examples"),
    ({"num_ctx": 10_000_000}, "num_ctx"),
    ({"max_tokens": 10_000_000}, "max_tokens"),
    ({"seed": -1}, "seed"),
    ({"request_timeout_s": 86_400}, "request_timeout_s"),
    ({"connect_timeout_s": 3600}, "connect_timeout_s"),
    ({"example_timeout_s": 3600}, "example_timeout_s"),
    ({"example_memory_mb": 1_000_000}, "example_memory_mb"),
    ({"time_budget_s": 10**9}, "time_budget_s"),
    ({"call_retries": False}, "call_retries"),
])
def test_config_numbers_are_strict_and_bounded(tmp_path: Path, data: dict[str, Any], field: str) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ConfigError, match=rf"config.json: invalid configuration:\n  {field}[.:]"):
        load_settings(config)


def test_ints_are_still_good_floats_and_in_range_values_pass(tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"request_timeout_s": 60, "quality_score_bar": 80, "num_ctx": 4096,
                                  "temperatures": {"CRITIC": 0}}), encoding="utf-8")
    settings = load_settings(config)
    assert (settings.request_timeout_s, settings.quality_score_bar, settings.num_ctx) == (60.0, 80, 4096)


def test_a_bad_backend_variable_is_blamed_on_the_variable(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(tmp_path / "config.json", env={"DOCBOT_BACKEND": "olama"})
    assert str(caught.value).startswith("environment variable DOCBOT_BACKEND='olama' is not one of ollama")
    assert "config.json" not in str(caught.value)


def test_check_all_with_a_missing_path_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    repo = GitRepo(tmp_path / "project")
    repo.write("pkg/m.py", "def f():\n    return 1\n").commit("first")
    monkeypatch.chdir(repo.root)
    code, err = run_main(cli.main, ["check", "--all", "no_such_dir"], capsys)
    assert code == 2 and "no_such_dir: no such file or folder" in err and "all docs are current" not in err
    code, err = run_main(cli.main, ["check", "--all", "pkg"], capsys)
    assert code == 1 and "1 function needs docs" in err  # an existing path is still checked
