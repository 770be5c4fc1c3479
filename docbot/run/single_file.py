"""The seed-compatible job: document every public function of one source file into one Markdown file."""

from __future__ import annotations

from typing import Callable

from docbot import events
from docbot.results import FunctionResult, SectionStatus, Target


def document_file(source: str, path: str, module: str, document: Callable[[Target, str], FunctionResult],
                  emit: events.EventSink) -> tuple[str, list[FunctionResult]]:
    """Return the Markdown for the whole file and one result per public function."""
    from docbot.scan.targets import public_functions

    targets = public_functions(source, module, path)
    results: list[FunctionResult] = []
    for index, target in enumerate(targets, start=1):
        emit(events.ProgressEvent(index, len(targets), target.module, target.qualname))
        result = document(target, "")  # a fresh file: no section to start from
        emit(events.ResultEvent(result))
        results.append(result)
    sections = [with_status(r) for r in results if r.status == "updated" and r.markdown.strip()]
    return ("\n\n".join(sections) + "\n") if sections else "", results


def with_status(result: FunctionResult) -> str:
    """The section, with a visible note under its heading when the gate never passed it.

    A single Markdown file has no marker or index to record the state, and a reader must not take an
    unapproved section for one docbot vouches for (docs/design.md#gate).
    """
    text = result.markdown.strip()
    if result.approval is not SectionStatus.UNAPPROVED:
        return text
    # the best round's score: the last round's may be a critique that never parsed (0), of a draft that did not ship
    score = f" (best score {max(result.scores)}, bar {result.bar})" if result.scores else ""
    note = (f"> **Unapproved**{score}: docbot's critic never passed this section; what docbot's own checks "
            "showed false was removed from it. Check it before you rely on it.")
    lines = text.split("\n")
    heading = next((i for i, line in enumerate(lines) if line.startswith("## ")), -1)
    return "\n".join(lines[:heading + 1] + ["", note] + lines[heading + 1:]) if heading >= 0 else f"{note}\n\n{text}"
