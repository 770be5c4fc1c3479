"""Which page a module's sections live on: the public module path users import (docs/design.md#docs-files).

A public module (no part starting with ``_``) is its own page, and nothing is loaded to say so: the hook's
check of a public edit costs what it did. A private module's functions go to the page of the public module
that re-exports most of them, as griffe resolves the package (re-exports, ``__all__``; the same reading
``docbot pages`` names its pages by), so ``attr._funcs.asdict`` is documented on ``attr.md``. A private
module nothing re-exports goes to its nearest public parent (``attr._compat`` -> ``attr``).

A page then holds several modules' sections; each merge changes only its own module's
(``merge_module``), and a page named after a private module, written before pages were public, is a
``legacy`` page whose sections the next run moves, markers and all, to the public one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from docbot.apidocs import pages
from docbot.apidocs.pages import DocFile, Section

if TYPE_CHECKING:
    from docbot.apidocs.page_cache import PageCache

Reader = Callable[[Path, str], "str | None"]  # (repo root, repo-relative path) -> LF text or None
_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+[`*_ ]*(?:def[ \t]+|class[ \t]+)?(?P<name>[^\W\d][\w.]*)")


def is_public(module: str) -> bool:
    return not any(part.startswith("_") for part in module.split("."))


def nearest_public(module: str) -> str:
    """The module's public parent (``pkg._impl.x`` -> ``pkg``); the module itself when it has none."""
    parts = module.split(".")
    public = next((i for i, part in enumerate(parts) if part.startswith("_")), len(parts))
    return ".".join(parts[:public]) or module


def public_parents(module: str) -> list[str]:
    """The public packages above the module, nearest first (``pkg.sub._impl.x`` -> ``pkg.sub``, ``pkg``)."""
    parts = nearest_public(module).split(".")
    return [".".join(parts[:end]) for end in range(len(parts), 0, -1)] if nearest_public(module) != module else []


def holds_module(text: str | None, module: str) -> bool:
    """The page's text has a section of ``module`` (its marker says ``module=``)."""
    return text is not None and f" module={module} " in text


class PageNames:
    """The page of each module, griffe loaded once per package and only for a private module; with ``cache``,
    once per change to the package's files (docbot.apidocs.page_cache)."""

    def __init__(self, root: Path, cache: bool = False) -> None:
        self.root = root
        self.cache = cache
        self._by_package: dict[str, dict[str, str]] = {}
        self._known: PageCache | None = None

    def page(self, module: str, holds: Callable[[str], bool] = lambda page: False) -> str:
        """The module's page: a public parent's page that ``holds`` its sections already (no griffe: the
        hook's check of a documented private module stays cheap, and pages never move), else griffe's."""
        if is_public(module) or module.startswith("_"):  # a top-level private module has no public page
            return module
        for parent in public_parents(module):
            if holds(parent):
                return parent
        package = module.split(".")[0]
        if package not in self._by_package:
            self._by_package[package] = self._reexported(package)
        return self._by_package[package].get(module) or nearest_public(module)

    def _reexported(self, package: str) -> dict[str, str]:
        if not self.cache:
            return reexported(self.root, package)
        from docbot.apidocs.page_cache import PageCache, fingerprint

        self._known = self._known or PageCache.in_repo(self.root)
        if self._known is None:
            return reexported(self.root, package)
        key = fingerprint(self.root, package)
        found = self._known.get(package, key)
        if found is None:
            found = reexported(self.root, package)
            self._known.put(package, key, found)
        return found

    def save(self) -> None:
        """Remember the packages griffe read this run (with ``cache``)."""
        if self._known is not None:
            self._known.save()


def reexported(root: Path, package: str) -> dict[str, str]:
    """Private module -> the public module that re-exports most of its objects (ties: the shortest path)."""
    from docbot.apidocs.api_model import defined_at, release  # griffe: only here (docs/design.md#lazy-imports)

    counts: dict[str, Counter[str]] = {}
    try:
        for module, canonical in defined_at(root, package):
            source = canonical.rsplit(".", 1)[0]
            if source != module and not is_public(source):
                counts.setdefault(source, Counter())[module] += 1
    except Exception:  # noqa: BLE001 -- griffe cannot read the package: every module takes its public parent
        return {}
    finally:
        release()
    return {source: min(found, key=lambda path: (-found[path], path.count("."), path))
            for source, found in counts.items()}


@dataclass(frozen=True)
class Home:
    """Where one module's sections are: its page, read once, and the page named after the module itself
    when that is another one (``legacy``: written before pages were named by public paths)."""

    page: str
    rel: str
    text: str | None
    doc: DocFile | None
    legacy_rel: str = ""
    legacy_text: str | None = None
    legacy_doc: DocFile | None = None

    def view(self, module: str) -> DocFile | None:
        """The module's sections, by qualname: the page's, then the legacy page's not yet moved."""
        found = module_view(self.doc, self.page, module)
        legacy = module_view(self.legacy_doc, module, module)
        if legacy is None or not legacy.sections:
            return found
        if found is None:
            return legacy
        moved = {q: s for q, s in legacy.sections.items() if q not in found.sections}
        return DocFile(found.title, found.intro, {**found.sections, **moved}, {}, found.duplicates)

    def to_move(self, module: str) -> dict[str, Section]:
        """The legacy page's sections the public page does not hold yet."""
        legacy = module_view(self.legacy_doc, module, module)
        on_page = module_view(self.doc, self.page, module)
        have = on_page.sections if on_page else {}
        return {q: s for q, s in (legacy.sections if legacy else {}).items() if q not in have}


def home_of(root: Path, docs_dir: str, module: str, page: str, read: Reader) -> Home:
    rel = pages.doc_path(docs_dir, page)
    text = read(root, rel)
    doc = pages.parse_doc_file(text) if text is not None else None
    if page == module:
        return Home(page, rel, text, doc)
    legacy_rel = pages.doc_path(docs_dir, module)
    legacy_text = read(root, legacy_rel)
    legacy_doc = pages.parse_doc_file(legacy_text) if legacy_text is not None else None
    if legacy_doc is None or not legacy_doc.sections:
        return Home(page, rel, text, doc)
    return Home(page, rel, text, doc, legacy_rel, legacy_text, legacy_doc)


def section_key(page: str, module: str, qualname: str) -> str:
    """The key of ``module.qualname``'s section in the page of ``page``: the qualname on the module's
    own page, ``module:qualname`` on a page that holds other modules' functions too."""
    return qualname if module in ("", page) else f"{module}:{qualname}"


def key_in(doc_rel: str, module: str, qualname: str) -> str:
    """``section_key`` for the page at ``doc_rel`` (``docs/api/attr.md``)."""
    return section_key(doc_rel.rsplit("/", 1)[-1].removesuffix(".md"), module, qualname)


def module_view(doc: DocFile | None, page: str, module: str) -> DocFile | None:
    """``doc`` with only ``module``'s sections, keyed by qualname (a read-only view: no notes)."""
    if doc is None:
        return None
    mine = {qualname: section for key, section in doc.sections.items()
            for owner, qualname in [pages.split_key(page, key)] if owner == module}
    duplicates = [q for key in doc.duplicates for owner, q in [pages.split_key(page, key)] if owner == module]
    return DocFile(doc.title, doc.intro, mine, {}, duplicates)


def merge_module(doc: DocFile | None, page: str, module: str, order: list[str],
                 updates: Mapping[str, Section], removals: set[str]) -> str | None:
    """``pages.merge`` for one module's sections on a page that may hold other modules' too: theirs stay
    where they are, this module's take the place of its first one (or go last), in ``order``."""
    def key(qualname: str) -> str:
        return section_key(page, module, qualname)

    keys: list[str] = []
    for existing in doc.sections if doc else {}:
        if pages.split_key(page, existing)[0] != module:
            keys.append(existing)
        elif key(order[0] if order else "") not in keys:
            keys += [key(q) for q in order]
    if not any(key(q) in keys for q in order):
        keys += [key(q) for q in order]
    return pages.merge(doc, page, keys, {key(q): s for q, s in updates.items()}, {key(q) for q in removals})


def hand_written(*docs: DocFile | None) -> frozenset[str]:
    """The names the headings of a person's text name (outside docbot's sections, code fences and HTML
    comments): ``## `attr.asdict` `` or ``### asdict(inst)`` is a section a person wrote for that function. A
    heading inside ``<!-- … -->`` is shown to no reader, so it is no section (issue 30: it hid a function)."""
    names: set[str] = set()
    for doc in docs:
        for text in [doc.intro, *doc.notes.values()] if doc else []:
            lines = text.split("\n")
            hidden = pages.fenced_lines(lines) | _commented(lines)
            names.update(found["name"] for i, line in enumerate(lines)
                         if i not in hidden and (found := _HEADING.match(line)) is not None)
    return frozenset(names)


def _commented(lines: list[str]) -> frozenset[int]:
    """Indexes of the lines inside a multi-line HTML comment, after its opening line up to its closing one (a
    heading on the opening line itself starts with ``<!--`` and matches no heading; ``<!--`` in a closed code
    fence opens nothing)."""
    fenced = pages.fenced_lines(lines)
    found: set[int] = set()
    inside = False
    for index, line in enumerate(lines):
        if index in fenced:
            continue
        if inside:
            found.add(index)
            inside = "-->" not in line
        elif "<!--" in line:
            inside = "-->" not in line[line.rindex("<!--") + 4:]
    return frozenset(found)


def names_function(names: frozenset[str], qualname: str) -> bool:
    """A heading names ``qualname``: as written, or dotted by its module or any public path to it."""
    return any(name == qualname or name.endswith("." + qualname) for name in names)
