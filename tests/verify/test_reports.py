"""Each verify report computes its own exit code and renders its own text; the fronts only print and return
them (docs/design.md#exit-codes)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from docbot.verify.checks.examples import Unverified
from docbot.verify.checks.source_doc import FunctionFindings
from docbot.verify.findings import Check, DocFinding, Finding, Severity, Witness, lower
from docbot.verify.project.api_index import ApiName
from docbot.verify.project.report import DocReport, DriftReport, PairReport, ProjectReport, StaleLine


def placed(severity: Severity, check: Check = Check.EXAMPLE_RAISES) -> DocFinding:
    found = Finding(check, f"{severity.value} here")
    return DocFinding(found if severity is found.severity else lower(found, severity, "why"), 3)


@pytest.mark.parametrize("severities, undocumented, plain, strict", [
    ([], [], 0, 0),
    ([Severity.CONTRADICTION], [], 1, 1),
    ([Severity.NOTE, Severity.TIME_DEPENDENT, Severity.VERSION_DEPENDENT], [], 0, 0),
    ([Severity.NOT_RUNNABLE], [], 0, 1),
    ([Severity.SETUP_ELIDED], [], 0, 1),
    ([], [ApiName("pkg.f", "function")], 0, 1),  # coverage fails only --strict
])
def test_a_project_reports_exit_code(severities: list[Severity], undocumented: list[ApiName], plain: int,
                                     strict: int) -> None:
    report = ProjectReport("pkg", [DocReport("README.md", [placed(s) for s in severities])], undocumented)
    assert (report.exit_code(False), report.exit_code(True)) == (plain, strict)


def test_a_gap_fails_a_project_report_only_with_strict() -> None:
    gap = DocFinding(Finding(Check.MISSING_PARAMETER, "x"), 1)
    report = ProjectReport("pkg", [DocReport("README.md", [gap])], [])
    assert (report.exit_code(False), report.exit_code(True)) == (0, 1)


def test_a_project_reports_lines_and_json() -> None:
    report = ProjectReport("pkg", [DocReport("README.md", [placed(Severity.CONTRADICTION),
                                                           placed(Severity.NOTE)], references=2)],
                           [ApiName(f"pkg.f{i}", "function") for i in range(18)] + [ApiName("pkg.LIMIT", "constant"),
                            ApiName("pkg.Number", "type alias"), ApiName("pkg.Box", "class")])
    lines = report.lines()
    assert lines[0] == "README.md: 2 findings, 2 API names checked"
    assert lines[1] == "  README.md:3: CONTRADICTION [example_raises] contradiction here"
    assert lines[2] == "  README.md:3: note [example_raises] note here (why)"
    # issue 33: a constant and a type alias are no "functions"; each kind is counted by its own name
    assert lines[3].startswith("coverage: 21 public names no doc names (18 functions, 1 class, 1 constant, 1 type "
                               "alias): pkg.f0, ") and lines[3].endswith(" …")
    data = report.to_json()
    assert data["undocumented"][-3:] == ["pkg.LIMIT", "pkg.Number", "pkg.Box"]  # type: ignore[index]
    assert data["undocumented_kinds"]["pkg.Number"] == "type alias"  # type: ignore[index]
    assert data["counts"]["contradiction"] == 1 and data["counts"]["note"] == 1  # type: ignore[index]
    assert "nondeterministic" not in data["counts"]  # type: ignore[operator]


def witnessed(severity: Severity, script: str) -> DocFinding:
    found = replace(placed(Severity.CONTRADICTION).finding,
                    witness=Witness(script, "4", "3", severity is Severity.CONTRADICTION, len(script.splitlines())))
    return DocFinding(found if severity is Severity.CONTRADICTION else lower(found, severity, "why"), 3)


@pytest.mark.parametrize("severity, script, shown", [
    (Severity.CONTRADICTION, "from pkg import add\nprint(add(1, 2))\n",
     ["    witness (python3 at the project root; > the claim):", "      | from pkg import add",
      "      > print(add(1, 2))", "      the doc states: 4", "      the run shows: 3"]),
    (Severity.NOTE, "from pkg import add\nprint(add(1, 2))\n", []),  # a lowered one: its reason says why
    (Severity.CONTRADICTION, "".join(f"x{i} = {i}\n" for i in range(20)) + "print(add(1, 2))\n",
     ["    witness (python3 at the project root; > the claim):", "      | x0 = 0", "      | x1 = 1",
      "      | … 11 more lines (--json has the whole script)", *(f"      | x{i} = {i}" for i in range(13, 20)),
      "      > print(add(1, 2))", "      the doc states: 4", "      the run shows: 3"]),
])
def test_the_console_prints_a_contradiction_s_witness_under_it(severity: Severity, script: str,
                                                                shown: list[str]) -> None:
    report = ProjectReport("pkg", [DocReport("README.md", [witnessed(severity, script)])], [])
    assert report.lines()[2:] == shown
    assert report.to_json()["docs"][0]["findings"][0]["witness"]["script"] == script  # type: ignore[index]


def test_a_doc_report_names_its_unverified_claims() -> None:
    claims = [Unverified(7, f"print(add({i}, 2))", "its block was ended by the step at line 3") for i in range(6)]
    report = ProjectReport("pkg", [DocReport("README.md", [], unverified=claims)], [])
    assert report.lines()[1] == ("  README.md: 6 stated outputs not verified: " + "; ".join(
        f"line 7 `print(add({i}, 2))` (its block was ended by the step at line 3)" for i in range(5)) + " …")
    data = report.to_json()
    assert data["unverified"] == 6
    assert data["docs"][0]["unverified"][0] == {  # type: ignore[index]
        "line": 7, "example": "print(add(0, 2))", "why": "its block was ended by the step at line 3"}
    assert ProjectReport("pkg", [DocReport("README.md")], []).lines() == ["README.md: 0 findings, 0 API names checked"]


@pytest.mark.parametrize("findings, found, plain, strict", [
    ([], True, 0, 0),
    ([], False, 1, 1),  # a function with no section
    ([Finding(Check.MISSING_PARAMETER, "gap")], True, 0, 1),
    ([Finding(Check.WRONG_DEFAULT, "false")], True, 1, 1),
    ([Finding(Check.EXAMPLES_NOT_RUN, "note")], True, 0, 0),
    ([Finding(Check.EXAMPLE_NONDETERMINISTIC, "nondeterministic")], True, 0, 0),
])
def test_a_pair_reports_exit_code(findings: list[Finding], found: bool, plain: int, strict: int) -> None:
    report = PairReport([FunctionFindings("f", findings, found)])
    assert (report.exit_code(False), report.exit_code(True)) == (plain, strict)


def test_a_pair_reports_lines() -> None:
    report = PairReport([FunctionFindings("f", [Finding(Check.WRONG_DEFAULT, "wrong"),
                                                Finding(Check.MISSING_PARAMETER, "left out")]),
                         FunctionFindings("g", [], False)])
    assert report.lines() == ["f: 2 findings", "  CONTRADICTION [wrong_default] wrong",
                              "  gap [missing_parameter] left out", "g: no section found in the doc"]


STALE = StaleLine("README.md", 4, "example_mismatch", "add(1, 2) gives 4", "3")


@pytest.mark.parametrize("introduced, others, code", [
    ((), 0, 0), ((STALE,), 0, 1), ((), 1, 1), ((STALE,), 1, 1),
])
def test_the_drift_gates_code_joins_what_ran_beside_it(introduced: tuple[StaleLine, ...], others: int,
                                                      code: int) -> None:
    assert DriftReport(("pkg.add",), ("README.md",), introduced).exit_code(others) == code


def test_the_drift_report_survives_its_json_and_renders_each_line() -> None:
    drift = DriftReport(("pkg.add",), ("README.md",), (STALE,), (StaleLine("docs/a.md", None, "c", "m", ""),))
    assert DriftReport.from_json(drift.to_json()) == drift
    assert drift.lines("main") == [
        "README.md:4: CONTRADICTION [example_mismatch] add(1, 2) gives 4 (new in this diff)",
        "docs/a.md:?: pre-existing [c] m (not verified on main either; not a failure)"]
    assert "❌ <code>README.md:4</code>" in drift.markdown() and DriftReport((), (), ()).markdown() == ""


@pytest.mark.parametrize("introduced, pre_existing, rows", [
    ((), (), None),  # nothing false: no section at all, not an empty heading
    ((STALE,), (), ["❌ <code>README.md:4</code>"]),
    ((), (StaleLine("docs/a.md", 7, "c", "m", ""),), ["⚠️ <code>docs/a.md:7</code>"]),  # only the base's: still listed
    ((STALE,), (StaleLine("docs/a.md", None, "c", "m", ""),), ["❌ <code>README.md:4</code>",
                                                                "⚠️ <code>docs/a.md:?</code>"]),
])
def test_the_drift_summary_is_empty_only_when_nothing_is_false(introduced: tuple[StaleLine, ...],
                                                              pre_existing: tuple[StaleLine, ...],
                                                              rows: list[str] | None) -> None:
    """Issue 28 item 5: the job summary's "nothing to say" test (`not introduced and not pre_existing`) was unguarded:
    `and` -> `or` dropped the section of a PR with only pre-existing (or only new) contradictions."""
    summary = DriftReport(("pkg.add",), ("README.md",), introduced, pre_existing).markdown()
    if rows is None:
        assert summary == ""
        return
    assert summary.startswith("## docbot: hand-written docs this PR made false\n\n")
    assert [line[2:].split(":", 2)[0] + ":" + line[2:].split(":", 2)[1] for line in summary.splitlines()[2:]] == rows
