"""The section markers' states through the real CLI: ``docbot check`` (with and without ``--strict``) and
``docbot run``'s exit codes for approved, unapproved and failed functions (docs/design.md#exit-codes)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from docbot.run import pipeline as run_module
from docbot.apidocs.pages import render_doc_file, source_hash
from docbot.errors import FINDINGS, UNAPPROVED
from docbot.fronts.cli import main
from docbot.results import FunctionResult, RunReport, SectionStatus
from docbot.scan.targets import public_functions
from tests.support.git_repo import GitRepo
from tests.support.samples import GEO
from tests.support.scripted import Scripted

DOC = "docs/api/pkg.geo.md"
INDEX = "docs/api/index.md"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/geo.py", GEO).commit("geo")
    monkeypatch.chdir(repo.root)
    return repo


def _use(monkeypatch: pytest.MonkeyPatch, scripted: Scripted) -> None:
    """``docbot run`` builds the scripted documenter instead of the loop (the loop is another test's)."""
    monkeypatch.setattr(run_module, "_default_factory", lambda *args: scripted.factory)


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _docs_by_hand(repo: GitRepo, states: dict[str, tuple[SectionStatus | None, int | None]]) -> None:
    """Current sections for every function of GEO, with the given marker states (the rest approved)."""
    functions = public_functions(GEO, "pkg.geo", "pkg/geo.py")
    sections = {f.qualname: (source_hash(f.source), f"## `{f.qualname}`\n\nDoc.",
                             *states.get(f.qualname, (SectionStatus.APPROVED, 97))) for f in functions}
    repo.write(DOC, render_doc_file("pkg.geo", sections))  # type: ignore[arg-type]


@pytest.mark.parametrize("states, plain, strict, listed", [
    ({}, 0, 0, []),
    ({"perimeter": (SectionStatus.UNAPPROVED, 62)}, 0, 1, ["perimeter"]),
    ({"perimeter": (None, None)}, 0, 0, []),  # a marker from before the gate recorded a verdict
    ({"area": (SectionStatus.UNAPPROVED, None), "Shape.scale": (SectionStatus.UNAPPROVED, 40)}, 0, 1,
     ["area", "Shape.scale"]),
])
def test_check_lists_unapproved_sections_and_strict_fails_on_them(
        repo: GitRepo, capsys: pytest.CaptureFixture[str], states: dict[str, Any], plain: int, strict: int,
        listed: list[str]) -> None:
    _docs_by_hand(repo, states)
    code, out, err = _cli(capsys, "check", "--json")
    assert code == plain, err
    found = json.loads(out)
    assert [e["qualname"] for e in found["unapproved"]] == listed and found["stale"] == [] and not found["strict"]
    code, out, err = _cli(capsys, "check", "--strict")
    assert code == strict
    assert [line.split(": ")[1] for line in out.splitlines()] == [f"pkg.geo.{q}" for q in listed]
    assert ("unapproved" in err) == bool(listed)


def test_an_unapproved_section_that_is_also_stale_is_reported_as_stale_only(
        repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    _docs_by_hand(repo, {"perimeter": (SectionStatus.UNAPPROVED, 62)})
    repo.write("pkg/geo.py", GEO.replace("6 * r", "6.28 * r"))
    code, out, _ = _cli(capsys, "check", "--json")
    found = json.loads(out)
    assert code == 1 and [(e["qualname"], e["status"]) for e in found["stale"]] == [("perimeter", "stale")]
    assert found["unapproved"] == []


def test_the_unapproved_line_names_the_score_and_the_fix(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    _docs_by_hand(repo, {"perimeter": (SectionStatus.UNAPPROVED, 62)})
    _, out, _ = _cli(capsys, "check")
    assert out.strip() == (f"pkg/geo.py:6: pkg.geo.perimeter: doc is current but unapproved (score 62); review it "
                           f"in {DOC}, or change the function and run `docbot run` again")


@pytest.mark.parametrize("unapproved, failing, code", [
    ({}, (), 0),
    ({"perimeter": 62}, (), UNAPPROVED),
    ({}, ("area",), FINDINGS),
    ({"perimeter": 62}, ("area",), FINDINGS),  # a failure outranks an unapproved section
])
def test_run_exit_codes_tell_approved_unapproved_and_failed_apart(
        repo: GitRepo, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        unapproved: dict[str, int], failing: tuple[str, ...], code: int) -> None:
    _use(monkeypatch, Scripted(unapproved, failing))
    got, out, err = _cli(capsys, "run", "--all")
    assert got == code, err
    assert ("unapproved" in err) == bool(unapproved)
    marker = "<!-- docbot:section perimeter hash="
    line = next(ln for ln in repo.read(DOC).splitlines() if ln.startswith(marker))
    assert re.search(r" status=unapproved score=62 body=[0-9a-f]{12} -->$" if unapproved
                     else r" status=approved score=97 body=[0-9a-f]{12} -->$", line)
    assert _cli(capsys, "check", "--strict")[0] == (1 if unapproved or failing else 0)


def test_run_json_carries_the_exit_code_and_a_rerun_is_current(
        repo: GitRepo, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _use(monkeypatch, Scripted({"perimeter": 62}))
    code, out, _ = _cli(capsys, "run", "--all", "--json")
    report = json.loads(out)
    assert code == UNAPPROVED and report["exit_code"] == UNAPPROVED
    assert {r["qualname"]: r["approval"] for r in report["results"]} == {
        "area": "approved", "perimeter": "unapproved", "Shape.scale": "approved"}
    # Nothing changed: the functions are current, nothing is written unapproved by this run.
    assert _cli(capsys, "run", "--all")[0] == 0


@pytest.mark.parametrize("statuses, code", [
    ([("updated", SectionStatus.APPROVED)], 0),
    ([("unchanged", None), ("skipped", None)], 0),
    ([("updated", None)], 0),  # no verdict recorded: nothing says it was unapproved
    ([("updated", SectionStatus.UNAPPROVED)], UNAPPROVED),
    ([("failed", SectionStatus.UNAPPROVED)], FINDINGS),  # failed wins; nothing was written for it
    ([("updated", SectionStatus.UNAPPROVED), ("failed", None)], FINDINGS),
])
def test_exit_code_table(statuses: list[tuple[Any, SectionStatus | None]], code: int) -> None:
    report = RunReport([FunctionResult("m", f"f{i}", status, approval=approval)
                        for i, (status, approval) in enumerate(statuses)])
    assert report.exit_code() == code


def test_the_exit_codes_are_distinct_and_documented() -> None:
    assert len({0, FINDINGS, UNAPPROVED, 2, 3, 4, 5, 130}) == 8
    root = Path(__file__).parents[1]
    for text in ((root / "README.md").read_text(), (root / "docs/design.md").read_text(),
                 main.__globals__["EXIT_CODES"]):
        assert f"{UNAPPROVED} " in text and "unapproved" in text


def test_the_check_hook_lists_unapproved_sections_and_fails_on_them_only_with_strict(
        repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    from docbot.fronts import hook

    extended = GEO + "\n\ndef extra(x):\n    return x\n"
    repo.write("pkg/geo.py", extended)
    functions = public_functions(extended, "pkg.geo", "pkg/geo.py")
    sections = {f.qualname: (source_hash(f.source), f"## `{f.qualname}`\n\nDoc.",
                             SectionStatus.UNAPPROVED if f.qualname == "extra" else SectionStatus.APPROVED, 70)
                for f in functions}
    repo.write(DOC, render_doc_file("pkg.geo", sections)).stage("pkg/geo.py", DOC)  # type: ignore[arg-type]
    assert hook.main(["--check"]) == 0
    assert "pkg.geo.extra: doc is current but unapproved (score 70)" in capsys.readouterr().out
    assert hook.main(["--check", "--strict"]) == 1
