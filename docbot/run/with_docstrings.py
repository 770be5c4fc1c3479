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
    """``run_docs``, then ``apply_docstrings`` on its results when ``settings.write_docstrings``, and on what
    the docstring phase still owes (docbot.run.owed): a killed run's journal, and the current functions
    whose docstring docbot never decided, from the result cache. The journal holds the phase's work until
    it ends, so a kill in it is finished by the next run."""
    report = run_docs(settings, repo_root, spec, paths, emit, shard=shard)
    if not settings.write_docstrings:
        return Documented(report, None)
    from docbot.run import owed
    from docbot.docstrings.apply import apply_docstrings, decided  # libcst: only when asked for
    from docbot.events import WarningEvent

    fresh = {r.key for r in report.results if r.status == "updated"}
    journal = [r for r in owed.load_journal(repo_root) if r.key not in fresh]
    todo = list(report.results) + journal
    skip = fresh | {j.key for j in journal}
    unchanged = [r for r in report.results if r.status == "unchanged" and r.key not in skip]
    todo += owed.from_cache(repo_root, settings, unchanged, decided(repo_root, settings.docs_dir),
                            lambda message: emit(WarningEvent(message)))
    owed.save_journal(repo_root, [r for r in todo if r.status == "updated" and r.doc_model is not None])
    done = apply_docstrings(repo_root, settings, todo)
    owed.clear_journal(repo_root)
    return Documented(report, done)
