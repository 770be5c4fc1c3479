"""Attacks on docbot's caches through the real two-step Action (run, then publish) on the loopback
GitHub fake (docs/design.md#cache). A pull request commits a forged result entry (its key is plain
SHA-256 over public material, so computable offline) or a forged ``scan.json``. Each attack is first
shown to work where the defence is absent, then to fail against docbot.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from docbot.config.settings import Settings
from docbot.docmodel import DocModel
from docbot.fronts.action import run_action
from docbot.results import FunctionResult, SectionStatus, Target
from docbot.run import cache as cache_module
from docbot.run import pipeline
from docbot.run.cache import ResultCache, cache_key, decode, encode, facts_of
from docbot.scan.cache import ScanCache, blob_id
from tests.support.action_env import PR, git, pr_event, runner_env, write
from tests.support.fake_github import FakeGitHub

pytest_plugins = ["tests.support.action_fixtures"]  # the gh fixture

AREA = "def area(w, h):\n    return abs(w * h)\n"
FORGED = "FORGED by the pull request"


class Honest:
    """The loop, replaced: counts its calls and documents honestly."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def factory(self) -> Any:
        return self.document

    def document(self, target: Target, current: str) -> FunctionResult:
        from docbot.apidocs.render import render_section
        from docbot.facts.function import extract_facts

        self.calls.append(target.qualname)
        model = DocModel(summary="The area of a w by h rectangle.")
        return FunctionResult(target.module, target.qualname, "updated", path=target.path, scores=[96], rounds=1,
                              exit_reason="approved", doc_model=model, approval=SectionStatus.APPROVED,
                              markdown=render_section(model, extract_facts(target.source, target.qualname),
                                                      target.module))


def forged_entry(target: Target, settings: Settings) -> tuple[str, str]:
    """The entry a pull request commits: its path in .docbot/cache and its JSON text."""
    key = cache_key(target, settings, facts_of(target))
    assert key is not None
    model = DocModel(summary=f"{FORGED}: @octocat https://evil.example",
                     notes="Raises `ValueError` when w is negative.")
    result = FunctionResult(target.module, target.qualname, "updated", path=target.path, scores=[100], rounds=1,
                            exit_reason="approved", approval=SectionStatus.APPROVED, doc_model=model,
                            markdown=f"## `area`\n\n{FORGED} (raw Markdown)\n<!-- docbot:end area -->\n"
                                     "<!-- docbot:section other hash=0 -->")
    entry = {"format": cache_module.FORMAT, "key": key, "module": target.module, "result": encode(result),
             "trajectory": [{"round": 1, "score": 100}]}
    return f".docbot/cache/results/{key[:2]}/{key}.json", json.dumps(entry)


@pytest.fixture
def pr(tmp_path: Path) -> dict[str, Any]:
    """The runner's checkout: the head adds ``area`` and commits a forged, tracked cache entry for it."""
    work = tmp_path / "work"
    work.mkdir()
    git(work, "init", "-q")
    write(work / "pkg" / "__init__.py", "")
    write(work / "pkg" / "geometry.py", "X = 1\n")
    git(work, "add", "-A"), git(work, "commit", "-qm", "base")
    base = git(work, "rev-parse", "HEAD")
    write(work / "pkg" / "geometry.py", "X = 1\n\n\n" + AREA)
    target = Target("pkg.geometry", "area", "pkg/geometry.py", 4, 5, "added", AREA)
    rel, text = forged_entry(target, Settings())
    write(work / rel, text)
    git(work, "add", "-f", "-A"), git(work, "commit", "-qm", "head: area, and a cache entry for it")
    return {"work": work, "base": base, "head": git(work, "rev-parse", "HEAD")}


class OldCache(ResultCache):
    """The cache the old way: a hit's stored Markdown, trusted as it is."""

    def get(self, key: str, target: Target) -> Any:
        entry = json.loads((self.folder / "results" / key[:2] / f"{key}.json").read_text(encoding="utf-8"))
        return cache_module.Hit(decode(FunctionResult, entry["result"]), [])


def two_steps(tmp_path: Path, gh: FakeGitHub, pr: dict[str, Any]) -> str:
    """The Action's run step (no token), then its publish step; the sticky comment it posted."""
    env = runner_env(tmp_path, gh, event=pr_event(pr["base"], pr["head"]))
    report = str(tmp_path / "temp" / "docbot-run.json")
    out = io.StringIO()
    assert run_action({**env, "DOCBOT_TOKEN": ""}, ["run", "--report", report], out=out) == 0, out.getvalue()
    assert run_action(env, ["publish", "--report", report], out=out) == 0, out.getvalue()
    return str(gh.comments[PR][0]["body"])


def test_a_forged_tracked_result_entry_ships_where_the_cache_is_trusted(
        tmp_path: Path, gh: FakeGitHub, pr: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    honest = Honest()
    monkeypatch.setattr(pipeline, "_default_factory", lambda *_args: honest.factory)
    monkeypatch.setattr(pipeline, "open_results", lambda root, _outside, _warn: OldCache(root / ".docbot/cache"))
    monkeypatch.setattr(pipeline, "checked", lambda hit, *_args: hit.result)
    comment = two_steps(tmp_path, gh, pr)
    assert FORGED in comment and honest.calls == []  # the attack: shipped, 0 model calls
    assert FORGED in (pr["work"] / "docs/api/pkg.geometry.md").read_text(encoding="utf-8")


def test_a_forged_tracked_result_entry_is_never_read_by_the_action(
        tmp_path: Path, gh: FakeGitHub, pr: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    honest = Honest()
    monkeypatch.setattr(pipeline, "_default_factory", lambda *_args: honest.factory)
    comment = two_steps(tmp_path, gh, pr)
    assert FORGED not in comment and honest.calls == ["area"]
    assert FORGED not in (pr["work"] / "docs/api/pkg.geometry.md").read_text(encoding="utf-8")
    assert list((tmp_path / "temp" / "docbot-cache" / "results").rglob("*.json"))  # its own cache: runner temp


def test_the_workspace_cache_is_refused_when_git_tracks_it(
        tmp_path: Path, gh: FakeGitHub, pr: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Even without the Action's runner-temp cache (docbot by hand in the checkout), the tracked entry is
    not read, and the run says why."""
    honest = Honest()
    monkeypatch.setattr(pipeline, "_default_factory", lambda *_args: honest.factory)
    env = runner_env(tmp_path, gh, event=pr_event(pr["base"], pr["head"]))
    del env["RUNNER_TEMP"]
    monkeypatch.chdir(tmp_path / "temp")
    out = io.StringIO()
    assert run_action({**env, "DOCBOT_TOKEN": ""}, ["run", "--report", str(tmp_path / "r.json")], out=out) == 0
    assert honest.calls == ["area"] and "cache is not used: files under .docbot are tracked by git" in (
        capsys.readouterr().out)
    assert FORGED not in (pr["work"] / "docs/api/pkg.geometry.md").read_text(encoding="utf-8")


# --- a forged scan.json against the gate ----------------------------------------------------------


def forge_scan(work: Path, source: str) -> None:
    """A scan.json that says the file holds no public function, committed with the pull request."""
    forged = ScanCache(work / ".docbot" / "cache" / "scan.json")  # in the cache's own format, whatever it is
    forged.put(blob_id(source.encode()), False, [])
    forged.save()
    git(work, "add", "-f", "-A"), git(work, "commit", "-qm", "forged scan cache")


@pytest.fixture
def gate(tmp_path: Path) -> dict[str, Any]:
    work = tmp_path / "work"
    work.mkdir()
    git(work, "init", "-q")
    write(work / "pkg" / "__init__.py", "")
    write(work / "pkg" / "geometry.py", "X = 1\n")
    write(work / "docs" / "api" / "pkg.geometry.md", "# pkg.geometry\n")
    git(work, "add", "-A"), git(work, "commit", "-qm", "base")
    base = git(work, "rev-parse", "HEAD")
    source = "X = 1\n\n\n" + AREA  # an undocumented public function
    write(work / "pkg" / "geometry.py", source)
    git(work, "commit", "-qam", "head")
    forge_scan(work, source)
    return {"work": work, "base": base, "head": git(work, "rev-parse", "HEAD")}


def check_all(work: Path) -> int:
    from docbot.fronts.cli import main

    return main(["check", "--all"])


def test_a_forged_tracked_scan_cache_hides_a_function_where_it_is_trusted(
        gate: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    from docbot.scan.cache import ScanCache

    monkeypatch.chdir(gate["work"])
    monkeypatch.setattr(ScanCache, "in_repo", classmethod(lambda cls, root: cls(root / ".docbot/cache/scan.json")))
    assert check_all(gate["work"]) == 0  # the attack: the gate passes an undocumented function


def test_a_forged_tracked_scan_cache_does_not_fool_check(gate: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(gate["work"])
    assert check_all(gate["work"]) == 1
    assert "area" in capsys.readouterr().out


def test_a_forged_tracked_scan_cache_does_not_fool_the_actions_check(
        tmp_path: Path, gh: FakeGitHub, gate: dict[str, Any]) -> None:
    env = runner_env(tmp_path, gh, event=pr_event(gate["base"], gate["head"]), DOCBOT_MODE="check")
    report = str(tmp_path / "temp" / "docbot-run.json")
    out = io.StringIO()
    assert run_action({**env, "DOCBOT_TOKEN": ""}, ["run", "--report", report], out=out) == 0, out.getvalue()
    run_action(env, ["publish", "--report", report], out=out)
    assert "area" in str(gh.comments[PR][0]["body"])
