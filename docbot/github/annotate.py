"""How a run ended, in the words the Action publishes: each function approved or not, the run's outcome
(a step output), and ``::error`` annotations on the changed lines of functions that need a person.

An annotation is a workflow command built partly from text that is not docbot's (file paths and
function names from the PR, reasons from models), so every piece is escaped by GitHub's rules: the
message's ``%``, CR and LF, and in the properties also ``:`` and ``,``, which would otherwise end a
property and let a file name set another one (docs/design.md#trust).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, cast

from docbot.github.logsafe import escape_data
from docbot.github.sources import FunctionSite
from docbot.results import FunctionResult, Outcome, RunReport, SectionStatus

RunOutcome = Literal["approved", "unapproved", "failed", "skipped", "unchanged", "current", "stale"]
SiteOf = Callable[[FunctionResult], FunctionSite | None]


def approval(result: FunctionResult) -> SectionStatus | None:
    """The gate's word on a section this run wrote, as the loop's finish step decided it; None when
    it wrote none (failed, skipped, unchanged, a section removed with its function, or no verdict)."""
    return result.approval


def counts(report: RunReport) -> dict[str, int]:
    """``approved``, ``unapproved`` and ``failed``: the three ends a function's run can have."""
    return {"approved": len(report.outcomes(Outcome.APPROVED)),
            "unapproved": len(report.outcomes(Outcome.UNAPPROVED)),
            "failed": len(report.outcomes(Outcome.FAILED))}


def outcome(report: RunReport, check: bool) -> RunOutcome:
    """One word for the run, the worst thing that happened first."""
    if check:
        return "stale" if report.outcomes(Outcome.FAILED) else "current"
    for worst in (Outcome.FAILED, Outcome.UNAPPROVED, Outcome.SKIPPED, Outcome.APPROVED):
        if report.outcomes(worst):
            return cast(RunOutcome, worst.value)
    return "unchanged"


def needs_attention(result: FunctionResult, check: bool) -> bool:
    """Annotated: in check mode a function without a current doc; else one that failed or whose doc
    ended unapproved. Nothing else: the annotations GitHub shows are capped, so they are kept for
    what a person must look at (parse retries and the like are in the log and the JSON report)."""
    if check:
        return result.outcome is Outcome.FAILED
    return result.outcome in (Outcome.FAILED, Outcome.UNAPPROVED)


def escape_property(text: str) -> str:
    """A workflow command's property value: the message's escapes, plus ``:`` and ``,``."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation_line(path: str, title: str, message: str, lines: tuple[int, int] | None = None) -> str:
    """``::error file=…,line=…,endLine=…,title=…::message``, every part escaped."""
    props = [f"file={escape_property(path)}"]
    if lines is not None:
        props += [f"line={lines[0]}", f"endLine={lines[1]}"]
    props.append(f"title={escape_property(title)}")
    return f"::error {','.join(props)}::{escape_data(message)}"


def error_annotations(report: RunReport, check: bool, site_of: SiteOf, fix: str,
                      redact: Callable[[str], str] = str) -> list[str]:
    """One ``::error`` per function that needs attention, on the lines the PR changed in it (its
    ``def`` line when none did; the file alone when the head has no such function).

    Each piece is redacted *before* it is escaped: escaping puts word characters (``%3A``) in front
    of a token, where the secret shapes' word boundary would no longer find it."""
    found = []
    for result in report.results:
        if not needs_attention(result, check):
            continue
        site = site_of(result) if result.path else None
        lines = None
        if site is not None:
            lines = (site.changed[0][0], site.changed[-1][1]) if site.changed else (site.def_line, site.def_line)
        what = result.reason if result.outcome is Outcome.FAILED else result.why()
        found.append(annotation_line(redact(result.path or result.doc_path), redact(f"docbot: {result.key}"),
                                     redact(f"{result.key}: {what}. {fix}"), lines))
    return found
