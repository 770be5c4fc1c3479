"""``docbot run`` then, with ``write_docstrings``, the docstrings: the one step every front calls.

The CLI and the hook both run the docs and then write the docstrings of what the run documented
(docs/design.md#docstrings); the step lives here so the two cannot drift apart. libcst and the
docstring machinery are imported only when ``write_docstrings`` is on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from docbot.config.settings import Settings
from docbot.events import EventSink
from docbot.results import RunReport
from docbot.run.pipeline import run_docs
from docbot.run.shards import Shard
from docbot.scan.repo import DiffSpec

if TYPE_CHECKING:
    from docbot.docstrings.apply import DocstringReport


@dataclass(frozen=True)
class Documented:
    """What the step did: the run's report, and the docstrings' (None when they were not asked for)."""

    report: RunReport
    docstrings: DocstringReport | None


def run_with_docstrings(settings: Settings, repo_root: Path, spec: DiffSpec, paths: Sequence[str],
                        emit: EventSink, *, shard: Shard | None = None) -> Documented:
    """``run_docs``, then ``apply_docstrings`` on its results when ``settings.write_docstrings``."""
    report = run_docs(settings, repo_root, spec, paths, emit, shard=shard)
    if not settings.write_docstrings:
        return Documented(report, None)
    from docbot.docstrings.apply import apply_docstrings  # libcst: only when asked for

    return Documented(report, apply_docstrings(repo_root, settings, report.results))
