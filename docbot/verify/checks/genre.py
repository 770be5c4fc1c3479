"""A finding read as its doc's genre reads it (docs/design.md#genre): what history states cannot contradict today's
code. The genre itself is read in docbot.verify.read.genre."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from docbot.verify.findings import Check, DocFinding, Severity, lower
from docbot.verify.read.genre import Genre


def as_genre(found: Sequence[DocFinding], genre: Genre) -> list[DocFinding]:
    """The findings as the doc's genre reads them. A name that history mentions (on a history page, under a
    history heading, or that removal prose says is gone) is no claim that it exists: no finding. Anything else
    history states (its examples, what they print) is a note: it held for an earlier version."""
    out = []
    for item in found:
        finding = item.finding
        why = genre.history_at(finding.line)
        if finding.check is Check.UNRESOLVED_REFERENCE and (why or genre.said_gone(finding.line, finding.doc_text)):
            continue
        if why and item.severity.weight:
            item = replace(item, finding=lower(finding, Severity.NOTE,
                                               f"history ({why}): it tells what an earlier version did"))
        out.append(item)
    return out
