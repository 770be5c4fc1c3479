"""``docbot run`` never loses a person's text in docs/api (issue 12, items 9-12), on real git repositories.

Each test is the issue's repro: a doc file docbot wrote, what a person did to it, one more run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.check import check_docs
from docbot.apidocs.pages import parse_doc_file
from docbot.events import Event, EventKind
from docbot.scan.repo import DiffSpec
from docbot.results import DocNotice, FunctionResult, NoticeKind, RunReport, Target
from docbot.run.pipeline import run_docs
from docbot.config.settings import Settings
from tests.support.git_repo import GitRepo
from tests.support.samples import GEO

DOC = "docs/api/pkg.geo.md"
INDEX = "docs/api/index.md"
ALL = DiffSpec(all=True)
APPENDIX = "## Appendix: units\n\nAll lengths are in metres. Written by hand."
INTRO = "Shapes of the geometry package; an overview written by a person."


class Documenter:
    """Writes ``Doc v<n> of <name>``; ``during`` runs inside the first call (a person at work meanwhile)."""

    def __init__(self, during: object = None) -> None:
        self.calls = 0
        self.during = during

    def __call__(self, target: Target, current: str) -> FunctionResult:
        self.calls += 1
        if callable(self.during) and self.calls == 1:
            self.during()
        return FunctionResult(target.module, target.qualname, "updated",
                              markdown=f"## `{target.qualname}`\n\nDoc v{self.calls} of {target.qualname}.")


def run(repo: GitRepo, spec: DiffSpec = ALL, documenter: Documenter | None = None,
        settings: Settings | None = None) -> tuple[RunReport, list[Event]]:
    seen: list[Event] = []
    report = run_docs(settings or Settings(), repo.root, spec, (), seen.append,
                      documenter_factory=lambda: documenter or Documenter())
    return report, seen


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/geo.py", GEO)
    repo.commit("geo")
    run(repo)
    return repo.commit("docs")


def change_area(repo: GitRepo) -> GitRepo:
    return repo.write("pkg/geo.py", GEO.replace("3 * r * r", "3.14159 * r * r")).commit("precise area")


def test_an_appendix_after_the_last_section_survives_its_regeneration(repo: GitRepo) -> None:
    repo.write(DOC, repo.read(DOC) + "\n" + APPENDIX + "\n").commit("appendix")
    repo.write("pkg/geo.py", GEO.replace("return k", "return k * 2")).commit("scale changed")  # the last section
    report, _ = run(repo, DiffSpec(base="HEAD~1"))
    assert [(r.qualname, r.status) for r in report.results] == [("Shape.scale", "updated")]
    text = repo.read(DOC)
    assert text.endswith("\n\n" + APPENDIX + "\n"), text
    assert "Doc v1 of Shape.scale." in text and text.count("Appendix") == 1


def test_a_hand_written_title_and_intro_are_kept(repo: GitRepo) -> None:
    repo.write(DOC, repo.read(DOC).replace("# pkg.geo\n", f"# Geometry reference\n\n{INTRO}\n", 1)).commit("title")
    change_area(repo)
    run(repo, DiffSpec(base="HEAD~1"))
    assert repo.read(DOC).startswith(f"# Geometry reference\n\n{INTRO}\n\n<!-- docbot:section area hash=")


def test_excluding_a_module_removes_only_docbots_sections(repo: GitRepo) -> None:
    repo.write(DOC, repo.read(DOC).replace("# pkg.geo\n", f"# pkg.geo\n\n{INTRO}\n", 1)).commit("intro")
    report, seen = run(repo, settings=Settings(exclude=["pkg/geo.py"]))
    assert report.written == [DOC, INDEX]
    assert repo.read(DOC) == f"# pkg.geo\n\n{INTRO}\n"  # the person's text, and nothing of docbot's
    notice = DocNotice(NoticeKind.SECTIONS_REMOVED, DOC, ("area", "perimeter", "Shape.scale"))
    assert report.notices == [notice]
    assert [e.message for e in seen if e.kind is EventKind.WARNING] == [notice.describe()]
    assert "kept" in notice.describe() and DOC in notice.describe()
    assert run(repo, settings=Settings(exclude=["pkg/geo.py"]))[0].written == []  # and it stays


def test_a_file_with_nothing_else_in_it_is_removed_and_the_run_says_so(repo: GitRepo) -> None:
    report, seen = run(repo, settings=Settings(exclude=["pkg/geo.py"]))
    assert report.written == [DOC, INDEX] and not (repo.root / DOC).exists()
    notice = DocNotice(NoticeKind.FILE_REMOVED, DOC, ("area", "perimeter", "Shape.scale"))
    assert report.notices == [notice] and notice.describe() in [e.message for e in seen if e.kind is EventKind.WARNING]
    assert report.to_json()["notices"] == [notice.to_json()]


def test_an_edit_made_during_the_run_is_kept_and_the_function_is_reported(repo: GitRepo) -> None:
    edited = repo.read(DOC).replace("# pkg.geo\n", "# pkg.geo\n\nA note typed while docbot worked.\n", 1)
    change_area(repo)
    report, seen = run(repo, DiffSpec(base="HEAD~1"), Documenter(during=lambda: repo.write(DOC, edited)))
    assert repo.read(DOC) == edited  # the person's version, untouched
    assert report.written == []
    assert [(r.qualname, r.status) for r in report.results] == [("area", "failed")]
    assert "edited while docbot ran" in report.results[0].reason
    assert report.results[0].markdown == "## `area`\n\nDoc v1 of area."  # docbot's text is in the report
    notice = DocNotice(NoticeKind.EDITED_DURING_RUN, DOC, ("area",))
    assert report.notices == [notice] and notice.describe() in [e.message for e in seen if e.kind is EventKind.WARNING]
    left = [p for p in (repo.root / "docs/api").iterdir() if p.name not in ("pkg.geo.md", "index.md")]
    assert not left  # no temp file left


def test_a_doc_file_created_during_the_run_is_kept(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/geo.py", GEO).commit("geo")
    report, _ = run(repo, documenter=Documenter(during=lambda: repo.write(DOC, "# Started by hand\n")))
    assert repo.read(DOC) == "# Started by hand\n"
    assert {r.status for r in report.results} == {"failed"} and report.written == []


def test_an_unedited_file_is_still_written(repo: GitRepo) -> None:
    change_area(repo)
    report, _ = run(repo, DiffSpec(base="HEAD~1"), Documenter(during=lambda: None))
    assert report.written == [DOC] and report.notices == [] and "Doc v1 of area." in repo.read(DOC)


def test_removing_one_functions_section_is_no_notice(repo: GitRepo) -> None:
    repo.write("pkg/geo.py", GEO.replace("def perimeter(r):\n    return 6 * r\n", "")).commit("no perimeter")
    report, seen = run(repo, DiffSpec(base="HEAD~1"))
    assert report.written == [DOC, INDEX] and report.notices == []
    assert not [e for e in seen if e.kind is EventKind.WARNING]
    assert list(parse_doc_file(repo.read(DOC)).sections) == ["area", "Shape.scale"]


def test_a_duplicated_section_is_reported_and_kept(repo: GitRepo) -> None:
    text = repo.read(DOC)
    copy = text[text.index("<!-- docbot:section perimeter"):text.index("<!-- docbot:end perimeter -->")]
    copy += "<!-- docbot:end perimeter -->"
    repo.write(DOC, text + "\n" + copy.replace("Doc v2", "An older copy") + "\n").commit("botched merge")
    change_area(repo)
    report, seen = run(repo, DiffSpec(base="HEAD~1"))
    after = repo.read(DOC)
    assert "An older copy of perimeter." in after and "Doc v1 of area." in after
    assert after.count("<!-- docbot:section perimeter ") == 2
    notice = DocNotice(NoticeKind.DUPLICATE_SECTION, DOC, ("perimeter",))
    assert notice in report.notices and notice.describe() in [e.message for e in seen if e.kind is EventKind.WARNING]
    assert list(parse_doc_file(after).sections) == ["area", "perimeter", "Shape.scale"]


def test_check_fails_on_a_duplicated_section(repo: GitRepo) -> None:
    """Issue 30: a forged first copy of a section won over the real one and check passed. Which copy is docbot's
    cannot be told from the text, so a second section is a failing finding, whichever comes first."""
    text = repo.read(DOC)
    start = text.index("<!-- docbot:section area")
    repo.write(DOC, text + "\n" + text[start:text.index("<!-- docbot:section perimeter")]).commit("dup")
    [entry] = check_docs(Settings(), repo.root, ALL)
    assert (entry.qualname, entry.status, entry.doc_path) == ("area", "duplicate", DOC)
    assert "more than one section" in entry.describe()


@pytest.mark.parametrize("spec", [ALL, DiffSpec(staged=True)])
def test_undecodable_bytes_a_person_wrote_stop_the_write_naming_the_file(repo: GitRepo, spec: DiffSpec) -> None:
    """Issue 22 item 5: latin-1 bytes in a docs/api file were decoded as U+FFFD and written back, for good."""
    from docbot.errors import ConfigError

    doc = repo.root / DOC
    before = doc.read_bytes() + "\n## Appendix\n\nCaf\u00e9 au lait, by hand.\n".encode("latin-1")
    doc.write_bytes(before)
    repo.write("pkg/geo.py", GEO.replace("3 * r * r", "3.14159 * r * r")).git("add", "-A")
    with pytest.raises(ConfigError, match=r"docs/api/pkg\.geo\.md: byte 0xe9 at offset \d+ is not UTF-8") as raised:
        run(repo, spec)
    assert raised.value.exit_code == 2
    assert doc.read_bytes() == before  # every byte as the person left it
