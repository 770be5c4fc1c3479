"""The ``docs/api/<dotted.module>.md`` files: hashing, parsing, merging and rendering them.

One file per module: a ``# <module>`` title, then one section per public function in source order.
A section sits between a hidden start marker, carrying the qualified name and a hash of the
function's normalised source, and a hidden end marker, so docbot (and ``docbot check``) can tell a
current doc from a stale one without a model, and knows exactly which lines are its own::

    <!-- docbot:section Parser.parse hash=3f2a9c01b7de status=approved score=97 -->
    ## Parser.parse
    ...

    <!-- docbot:end Parser.parse -->

Everything outside the markers is a person's and is kept where it stands: the title line, an intro
before the first section, notes between sections, an appendix after the last one, and a second copy
of a section (reported as a duplicate, never dropped). A section written before end markers existed
runs to the next start marker, or to a level-1 heading outside a code fence (docbot's own sections
open with level 2), so an appendix added to such a file survives too.

Everything here is pure text in, text out, except ``write_atomic``. Rendering is deterministic, so a
re-run on unchanged code leaves the files byte-identical.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from docbot.mdtext import fence_spans
from docbot.results import SectionStatus

HASH_LENGTH = 12  # 48 bits of sha256: collisions within one module are not a practical concern

# module=, status=, score= and body= are optional: markers written before docbot recorded them still parse.
# ``module`` names the function's own module when the page is another one's (a public page holding the
# functions of the private modules it re-exports); ``body`` is a digest of the body docbot wrote.
_MARKER = re.compile(r"^<!-- docbot:section (?P<qualname>\S+) hash=(?P<hash>\S+)(?: module=(?P<module>[\w.]+))?"
                     r"(?: status=(?P<status>approved|unapproved))?(?: score=(?P<score>\d{1,3}))?"
                     r"(?: body=(?P<body>[0-9a-f]{12}))? -->[ \t]*$")
_END = re.compile(r"^<!-- docbot:end (?P<qualname>\S+) -->[ \t]*$")
_TITLE = re.compile(r"^#[ \t]+(?P<title>\S.*?)[ \t]*$")
_LEVEL_ONE_HEADING = re.compile(r"^ {0,3}#[ \t]+\S")
_LEADING_BLANK_LINES = re.compile(r"\A(?:[ \t]*\n)+")


class Section(NamedTuple):
    """One function's doc: the source hash it was written for, its Markdown body, and the gate's verdict
    (None in a marker from before docbot recorded it). ``module``: the function's module when it is not
    the page's; ``digest``: ``body_digest`` of the body as docbot wrote it ("" in an older marker)."""

    hash: str
    body: str
    status: SectionStatus | None = None
    score: int | None = None
    module: str = ""
    digest: str = ""

    @property
    def hand_edited(self) -> bool:
        """A person changed the body docbot wrote: the marker's digest is not the body's."""
        return bool(self.digest) and self.digest != body_digest(self.body)


def body_digest(body: str) -> str:
    """A digest of a section body as docbot compares it (``normalise_body``): what "docbot's words" means."""
    import hashlib  # here: a check of a repo with no docs reads no body (see source_hash)

    return hashlib.sha256(normalise_body(body).encode("utf-8", "surrogateescape")).hexdigest()[:HASH_LENGTH]


def split_key(page: str, key: str) -> tuple[str, str]:
    """``section_key``'s inverse: (the function's module, its qualname)."""
    module, _, qualname = key.rpartition(":")
    return module or page, qualname


@dataclass
class DocFile:
    """A parsed doc file. ``sections`` keeps file order (qualname -> section)."""

    title: str = ""  # the text of the first line's level-1 heading; "" when the file has none
    intro: str = ""  # free text a person put between the title and the first section; kept
    sections: dict[str, Section] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)  # free text after a section's end, by that section
    duplicates: list[str] = field(default_factory=list)  # qualnames with a second section (kept, in notes)

    @property
    def appendix(self) -> str:
        """The free text after the last section: it stays at the end of the file."""
        return self.notes.get(next(reversed(self.sections)), "") if self.sections else ""


def source_hash(source: str) -> str:
    """A short hex digest of a function's source that ignores indentation and whitespace noise.

    A method hashes the same at any nesting depth, and CRLF checkouts hash like LF ones, so only a
    real edit (the docstring included) makes a doc stale.
    """
    import hashlib  # here, with textwrap: ~7 ms the hook's check of a repo with no docs never pays
    import textwrap

    text = source.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    text = textwrap.dedent(text).strip("\n")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:HASH_LENGTH]


def marker_line(qualname: str, hash_: str, status: SectionStatus | None = None, score: int | None = None,
                module: str = "", digest: str = "") -> str:
    state = (f" module={module}" if module else "") + (f" status={status.value}" if status else "") \
        + (f" score={score}" if score is not None else "") + (f" body={digest}" if digest else "")
    return f"<!-- docbot:section {qualname} hash={hash_}{state} -->"


def end_marker_line(qualname: str) -> str:
    return f"<!-- docbot:end {qualname} -->"


def normalise_body(body: str) -> str:
    """Trailing whitespace off every line, no leading blank lines, no trailing blank lines.

    Stripping per line keeps docbot's output stable under the common ``trailing-whitespace``
    pre-commit hook, which would otherwise rewrite every file docbot writes.
    """
    text = body.replace("\r\n", "\n").replace("\r", "\n")
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    return _LEADING_BLANK_LINES.sub("", text).rstrip()


def parse_doc_file(text: str) -> DocFile:
    """Split a doc file into its title, intro, sections and the free text around them.

    If a qualname has two sections (e.g. after a botched merge), the first is docbot's; the later
    copy is listed in ``duplicates`` and kept, as written, in the free text where it stands.
    """
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").split("\n")
    fenced = fenced_lines(lines)
    starts = [i for i, line in enumerate(lines) if _MARKER.match(line) and i not in fenced]
    doc = DocFile()
    head = lines[: starts[0]] if starts else lines
    after: dict[str, list[str]] = {}  # section -> the lines of free text after it
    free = head  # where text outside docbot's sections goes now
    for number, index in enumerate(starts):
        match = _MARKER.match(lines[index])
        assert match is not None
        stop = starts[number + 1] if number + 1 < len(starts) else len(lines)
        end, closed = _section_end(lines, index + 1, stop, match["qualname"], fenced)
        key = f"{match['module']}:{match['qualname']}" if match["module"] else match["qualname"]
        if key in doc.sections:
            doc.duplicates.append(key)
            free.extend(lines[index:stop])
            continue
        doc.sections[key] = Section(
            match["hash"], normalise_body("\n".join(lines[index + 1:end])),
            SectionStatus(match["status"]) if match["status"] else None,
            int(match["score"]) if match["score"] else None, match["module"] or "", match["body"] or "")
        free = after[key] = lines[end + 1 if closed else end:stop]
    doc.title, doc.intro = _split_head(normalise_body("\n".join(head)))
    doc.notes = {q: note for q, note_lines in after.items() if (note := normalise_body("\n".join(note_lines)))}
    return doc


def fenced_lines(lines: list[str]) -> frozenset[int]:
    """Indexes of the lines inside a *closed* code fence, the fence lines included.

    A marker there is text (a person's example of docbot's format, an example's output), never a
    marker. A fence that is never closed protects nothing: counting it would hide every section after
    a stray opener, and the next merge would write them a second time.
    """
    return frozenset(i for span in fence_spans(lines) if span.closed for i in range(span.start, span.end + 1))


def _section_end(lines: list[str], start: int, stop: int, qualname: str,
                 fenced: frozenset[int] = frozenset()) -> tuple[int, bool]:
    """Where the section whose body starts at ``start`` ends, before the next start marker at ``stop``:
    (that line's index, whether it is the section's end marker)."""
    for index in range(start, stop):
        found = None if index in fenced else _END.match(lines[index])
        if found is not None and found["qualname"] == qualname:
            return index, True
    return _unmarked_end(lines, start, stop), False


def _unmarked_end(lines: list[str], start: int, stop: int) -> int:
    """A section without an end marker ends at a level-1 heading outside a code fence, else at ``stop``."""
    code = {start + i for span in fence_spans(lines[start:stop]) for i in range(span.start, span.end + 1)}
    return next((index for index in range(start, stop)
                 if index not in code and _LEVEL_ONE_HEADING.match(lines[index])), stop)


def _split_head(head: str) -> tuple[str, str]:
    first, _, rest = head.partition("\n")
    title = _TITLE.match(first)
    if title is None:
        return "", head
    return title["title"], normalise_body(rest)


def render_doc_file(module: str, sections: Mapping[str, Section | tuple[str, str]], intro: str = "") -> str:
    """The file text for ``module``: title, optional intro, then the sections in the given order."""
    return _render(module, intro, sections, {}, "")


def _render(title: str, intro: str, sections: Mapping[str, Section | tuple[str, str]], notes: Mapping[str, str],
            appendix: str) -> str:
    parts = [f"# {title}"] if title else []
    parts += [text for text in [normalise_body(intro)] if text]
    for key, value in sections.items():
        section = Section(*value)
        module, qualname = split_key("", key)
        text = normalise_body(section.body)
        parts.append(marker_line(qualname, section.hash, section.status, section.score, module, section.digest)
                     + ("\n" + text + "\n" if text else "") + "\n"
                     + end_marker_line(qualname))
        parts += [note for note in [normalise_body(notes.get(key, ""))] if note]
    parts += [text for text in [normalise_body(appendix)] if text]
    return "\n\n".join(parts) + "\n"


def merge(existing: DocFile | None, module: str, order: list[str],
          updates: Mapping[str, Section | tuple[str, str]], removals: set[str]) -> str | None:
    """The new text of a module's doc file, or None when nothing is left in it (remove the file).

    ``order`` lists every current public function of the module in source order; it decides both
    the order and which old sections survive: a section whose function is gone from ``order`` (a
    deleted function, or docs left over from an older run) is dropped. Sections of functions that
    are neither updated nor removed are kept as they are. An update for a name missing from
    ``order`` is kept at the end rather than thrown away.

    Only docbot's sections change: the title line and every piece of free text are kept. A note that
    followed a dropped section moves to the section before it (or to the intro), the appendix stays
    last, and a file is removed only when nothing but its default ``# <module>`` title is left.
    """
    old = existing.sections if existing else {}
    sections: dict[str, Section | tuple[str, str]] = {}
    for qualname in order:
        if qualname in updates:
            sections[qualname] = updates[qualname]
        elif qualname in old and qualname not in removals:
            sections[qualname] = old[qualname]
    for qualname in sorted(set(updates) - set(sections)):
        sections[qualname] = updates[qualname]
    if existing is None:
        return render_doc_file(module, sections) if sections else None
    intro, notes = _place_notes(existing, set(sections))
    if not sections and not (intro or notes or existing.appendix) and existing.title in ("", module):
        return None
    return _render(existing.title, intro, sections, notes, existing.appendix)


def keep_if_same(old_text: str | None, existing: DocFile | None, text: str | None) -> str | None:
    """``old_text`` when ``text`` says the same thing (only the layout differs, e.g. end markers that a
    file from an older docbot lacks), else ``text``: a run that changes nothing writes nothing."""
    if old_text is not None and existing is not None and text is not None and parse_doc_file(text) == existing:
        return old_text
    return text


def _place_notes(existing: DocFile, kept: set[str]) -> tuple[str, dict[str, str]]:
    """The intro and the notes after ``kept`` sections, once dropped sections hand theirs back."""
    intro, notes = existing.intro, dict[str, str]()
    owner = ""  # the last kept section so far, in the old file's order
    for qualname in list(existing.sections)[:-1]:  # the last one's note is the appendix
        owner = qualname if qualname in kept else owner
        note = existing.notes.get(qualname, "")
        if note and owner:
            notes[owner] = f"{notes[owner]}\n\n{note}" if owner in notes else note
        elif note:
            intro = f"{intro}\n\n{note}" if intro else note
    return intro, notes


def doc_path(docs_dir: str, module: str) -> str:
    """``("docs/api", "pkg.mod")`` -> ``"docs/api/pkg.mod.md"`` (POSIX, relative to the repo root)."""
    return f"{docs_dir.rstrip('/')}/{module}.md" if docs_dir.strip("/") else f"{module}.md"


def text_digest(text: str | None) -> str:
    """A digest of a doc file's text (LF line ends), "" for an absent file: what "unchanged" means."""
    import hashlib

    return "" if text is None else hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()
