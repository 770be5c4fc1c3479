"""A finding read as its doc's genre reads it (docs/design.md#genre): what history states cannot contradict today's
code. The genre itself is read in docbot.verify.read.genre."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from docbot.verify.findings import Check, DocFinding, Severity, lower
from docbot.verify.read.genre import DESIGN_PAGE, DESIGN_TITLE, Genre


def as_genre(found: Sequence[DocFinding], genre: Genre) -> list[DocFinding]:
    """The findings as the doc's genre reads them. A name that history mentions (on a history page, under a
    history heading, or that removal prose says is gone) is no claim that it exists: no finding. Anything else
    history states (its examples, what they print) is a note: it held for an earlier version. What a stretch says
    Python 2 does is version dependent."""
    out = []
    for item in found:
        finding = item.finding
        why = genre.history_at(finding.line)
        if finding.check is Check.UNRESOLVED_REFERENCE and genre.names_what_was(finding.line, finding.doc_text):
            continue
        if why and item.severity.weight:
            told = "design" if why in (DESIGN_PAGE, DESIGN_TITLE) else "history"
            what = "it weighs what an API could be" if told == "design" else "it tells what an earlier version did"
            item = replace(item, finding=lower(finding, Severity.NOTE, f"{told} ({why}): {what}"))
        elif (python2 := genre.python2_at(finding.line)) and item.severity is Severity.CONTRADICTION:
            item = replace(item, finding=lower(finding, Severity.VERSION_DEPENDENT,
                                               f"Python 2 ({python2}): it tells what Python 2 does"))
        out.append(item)
    return out
