"""The seed-compatible job: document every public function of one source file into one Markdown file."""

from __future__ import annotations

from typing import Callable

from docbot import events
from docbot.results import FunctionResult, Target


def document_file(source: str, path: str, module: str, document: Callable[[Target, str], FunctionResult],
                  emit: events.EventSink) -> tuple[str, list[FunctionResult]]:
    """Return the Markdown for the whole file and one result per public function."""
    from docbot.targets import public_functions

    targets = public_functions(source, module, path)
    results: list[FunctionResult] = []
    for index, target in enumerate(targets, start=1):
        emit(events.ProgressEvent(index, len(targets), target.module, target.qualname))
        result = document(target, "")  # a fresh file: no section to start from
        emit(events.ResultEvent(result))
        results.append(result)
    sections = [r.markdown.strip() for r in results if r.status == "updated" and r.markdown.strip()]
    return ("\n\n".join(sections) + "\n") if sections else "", results
