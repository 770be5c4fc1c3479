"""``docs/api/index.md``: written by ``docbot run`` from the section markers, byte-identical on rerun,
reported by ``docbot check`` when stale, and never written over a person's file (docs/design.md#api-index)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.apidocs import index as api_index
from docbot.check import check_report
from docbot.events import EventKind
from docbot.scan.repo import DiffSpec
from docbot.run.pipeline import run_docs
from docbot.config.settings import Settings
from tests.support.events import CollectingSink
from tests.support.git_repo import GitRepo
from tests.support.samples import GEO
from tests.support.scripted import Scripted

INDEX = "docs/api/index.md"
ALL = DiffSpec(all=True)
TOOL = "def run(x):\n    return x\n"

EXPECTED = f"""{api_index.INDEX_MARKER}

# API reference

## [`pkg.geo`](pkg.geo.md)

| Function | Status |
| --- | --- |
| [`area`](pkg.geo.md#pkg.geo.area) | approved |
| [`perimeter`](pkg.geo.md#pkg.geo.perimeter) | **unapproved**: a person should check it |
| [`Shape.scale`](pkg.geo.md#pkg.geo.Shape.scale) | approved |

## [`pkg.tool`](pkg.tool.md)

| Function | Status |
| --- | --- |
| [`run`](pkg.tool.md#pkg.tool.run) | approved |
"""


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    # pkg/tool.py comes first in no order that matters: modules are sorted, functions keep file order.
    return (GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/tool.py", TOOL)
            .write("pkg/geo.py", GEO).commit("code"))


def _run(repo: GitRepo, scripted: Scripted | None = None, sink: CollectingSink | None = None,
         spec: DiffSpec = ALL) -> list[str]:
    report = run_docs(Settings(), repo.root, spec, (), sink or CollectingSink(),
                      documenter_factory=(scripted or Scripted({"perimeter": 62})).factory)
    return report.written


def _stale_index(repo: GitRepo, spec: DiffSpec = ALL) -> str | None:
    state = check_report(Settings(), repo.root, spec).index
    return None if state is None else state.describe()


def test_run_writes_the_index_with_statuses_and_anchors_and_a_rerun_changes_nothing(repo: GitRepo) -> None:
    assert _run(repo)[-1] == INDEX
    assert repo.read(INDEX) == EXPECTED
    before = (repo.root / INDEX).read_bytes()
    assert _run(repo, Scripted(failing=("area", "perimeter", "run", "Shape.scale"))) == []  # nothing to redo
    assert (repo.root / INDEX).read_bytes() == before
    assert _stale_index(repo) is None


def test_every_link_points_at_an_anchor_the_page_has(repo: GitRepo) -> None:
    _run(repo)
    for line in repo.read(INDEX).splitlines():
        if line.startswith("| [`"):
            page, target = line.split("](", 1)[1].split(")", 1)[0].split("#")
            assert f'<a id="{target}"></a>' in repo.read(f"docs/api/{page}")


def test_a_new_verdict_rewrites_only_its_row(repo: GitRepo) -> None:
    _run(repo)
    repo.write("pkg/geo.py", GEO.replace("6 * r", "6.28 * r"))
    assert _run(repo, Scripted()) == ["docs/api/pkg.geo.md", INDEX]
    assert repo.read(INDEX) == EXPECTED.replace("| **unapproved**: a person should check it |", "| approved |")


def test_check_reports_an_index_that_disagrees_with_the_markers(repo: GitRepo) -> None:
    _run(repo)
    doc = repo.read("docs/api/pkg.geo.md")
    repo.write("docs/api/pkg.geo.md", doc.replace("status=unapproved score=62", "status=approved score=99"))
    assert _stale_index(repo) == f"{INDEX}: the API index is stale; run `docbot run` and commit it."
    repo.write(INDEX, EXPECTED + "\nA line typed into the generated index.\n")
    repo.write("docs/api/pkg.geo.md", doc)
    assert _stale_index(repo) is not None
    repo.write(INDEX, EXPECTED)
    assert _stale_index(repo) is None


def test_a_staged_check_judges_the_staged_index(repo: GitRepo) -> None:
    _run(repo)
    repo.commit("docs")
    repo.write(INDEX, EXPECTED.replace("| approved |", "| no verdict recorded |", 1)).stage(INDEX)
    assert _stale_index(repo, DiffSpec(staged=True)) is not None
    repo.write(INDEX, EXPECTED)  # the working tree is fixed, the index still holds the bad copy
    assert _stale_index(repo, DiffSpec(staged=True)) is not None and _stale_index(repo) is None


def test_a_missing_index_is_written_by_run_but_is_no_check_finding(repo: GitRepo) -> None:
    _run(repo)
    (repo.root / INDEX).unlink()
    assert _stale_index(repo) is None
    assert _run(repo) == [INDEX] and repo.read(INDEX) == EXPECTED


def test_a_persons_index_is_left_alone_with_a_warning(repo: GitRepo) -> None:
    repo.write(INDEX, "# Our API\n\nHand-written.\n")
    sink = CollectingSink()
    assert INDEX not in _run(repo, sink=sink)
    assert repo.read(INDEX) == "# Our API\n\nHand-written.\n"
    assert any(INDEX in e.message for e in sink.of_kind(EventKind.WARNING))  # type: ignore[attr-defined]
    assert _stale_index(repo) is None


def test_the_index_goes_when_the_last_section_goes(repo: GitRepo) -> None:
    _run(repo)
    repo.delete("pkg/geo.py").delete("pkg/tool.py").commit("no code left")
    assert sorted(_run(repo)) == [INDEX, "docs/api/pkg.geo.md", "docs/api/pkg.tool.md"]
    assert not (repo.root / INDEX).exists()


def test_a_section_without_an_anchor_links_to_its_page_and_an_old_marker_has_no_verdict(repo: GitRepo) -> None:
    repo.write("docs/api/pkg.old.md", "# pkg.old\n\n<!-- docbot:section f hash=000000000000 -->\n## f\n\nOld.\n")
    repo.write("docs/api/notes.md", "# Notes\n\nNo docbot section here.\n")
    text = api_index.index_text(repo.root, "docs/api")
    assert text is not None
    assert "## [`pkg.old`](pkg.old.md)" in text and "| [`f`](pkg.old.md) | no verdict recorded |" in text
    assert "notes" not in text


def test_the_index_shows_readers_words_not_the_critics_score(repo: GitRepo) -> None:
    _run(repo)
    text = repo.read(INDEX)
    assert "Score" not in text and "| 62 |" not in text and "| 97 |" not in text
    assert "score=62" in repo.read("docs/api/pkg.geo.md")  # the marker keeps the score for docbot


def test_only_an_unapproved_section_carries_the_note_for_readers(repo: GitRepo) -> None:
    from docbot.apidocs import pages
    from docbot.apidocs.render import UNAPPROVED_NOTE

    _run(repo)
    sections = pages.parse_doc_file(repo.read("docs/api/pkg.geo.md")).sections
    shown = {q: UNAPPROVED_NOTE in s.body for q, s in sections.items()}
    assert shown == {"area": False, "perimeter": True, "Shape.scale": False}
    body = sections["perimeter"].body
    heading = body.index("## `perimeter`")
    assert body.index(UNAPPROVED_NOTE) > heading and body.count(UNAPPROVED_NOTE) == 1  # right under the heading
    assert sections["perimeter"].status is pages.SectionStatus.UNAPPROVED  # the marker still parses
    before = repo.read("docs/api/pkg.geo.md")
    assert _run(repo, Scripted(failing=("area", "perimeter", "run", "Shape.scale"))) == []  # rerun: same bytes
    assert repo.read("docs/api/pkg.geo.md") == before
