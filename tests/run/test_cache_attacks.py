"""Attacks on the result cache outside the Action (docs/design.md#cache): a symlinked cache, a cache
shared by two repositories, a planted entry whose doc fails the exact checks, and cache I/O faults.
Each attack is first shown to work where the defence is absent (the cache opened the old way, by a
monkeypatch), then to fail against docbot.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from docbot.apidocs.render import render_section
from docbot.config.settings import Settings
from docbot.facts.function import extract_facts
from docbot.docmodel import DocModel, Example
from docbot.events import EventKind
from docbot.results import FunctionResult, RunReport, SectionStatus, Target
from docbot.run import cache as cache_module
from docbot.run import pipeline
from docbot.run.cache import ResultCache, cache_key, encode, facts_of
from docbot.scan.repo import DiffSpec
from tests.run.test_cache import ModelFake
from tests.support.events import CollectingSink
from tests.support.git_repo import GitRepo

AREA = "def area(w, h):\n    return abs(w * h)\n"
PLANTED = "PLANTED by another checkout"
DOC = "docs/api/pkg.geo.md"


def plant(folder: Path, target: Target, model: DocModel, markdown: str = f"## `area`\n\n{PLANTED}\n") -> None:
    """An entry for ``target`` under the cache ``folder``, as an attacker computes it offline."""
    key = cache_key(target, Settings(), facts_of(target))
    assert key is not None
    result = FunctionResult(target.module, target.qualname, "updated", path=target.path, scores=[100], rounds=1,
                            exit_reason="approved", approval=SectionStatus.APPROVED, doc_model=model,
                            markdown=markdown)
    path = folder / "results" / key[:2] / f"{key}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"format": cache_module.FORMAT, "key": key, "module": target.module,
                                "result": encode(result), "trajectory": []}), encoding="utf-8")


def victim(root: Path) -> GitRepo:
    return GitRepo(root).write("pkg/__init__.py", "").write("pkg/geo.py", AREA).commit("area")


def run(repo: GitRepo, fake: ModelFake, sink: CollectingSink | None = None) -> RunReport:
    return run_docs(repo, fake, sink or CollectingSink())


def run_docs(repo: GitRepo, fake: ModelFake, sink: CollectingSink) -> RunReport:
    return pipeline.run_docs(Settings(), repo.root, DiffSpec(all=True), (), sink, documenter_factory=fake.factory,
                             use_cache=True)


def warnings(sink: CollectingSink) -> list[str]:
    return [str(getattr(e, "message", "")) for e in sink.of_kind(EventKind.WARNING)]


@pytest.fixture
def old_way(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The defence switched off: the folder opened without the no-symlink rules."""
    monkeypatch.setattr(cache_module, "cache_folder", lambda root: root / ".docbot" / "cache")
    yield


TARGET = Target("pkg.geo", "area", "pkg/geo.py", 1, 2, "all", AREA)


@pytest.mark.parametrize("defended", [False, True])
def test_a_cache_shared_through_a_symlink_poisons_another_repository(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, defended: bool) -> None:
    attacker = victim(tmp_path / "attacker")
    (attacker.root / ".docbot").mkdir()
    plant(attacker.root / ".docbot" / "cache", TARGET, DocModel(summary=PLANTED))
    repo = victim(tmp_path / "victim")
    (repo.root / ".docbot").symlink_to(attacker.root / ".docbot")  # a shared self-hosted runner
    if not defended:
        monkeypatch.setattr(cache_module, "cache_folder", lambda root: root / ".docbot" / "cache")
    fake, sink = ModelFake(), CollectingSink()
    run_docs(repo, fake, sink)
    shipped = PLANTED in repo.read(DOC)
    assert (shipped, fake.documented) == ((False, ["area"]) if defended else (True, []))
    if defended:
        assert any("refusing to read or write through a symlink" in w for w in warnings(sink))


@pytest.mark.parametrize("defended", [False, True])
def test_a_symlinked_cache_folder_is_never_written_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            defended: bool) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    repo = victim(tmp_path / "repo")
    (repo.root / ".docbot").mkdir()
    (repo.root / ".docbot" / "cache").symlink_to(outside)
    if not defended:
        monkeypatch.setattr(cache_module, "cache_folder", lambda root: root / ".docbot" / "cache")
    fake = ModelFake()
    run(repo, fake)
    assert fake.documented == ["area"] and repo.read(DOC)  # the run itself always happens
    assert bool(list(outside.rglob("*.json"))) is not defended


@pytest.mark.parametrize("defended", [False, True])
def test_a_planted_entry_whose_example_is_wrong_is_documented_afresh(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, defended: bool) -> None:
    repo = victim(tmp_path / "repo")
    wrong = DocModel(summary=PLANTED, examples=(Example(code="from pkg.geo import area\nprint(area(2, 3))",
                                                        output="7"),))
    plant(repo.root / ".docbot" / "cache", TARGET, wrong)
    if not defended:  # rendered again, but not checked
        monkeypatch.setattr(pipeline, "checked", lambda hit, target, *_args: replace(
            hit.result, markdown=render_section(hit.result.doc_model, extract_facts(target.source, target.qualname),
                                                target.module)))
    fake = ModelFake()
    run(repo, fake)
    assert (PLANTED in repo.read(DOC), fake.documented) == ((False, ["area"]) if defended else (True, []))


def test_a_planted_entry_that_passes_the_checks_ships_rendered_not_raw(tmp_path: Path) -> None:
    repo = victim(tmp_path / "repo")
    plant(repo.root / ".docbot" / "cache", TARGET, DocModel(summary="The area."))
    fake = ModelFake()
    report = run(repo, fake)
    assert fake.documented == [] and report.results[0].reason == "cached"
    text = repo.read(DOC)
    assert "The area." in text and PLANTED not in text  # the stored Markdown is never written


@pytest.mark.parametrize("damage", ["folder is a file", "results is a file"])
def test_a_cache_fault_is_a_warning_and_a_run_without_the_cache(tmp_path: Path, damage: str) -> None:
    repo = victim(tmp_path / "repo")
    (repo.root / ".docbot").mkdir()
    if damage == "folder is a file":
        (repo.root / ".docbot" / "cache").write_text("x")
    else:
        (repo.root / ".docbot" / "cache").mkdir()
        (repo.root / ".docbot" / "cache" / "results").write_text("x")
    sink = CollectingSink()
    report = run_docs(repo, ModelFake(), sink)
    assert [r.status for r in report.results] == ["updated"] and repo.read(DOC)
    said = warnings(sink)
    assert len(said) == 1 and ("is not a folder" in said[0] or "cannot be written" in said[0]), said


def test_the_old_way_helper_reads_the_folder_as_it_is(tmp_path: Path, old_way: None) -> None:
    """The helper the attack tests use really is the undefended open (else they would prove nothing)."""
    assert cache_module.cache_folder(tmp_path) == tmp_path / ".docbot" / "cache"
    assert isinstance(cache_module.open_results(tmp_path, None, print), ResultCache)



@pytest.mark.parametrize("defended", [False, True])
def test_a_planted_entry_cannot_close_its_section_or_plant_another(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    defended: bool) -> None:
    """The stored Markdown could close its own section and open one for another function; the model's
    text, rendered again, is prose: the markers in it are escaped."""
    from docbot.apidocs.pages import parse_doc_file

    repo = victim(tmp_path / "repo")
    planted = "<!-- docbot:end area -->\n<!-- docbot:section other hash=000000000000 status=approved -->"
    plant(repo.root / ".docbot" / "cache", TARGET, DocModel(summary="The area.", description=planted),
          markdown=f"## `area`\n\nThe area.\n{planted}\nplanted\n")
    if not defended:  # the stored Markdown, trusted as it is
        monkeypatch.setattr(pipeline, "checked", lambda hit, *_args: replace(
            hit.result, markdown=f"## `area`\n\nThe area.\n{planted}\nplanted\n"))
    fake = ModelFake()
    run(repo, fake)
    sections = list(parse_doc_file(repo.read(DOC)).sections)
    assert fake.documented == [] and sections == (["area"] if defended else ["area", "other"]), sections
