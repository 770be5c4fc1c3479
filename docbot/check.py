"""``docbot check``: which public functions lack a current doc section. No model, one pass, fast.

This is the CI gate and the second pre-commit hook. A section is current when its marker's hash
equals the hash of the function's source as it stands now; otherwise the function's doc is
"missing" or "stale", and a section whose function no longer exists is "orphaned". A current section
whose marker says ``status=unapproved`` is reported apart (``check_report``): it is true to the code
as far as docbot's checks go, but the critic never passed it, and only ``check --strict`` fails on it.
A ``docs/api/index.md`` that differs from what the doc files say is reported too
(docs/design.md#check-states).

What is in scope, what each module defines now and what its doc file holds come from
``docbot.plan``, shared with ``docbot run``; this module only judges each section.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from docbot.apidocs import index as api_index
from docbot.apidocs import disk
from docbot.apidocs import pages
from docbot.apidocs.homes import names_function
from docbot.plan import ModuleDocs, plan_modules
from docbot.scan.repo import DiffRead, DiffSpec, Scan, scan
from docbot.errors import ExitCode, outcome_code
from docbot.results import SectionStatus, Target

if TYPE_CHECKING:  # the hook's check loads neither the event types (~20 ms) nor pydantic (docs/design.md#lazy-imports)
    from docbot.events import Event, EventSink, WarningEvent
    from docbot.plan import PlanSettings

StaleStatus = Literal["missing", "stale", "orphaned", "contradicted", "duplicate"]


@dataclass(frozen=True, slots=True)
class StaleEntry:
    """One function whose doc is not current. ``lineno`` is 0 when the function no longer exists."""

    module: str
    qualname: str
    path: str
    lineno: int
    status: StaleStatus
    doc_path: str
    detail: str = ""  # contradicted: what the section states that the code contradicts

    def describe(self) -> str:
        """``pkg/mod.py:12: pkg.mod.area: doc is stale (docs/api/pkg.mod.md)``, for humans and CI logs."""
        where = f"{self.path}:{self.lineno}: " if self.lineno else f"{self.path}: " if self.path else ""
        what = {"missing": "has no doc section", "stale": "doc is stale (the code changed since)",
                "orphaned": "doc section documents a function that no longer exists",
                "contradicted": "its section (a person's, or one whose verdict docbot did not give) contradicts "
                                f"the code: {self.detail}",
                "duplicate": "has more than one section; delete all but one (docbot cannot tell which is its own)",
                }[self.status]
        return f"{where}{self.module}.{self.qualname}: {what} ({self.doc_path})"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class UnapprovedEntry:
    """A current section the gate did not approve (``status=unapproved`` in its marker)."""

    module: str
    qualname: str
    path: str
    lineno: int
    score: int | None
    doc_path: str
    why: str = ""  # "": its marker says unapproved; else why its approved marker is not taken (docbot.apidocs.trust)

    def describe(self) -> str:
        score = f" (score {self.score})" if self.score is not None and not self.why else ""
        why = f" ({self.why})" if self.why else ""
        return (f"{self.path}:{self.lineno}: {self.module}.{self.qualname}: doc is current but unapproved{score}"
                f"{why}; review it in {self.doc_path}, or change the function and run `docbot run` again")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def run_command(stale: Sequence[StaleEntry], spec: DiffSpec | None = None, paths: Sequence[str] = ()) -> str:
    """The ``docbot run`` that documents exactly what check reported. A check of a diff (``--base REV``,
    ``--staged``) is answered by a run of the same diff, which documents the functions it changed, not
    every function of their files. A bare ``docbot run`` looks at the staged changes only, while a whole
    check looks at every function: then the hint names the files (any function in a named file is in
    scope), or ``--all`` when a section's function is gone with its file."""
    if spec is not None and not spec.all:
        return shlex.join(["docbot", "run", *diff_flags(spec), *paths])
    paths = sorted({e.path for e in stale})
    if not paths or "" in paths or any(e.status == "orphaned" for e in stale):
        return "docbot run --all"
    return shlex.join(["docbot", "run", *paths])


def diff_flags(spec: DiffSpec) -> list[str]:
    """The flags that give ``spec`` back on a command line (``--base REV [--head REV]``, ``--staged``, ``--all``)."""
    if spec.base is not None:
        return ["--base", spec.base, *(["--head", spec.head] if spec.head is not None else [])]
    return ["--all"] if spec.all else ["--staged"] if spec.staged else []


@dataclass(frozen=True)
class CheckReport:
    """What ``docbot check`` found: docs that are not current, current but unapproved sections, and the
    API index when it is not what the doc files say (None when it is)."""

    stale: list[StaleEntry]
    unapproved: list[UnapprovedEntry]
    index: api_index.IndexState | None

    def failed(self, strict: bool) -> bool:
        """Stale docs or a stale index always fail; unapproved sections only with ``strict``."""
        return bool(self.stale or self.index or (strict and self.unapproved))

    def exit_code(self, strict: bool) -> ExitCode:
        """``docbot check``'s code, by the rule in docbot/errors.py: 1 on what ``failed`` finds, else 0
        (an unapproved section is a finding only with ``strict``; check never exits 6)."""
        return outcome_code(findings=self.failed(strict))

    def to_json(self) -> dict[str, Any]:
        return {"stale": [e.to_json() for e in self.stale], "unapproved": [e.to_json() for e in self.unapproved],
                "index": None if self.index is None else {"path": self.index.rel, "message": self.index.describe()}}


def _discard(_event: Event) -> None:
    """``docbot.events.discard``, without importing the event types."""


def _warning() -> type[WarningEvent]:
    from docbot.events import WarningEvent  # only when there is something to warn about

    return WarningEvent


def check_docs(settings: PlanSettings, repo_root: Path, spec: DiffSpec, paths: Sequence[str] = (), *,
               emit: EventSink = _discard) -> list[StaleEntry]:
    """Every function in scope whose doc section is missing, stale or orphaned; [] when all are current.

    Scope: every public function for ``spec.all``, else the functions the diff touched (plus any
    section of a touched module whose function is gone). Files that do not parse are reported as
    warnings and left out: their docs cannot be judged.
    """
    return check_report(settings, repo_root, spec, paths, emit=emit, index=False).stale


def check_report(settings: PlanSettings, repo_root: Path, spec: DiffSpec, paths: Sequence[str] = (), *,
                 emit: EventSink = _discard, index: bool = True, diff: DiffRead | None = None,
                 trusted_base: str | None = None) -> CheckReport:
    """``check_docs``, plus the unapproved sections in the same scope and (with ``index``) the API index,
    read like the doc files: from the index for a staged check. ``diff``: git's reading of ``spec``'s
    diff, when the caller already has it (the hook's screen). ``trusted_base``: a commit whose doc pages
    are trusted (``check --base``, the Action): the verdict of a section the diff wrote is re-derived
    against it (docbot.apidocs.trust)."""
    stale: list[StaleEntry] = []
    unapproved: list[UnapprovedEntry] = []
    judge = _Judge(settings, repo_root, trusted_base)
    for module in _modules(settings, repo_root, spec, paths, diff, emit, trusted_base):
        stale += _stale_in_module(module) + _duplicates(module)
        unapproved += _unapproved_in_module(module)
        more_stale, more_unapproved = judge(module)
        stale += more_stale  # in place: ``stale + more`` copied the whole list each module (quadratic)
        unapproved += more_unapproved
    judge.close()
    state = None
    if index:
        read = disk.read_staged_text if spec.staged else disk.read_text
        state = api_index.index_state(repo_root, settings.docs_dir, read)
    return CheckReport(stale, unapproved, state if state is not None and state.stale else None)


def _modules(settings: PlanSettings, repo_root: Path, spec: DiffSpec, paths: Sequence[str], diff: DiffRead | None,
             emit: EventSink, trusted_base: str | None) -> Iterable[ModuleDocs]:
    """The modules in scope, planned, the scan's errors emitted as warnings. A whole tree is scanned and planned
    a module at a time, each judged and let go: what the scan holds does not grow with the tree
    (docs/design.md#speed)."""
    if spec.all:
        from docbot.plan import plan_tree
        from docbot.scan.tree import scan_modules

        scans = scan_modules(repo_root, paths, include_dunder=settings.include_dunder, exclude=settings.exclude,
                             cache=settings.cache, outside_package=settings.scan_outside_package)
        return plan_tree(_warned(scans, emit), settings, repo_root, paths)
    found = scan(repo_root, spec, paths, include_dunder=settings.include_dunder,
                 exclude=settings.exclude, cache=settings.cache, diff=diff,
                 outside_package=settings.scan_outside_package)
    if trusted_base is not None and spec.base is not None and not paths:
        _with_changed_pages(found, settings, repo_root, spec, diff)
    for error in found.errors:
        emit(_warning().scan(error))
    return plan_modules(found, settings, repo_root, spec, paths, docs_from_index=spec.staged)


def _warned(scans: Iterable[Scan], emit: EventSink) -> Iterator[Scan]:
    for found in scans:
        for error in found.errors:
            emit(_warning().scan(error))
        yield found


def _with_changed_pages(found: Scan, settings: PlanSettings, repo_root: Path, spec: DiffSpec,
                        diff: DiffRead | None) -> None:
    """Add to ``found`` the functions of the modules whose doc pages the diff edited (docbot.apidocs.trust)."""
    from docbot.apidocs.trust import sources_of_changed_pages

    assert spec.base is not None
    extra = sources_of_changed_pages(repo_root, spec.base, spec.head, settings.docs_dir, diff=diff)
    if not extra:
        return
    more = scan(repo_root, DiffSpec(all=True), extra, include_dunder=settings.include_dunder,
                exclude=settings.exclude)
    keys = {t.key for t in found.targets}
    found.targets += [t for t in more.targets if t.key not in keys]
    found.errors += more.errors


class _Judge:
    """The sections whose marker ``check`` does not take on its word (docbot.apidocs.trust), module by module."""

    def __init__(self, settings: PlanSettings, root: Path, trusted_base: str | None) -> None:
        from docbot.apidocs.trust import Examples

        self.root, self.base = root, trusted_base
        self.examples = Examples(settings.run_examples is not False, settings.example_timeout_s,
                                 settings.example_sandbox)
        self._reader: Any = None

    def __call__(self, module: ModuleDocs) -> tuple[list[StaleEntry], list[UnapprovedEntry]]:
        if module.existing is None and not module.hand_written:
            return [], []  # nothing on the page: no verdict to doubt (and no verify room to load)
        from docbot.apidocs.trust import REWRITTEN, contradiction, kept_sections, rewritten_approvals

        stale, unapproved = [], []
        home = module.home
        texts = [t for t in (home.text, home.legacy_text) if t] if home is not None else []
        for target, body in kept_sections(module.targets, module.existing, module.hand_written, texts):
            if found := contradiction(target, body, self.root, self.examples):
                stale.append(_entry(target, "contradicted", module.doc_rel, found))
        sections = module.existing.sections if module.existing else {}
        on_base = self._base_page(module.doc_rel) if self.base else None
        for target in rewritten_approvals(module.targets, module.existing, on_base) if self.base else []:
            if found := contradiction(target, sections[target.qualname].body, self.root, self.examples):
                stale.append(_entry(target, "contradicted", module.doc_rel, found))
            else:
                unapproved.append(UnapprovedEntry(target.module, target.qualname, target.path, target.lineno,
                                                  None, module.doc_rel, REWRITTEN))
        return stale, unapproved

    def _base_page(self, rel: str) -> pages.DocFile | None:
        from docbot.apidocs.trust import base_page
        from docbot.errors import RepoError
        from docbot.git.blobs import BlobReader

        if self._reader is None:
            self._reader = BlobReader(self.root)

        def read(path: str) -> str | None:
            try:
                data = bytes(self._reader.read(f"{self.base}:{path}"))
                return data.decode("utf-8", "replace").replace("\r\n", "\n")
            except RepoError:
                return None
        return base_page(read, rel)

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()


def _duplicates(module: ModuleDocs) -> list[StaleEntry]:
    """A function with a second section on its page: which one is docbot's cannot be told, so it fails."""
    by_name = {t.qualname: t for t in module.targets}
    found = []
    for key in dict.fromkeys(module.existing.duplicates if module.existing else []):
        target = by_name.get(key)
        found.append(StaleEntry(module.name, key, target.path if target else "", target.lineno if target else 0,
                                "duplicate", module.doc_rel))
    return found


def _unapproved_in_module(module: ModuleDocs) -> list[UnapprovedEntry]:
    """Current sections marked unapproved (a stale one is reported as stale: it gets rewritten anyway)."""
    sections = module.existing.sections if module.existing else {}
    found = []
    for target in module.targets:
        section = sections.get(target.qualname)
        if (target.kind != "deleted" and section is not None and section.status is SectionStatus.UNAPPROVED
                and section.hash == pages.source_hash(target.source)):
            found.append(UnapprovedEntry(target.module, target.qualname, target.path, target.lineno,
                                         section.score, module.doc_rel))
    return found


def _stale_in_module(module: ModuleDocs) -> list[StaleEntry]:
    sections = module.existing.sections if module.existing else {}
    targets, rel = module.targets, module.doc_rel
    entries: list[StaleEntry] = []
    for target in targets:
        section = sections.get(target.qualname)
        if target.kind == "deleted":
            continue  # reported below, with every other section whose function is gone
        if section is None and not names_function(module.hand_written, target.qualname):  # a person's: kept
            entries.append(_entry(target, "missing", rel))
        elif section is None:
            continue
        elif section.hash != pages.source_hash(target.source):
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


def _entry(target: Target, status: StaleStatus, rel: str, detail: str = "") -> StaleEntry:
    return StaleEntry(target.module, target.qualname, target.path, target.lineno, status, rel, detail)
