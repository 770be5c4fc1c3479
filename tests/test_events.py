"""Events are typed: one frozen class per kind, every kind rendered by the console, and the JSON lines
``--json`` prints keep their fields."""

from __future__ import annotations

import io
from dataclasses import replace
import json
import typing

import pytest

from docbot import events
from docbot.events import EventKind
from docbot.fronts.action import log_sink
from docbot.fronts.console import ConsoleSink
from docbot.results import CallRecord, TrajectoryEntry
from docbot.results import DocNotice, FunctionResult, NoticeKind, ScanError, SectionStatus

CALL = CallRecord(role="CRITIC", round=2, tokens_in=10, tokens_out=5, seconds=0.5)
ENTRY = TrajectoryEntry(round=2, accuracy=80, completeness=70, score=75, issues=["vague"],
                        fatal_issues=["raises KeyError, doc says ValueError"], critical_fix="Name KeyError.",
                        parsed=True, draft_chars=120, draft_head="## area", calls=[CALL])
DONE = FunctionResult("pkg.geo", "area", "updated", scores=[72, 96], rounds=2, exit_reason="approved",
                      tokens={"CRITIC": {"in": 10, "out": 5, "seconds": 0.5, "calls": 1}})
FAILED = FunctionResult("pkg.geo", "area", "failed", reason="model server down")
NOTICE = DocNotice(NoticeKind.DUPLICATE_SECTION, "docs/api/pkg.geo.md", ("area",))

# One event of each kind, and a piece of text the console must show for it.
SAMPLES: list[tuple[events.Event, str]] = [
    (events.RoundEvent("area", 95, ENTRY), "score 75/95"),
    (events.RouteEvent("revise", "below the bar", 2, "area"), "→ revise (below the bar)"),
    (events.WarningEvent("critique 1/3 could not be parsed", round=2, qualname="area", error="bad JSON"),
     "warning: critique 1/3 could not be parsed"),
    (events.SummaryEvent(DONE), "area: 72 → 96 (bar 95) · 2 rounds · exit: approved"),
    (events.ProgressEvent(3, 7, "pkg.geo", "area"), "[3/7] area"),
    (events.ResultEvent(FAILED), "failed pkg.geo.area (model server down)"),
    (events.InfoEvent("area", 2, ["wrong default"]), "code checks found 1 fatal issue(s)"),
]


def test_every_kind_has_one_event_class_and_a_sample() -> None:
    classes = typing.get_args(events.Event)
    assert sorted(c.kind for c in classes) == sorted(EventKind)  # one class per kind, no kind left out
    assert sorted(type(e).kind for e, _ in SAMPLES) == sorted(EventKind)


@pytest.mark.parametrize("event,shown", SAMPLES, ids=[type(e).__name__ for e, _ in SAMPLES])
def test_the_console_renders_every_kind(event: events.Event, shown: str) -> None:
    out = io.StringIO()
    ConsoleSink(out, verbose=True)(event)
    assert shown in out.getvalue()


def test_quiet_console_hides_only_info() -> None:
    for event, _ in SAMPLES:
        out = io.StringIO()
        ConsoleSink(out, verbose=False)(event)
        assert bool(out.getvalue()) == (event.kind is not EventKind.INFO), event.kind


def test_round_scorecard_shows_fatal_issues_and_the_fix() -> None:
    out = io.StringIO()
    ConsoleSink(out)(events.RoundEvent("area", 95, ENTRY))
    text = out.getvalue()
    assert "accuracy 80 · completeness 70" in text and "fatal 1" in text
    assert "fatal: raises KeyError, doc says ValueError" in text and "feedback: Name KeyError." in text


def _json_line(event: events.Event) -> dict[str, object]:
    out = io.StringIO()
    events.JsonLinesSink(out)(event)
    assert out.getvalue().endswith("\n") and out.getvalue().count("\n") == 1
    return dict(json.loads(out.getvalue()))


JSON_CASES: list[tuple[events.Event, dict[str, object]]] = [
    (events.RoundEvent("area", 95, ENTRY),
     {"event": "round", "message": "round 2: score 75/95", "qualname": "area", "bar": 95, **ENTRY}),
    (events.RouteEvent("adjudicate", "approved", 3, "area"),
     {"event": "route", "message": "router: adjudicate (approved)", "decision": "adjudicate",
      "reason": "approved", "round": 3, "qualname": "area"}),
    (events.WarningEvent("replaced", round=1, qualname="area"),
     {"event": "warning", "message": "replaced", "round": 1, "qualname": "area"}),
    (events.WarningEvent("adjudicator broke it", qualname="area"),
     {"event": "warning", "message": "adjudicator broke it", "qualname": "area"}),
    (events.WarningEvent.scan(ScanError("pkg/bad.py", "cannot parse (line 3): x")),
     {"event": "warning", "message": "pkg/bad.py: cannot parse (line 3): x",
      "error": "pkg/bad.py: cannot parse (line 3): x"}),
    (events.WarningEvent.about(NOTICE),
     {"event": "warning", "message": NOTICE.describe(), **NOTICE.to_json()}),
    (events.SummaryEvent(DONE),
     {"event": "summary", "message": "area: approved", "qualname": "area", "module": "pkg.geo",
      "scores": [72, 96], "rounds": 2, "exit_reason": "approved", "bar": 95, "fatal_issues": [],
      "tokens": {"CRITIC": {"in": 10, "out": 5, "seconds": 0.5, "calls": 1}}}),
    (events.ProgressEvent(3, 7, "pkg.geo", "area"),
     {"event": "progress", "message": "[3/7] pkg.geo.area", "index": 3, "total": 7, "module": "pkg.geo",
      "qualname": "area"}),
    (events.ResultEvent(FAILED),
     {"event": "result", "message": "pkg.geo.area: failed (model server down)", **FAILED.to_json()}),
    (events.InfoEvent("area", 2, ["wrong default"]),
     {"event": "info", "message": "code checks found 1 fatal issue(s)", "round": 2, "qualname": "area",
      "fatal_issues": ["wrong default"]}),
]


@pytest.mark.parametrize("event,expected", JSON_CASES, ids=[f"{e.kind}-{i}" for i, (e, _) in enumerate(JSON_CASES)])
def test_json_lines_carry_every_field(event: events.Event, expected: dict[str, object]) -> None:
    line = _json_line(event)
    assert line == expected
    assert list(line) == list(expected)  # the field order of the JSON lines is part of the format


def test_events_are_frozen() -> None:
    event = events.ProgressEvent(1, 2, "m", "f")
    with pytest.raises(AttributeError):
        event.index = 2  # type: ignore[misc]


def test_action_log_turns_warnings_into_annotations_and_shows_the_rest() -> None:
    out = io.StringIO()
    show = log_sink(out)
    show(events.WarningEvent("look\nhere"))
    show(events.ProgressEvent(1, 1, "m", "f"))
    lines = out.getvalue().splitlines()
    assert lines[0] == "::warning title=docbot::look%0Ahere"
    assert "[1/1] f" in lines[1] and len(lines) == 2


UNAPPROVED = FunctionResult("pkg.geo", "area", "updated", scores=[18, 0], approval=SectionStatus.UNAPPROVED,
                            repairs=("removed a failing example: it raised ValueError",))


@pytest.mark.parametrize("result, says_unapproved", [
    (UNAPPROVED, True),
    (replace(UNAPPROVED, approval=SectionStatus.APPROVED), False),
    (replace(UNAPPROVED, approval=None, outcome=None), False),  # no verdict at all
    (replace(UNAPPROVED, status="failed"), False),  # a failure says so itself
])
def test_an_unapproved_result_says_so_with_its_repairs(result: FunctionResult, says_unapproved: bool) -> None:
    out = io.StringIO()
    ConsoleSink(out, quiet=True)(events.ResultEvent(result))  # shown even with -q
    text = out.getvalue()
    assert ("unapproved" in text) == says_unapproved
    assert ("repaired: removed a failing example: it raised ValueError" in text) == says_unapproved
    assert says_unapproved or result.status == "failed" or text == ""


def test_a_single_file_marks_an_unapproved_section_under_its_heading() -> None:
    from docbot.run.single_file import with_status

    body = '<a id="m.area"></a>\n\n## `area`\n\nArea of a circle.\n'
    shown = with_status(replace(UNAPPROVED, markdown=body, bar=95)).split("\n")
    assert shown[2] == "## `area`" and shown[4].startswith("> **Unapproved** (best score 18, bar 95):")
    assert shown[5:] == ["", "Area of a circle."]
    assert with_status(replace(UNAPPROVED, markdown=body, approval=SectionStatus.APPROVED)) == body.strip()


@pytest.mark.parametrize(("messages", "noun", "said"), [
    (["round 1: degenerate feedback replaced by a generic fix", "doc model 1/3 could not be parsed",
      "round 2: degenerate feedback replaced by a generic fix", "doc model 2/3 could not be parsed"], "loop warning",
     "4 loop warnings: degenerate feedback replaced by a generic fix ×2, doc model could not be parsed ×2"),
    (["the adjudicator introduced 4 contradiction(s) (parameter 'x' ...); shipping the best draft instead"],
     "loop warning", "1 loop warning: the adjudicator introduced contradiction(s)"),
    (["cleared the raises[0]: raises type 'warning' is not an exception class",
      "cleared the raises[12]: raises type 'error' is not an exception class",
      "removed a failing example: example `return x` raises SyntaxError"], "repair",
     "3 repairs: cleared the raises ×2, removed a failing example"),
])
def test_gist(messages: list[str], noun: str, said: str) -> None:
    from docbot.fronts.console import gist

    assert gist(messages, noun) == said


def _quiet_run(quiet: bool, warnings: int, repairs: int) -> list[str]:
    out = io.StringIO()
    sink = ConsoleSink(out, quiet=quiet, verbose=False)
    for n in range(warnings):
        sink(events.WarningEvent(f"round {n + 1}: degenerate feedback replaced by a generic fix", round=n + 1,
                                 qualname="area"))
    sink(events.WarningEvent("docs/api/index.md was edited while docbot ran"))  # not a function's: shown as is
    result = replace(UNAPPROVED, repairs=tuple(f"cleared the raises[{i}]: not an exception class"
                                               for i in range(repairs)))
    sink(events.ResultEvent(result))
    return out.getvalue().splitlines()


@pytest.mark.parametrize(("quiet", "warnings", "repairs", "lines"), [
    (True, 8, 9, 4),  # one warning line for the function, the other warning, the result, one repair line
    (True, 1, 2, 5),  # a single warning and up to two repairs are shown as they are
    (False, 8, 9, 1 + 8 + 1 + 9),  # without -q every line
])
def test_quiet_says_a_functions_loop_warnings_and_repairs_in_a_line_each(quiet: bool, warnings: int, repairs: int,
                                                                         lines: int) -> None:
    shown = _quiet_run(quiet, warnings, repairs)
    assert len(shown) == lines, shown
    if quiet and warnings > 1:
        assert shown[1].startswith("warning: pkg.geo.area: 8 loop warnings: degenerate feedback") and \
            "without -q each is shown" in shown[1]
        assert shown[-1] == "    repaired: 9 repairs: cleared the raises ×9"
