"""``--write-docstrings``: after a run, each updated function's final doc model becomes its docstring.

The docstring is rendered in the project's one style (``docbot.docstrings.style``), with the reST
directives of the docstring it replaces kept, and set with libcst (``docbot.docstrings.writer``), so
every other byte of the source stays as it was. Do no harm (docs/design.md#docstrings):

- a docstring docbot did not write (``docbot.docstrings.record``) is replaced only by an approved doc
  that keeps every fact of it still true: each documented exception, each example, each directive, and its
  style (``docbot.docstrings.keep``); an unapproved one, or one that would drop such a fact, becomes a
  suggestion in the report, never a write, and the report says which facts were kept or dropped. A
  function with no docstring gets the unapproved one: it loses nothing.
- a function whose source no longer hashes to what its doc section was written for changed while
  docbot worked: it is left alone.
- the file is read and written in its declared encoding (``docbot.docstrings.safe``); a docstring it
  cannot hold, or longer than ``max_docstring_chars``, is refused for that function. The new bytes must
  compile to the old syntax tree, docstrings aside, or nothing is written.
- the source is written atomically, and not at all when it changed between the read and the rename.

A docstring is part of the function's source, so the section markers then get the new hash:
``docbot check`` still calls the docs current.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import libcst as cst

from docbot import paths
from docbot.apidocs import disk
from docbot.apidocs import homes, pages
from docbot.config.settings import Settings
from docbot.docstrings import record
from docbot.docstrings.existing import directives, existing_docstring
from docbot.docstrings.keep import dropped, facts_of
from docbot.docstrings.safe import Decoded, decode_source, encodes, same_code
from docbot.docstrings.style import project_style
from docbot.docstrings.text import DocstringStyle, render_docstring
from docbot.docstrings.writer import set_docstring
from docbot.facts.function import extract_facts
from docbot.results import FunctionResult, SectionStatus
from docbot.scan.targets import SourceParseError, public_functions
from docbot.verify.checks.reach import CodeBase


@dataclass(frozen=True)
class Suggested:
    """A docstring docbot would write but may not: the function has a person's and this doc is unapproved."""

    path: str
    qualname: str
    text: str

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "qualname": self.qualname, "docstring": self.text}


@dataclass
class DocstringReport:
    """The sources changed, the functions left alone (and why), the doc files re-marked, the suggestions."""

    written: list[str] = field(default_factory=list)  # repo-relative source paths
    facts: list[str] = field(default_factory=list)  # "path: qualname: raise ValueError: kept", a person's facts
    kept: list[str] = field(default_factory=list)  # "path: qualname: why", one per function not written
    docs: list[str] = field(default_factory=list)  # doc files whose markers got the new hashes, and the record
    suggested: list[Suggested] = field(default_factory=list)

    def lines(self) -> list[str]:
        shown = [f"docstring suggested for {s.path}: {s.qualname} (unapproved, so the docstring a person wrote "
                 "stays; take it by hand if it is better):\n" + "\n".join(f"    {line}" if line else ""
                                                                     for line in s.text.split("\n"))
                 for s in self.suggested]
        return ([f"docstring written: {path}" for path in self.written]
                + [f"docstring not written: {why}" for why in self.kept]
                + [f"a person's docstring, {fact}" for fact in self.facts] + shown)

    def to_json(self) -> dict[str, Any]:
        return {"written": self.written, "kept": self.kept, "docs": self.docs, "facts": self.facts,
                "suggested": [s.to_json() for s in self.suggested]}


@dataclass
class _File:
    """One source being edited: its bytes as read, their decoding, the text so far."""

    rel: str
    data: bytes
    decoded: Decoded
    text: str


def apply_docstrings(repo_root: Path, settings: Settings, results: Sequence[FunctionResult]) -> DocstringReport:
    """Write the docstring of every result that was updated with a doc model; see the module docstring."""
    by_path: dict[str, list[FunctionResult]] = {}
    for result in results:
        if result.status == "updated" and result.doc_model is not None and not result.removed and result.path:
            by_path.setdefault(result.path, []).append(result)
    report = DocstringReport()
    if not by_path:
        return report
    style = project_style(repo_root, settings.docstring_style)
    record_text, entries = record.read_record(repo_root, settings.docs_dir)
    fresh = dict(entries)
    for path, todo in sorted(by_path.items()):
        _apply_file(repo_root, path, todo, report, _Context(settings, style, entries, fresh))
    if fresh != entries:
        rel = record.record_path(settings.docs_dir)
        if disk.write_text(repo_root, rel, record.render_record(fresh), read_as=record_text):
            report.docs.append(rel)
    return report


def decided(repo_root: Path, docs_dir: str) -> Callable[[str], bool]:
    """Whether docbot already decided a function's docstring: wrote it, or kept a person's (the record)."""
    _, entries = record.read_record(repo_root, docs_dir)
    return lambda key: key in entries


@dataclass(frozen=True)
class _Context:
    settings: Settings
    style: DocstringStyle
    entries: dict[str, str]  # the record as read: which docstrings docbot wrote
    fresh: dict[str, str]  # the record as it will be written


def _apply_file(repo_root: Path, rel: str, todo: list[FunctionResult], report: DocstringReport,
                context: _Context) -> None:
    file = paths.inside_repo(repo_root, rel)
    try:
        data = paths.read_bytes_no_follow(file, rel)
    except PermissionError as err:
        report.kept += [f"{rel}: {r.qualname}: the file cannot be read ({err.strerror}); docbot leaves it alone"
                        for r in todo]
        return
    if data is None:
        report.kept += [f"{rel}: {r.qualname}: the file is gone" for r in todo]
        return
    decoded = decode_source(data)
    if isinstance(decoded, str):
        report.kept += [f"{rel}: {r.qualname}: {decoded}; docbot leaves the file alone" for r in todo]
        return
    source = _File(rel, data, decoded, decoded.text)
    done: list[tuple[FunctionResult, str]] = []
    for result in todo:
        changed = _one(source, result, repo_root, context)
        report.facts += [f"{rel}: {result.qualname}: {fact}" for fact in changed.facts]
        if isinstance(changed, _Kept):
            report.kept += [f"{rel}: {result.qualname}: {changed.why}"] if changed.why else []
            report.suggested += [Suggested(rel, result.qualname, changed.text)] if changed.text else []
            if changed.decided is not None:  # a person's docstring kept, or docbot's already there: decided
                context.fresh[result.key] = changed.decided
        else:
            source.text, done = changed.source, [*done, (result, changed.docstring)]
    if source.text == decoded.text:
        return
    new = decoded.encode(source.text)
    if not same_code(data, new):  # a bug in rendering or in libcst: never ship it
        report.kept += [f"{rel}: {r.qualname}: the edited file would not compile to the same code; nothing "
                        "was written (please report this)" for r, _ in done]
        return
    if not _write(file, rel, data, new, [r for r, _ in done], report):
        return
    report.written.append(rel)
    context.fresh.update({r.key: record.digest(text) for r, text in done})
    _remark(repo_root, rel, source.text, [r for r, _ in done], report)


def _write(file: Path, rel: str, data: bytes, new: bytes, done: list[FunctionResult],
           report: DocstringReport) -> bool:
    """Replace the source's ``data`` with ``new``; False, with why in ``report.kept``, when it may not be."""
    try:
        if not file.stat().st_mode & 0o222:  # read-only by its mode: the rename would replace it anyway
            raise PermissionError(13, "the file is read-only", str(file))
        wrote = paths.write_atomic(file, new, unchanged=lambda: paths.read_bytes_no_follow(file, rel) == data)
    except PermissionError as err:  # a read-only source, or a folder docbot may not write in
        report.kept += [f"{rel}: {r.qualname}: the file cannot be written ({err.strerror}); docbot leaves it "
                        "alone: make it writable and run docbot again" for r in done]
        return False
    if not wrote:
        report.kept += [f"{rel}: {r.qualname}: the file was edited while docbot ran; run docbot again"
                        for r in done]
    return wrote


@dataclass(frozen=True)
class _Kept:
    """Why one function's docstring is not written, and the docstring suggested instead (or "")."""

    why: str
    text: str = ""
    decided: str | None = None  # the record's entry for a decision that stands (docbot.run.owed)
    facts: tuple[str, ...] = ()  # a person's docstring's facts, kept or dropped (docbot.docstrings.keep)


@dataclass(frozen=True)
class _Written:
    source: str  # the file's text with the docstring set
    docstring: str
    facts: tuple[str, ...] = ()


def _one(file: _File, result: FunctionResult, repo_root: Path, context: _Context) -> _Written | _Kept:
    """The source with ``result``'s docstring set, or why it is left alone."""
    current = _function_source(file.text, result)
    if current is None:
        return _Kept("no such function in the file now")
    doc = disk.read_text(repo_root, result.doc_path) if result.doc_path else None
    key = homes.key_in(result.doc_path, result.module, result.qualname)  # a public page: ``module:qualname``
    section = pages.parse_doc_file(doc).sections.get(key) if doc is not None else None
    if section is None or section.hash != pages.source_hash(current):
        return _Kept("the function changed since docbot documented it; run docbot again")
    assert result.doc_model is not None  # filtered in apply_docstrings
    before = existing_docstring(current)
    text = render_docstring(result.doc_model, extract_facts(current, result.qualname), context.style,
                            directives(before))
    if before is not None and before.strip() == text.strip():
        return _Kept("", decided=record.digest(before))  # already there, word for word
    persons = before is not None and not record.is_docbots(context.entries, result.key, before)
    if persons and result.approval is not SectionStatus.APPROVED:
        assert before is not None
        return _Kept("", text, decided=record.KEPT + record.digest(before))
    facts = facts_of(before or "", text, (CodeBase.of(result.module, file.text), result.module, result.qualname)
                     ) if persons else []
    shown = tuple(f.describe() for f in facts)
    if lost := dropped(facts):
        assert before is not None  # only a person's docstring has facts to drop
        return _Kept("the approved docstring would drop what the person's says (" + "; ".join(
            f"{f.kind.value} {f.text}" for f in lost) + "); it is suggested instead", text,
            decided=record.KEPT + record.digest(before), facts=shown)
    limit = context.settings.max_docstring_chars
    if len(text) > limit:
        return _Kept(f"the docstring would be {len(text)} characters, over max_docstring_chars ({limit})")
    if not encodes(file.decoded, text):
        return _Kept(f"the docstring has characters the file's encoding ({file.decoded.encoding}) cannot hold")
    try:
        return _Written(set_docstring(file.text, result.qualname, text), text, shown)
    except (ValueError, cst.ParserSyntaxError) as err:
        return _Kept(f"libcst cannot edit this file ({type(err).__name__}); docbot leaves it alone")


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
            key = homes.key_in(doc_rel, result.module, result.qualname)
            fresh, section = _function_source(source, result), existing.sections.get(key)
            if fresh is not None and section is not None:
                updates[key] = section._replace(hash=pages.source_hash(fresh))
        module = done[0].module
        text = pages.merge(existing, module, list(existing.sections), updates, set())
        if disk.write_text(repo_root, doc_rel, text, read_as=old_text):
            report.docs.append(doc_rel)
        else:
            report.kept.append(f"{doc_rel}: edited while docbot ran; its markers still name the old source "
                               f"of {rel}: run docbot again")
