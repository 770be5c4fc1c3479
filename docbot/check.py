"""``docbot check``: which public functions lack a current doc section. No model, one pass, fast.

This is the CI gate and the second pre-commit hook. A section is current when its marker's hash
equals the hash of the function's source as it stands now; otherwise the function's doc is
"missing" or "stale", and a section whose function no longer exists is "orphaned".

What is in scope, what each module defines now and what its doc file holds come from
``docbot.plan``, shared with ``docbot run``; this module only judges each section.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from docbot import doc_files, docs_api
from docbot.events import EventSink, WarningEvent, discard
from docbot.plan import ModuleDocs, plan_modules
from docbot.repo import DiffSpec, scan
from docbot.results import Target
from docbot.settings import Settings

StaleStatus = Literal["missing", "stale", "orphaned"]


@dataclass(frozen=True)
class StaleEntry:
    """One function whose doc is not current. ``lineno`` is 0 when the function no longer exists."""

    module: str
    qualname: str
    path: str
    lineno: int
    status: StaleStatus
    doc_path: str

    def describe(self) -> str:
        """``pkg/mod.py:12: pkg.mod.area: doc is stale (docs/api/pkg.mod.md)``, for humans and CI logs."""
        where = f"{self.path}:{self.lineno}: " if self.lineno else f"{self.path}: " if self.path else ""
        what = {"missing": "has no doc section", "stale": "doc is stale (the code changed since)",
                "orphaned": "doc section documents a function that no longer exists"}[self.status]
        return f"{where}{self.module}.{self.qualname}: {what} ({self.doc_path})"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def check_docs(settings: Settings, repo_root: Path, spec: DiffSpec, paths: Sequence[str] = (), *,
               emit: EventSink = discard) -> list[StaleEntry]:
    """Every function in scope whose doc section is missing, stale or orphaned; [] when all are current.

    Scope: every public function for ``spec.all``, else the functions the diff touched (plus any
    section of a touched module whose function is gone). Files that do not parse are reported as
    warnings and left out: their docs cannot be judged.
    """
    found = scan(repo_root, spec, paths, include_dunder=settings.include_dunder,
                 exclude=settings.exclude, cache=settings.cache)
    for error in found.errors:
        emit(WarningEvent.scan(error))
    entries: list[StaleEntry] = []
    for module in plan_modules(found, settings, repo_root, spec, paths, docs_from_index=spec.staged):
        for notice in doc_files.duplicate_notices(module.doc_rel, module.existing):
            emit(WarningEvent.about(notice))
        entries += _stale_in_module(module)
    return entries


def _stale_in_module(module: ModuleDocs) -> list[StaleEntry]:
    sections = module.existing.sections if module.existing else {}
    targets, rel = module.targets, module.doc_rel
    entries: list[StaleEntry] = []
    for target in targets:
        section = sections.get(target.qualname)
        if target.kind == "deleted":
            continue  # reported below, with every other section whose function is gone
        if section is None:
            entries.append(_entry(target, "missing", rel))
        elif section.hash != docs_api.source_hash(target.source):
            entries.append(_entry(target, "stale", rel))
    if module.order is None:  # the module's code could not be read: its other sections cannot be judged
        return entries
    current = set(module.order)
    old_paths = {t.qualname: t.path for t in targets}
    fallback_path = targets[0].path if targets else ""
    for qualname in sections:
        if qualname not in current:
            entries.append(StaleEntry(module.name, qualname, old_paths.get(qualname, fallback_path), 0,
                                      "orphaned", rel))
    return entries


def _entry(target: Target, status: StaleStatus, rel: str) -> StaleEntry:
    return StaleEntry(target.module, target.qualname, target.path, target.lineno, status, rel)
