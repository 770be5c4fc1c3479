"""A section a person wrote in docs/api is theirs (issue 21): a docbot section whose body they edited (the
marker's ``body=`` digest differs) or a section of their own whose heading names the function. ``docbot run``
keeps it, writes no second section, reports "hand-edited, kept" and offers its draft as a suggestion."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.apidocs import homes, pages
from docbot.check import check_report
from docbot.config.settings import Settings
from docbot.run.pipeline import run_docs
from docbot.scan.repo import DiffSpec
from tests.support.events import CollectingSink
from tests.support.git_repo import GitRepo
from tests.support.scripted import Scripted

GEO = "def area(w, h):\n    return w * h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n"
DOC = "docs/api/pkg.geo.md"


@pytest.mark.parametrize("body, marker_digest, edited", [
    ("## `f`\n\nDocbot's words.", "same", False),
    ("## `f`\n\nDocbot's words.   \n\n", "same", False),  # trailing blanks: normalised, not an edit
    ("## `f`\n\nA person's words.", "of docbot's words", True),
    ("## `f`\n\nDocbot's words.", "", False),  # a marker from before digests: nothing to compare
])
def test_a_body_is_hand_edited_when_its_digest_differs(body: str, marker_digest: str, edited: bool) -> None:
    digest = {"same": pages.body_digest("## `f`\n\nDocbot's words."),
              "of docbot's words": pages.body_digest("## `f`\n\nDocbot's words."), "": ""}[marker_digest]
    text = pages.render_doc_file("m", {"f": pages.Section("abc", body, digest=digest)})
    section = pages.parse_doc_file(text).sections["f"]
    assert section.digest == digest and section.hand_edited is edited


@pytest.mark.parametrize("heading, qualname, named", [
    ("## `area`", "area", True),
    ("### area(w, h)", "area", True),
    ("## `pkg.geo.area`", "area", True),
    ("#### def area", "area", True),
    ("## Shape.scale", "Shape.scale", True),
    ("## `areas`", "area", False),
    ("## Usage", "area", False),
    ("Some text naming area", "area", False),
    ("```\n## area\n```", "area", False),  # a heading inside a code fence is an example, not a section
])
def test_a_persons_heading_names_the_function(heading: str, qualname: str, named: bool) -> None:
    doc = pages.parse_doc_file(f"# pkg.geo\n\n{heading}\n\nTheir words.\n")
    assert homes.names_function(homes.hand_written(doc), qualname) is named


def _repo(tmp_path: Path) -> GitRepo:
    return GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/geo.py", GEO).commit("code")


def _run(repo: GitRepo, scripted: Scripted) -> dict[str, tuple[str, str, str]]:
    report = run_docs(Settings(), repo.root, DiffSpec(all=True), (), CollectingSink(),
                      documenter_factory=scripted.factory)
    return {r.qualname: (r.status.value, r.reason, r.markdown[:20]) for r in report.results}


def _edit_code(repo: GitRepo) -> None:
    repo.write("pkg/geo.py", GEO.replace("return w * h", "return h * w")).commit("code changed")


def test_an_edited_docbot_section_is_kept_and_its_draft_is_a_suggestion(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    _run(repo, Scripted())
    text = repo.read(DOC)
    theirs = text.replace("Compute area for the caller.", "The area, in square units (a person's words).")
    repo.write(DOC, theirs).commit()
    _edit_code(repo)
    results = _run(repo, Scripted())
    status, reason, draft = results["area"]
    assert (status, reason.split(":")[0]) == ("unchanged", "hand-edited, kept") and draft  # the suggestion
    after = repo.read(DOC)
    assert after.count("a person's words") == 1 and "Compute area for the caller." not in after
    assert after.count('<a id="pkg.geo.area">') == 1  # no second section
    section = pages.parse_doc_file(after).sections["area"]
    assert section.hand_edited and section.status is None  # still theirs; no verdict on their words
    assert check_report(Settings(), repo.root, DiffSpec(all=True), index=False).stale == []


def test_control_an_unedited_section_is_rewritten_when_the_code_changes(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    _run(repo, Scripted())
    before = pages.parse_doc_file(repo.read(DOC)).sections["area"]
    _edit_code(repo)
    assert _run(repo, Scripted())["area"][0] == "updated"
    after = pages.parse_doc_file(repo.read(DOC)).sections["area"]
    assert after.hash != before.hash and not after.hand_edited and after.status is pages.SectionStatus.APPROVED


HAND = "# pkg.geo\n\n## `area`\n\nThe area of a `w` by `h` rectangle, written by a person.\n"


@pytest.mark.parametrize("page, kept", [
    (HAND, True),
    (HAND.replace("## `area`", "### area(w, h)"), True),
    (HAND.replace("## `area`", "## Usage"), False),  # a heading naming no function: docbot documents area
])
def test_a_section_a_person_wrote_without_a_marker_is_not_duplicated(tmp_path: Path, page: str, kept: bool) -> None:
    repo = _repo(tmp_path).write(DOC, page).commit("their docs")
    results = _run(repo, Scripted())
    after = repo.read(DOC)
    assert after.startswith(page.rstrip("\n"))  # their text, as it was
    assert ("<!-- docbot:section area " in after) is not kept
    assert results["area"][0] == ("unchanged" if kept else "updated")
    assert results["area"][1].startswith("hand-edited, kept") is kept
    assert "<!-- docbot:section perimeter " in after  # the function they did not write about is documented
    assert check_report(Settings(), repo.root, DiffSpec(all=True), index=False).stale == []  # theirs is its doc


@pytest.mark.parametrize("theirs, verdict", [
    ("The area of a `w` by `h` rectangle.", "docbot's checks find no contradiction in it"),
    ("The area.\n\n**Parameters**\n\n- `depth`: the depth.", "it contradicts the code: the doc documents a parameter "
                                                            "`depth`"),
    ("Returns nothing.", "it contradicts the code: the doc says area() returns nothing"),
])
def test_a_kept_section_is_checked_like_any_doc(tmp_path: Path, theirs: str, verdict: str) -> None:
    repo = _repo(tmp_path).write(DOC, f"# pkg.geo\n\n## `area`\n\n{theirs}\n").commit("their docs")
    reason = _run(repo, Scripted())["area"][1]
    assert reason.startswith("hand-edited, kept") and f"; {verdict}" in reason
