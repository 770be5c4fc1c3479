"""The ``docs/api/<dotted.module>.md`` files: hashing, parsing, merging and rendering them.

One file per module: a ``# <module>`` title, then one section per public function in source order.
Each section starts with a hidden marker line carrying the qualified name and a hash of the
function's normalised source, so docbot (and ``docbot check``) can tell a current doc from a stale
one without a model::

    <!-- docbot:section Parser.parse hash=3f2a9c01b7de -->
    ## Parser.parse
    ...

Everything here is pure text in, text out, except ``write_atomic``. Rendering is deterministic, so a
re-run on unchanged code leaves the files byte-identical.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

HASH_LENGTH = 12  # 48 bits of sha256: collisions within one module are not a practical concern

_MARKER = re.compile(r"^<!-- docbot:section (?P<qualname>\S+) hash=(?P<hash>\S+) -->[ \t]*$")
_TITLE = re.compile(r"^#[ \t]+(?P<title>.*?)[ \t]*$")
_LEADING_BLANK_LINES = re.compile(r"\A(?:[ \t]*\n)+")


class Section(NamedTuple):
    """One function's doc: the source hash it was written for, and its Markdown body."""

    hash: str
    body: str


@dataclass
class DocFile:
    """A parsed doc file. ``sections`` keeps file order (qualname -> section)."""

    title: str = ""
    intro: str = ""  # free text a person put between the title and the first section; kept
    sections: dict[str, Section] = field(default_factory=dict)


def source_hash(source: str) -> str:
    """A short hex digest of a function's source that ignores indentation and whitespace noise.

    A method hashes the same at any nesting depth, and CRLF checkouts hash like LF ones, so only a
    real edit (the docstring included) makes a doc stale.
    """
    text = source.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    text = textwrap.dedent(text).strip("\n")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:HASH_LENGTH]


def marker_line(qualname: str, hash_: str) -> str:
    return f"<!-- docbot:section {qualname} hash={hash_} -->"


def normalise_body(body: str) -> str:
    """Trailing whitespace off every line, no leading blank lines, no trailing blank lines.

    Stripping per line keeps docbot's output stable under the common ``trailing-whitespace``
    pre-commit hook, which would otherwise rewrite every file docbot writes.
    """
    text = body.replace("\r\n", "\n").replace("\r", "\n")
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    return _LEADING_BLANK_LINES.sub("", text).rstrip()


def parse_doc_file(text: str) -> DocFile:
    """Split a doc file into its title, intro and sections (tolerant of hand edits).

    A section runs from its marker to the next marker. If a qualname appears twice (e.g. after a
    botched merge), the first section wins.
    """
    doc = DocFile()
    head: list[str] = []
    current: tuple[str, str] | None = None
    body: list[str] = []
    for line in text.lstrip("\ufeff").replace("\r\n", "\n").split("\n"):
        match = _MARKER.match(line)
        if match is None:
            (body if current else head).append(line)
            continue
        if current:
            doc.sections.setdefault(current[0], Section(current[1], normalise_body("\n".join(body))))
        current, body = (match["qualname"], match["hash"]), []
    if current:
        doc.sections.setdefault(current[0], Section(current[1], normalise_body("\n".join(body))))
    doc.title, doc.intro = _split_head(normalise_body("\n".join(head)))
    return doc


def _split_head(head: str) -> tuple[str, str]:
    first, _, rest = head.partition("\n")
    title = _TITLE.match(first)
    if title is None:
        return "", head
    return title["title"], normalise_body(rest)


def render_doc_file(module: str, sections: Mapping[str, tuple[str, str]], intro: str = "") -> str:
    """The file text for ``module``: title, optional intro, then the sections in the given order."""
    parts = [f"# {module}"]
    if normalise_body(intro):
        parts.append(normalise_body(intro))
    for qualname, (hash_, body) in sections.items():
        text = normalise_body(body)
        parts.append(marker_line(qualname, hash_) + ("\n" + text if text else ""))
    return "\n\n".join(parts) + "\n"


def merge(existing: DocFile | None, module: str, order: list[str],
          updates: Mapping[str, tuple[str, str]], removals: set[str]) -> str | None:
    """The new text of a module's doc file, or None when no section is left (remove the file).

    ``order`` lists every current public function of the module in source order; it decides both
    the order and which old sections survive: a section whose function is gone from ``order`` (a
    deleted function, or docs left over from an older run) is dropped. Sections of functions that
    are neither updated nor removed are kept as they are. An update for a name missing from
    ``order`` is kept at the end rather than thrown away.
    """
    old = existing.sections if existing else {}
    sections: dict[str, tuple[str, str]] = {}
    for qualname in order:
        if qualname in updates:
            sections[qualname] = updates[qualname]
        elif qualname in old and qualname not in removals:
            sections[qualname] = old[qualname]
    for qualname in sorted(set(updates) - set(sections)):
        sections[qualname] = updates[qualname]
    if not sections:
        return None
    return render_doc_file(module, sections, existing.intro if existing else "")


def doc_path(docs_dir: str, module: str) -> str:
    """``("docs/api", "pkg.mod")`` -> ``"docs/api/pkg.mod.md"`` (POSIX, relative to the repo root)."""
    return f"{docs_dir.rstrip('/')}/{module}.md" if docs_dir.strip("/") else f"{module}.md"


def write_atomic(path: Path, text: str | None) -> None:
    """Replace ``path`` with ``text`` (UTF-8, LF) in one step, or remove it when ``text`` is None.

    The text goes to a temporary file in the same folder and is renamed over the old file, so a
    crash or a full disk mid-write leaves the old file intact and no partial file behind.
    """
    if text is None:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    # mkstemp creates 0600 files; docs should keep the old file's mode, or the usual 0644.
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    fd, temp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(text.encode("utf-8"))
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temp_name, mode)
        os.replace(temp_name, path)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
