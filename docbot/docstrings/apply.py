"""``--write-docstrings``: after a run, each updated function's final doc model becomes its docstring.

The docstring is rendered in the style the file already uses (detected once per file, before any
change) and set with libcst (``docbot.docstrings.writer``), so every other byte of the source stays as it
was. A function whose source no longer hashes to what its doc section was written for changed while
docbot worked: its file is left alone. The source is written atomically, and not at all when it
changed between the read and the rename. A docstring is part of the function's source, so the
section markers then get the new hash: ``docbot check`` still calls the docs current
(docs/design.md#docstrings).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docbot import paths
from docbot.apidocs import disk
from docbot.apidocs import pages
from docbot.docstrings.writer import DocstringStyle, detect_style, write_docstring
from docbot.facts.function import extract_facts
from docbot.results import FunctionResult
from docbot.scan.targets import SourceParseError, public_functions

_BOM = "\ufeff"


@dataclass
class DocstringReport:
    """The sources changed, the functions left alone (and why), the doc files re-marked."""

    written: list[str] = field(default_factory=list)  # repo-relative source paths
    kept: list[str] = field(default_factory=list)  # "path: qualname: why", one per function not written
    docs: list[str] = field(default_factory=list)  # doc files whose markers got the new source hashes

    def lines(self) -> list[str]:
        return ([f"docstring written: {path}" for path in self.written]
                + [f"docstring not written: {why}" for why in self.kept])

    def to_json(self) -> dict[str, Any]:
        return {"written": self.written, "kept": self.kept, "docs": self.docs}


def apply_docstrings(repo_root: Path, docs_dir: str, results: Sequence[FunctionResult]) -> DocstringReport:
    """Write the docstring of every result that was updated with a doc model; see the module docstring."""
    by_path: dict[str, list[FunctionResult]] = {}
    for result in results:
        if result.status == "updated" and result.doc_model is not None and not result.removed and result.path:
            by_path.setdefault(result.path, []).append(result)
    report = DocstringReport()
    for path, todo in sorted(by_path.items()):
        _apply_file(repo_root, path, todo, report)
    return report


def _apply_file(repo_root: Path, rel: str, todo: list[FunctionResult], report: DocstringReport) -> None:
    file = paths.inside_repo(repo_root, rel)
    data = paths.read_bytes_no_follow(file, rel)
    if data is None:
        report.kept += [f"{rel}: {r.qualname}: the file is gone" for r in todo]
        return
    try:
        original = data.decode("utf-8")  # no newline translation: a CRLF file stays CRLF
    except UnicodeDecodeError:
        report.kept += [f"{rel}: {r.qualname}: not UTF-8; docbot writes docstrings only into UTF-8 files"
                        for r in todo]
        return
    bom = _BOM if original.startswith(_BOM) else ""
    text = new = original[len(bom):]
    style = detect_style(text)
    done: list[FunctionResult] = []
    for result in todo:
        changed = _one(new, result, repo_root, style)
        if isinstance(changed, _Kept):
            report.kept.append(f"{rel}: {result.qualname}: {changed.why}")
        else:
            new, done = changed, [*done, result]
    if new == text:
        return
    if not paths.write_atomic(file, bom + new, unchanged=lambda: paths.read_bytes_no_follow(file, rel) == data):
        report.kept += [f"{rel}: {r.qualname}: the file was edited while docbot ran; run docbot again" for r in done]
        return
    report.written.append(rel)
    _remark(repo_root, rel, new, done, report)


@dataclass(frozen=True)
class _Kept:
    """Why one function's docstring is not written."""

    why: str


def _one(source: str, result: FunctionResult, repo_root: Path, style: DocstringStyle) -> str | _Kept:
    """The source with ``result``'s docstring set, or why it is left alone."""
    current = _function_source(source, result)
    if current is None:
        return _Kept("no such function in the file now")
    doc = disk.read_text(repo_root, result.doc_path) if result.doc_path else None
    section = pages.parse_doc_file(doc).sections.get(result.qualname) if doc is not None else None
    if section is None or section.hash != pages.source_hash(current):
        return _Kept("the function changed since docbot documented it; run docbot again")
    assert result.doc_model is not None  # filtered in apply_docstrings
    facts = extract_facts(current, result.qualname)
    return write_docstring(source, result.qualname, result.doc_model, facts, style)


def _function_source(source: str, result: FunctionResult) -> str | None:
    try:
        found = public_functions(source, result.module, result.path, include_dunder=True)
    except SourceParseError:
        return None
    return next((t.source for t in found if t.qualname == result.qualname), None)


def _remark(repo_root: Path, rel: str, source: str, done: list[FunctionResult], report: DocstringReport) -> None:
    """Give each written function's section marker the hash of its new source."""
    for doc_rel in sorted({r.doc_path for r in done}):
        old_text = disk.read_text(repo_root, doc_rel)
        if old_text is None:
            continue
        existing = pages.parse_doc_file(old_text)
        updates = {}
        for result in (r for r in done if r.doc_path == doc_rel):
            fresh, section = _function_source(source, result), existing.sections.get(result.qualname)
            if fresh is not None and section is not None:
                updates[result.qualname] = section._replace(hash=pages.source_hash(fresh))
        module = done[0].module
        text = pages.merge(existing, module, list(existing.sections), updates, set())
        if disk.write_text(repo_root, doc_rel, text, read_as=old_text):
            report.docs.append(doc_rel)
        else:
            report.kept.append(f"{doc_rel}: edited while docbot ran; its markers still name the old source "
                               f"of {rel}: run docbot again")
