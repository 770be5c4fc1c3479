"""Issue 30 item 4: ``docbot check`` trusted what a PR wrote in docs/api. Each attack runs through the real CLI on a
real git repository and is asserted to fail: a forged ``status=approved score=100 body=<digest>`` marker, a forged
first copy of a section, a heading hidden in an HTML comment, and a person's section that contradicts the code."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.apidocs.pages import body_digest, end_marker_line, marker_line, source_hash
from docbot.fronts.cli import main
from docbot.results import SectionStatus
from docbot.scan.targets import public_functions
from tests.support.git_repo import GitRepo

DOC = "docs/api/pkg.geo.md"
GEO = ('def area(r):\n    """Area of a circle."""\n    if r < 0:\n        raise ValueError("r must be >= 0")\n'
       "    return 3 * r * r\n\n\ndef perimeter(r):\n    return 6 * r\n")


def _section(name: str, body: str, status: SectionStatus | None = SectionStatus.APPROVED, score: int | None = 97,
             source: str = GEO, digest: str | None = None) -> str:
    found = {f.qualname: f.source for f in public_functions(source, "pkg.geo", "pkg/geo.py")}
    marker = marker_line(name, source_hash(found[name]), status, score,
                         digest=body_digest(body) if digest is None else digest)
    return f"{marker}\n{body}\n\n{end_marker_line(name)}\n\n"


def _page(*sections: str) -> str:
    return "# pkg.geo\n\n" + "".join(sections)


TRUE_AREA = "## `area`\n\nThe area of a circle of radius `r`.\n\n**Raises:** `ValueError` if `r` is negative."
FALSE_AREA = "## `area`\n\nThe area of a circle of radius `r`.\n\n**Raises:** `TypeError` if `r` is negative."
PERIMETER = "## `perimeter`\n\nSix times `r`."


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    """main: the package and its docs, as docbot wrote them (area unapproved)."""
    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/geo.py", GEO)
    repo.write(DOC, _page(_section("area", TRUE_AREA, SectionStatus.UNAPPROVED, 62), _section("perimeter", PERIMETER)))
    repo.commit("base").git("checkout", "-q", "-b", "pr")
    monkeypatch.chdir(repo.root)
    return repo


def _check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["check", *argv])
    out, err = capsys.readouterr()
    return code, out + err


def test_a_forged_approved_marker_does_not_pass_check_strict(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    forged = _page(_section("area", TRUE_AREA, SectionStatus.APPROVED, 100), _section("perimeter", PERIMETER))
    repo.write(DOC, forged).write("pkg/geo.py", GEO + "\n").commit("approve area myself")
    code, shown = _check(capsys, "--base", "main", "--strict")
    assert code == 1 and "pkg.geo.area: doc is current but unapproved (its status= was written in this diff" in shown
    assert "pkg.geo.perimeter" not in shown  # the base's own verdict stands
    assert _check(capsys, "--base", "main")[0] == 0  # listed, a failure only with --strict


def test_a_forged_approval_over_a_false_body_is_a_contradiction(repo: GitRepo,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    repo.write(DOC, _page(_section("area", FALSE_AREA, SectionStatus.APPROVED, 100), _section("perimeter", PERIMETER)))
    repo.commit("a forged approval over a wrong exception")
    code, shown = _check(capsys, "--base", "main")
    assert code == 1 and "pkg.geo.area: its section (a person's, or one whose verdict docbot did not give) " \
        "contradicts the code: the doc says area() raises TypeError" in shown, shown


def test_a_forged_first_copy_of_a_section_fails(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    real = _section("area", TRUE_AREA, SectionStatus.UNAPPROVED, 62)
    repo.write(DOC, _page(_section("area", TRUE_AREA, SectionStatus.APPROVED, 100), real,
                          _section("perimeter", PERIMETER))).commit("a first copy")
    code, shown = _check(capsys, "--all")
    assert code == 1 and "pkg.geo.area: has more than one section" in shown, shown


def test_a_heading_inside_an_html_comment_is_no_section(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    repo.write(DOC, _page(_section("perimeter", PERIMETER)) + "<!--\n## `area`\n\nHidden from every reader.\n-->\n")
    repo.commit("hide area's section")
    code, shown = _check(capsys, "--all")
    assert code == 1 and "pkg.geo.area: has no doc section" in shown, shown
    repo.write(DOC, _page(_section("perimeter", PERIMETER)) + "## `area`\n\nShown: the area of a circle.\n")
    repo.commit("a person's section, visible")
    assert _check(capsys, "--all")[0] == 0  # control: the same heading, visible, is the person's section


@pytest.mark.parametrize("kept", [
    pytest.param(lambda: "## `area`\n\nThe area. Raises `TypeError` if `r` is negative.\n", id="written by hand"),
    pytest.param(lambda: _section("area", FALSE_AREA, SectionStatus.APPROVED, 97, digest=body_digest(TRUE_AREA)),
                 id="docbot's section, its body edited by a person"),
])
def test_a_section_a_person_kept_is_held_to_the_exact_checks(repo: GitRepo, capsys: pytest.CaptureFixture[str],
                                                             kept: object) -> None:
    assert callable(kept)
    repo.write(DOC, _page(_section("perimeter", PERIMETER)) + kept()).commit("a person's area")
    code, shown = _check(capsys, "--all")
    assert code == 1 and "pkg.geo.area: its section (a person's, or one whose verdict docbot did not give) " \
        "contradicts the code" in shown, shown
    assert "raises TypeError" in shown


def test_a_true_section_a_person_kept_passes(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    repo.write(DOC, _page(_section("perimeter", PERIMETER)) + TRUE_AREA + "\n").commit("a person's true area")
    assert _check(capsys, "--all") == (0, "docbot check: all docs are current.\n")
