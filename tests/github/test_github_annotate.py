"""How a run ends in the Action's words: each function's verdict, the outcome and counts (step outputs),
and the ``::error`` annotations, attacked with hostile file names, function names and messages.

A workflow command is parsed back the way the runner reads it (properties split on ``,``, each on
its first ``=``, values unescaped), so "stays one annotation with these properties" is checked on
what GitHub would see, not by eye.
"""

from __future__ import annotations

from typing import Any

import pytest

from docbot.github.annotate import (
    annotation_line,
    approval,
    counts,
    error_annotations,
    escape_property,
    needs_attention,
    outcome,
)
from docbot.github.sources import FunctionSite
from docbot.results import FunctionResult, Outcome, RunReport, SectionStatus, Target

APPROVED, UNAPPROVED = SectionStatus.APPROVED, SectionStatus.UNAPPROVED


def result(status: Any = "updated", **fields: Any) -> FunctionResult:
    return FunctionResult(**{"module": "pkg.mod", "qualname": "f", "status": status, "path": "pkg/mod.py",
                             **fields})


def unescape(text: str) -> str:
    for code, char in (("%3A", ":"), ("%2C", ","), ("%0D", "\r"), ("%0A", "\n"), ("%25", "%")):
        text = text.replace(code, char)
    return text


def read_command(line: str) -> tuple[str, dict[str, str], str]:
    """A workflow command as the runner reads it: its name, properties and message."""
    assert line.startswith("::") and "\n" not in line and "\r" not in line
    head, message = line[2:].split("::", 1)
    name, _, props = head.partition(" ")
    values = {}
    for prop in props.split(","):
        key, value = prop.split("=", 1)
        values[key] = unescape(value)
    return name, values, unescape(message)


@pytest.mark.parametrize("fields, expected", [
    ({"approval": APPROVED, "exit_reason": "attempts"}, APPROVED),  # the recorded verdict wins
    ({"approval": UNAPPROVED, "exit_reason": "approved"}, UNAPPROVED),
    ({"outcome": Outcome.APPROVED, "exit_reason": "attempts", "fatal_issues": ["x"]}, APPROVED),  # never recomputed
    ({"outcome": Outcome.UNAPPROVED, "exit_reason": "approved", "scores": [99]}, UNAPPROVED),
    ({"exit_reason": "approved"}, None),  # no verdict recorded: none is invented from the exit reason
    ({"exit_reason": "attempts"}, None),
    ({"status": "failed", "approval": APPROVED}, None),
    ({"status": "unchanged", "approval": APPROVED}, None),
    ({"status": "skipped"}, None),
    ({"outcome": Outcome.REMOVED, "reason": "removed"}, None),
])
def test_approval(fields: dict[str, Any], expected: SectionStatus | None) -> None:
    assert approval(result(**fields)) is expected


@pytest.mark.parametrize("statuses, check, expected", [
    ([], False, "unchanged"),
    (["unchanged"], False, "unchanged"),
    (["approved", "unchanged"], False, "approved"),
    (["approved", "skipped"], False, "skipped"),
    (["approved", "unapproved", "skipped"], False, "unapproved"),
    (["approved", "unapproved", "failed"], False, "failed"),
    (["unchanged", "unchanged"], True, "current"),
    (["unchanged", "failed"], True, "stale"),
])
def test_outcome(statuses: list[str], check: bool, expected: str) -> None:
    made = {"approved": result(approval=APPROVED), "unapproved": result(approval=UNAPPROVED),
            "failed": result("failed"), "skipped": result("skipped"), "unchanged": result("unchanged")}
    assert outcome(RunReport(results=[made[s] for s in statuses]), check) == expected


def test_counts_tell_approved_unapproved_and_failed_apart() -> None:
    report = RunReport(results=[result(approval=APPROVED), result(approval=APPROVED), result(approval=UNAPPROVED),
                                result("failed"), result("skipped"), result("unchanged", approval=APPROVED)])
    assert counts(report) == {"approved": 2, "unapproved": 1, "failed": 1}


@pytest.mark.parametrize("fields, check, expected", [
    ({"status": "failed"}, True, True),
    ({"status": "unchanged"}, True, False),
    ({"status": "failed"}, False, True),
    ({"approval": UNAPPROVED}, False, True),
    ({"approval": APPROVED}, False, False),
    ({"status": "skipped"}, False, False),
    ({"status": "unchanged", "approval": UNAPPROVED}, False, False),  # not this run's doc
    ({"outcome": Outcome.REMOVED}, False, False),
    ({"exit_reason": "attempts"}, False, False),  # no verdict: nothing a person is told to check
])
def test_needs_attention(fields: dict[str, Any], check: bool, expected: bool) -> None:
    assert needs_attention(result(**fields), check) is expected


@pytest.mark.parametrize("text, expected", [
    ("plain/path.py", "plain/path.py"),
    ("a:b", "a%3Ab"),
    ("a,line=1", "a%2Cline=1"),
    ("100%", "100%25"),
    ("x\ny\rz", "x%0Ay%0Dz"),
    ("%3A", "%253A"),  # an escape already in the text stays text
])
def test_escape_property(text: str, expected: str) -> None:
    assert escape_property(text) == expected


HOSTILE_PATHS = ["pkg/a,line=999,title=owned.py", "pkg/x::add-mask::y.py", "pkg/b\n::set-env name=X::1.py",
                 "pkg/c%0Aevil.py", "pkg/d\r::stop-commands::t.py"]


@pytest.mark.parametrize("path", HOSTILE_PATHS)
def test_a_hostile_file_name_stays_one_property(path: str) -> None:
    line = annotation_line(path, "docbot: pkg.f,endLine=1", "f: bad\n::add-mask::x, 50%", (3, 4))
    name, props, message = read_command(line)
    assert name == "error"
    assert props == {"file": path, "line": "3", "endLine": "4", "title": "docbot: pkg.f,endLine=1"}
    assert message == "f: bad\n::add-mask::x, 50%"


def site(first: int, last: int, changed: tuple[tuple[int, int], ...], def_line: int | None = None) -> FunctionSite:
    target = Target("pkg.mod", "f", "pkg/mod.py", first, last, "modified", "def f(): pass\n")
    return FunctionSite(target, def_line or first, changed)


def test_annotations_sit_on_the_changed_lines_else_the_def_line_else_the_file() -> None:
    report = RunReport(results=[
        result(qualname="a", approval=UNAPPROVED, scores=[60, 70], fatal_issues=["raises KeyError, doc says x"]),
        result(qualname="b", status="failed", reason="model server timed out"),
        result(qualname="c", approval=UNAPPROVED),
        result(qualname="ok", approval=APPROVED),
        result(qualname="gone", status="failed", reason="no doc section yet"),
    ])
    sites = {"a": site(10, 20, ((12, 13), (18, 18)), 11), "b": site(30, 35, (), 31), "c": site(40, 41, ((40, 41),)),
             "ok": site(50, 55, ((50, 55),))}
    lines = error_annotations(report, False, lambda r: sites.get(r.qualname), "Run docbot.")
    parsed = [read_command(line) for line in lines]

    assert [(p.get("line"), p.get("endLine")) for _, p, _ in parsed] == [
        ("12", "18"), ("31", "31"), ("40", "41"), (None, None)]
    assert parsed[0][2] == ("pkg.mod.a: not approved: it contradicted the code (raises KeyError, doc says x). "
                            "Run docbot.")  # the cause, not the score
    assert parsed[2][2] == "pkg.mod.c: not approved: the reviewer never passed a draft. Run docbot."
    assert parsed[1][2] == "pkg.mod.b: model server timed out. Run docbot."
    assert all(p["file"] == "pkg/mod.py" and p["title"] == f"docbot: pkg.mod.{q}"
               for (_, p, _), q in zip(parsed, ["a", "b", "c", "gone"]))


def test_check_mode_annotates_only_the_functions_without_a_current_doc() -> None:
    report = RunReport(results=[result("failed", qualname="stale", reason="doc is stale"),
                                result("unchanged", qualname="fine"), result(qualname="x", approval=UNAPPROVED)])
    lines = error_annotations(report, True, lambda r: None, "Fix it.")
    assert [read_command(line)[1]["title"] for line in lines] == ["docbot: pkg.mod.stale"]


def test_a_hostile_function_name_and_reason_cannot_add_a_command() -> None:
    report = RunReport(results=[result("failed", qualname="f,line=1::\n::add-mask::secret",
                                       reason="boom\r\n::set-output name=approved::99")])
    [line] = error_annotations(report, False, lambda r: site(5, 6, ((5, 6),)), "Run docbot.")
    name, props, message = read_command(line)
    assert set(props) == {"file", "line", "endLine", "title"} and props["line"] == "5"
    assert props["title"] == "docbot: pkg.mod.f,line=1::\n::add-mask::secret"
    assert message.startswith("pkg.mod.f,line=1::\n::add-mask::secret: boom\r\n::set-output")


def test_a_token_in_a_name_is_redacted_before_escaping_hides_it() -> None:
    from docbot.github.logsafe import Redactor

    report = RunReport(results=[result("failed", qualname="f::ghp_abcdefgh12345678", reason="x,ghs_abcdefgh1234",
                                       path="a:ghp_abcdefgh12345678.py")])
    [line] = error_annotations(report, False, lambda r: None, "Fix.", Redactor())
    assert "abcdefgh" not in line
    assert read_command(line)[1] == {"file": "a:***.py", "title": "docbot: pkg.mod.f::***"}


@pytest.mark.parametrize("text, expected", [
    ("%0Aghp_abcdefgh12345678", "%0A***"),  # escaped before redaction: still found
    ("x%3Agithub_pat_abcdefgh1234", "x%3A***"),
    ("ghp_abcdefgh12345678", "***"),
    ("xghp_abcdefgh12345678", "xghp_abcdefgh12345678"),  # inside a word: not a token's start
])
def test_secret_shapes_are_found_after_an_escape(text: str, expected: str) -> None:
    from docbot.github.logsafe import Redactor

    assert Redactor()(text) == expected


def test_the_guard_redacts_an_error_message_escaped_into_an_annotation() -> None:
    from docbot.github.publish import annotation
    from docbot.github.logsafe import Redactor

    assert Redactor()(annotation("error", "bad\nghp_abcdefgh12345678")) == "::error title=docbot::bad%0A***"
