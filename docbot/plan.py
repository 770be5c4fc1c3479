"""What each module's doc needs, decided without a model: shared by ``docbot run`` and ``docbot check``.

For a scan of the code, ``plan_modules`` lists the modules whose doc files are in scope, and for
each: its targets (one per qualname), the public functions it defines now (in source order, or None
when its code cannot be read), and its doc file as it is on disk. ``run`` then decides what to send
to the loop, and ``check`` what to report as missing, stale or orphaned; both read the same facts.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol

from docbot.apidocs import disk as doc_files
from docbot.apidocs import homes
from docbot.apidocs.disk import documented_modules
from docbot.apidocs.homes import Home
from docbot.apidocs.pages import doc_path
from docbot.apidocs.pages import DocFile
from docbot.config.choices import DEFAULT_EXAMPLE_SANDBOX, DEFAULT_EXAMPLE_TIMEOUT_S, DEFAULT_EXCLUDE
from docbot.scan.repo import DiffSpec, Scan, WorktreeTexts
from docbot.results import Target
from docbot.scan.targets import SourceParseError, module_name, public_functions


if TYPE_CHECKING:  # a Protocol class costs its import time; only the type checker reads it
    class PlanSettings(Protocol):
        """What planning and ``docbot check`` read of the settings. ``Settings`` has it; so has
        ``PLAN_DEFAULTS``, which a hook check in a checkout without a config file takes instead of
        building ``Settings`` (pydantic: 2-3 times the parse of a large staged file, docs/design.md#lazy-imports)."""

        @property
        def docs_dir(self) -> str: ...

        @property
        def include_dunder(self) -> bool: ...

        @property
        def exclude(self) -> Sequence[str]: ...

        @property
        def cache(self) -> bool: ...

        @property
        def run_examples(self) -> bool | str: ...

        @property
        def example_timeout_s(self) -> float: ...

        @property
        def example_sandbox(self) -> str: ...

        @property
        def scan_outside_package(self) -> bool: ...


class PlanDefaults(NamedTuple):
    """``Settings``' defaults for ``PlanSettings``, without pydantic (a test holds them equal). Immutable
    like ``Settings``; a NamedTuple because a dataclass costs ~1 ms to create on the hook's import path."""

    docs_dir: str = "docs/api"
    include_dunder: bool = False
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    cache: bool = True
    run_examples: bool | str = "auto"  # a person's section's examples run on every check (docbot.check_kept)
    example_timeout_s: float = DEFAULT_EXAMPLE_TIMEOUT_S
    example_sandbox: str = DEFAULT_EXAMPLE_SANDBOX
    scan_outside_package: bool = False


PLAN_DEFAULTS = PlanDefaults()


@dataclass(frozen=True)
class ModuleDocs:
    """One module in scope: its targets, what it defines now, and its doc file as it is on disk."""

    name: str
    targets: list[Target]
    order: list[str] | None  # public functions defined now, in source order; None: unknown, leave it alone
    doc_rel: str  # repo-relative path of its page (the public module's, docbot.apidocs.homes)
    old_text: str | None  # the page's text (LF), None when absent
    existing: DocFile | None  # the module's sections on its page (and on a legacy page), by qualname
    home: Home | None = None  # its page as read, and the legacy page to move sections from
    hand_written: frozenset[str] = frozenset()  # names a person's own headings on those pages name


def plan_modules(found: Scan, settings: PlanSettings, repo_root: Path, spec: DiffSpec,
                 paths: Sequence[str], *, docs_from_index: bool = False) -> list[ModuleDocs]:
    """Every module in scope for this scan, in scan order, with its doc file read once: from the
    working tree, or with ``docs_from_index`` as the index holds it (what a commit being checked takes)."""
    planner = Planner(settings, repo_root, docs_from_index=docs_from_index)
    code = CodeNow.from_scan(found, include_dunder=settings.include_dunder, every=spec.all)
    by_module = group_by_module(found.targets)
    modules = [planner.module(name, by_module.get(name, []), code, on_page)
               for name, on_page in modules_in_scope(by_module, settings.docs_dir, repo_root, spec, paths).items()]
    planner.save()
    return modules


def plan_tree(scans: Iterable[Scan], settings: PlanSettings, repo_root: Path,
              paths: Sequence[str]) -> Iterator[ModuleDocs]:
    """``plan_modules`` of a whole-tree scan handed over a module at a time (docbot.scan.tree), each module
    planned as it comes and then let go: the same modules, with the documented ones that have no target now
    last (docs/design.md#speed). What is kept across modules is names: the modules seen and their files."""
    planner = Planner(settings, repo_root, keep=PAGES_KEPT)
    seen: dict[str, None] = {}
    read: dict[str, None] = {}  # every file read, for the documented modules without a target
    unparsed: set[str] = set()
    top = repo_root
    scans = iter(scans)
    first = next(scans, None)  # the scan's refusals (not a repository, a mistyped path) come first, as before
    # Listed before any page is read, as plan_modules does: a docs folder it refuses is refused first.
    documented = documented_modules(repo_root, settings.docs_dir, exclude=set()) if not paths else {}
    for found in itertools.chain([first] if first is not None else [], scans):
        code = CodeNow.from_scan(found, include_dunder=settings.include_dunder, every=True)
        if isinstance(found.sources, WorktreeTexts):
            top = found.sources.top
        read.update(dict.fromkeys(found.sources))
        unparsed |= code.unparsed
        for name, targets in group_by_module(found.targets).items():
            seen[name] = None
            yield planner.module(name, targets, code, "")
    if not paths:
        rest = Scan(base="", head="", sources=WorktreeTexts(top, list(read)))
        code = CodeNow.from_scan(rest, include_dunder=settings.include_dunder, every=True)
        code = dataclasses.replace(code, unparsed=frozenset(unparsed))
        for name, page in documented.items():
            if name not in seen:
                yield planner.module(name, [], code, page)
    planner.save()


PAGES_KEPT = 256  # pages a streamed plan keeps read: a page several modules share is read again past this


class Planner:
    """Plans one module at a time, sharing what a run reads once: where each page is (griffe for a private
    module) and the pages' texts (all of them, or the last ``keep`` read, for a plan that streams)."""

    def __init__(self, settings: PlanSettings, repo_root: Path, *, docs_from_index: bool = False,
                 keep: int | None = None) -> None:
        self.settings, self.root, self.keep = settings, repo_root, keep
        self.read = doc_files.read_staged_text if docs_from_index else doc_files.read_text
        self.names = homes.PageNames(repo_root, settings.cache)  # griffe only for a private module
        self.texts: dict[str, str | None] = {}

    def read_once(self, root: Path, rel: str) -> str | None:
        """A page shared by modules, and probed, is read once (while kept)."""
        if rel not in self.texts:
            if self.keep is not None and len(self.texts) >= self.keep:
                del self.texts[next(iter(self.texts))]
            self.texts[rel] = self.read(root, rel)
        return self.texts[rel]

    def module(self, name: str, targets: list[Target], code: CodeNow, on_page: str) -> ModuleDocs:
        docs_dir = self.settings.docs_dir
        page = on_page or self.names.page(name, functools.partial(_holds, self.read_once, self.root, docs_dir, name))
        home = homes.home_of(self.root, docs_dir, name, page, self.read_once)
        return ModuleDocs(name, targets, code.functions(name, targets), home.rel, home.text, home.view(name), home,
                          homes.hand_written(home.doc, home.legacy_doc))

    def save(self) -> None:
        self.names.save()


def _holds(read: homes.Reader, root: Path, docs_dir: str, module: str, page: str) -> bool:
    return homes.holds_module(read(root, doc_path(docs_dir, page)), module)


def group_by_module(targets: Iterable[Target]) -> dict[str, list[Target]]:
    """Targets per module, modules in first-seen order; one target per qualname (a live one wins)."""
    grouped: dict[str, dict[str, Target]] = {}
    for target in targets:
        seen = grouped.setdefault(target.module, {})
        if target.qualname not in seen or seen[target.qualname].kind == "deleted":
            seen[target.qualname] = target
    return {module: list(by_name.values()) for module, by_name in grouped.items()}


def modules_in_scope(by_module: dict[str, list[Target]], docs_dir: str, repo_root: Path,
                     spec: DiffSpec, paths: Sequence[str]) -> dict[str, str]:
    """The modules whose doc files this run looks at, in scan order -> the page their sections are
    known to be on ("": the page is decided from the code).

    Always the modules with targets. For a whole-tree run without paths also every module with a
    section docbot wrote that has no target now (all its functions gone private, or the file gone).
    """
    modules = dict.fromkeys(by_module, "")
    if spec.all and not paths:
        modules.update(documented_modules(repo_root, docs_dir, exclude=set(modules)))
    return modules


@dataclass(frozen=True)
class CodeNow:
    """What the scanned code defines now, per module; built once per run from the scan. A module's
    text is read from the scan's sources only when needed (a whole-tree scan reads it from disk then)."""

    sources: Mapping[str, str]  # path -> current source; "" when its file is gone
    paths: dict[str, list[str]]  # module -> the paths that map to it, in scan order
    unparsed: frozenset[str]  # modules a scan error names: their code cannot be read
    include_dunder: bool
    every: bool  # a whole-tree scan: the targets already list every public function

    @classmethod
    def from_scan(cls, found: Scan, *, include_dunder: bool, every: bool) -> CodeNow:
        paths: dict[str, list[str]] = {}
        for path in found.sources:
            paths.setdefault(module_name(path), []).append(path)
        # A module a scan error names is left alone, not judged empty.
        unparsed = frozenset(module_name(error.path) for error in found.errors)
        return cls(found.sources, paths, unparsed, include_dunder, every)

    def functions(self, module: str, targets: list[Target]) -> list[str] | None:
        """The qualnames the module defines now, in source order; None when that cannot be known."""
        live = [t for t in targets if t.kind != "deleted"]
        if self.every and live:
            return [t.qualname for t in live]
        found = self._source(module)
        if found is None:
            if live:  # the scan did not hand over the text: trust the live targets
                return [t.qualname for t in sorted(live, key=lambda t: t.lineno)]
            return None if module in self.unparsed else []
        path, source = found
        if not source:
            return []
        try:
            defined = public_functions(source, module, path, include_dunder=self.include_dunder)
        except SourceParseError:
            return None
        return [t.qualname for t in defined]

    def _source(self, module: str) -> tuple[str, str] | None:
        """The module's path and text: of two paths for one module (a move out of src/), the live one
        (the last with text), else the first."""
        candidates = self.paths.get(module)
        if not candidates:
            return None
        chosen = candidates[0], self.sources[candidates[0]]
        for path in candidates[1:]:
            text = self.sources[path]
            if text:
                chosen = path, text
        return chosen
