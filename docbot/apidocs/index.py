"""``docs/api/index.md``: every documented module and function with its gate status (docs/design.md#api-index).

The index is derived from the doc files alone: one entry per docbot section, its status and score read
from the section's marker, modules sorted and functions in file order, so the same doc files always
give the same bytes. ``docbot run`` rewrites it after the modules are written (only when its text
changes), ``docbot check`` reports it when it differs from what the doc files say.

The file opens with ``INDEX_MARKER``: an ``index.md`` without it is a person's (or a module named
``index``) and is never overwritten nor judged. With no docbot section left, docbot's index is removed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from docbot.apidocs import disk as doc_files
from docbot.apidocs import pages

if TYPE_CHECKING:  # the event types only for writing the index: ``docbot check`` reads it (~20 ms less)
    from docbot.events import EventSink

INDEX_MODULE = "index"
INDEX_MARKER = "<!-- docbot:index: written by docbot run from the section markers; edits are replaced -->"

Reader = Callable[[Path, str], "str | None"]  # (repo root, repo-relative path) -> LF text or None


@dataclass(frozen=True)
class IndexState:
    """The index on disk against the one the doc files call for."""

    rel: str  # repo-relative path of index.md
    current: str | None  # the text on disk (or staged); None when absent
    expected: str | None  # what docbot would write; None: no index (nothing documented)
    owned: bool  # docbot's own file, or absent: docbot may write it

    @property
    def outdated(self) -> bool:
        """``docbot run`` must write (or remove) it: docbot's index, or none, and not what the doc files say."""
        return self.owned and self.current != self.expected

    @property
    def stale(self) -> bool:
        """What ``docbot check`` reports: docbot's index is there and says something else than the doc files.
        A missing index is not a finding (a repository documented before the index, or one that removed it)."""
        return self.outdated and self.current is not None

    def describe(self) -> str:
        what = "should be removed: no doc section is left" if self.expected is None else "is stale"
        return f"{self.rel}: the API index {what}; run `docbot run` and commit it."


def index_rel(docs_dir: str) -> str:
    return pages.doc_path(docs_dir, INDEX_MODULE)


def index_text(repo_root: Path, docs_dir: str, read: Reader = doc_files.read_text) -> str | None:
    """The index the doc files call for, or None when no module has a docbot section."""
    documented = doc_files.documented_pages(repo_root, docs_dir, exclude={INDEX_MODULE})
    if not documented:  # a repository documented by no one yet: no renderer (the doc model, the truth checks)
        return None
    from docbot.apidocs.render import IndexEntry, anchor, render_index

    entries: list[IndexEntry] = []
    for page in documented:
        text = read(repo_root, pages.doc_path(docs_dir, page))
        if text is None:
            continue
        for key, section in pages.parse_doc_file(text).sections.items():
            module, qualname = pages.split_key(page, key)  # a section's anchor names its function's module
            try:
                target = anchor(module, qualname)
            except ValueError:  # a hand-edited marker naming no Python function: nothing to link
                continue
            entries.append(IndexEntry(page, qualname, section.status, section.score,
                                      anchored=f'<a id="{target}"></a>' in section.body, source=module))
    return f"{INDEX_MARKER}\n\n{render_index(entries)}" if entries else None


def index_state(repo_root: Path, docs_dir: str, read: Reader = doc_files.read_text) -> IndexState:
    rel = index_rel(docs_dir)
    current = read(repo_root, rel)
    owned = current is None or current.startswith(INDEX_MARKER)
    return IndexState(rel, current, index_text(repo_root, docs_dir, read), owned)


def write_index(repo_root: Path, docs_dir: str, emit: EventSink) -> list[str]:
    """Bring docbot's index up to date; returns ``[rel]`` when it was written or removed, else []."""
    from docbot.events import WarningEvent

    state = index_state(repo_root, docs_dir)
    if not state.owned:
        if state.expected is not None:
            emit(WarningEvent(f"{state.rel} was not written by docbot: left as it is, and no API index "
                              "is written; delete or rename it to get one."))
        return []
    if not state.outdated:
        return []
    if doc_files.write_text(repo_root, state.rel, state.expected, read_as=state.current):
        return [state.rel]
    emit(WarningEvent(f"{state.rel} was edited while docbot ran: kept; run docbot again to update the index."))
    return []
