"""``docbot check``: which public functions lack a current doc section. No model, one pass, fast.

This is the CI gate and the second pre-commit hook. A section is current when its marker's hash
equals the hash of the function's source as it stands now; otherwise the function's doc is
"missing" or "stale", and a section whose function no longer exists is "orphaned".

The helpers that look at the docs folder and at what a module defines now are shared with
``docbot.run``, which makes the same decisions before it spends any model time.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from docbot import doc_files, docs_api
from docbot.docs_api import DocFile
from docbot.events import WARNING, Event, EventSink, discard
from docbot.repo import DiffSpec, Scan, scan
from docbot.results import Target
from docbot.settings import Settings
from docbot.targets import SourceParseError, module_name, public_functions

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
                 exclude=settings.exclude)
    for error in found.errors:
        emit(Event(WARNING, error, {"error": error}))
    code = CodeNow.from_scan(found, include_dunder=settings.include_dunder, every=spec.all)
    entries: list[StaleEntry] = []
    by_module = group_by_module(found.targets)
    for module in modules_in_scope(by_module, settings.docs_dir, repo_root, spec, paths):
        targets = by_module.get(module, [])
        order = code.functions(module, targets)
        rel = docs_api.doc_path(settings.docs_dir, module)
        doc = read_doc(repo_root, rel, staged=spec.staged)
        for notice in doc_files.duplicate_notices(rel, doc):
            emit(Event(WARNING, notice.describe(), notice.to_json()))
        entries += _stale_in_module(module, targets, order, doc, rel)
    return entries


def _stale_in_module(module: str, targets: list[Target], order: list[str] | None,
                     doc: DocFile | None, rel: str) -> list[StaleEntry]:
    sections = doc.sections if doc else {}
    entries: list[StaleEntry] = []
    for target in targets:
        section = sections.get(target.qualname)
        if target.kind == "deleted":
            continue  # reported below, with every other section whose function is gone
        if section is None:
            entries.append(_entry(target, "missing", rel))
        elif section.hash != docs_api.source_hash(target.source):
            entries.append(_entry(target, "stale", rel))
    if order is None:  # the module's code could not be read: its other sections cannot be judged
        return entries
    current = set(order)
    old_paths = {t.qualname: t.path for t in targets}
    fallback_path = targets[0].path if targets else ""
    for qualname in sections:
        if qualname not in current:
            entries.append(StaleEntry(module, qualname, old_paths.get(qualname, fallback_path), 0,
                                      "orphaned", rel))
    return entries


def _entry(target: Target, status: StaleStatus, rel: str) -> StaleEntry:
    return StaleEntry(target.module, target.qualname, target.path, target.lineno, status, rel)


# --- shared with docbot.run -------------------------------------------------------------------


def group_by_module(targets: Iterable[Target]) -> dict[str, list[Target]]:
    """Targets per module, modules in first-seen order; one target per qualname (a live one wins)."""
    grouped: dict[str, dict[str, Target]] = {}
    for target in targets:
        seen = grouped.setdefault(target.module, {})
        if target.qualname not in seen or seen[target.qualname].kind == "deleted":
            seen[target.qualname] = target
    return {module: list(by_name.values()) for module, by_name in grouped.items()}


def modules_in_scope(by_module: dict[str, list[Target]], docs_dir: str, repo_root: Path,
                     spec: DiffSpec, paths: Sequence[str]) -> list[str]:
    """The modules whose doc files this run looks at, in scan order.

    Always the modules with targets. For a whole-tree run without paths also every doc file docbot
    wrote for a module that has no target now (all its functions gone private, or the file gone).
    """
    modules = list(by_module)
    if spec.all and not paths:
        modules += documented_modules(repo_root, docs_dir, exclude=set(modules))
    return modules


@dataclass(frozen=True)
class CodeNow:
    """What the scanned code defines now, per module; built once per run from the scan."""

    sources: dict[str, str]  # module -> current source; "" when its file is gone
    paths: dict[str, str]  # module -> the path that source came from
    unparsed: frozenset[str]  # modules a scan error names: their code cannot be read
    include_dunder: bool
    every: bool  # a whole-tree scan: the targets already list every public function

    @classmethod
    def from_scan(cls, found: Scan, *, include_dunder: bool, every: bool) -> CodeNow:
        sources: dict[str, str] = {}
        paths: dict[str, str] = {}
        for path, text in found.sources.items():
            module = module_name(path)
            if text or module not in sources:  # two paths, one module (a move out of src/): the live one
                sources[module], paths[module] = text, path
        # Scan errors read "path: message"; a module named there is left alone, not judged empty.
        unparsed = frozenset(module_name(error.partition(": ")[0]) for error in found.errors)
        return cls(sources, paths, unparsed, include_dunder, every)

    def functions(self, module: str, targets: list[Target]) -> list[str] | None:
        """The qualnames the module defines now, in source order; None when that cannot be known."""
        live = [t for t in targets if t.kind != "deleted"]
        if self.every and live:
            return [t.qualname for t in live]
        source = self.sources.get(module)
        if source is None:
            if live:  # the scan did not hand over the text: trust the live targets
                return [t.qualname for t in sorted(live, key=lambda t: t.lineno)]
            return None if module in self.unparsed else []
        if not source:
            return []
        try:
            found = public_functions(source, module, self.paths[module], include_dunder=self.include_dunder)
        except SourceParseError:
            return None
        return [t.qualname for t in found]


def documented_modules(repo_root: Path, docs_dir: str, exclude: set[str]) -> list[str]:
    """Modules not in ``exclude`` with a docbot-written file in the docs folder (files a person
    wrote, without section markers, are ignored). Excluded files are not even read, nor symlinks."""
    folder = doc_files.docs_folder(repo_root, docs_dir)
    if not folder.is_dir():
        return []
    modules = []
    for file in sorted(folder.glob("*.md")):
        if file.name[: -len(".md")] in exclude or file.is_symlink():
            continue
        text = read_doc_text(repo_root, docs_api.doc_path(docs_dir, file.name[: -len(".md")]))
        if text is not None and "<!-- docbot:section " in text and docs_api.parse_doc_file(text).sections:
            modules.append(file.name[: -len(".md")])
    return modules


def read_doc(repo_root: Path, rel: str, *, staged: bool = False) -> DocFile | None:
    """The parsed doc file; ``staged``: as the index holds it (what the commit being checked takes)."""
    text = doc_files.read_staged_text(repo_root, rel) if staged else read_doc_text(repo_root, rel)
    return docs_api.parse_doc_file(text) if text is not None else None


def read_doc_text(repo_root: Path, rel: str) -> str | None:
    """A doc file's text with LF line ends, or None when it does not exist."""
    return doc_files.read_text(repo_root, rel)
