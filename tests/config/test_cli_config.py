"""Issue 13 part 3 through the real ``docbot`` executable in real git repositories: [tool.docbot] takes
effect, a config.json that is not docbot's is ignored, ``config --schema`` and ``config --show``, the API
key's variables and the warning for a key in a tracked file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.git_repo import GitRepo

DOCBOT = Path(sys.executable).with_name("docbot")
ROOT = Path(__file__).parents[2]
# Variables that would change the settings: the tests set their own.
OURS = ("DOCBOT_BASE_URL", "DOCBOT_BACKEND", "DOCBOT_API_KEY", "OPENAI_API_KEY", "OLLAMA_HOST", "CI")


def docbot(repo: GitRepo, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in OURS}
    return subprocess.run([str(DOCBOT), *args], cwd=repo.root, capture_output=True, text=True, timeout=300,
                          env={**base, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", **env})


def project(tmp_path: Path, *, pyproject: str = "", config: str | None = None) -> GitRepo:
    """A package with one undocumented public function, committed with the given configuration files."""
    repo = GitRepo(tmp_path / "project").write("pkg/__init__.py", "").write("pkg/m.py", "def f():\n    return 1\n")
    repo.write("pyproject.toml", "[project]\nname = 'pkg'\nversion = '1'\n" + pyproject)
    if config is not None:
        repo.write("config.json", config)
    repo.git("add", ".")
    repo.git("commit", "-q", "-m", "project")
    return repo


def sources(done: subprocess.CompletedProcess[str]) -> dict[str, str]:
    assert done.returncode == 0, done.stderr
    return {key: entry["source"] for key, entry in json.loads(done.stdout).items()}


def test_docs_dir_in_tool_docbot_takes_effect_and_config_json_overrides_it(tmp_path: Path) -> None:
    repo = project(tmp_path, pyproject="\n[tool.docbot]\ndocs_dir = 'reference'\n")
    done = docbot(repo, "check")
    assert done.returncode == 1 and "commit reference." in done.stderr
    repo.write("config.json", '{"docs_dir": "handbook"}')
    done = docbot(repo, "check")
    assert done.returncode == 1 and "commit handbook." in done.stderr


def test_a_config_json_that_is_not_docbots_is_ignored_with_one_line(tmp_path: Path) -> None:
    repo = project(tmp_path, config='{"app_name": "shop", "debug": true}')
    # (`targets` with nothing staged finishes before reading any configuration: docs/design.md#lazy-imports)
    for command in (["targets", "--all"], ["check"]):
        done = docbot(repo, *command)
        assert done.returncode == (0 if command[0] == "targets" else 1), done.stderr
        lines = [line for line in done.stderr.splitlines() if "config.json" in line]
        assert lines == [f"docbot: info: {repo.root / 'config.json'} has none of docbot's keys, so it is not "
                         "docbot's configuration; ignored."]
    assert "pkg.m.f" in docbot(repo, "targets", "--all").stdout


def test_one_docbot_key_makes_the_whole_file_checked(tmp_path: Path) -> None:
    repo = project(tmp_path, config='{"docs_dir": "d",\n "app_name": "shop", "max_atempts": 2}')
    done = docbot(repo, "targets")
    assert done.returncode == 2
    assert "app_name: unknown key; remove it or check its spelling" in done.stderr
    assert "(line 2, column 2)" in done.stderr
    assert "max_atempts: unknown key; did you mean 'max_attempts'? (line 2, column 22)" in done.stderr


def test_a_named_config_is_docbots_even_without_its_keys(tmp_path: Path) -> None:
    repo = project(tmp_path, config='{"app_name": "shop"}')
    done = docbot(repo, "targets", "--config", "config.json")
    assert done.returncode == 2 and "app_name: unknown key" in done.stderr


def test_config_schema_prints_the_committed_schema(tmp_path: Path) -> None:
    done = docbot(project(tmp_path), "config", "--schema")
    assert done.returncode == 0
    assert json.loads(done.stdout) == json.loads((ROOT / "docbot.schema.json").read_text(encoding="utf-8"))


def test_config_show_names_where_each_value_came_from(tmp_path: Path) -> None:
    repo = project(tmp_path, pyproject="\n[tool.docbot]\ndocs_dir = 'reference'\nmax_attempts = 2\n",
                   config='{"max_attempts": 3, "quality_score_bar": 90}')
    done = docbot(repo, "config", "--show", "--json", "--backend", "openai", OLLAMA_HOST="gpu:11434",
                  OPENAI_API_KEY="sk-openai")
    shown = json.loads(done.stdout)
    assert {k: shown[k]["value"] for k in ("docs_dir", "max_attempts", "backend", "base_url", "api_key")} == {
        "docs_dir": "reference", "max_attempts": 3, "backend": "openai", "base_url": "http://gpu:11434",
        "api_key": "***"}
    assert {k: v for k, v in sources(done).items() if v != "default"} == {
        "docs_dir": "pyproject", "max_attempts": "config.json", "quality_score_bar": "config.json",
        "backend": "flag", "base_url": "env OLLAMA_HOST", "api_key": "env OPENAI_API_KEY"}
    assert "sk-openai" not in done.stdout + done.stderr


def test_config_show_as_text(tmp_path: Path) -> None:
    repo = project(tmp_path, pyproject="\n[tool.docbot]\ndocs_dir = 'reference'\n")
    done = docbot(repo, "config", "--show", DOCBOT_API_KEY="sk-docbot", OPENAI_API_KEY="sk-openai")
    lines = {line.split()[0]: line for line in done.stdout.splitlines()}
    assert lines["docs_dir"].endswith('= "reference"  (pyproject)')
    assert lines["api_key"].endswith('= "***"  (env DOCBOT_API_KEY)')
    assert lines["max_attempts"].endswith("= 4  (default)")


@pytest.mark.parametrize("where, tracked", [("config.json", True), ("config.json", False),
                                             ("pyproject.toml", True), ("pyproject.toml", False)])
def test_a_key_in_a_tracked_file_is_warned_about(tmp_path: Path, where: str, tracked: bool) -> None:
    repo = project(tmp_path)
    if where == "config.json":
        repo.write("config.json", '{"api_key": "sk-committed"}')
    else:
        repo.write("pyproject.toml", "[project]\nname = 'pkg'\n\n[tool.docbot]\napi_key = 'sk-committed'\n")
    if tracked:
        repo.git("add", where)
    elif where == "pyproject.toml":
        repo.git("rm", "-q", "--cached", where)  # project() committed it
    repo.git("commit", "-q", "--allow-empty", "-m", "a key, or not")
    done = docbot(repo, "config", "--show")
    warned = "sets api_key and is tracked by git" in done.stderr
    assert done.returncode == 0 and warned is tracked
    assert "sk-committed" not in done.stdout and '"***"' in done.stdout


def test_the_base_url_flag_lists_several_servers_with_commas(tmp_path: Path) -> None:
    repo = project(tmp_path)
    done = docbot(repo, "config", "--show", "--json", "--base-url", "http://gpu-a:11434, http://gpu-b:11434")
    shown = json.loads(done.stdout)
    assert shown["base_url"] == {"value": ["http://gpu-a:11434", "http://gpu-b:11434"], "source": "flag"}


@pytest.mark.parametrize("argv", [["run", "--all"], ["check", "--all"], ["verify"], ["targets", "--all"],
                                  ["config", "--show"]])
@pytest.mark.parametrize("host", ["garbage:notaport", "h:99999", "ftp://h:1"])
def test_an_ollama_host_no_client_can_parse_exits_2_naming_it(tmp_path: Path, argv: list[str], host: str) -> None:
    """Issue 30 item 8: importing the `ollama` package parses OLLAMA_HOST, so a bad value ended in a ValueError
    traceback before docbot could say which variable is wrong."""
    done = docbot(project(tmp_path), *argv, OLLAMA_HOST=host)
    assert (done.returncode, "Traceback" in done.stderr) == (2, False), done.stderr
    assert f"OLLAMA_HOST={host!r} is not a host[:port] or http(s) URL" in done.stderr
