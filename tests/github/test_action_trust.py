"""Issue 12 item 1: the Action takes its configuration from the pull request's base commit, never from
the PR's own files; a fork cannot turn on example execution or commit mode. Run through the Action's
real entry (``main``) on real git repositories, with the GitHub fake on loopback; only the model run
itself is replaced, by a recorder that writes a doc the way a run does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from docbot.fronts import action
from docbot.config.settings import Settings
from tests.support.action_env import PR, REPO, canned, git, pr_event, runner_env, write
from tests.support.fake_github import FakeGitHub
from tests.support.git_repo import GitRepo

pytest_plugins = ["tests.support.action_fixtures"]  # the gh and pr_repos fixtures

FORK = "mallory/project"


class Recorder:
    """Stands in for the model run: records the settings, writes a doc into the checkout."""

    def __init__(self) -> None:
        self.settings: list[Settings] = []

    def __call__(self, settings: Settings, repo_root: Path, base: str, head: str, mode: str, *,
                 cache_dir: Path | None = None) -> Any:
        self.settings.append(settings)
        self.cache_dir = cache_dir
        write(repo_root / "docs" / "api" / "pkg.geometry.md", "# pkg.geometry\n\n## area\n\nThe area.\n")
        report = canned(written=["docs/api/pkg.geometry.md"])
        report.base, report.head = base, head
        return report


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    recorder = Recorder()
    monkeypatch.setattr(action, "default_run_pr", recorder)
    return recorder


def refs(origin: Path) -> str:
    return git(origin, "for-each-ref", "--format=%(refname) %(objectname)")


def test_a_fork_pr_cannot_turn_on_examples_or_commit_mode(tmp_path: Path, gh: FakeGitHub, recorder: Recorder,
                                                          pr_repos: dict[str, Any],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    runner, origin = pr_repos["runner"], pr_repos["origin"]
    # The fork's own config.json, in its checkout (what the Action used to read), insists on everything.
    write(runner / "config.json", json.dumps({"run_examples": True, "example_sandbox": "allow-guard-in-ci"}))
    git(runner, "add", "config.json")
    git(runner, "commit", "-m", "fork: turn everything on")
    before = refs(origin)
    env = runner_env(tmp_path, gh, event=pr_event(pr_repos["base"], pr_repos["head"], head_repo=FORK),
                     DOCBOT_MODE="commit", DOCBOT_BASE="", DOCBOT_HEAD="")
    env["GITHUB_WORKSPACE"] = str(runner)

    code = action.main([], env)

    assert code == 0
    [settings] = recorder.settings
    assert settings.run_examples is False and settings.example_sandbox == "os"
    assert refs(origin) == before  # nothing pushed anywhere
    assert "mode commit cannot push to a fork's branch" in capsys.readouterr().out
    assert len(gh.comments[PR]) == 1 and "pkg.geometry.area" in gh.comments[PR][0]["body"]  # results go there


def config_repo(tmp_path: Path, base_config: str | bytes | None, pr_config: str) -> tuple[GitRepo, str, str]:
    """A repository whose base commit has ``base_config`` (None: no file) and whose PR head has ``pr_config``."""
    repo = GitRepo(tmp_path / "work")
    repo.write("pkg/geometry.py", "def area(w, h):\n    return w * h\n")
    if isinstance(base_config, bytes):
        (repo.root / "ci").mkdir()
        (repo.root / "ci" / "docbot.json").write_bytes(base_config)
    elif base_config is not None:
        repo.write("ci/docbot.json", base_config)
    repo.commit("base")
    base = repo.git("rev-parse", "HEAD").strip()
    repo.write("ci/docbot.json", pr_config).commit("the PR")
    return repo, base, repo.git("rev-parse", "HEAD").strip()


@pytest.mark.parametrize("head_repo, base_config, expected", [
    (REPO, '{"quality_score_bar": 80}', (80, "auto")),
    (FORK, '{"quality_score_bar": 80}', (80, False)),
    (FORK, '{"run_examples": true}', (95, True)),  # the maintainers' own choice, in the base commit
])
def test_the_configuration_is_the_base_commits(tmp_path: Path, gh: FakeGitHub, recorder: Recorder,
                                               head_repo: str, base_config: str,
                                               expected: tuple[int, Any]) -> None:
    repo, base, head = config_repo(tmp_path, base_config, '{"quality_score_bar": 10, "run_examples": true}')
    env = runner_env(tmp_path, gh, event=pr_event(base, head, head_repo=head_repo), DOCBOT_CONFIG="ci/docbot.json")
    assert action.main([], env) == 0
    [settings] = recorder.settings
    assert (settings.quality_score_bar, settings.run_examples) == expected


@pytest.mark.parametrize("base_config, named, message", [
    (None, True, "ci/docbot.json: config file not found at the base commit"),  # only the PR has it
    (b'{"docs_dir": "d\xf6kumente"}', True, "ci/docbot.json at the base commit"),  # latin-1
    ('{"quality_score_bar": true}', True, "quality_score_bar"),
])
def test_a_bad_or_missing_base_config_stops_the_run(tmp_path: Path, gh: FakeGitHub, recorder: Recorder,
                                                    base_config: str | bytes | None, named: bool,
                                                    message: str, capsys: pytest.CaptureFixture[str]) -> None:
    repo, base, head = config_repo(tmp_path, base_config, '{"run_examples": true}')
    env = runner_env(tmp_path, gh, event=pr_event(base, head), DOCBOT_CONFIG="ci/docbot.json")
    assert action.main([], env) == 2
    assert message in capsys.readouterr().out and recorder.settings == []


def test_without_a_named_config_a_base_without_one_means_defaults(tmp_path: Path, gh: FakeGitHub,
                                                                  recorder: Recorder) -> None:
    repo, base, head = config_repo(tmp_path, None, '{"quality_score_bar": 10}')
    repo.write("config.json", '{"run_examples": true, "quality_score_bar": 10}').commit("PR config")
    env = runner_env(tmp_path, gh, event=pr_event(base, head, head_repo=FORK))
    assert action.main([], env) == 0
    assert (recorder.settings[0].quality_score_bar, recorder.settings[0].run_examples) == (95, False)


def test_a_config_outside_the_repository_is_refused(tmp_path: Path, gh: FakeGitHub, recorder: Recorder,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    repo, base, head = config_repo(tmp_path, '{}', '{}')
    env = runner_env(tmp_path, gh, event=pr_event(base, head), DOCBOT_CONFIG="../elsewhere.json")
    assert action.main([], env) == 2 and "must be inside the repository" in capsys.readouterr().out


def test_the_push_authenticates_from_the_environment_only(tmp_path: Path) -> None:
    """With ``persist-credentials: false`` the checkout holds no credential the run step could read: the
    publish step's push brings the token itself, in git's environment (not argv, not .git/config)."""
    from docbot.github.commit import push_auth

    repo = GitRepo(tmp_path / "work")
    assert push_auth(repo.root, "") == {}
    auth = push_auth(repo.root, "ghs_pushT0ken")
    said = repo.git("config", "--get", "http.extraheader", env=auth).strip()
    assert said == "AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX3B1c2hUMGtlbg=="  # x-access-token:ghs_pushT0ken
    assert "ghs_pushT0ken" not in (repo.root / ".git" / "config").read_text()
    # A checkout that kept its own credential: a second Authorization header would be refused.
    repo.config("http.https://github.com/.extraheader", "AUTHORIZATION: basic kept")
    assert push_auth(repo.root, "ghs_pushT0ken") == {}


def pyproject_repo(tmp_path: Path, base_files: dict[str, str], pr_files: dict[str, str]) -> tuple[str, str]:
    """A repository whose base commit holds ``base_files`` and whose PR head changes them to ``pr_files``."""
    repo = GitRepo(tmp_path / "work")
    repo.write("pkg/geometry.py", "def area(w, h):\n    return w * h\n")
    for path, text in base_files.items():
        repo.write(path, text)
    repo.commit("base")
    base = repo.git("rev-parse", "HEAD").strip()
    for path, text in pr_files.items():
        repo.write(path, text)
    repo.commit("the PR")
    return base, repo.git("rev-parse", "HEAD").strip()


@pytest.mark.parametrize("base_files, expected", [
    ({"pyproject.toml": "[tool.docbot]\nquality_score_bar = 80\n"}, (80, "docs/api")),
    ({"pyproject.toml": "[tool.docbot]\nquality_score_bar = 80\ndocs_dir = 'ref'\n",
      "config.json": '{"docs_dir": "handbook"}'}, (80, "handbook")),  # config.json over [tool.docbot]
    ({}, (95, "docs/api")),
])
def test_the_base_commits_tool_docbot_is_read_never_the_prs(tmp_path: Path, gh: FakeGitHub, recorder: Recorder,
                                                             base_files: dict[str, str],
                                                             expected: tuple[int, str]) -> None:
    base, head = pyproject_repo(tmp_path, base_files, {
        "pyproject.toml": "[tool.docbot]\nquality_score_bar = 10\ndocs_dir = 'pr'\nrun_examples = true\n"})
    assert action.main([], runner_env(tmp_path, gh, event=pr_event(base, head, head_repo=FORK))) == 0
    [settings] = recorder.settings
    assert (settings.quality_score_bar, settings.docs_dir, settings.run_examples) == (*expected, False)


def test_a_base_config_json_that_is_not_docbots_is_ignored(tmp_path: Path, gh: FakeGitHub, recorder: Recorder,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    base, head = pyproject_repo(tmp_path, {"config.json": '{"app_name": "shop"}'}, {"pkg/other.py": "X = 1\n"})
    assert action.main([], runner_env(tmp_path, gh, event=pr_event(base, head))) == 0
    assert recorder.settings[0].quality_score_bar == 95
    assert (f"docbot: config.json at the base commit {base[:12]} has none of docbot's keys, so it is not "
            "docbot's configuration; ignored.") in capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("base_files, warned", [
    ({"pyproject.toml": "[tool.docbot]\napi_key = 'sk-base'\n"}, True),
    ({"config.json": '{"api_key": "sk-base"}'}, True),
    ({"config.json": '{"docs_dir": "docs/api"}'}, False),
])
def test_a_key_in_the_base_commit_is_warned_about(tmp_path: Path, gh: FakeGitHub, recorder: Recorder,
                                                  capsys: pytest.CaptureFixture[str], base_files: dict[str, str],
                                                  warned: bool) -> None:
    base, head = pyproject_repo(tmp_path, base_files, {"pkg/other.py": "X = 1\n"})
    assert action.main([], runner_env(tmp_path, gh, event=pr_event(base, head))) == 0
    out = capsys.readouterr().out
    assert any(line.startswith("::warning") and "sets api_key and is tracked by git" in line
               for line in out.splitlines()) is warned
    assert "sk-base" not in out
