"""Parse the text of ``git diff`` into files and the line ranges that changed on each side.

Pure: text in, values out. ``docbot.repo`` runs git with fixed flags (``--no-color``, ``a/``/``b/``
prefixes, ``-M``) so the text has one known shape; this module only reads it.

Hunk bodies are walked line by line rather than trusting the ``@@`` header alone: a context line is
not a change, and a removed line belongs to the *old* side only. A pure deletion at the tail of one
function must not mark the function after it, which widening it onto the new side would do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

ChangeStatus = Literal["added", "modified", "deleted", "renamed"]
LineRange = tuple[int, int]  # 1-based, inclusive
_HunkLine = tuple[int, str, bool]  # line number, text, "\ No newline at end of file" follows it

_HUNK_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_DEV_NULL = "/dev/null"
_C_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}


@dataclass(frozen=True)
class FileChange:
    """One file in a diff. ``old_path`` is None for an added file, ``new_path`` for a deleted one.

    ``old_ranges`` are lines removed from the old blob, ``new_ranges`` lines added to the new blob.
    ``binary`` is set when git showed no text hunks ("Binary files ... differ").
    """

    old_path: str | None
    new_path: str | None
    status: ChangeStatus
    old_ranges: list[LineRange] = field(default_factory=list)
    new_ranges: list[LineRange] = field(default_factory=list)
    binary: bool = False

    @property
    def path(self) -> str:
        """The path a user knows the file by now (the old one when it was deleted)."""
        return self.new_path or self.old_path or ""


@dataclass
class _Section:
    """A file section while it is being read; frozen into a FileChange at the end."""

    git_line: str
    old_path: str | None = None
    new_path: str | None = None
    added: bool = False
    deleted: bool = False
    renamed: bool = False
    binary: bool = False
    old_lines: list[int] = field(default_factory=list)
    new_lines: list[int] = field(default_factory=list)


def parse_unified_diff(text: str) -> list[FileChange]:
    """Every file of a ``git diff`` patch, in the order git printed them."""
    lines = text.split("\n")  # never splitlines(): it also breaks on \f, \x1c, \u2028 inside code
    sections: list[_Section] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if line.startswith("diff --git "):
            sections.append(_Section(git_line=line[len("diff --git "):]))
        elif line.startswith("diff "):  # "diff --cc" (unmerged paths): nothing we can map, skip it
            sections.append(_Section(git_line=""))
        elif sections:
            index = _read_line(sections[-1], line, lines, index)
    return [_freeze(s) for s in sections if s.git_line]


def _read_line(section: _Section, line: str, lines: list[str], index: int) -> int:
    """Apply one header line to ``section``; for a hunk header also consume its body."""
    hunk = _HUNK_HEADER.match(line)
    if hunk:
        return _read_hunk(section, hunk, lines, index)
    if line.startswith("--- "):
        section.old_path = _path_after(line[4:], "a/")
    elif line.startswith("+++ "):
        section.new_path = _path_after(line[4:], "b/")
    elif line.startswith(("rename from ", "copy from ")):
        section.old_path = _unquote(line.split(" ", 2)[2])
        section.renamed = line.startswith("rename")
        section.added = line.startswith("copy")
    elif line.startswith(("rename to ", "copy to ")):
        section.new_path = _unquote(line.split(" ", 2)[2])
    elif line.startswith("new file mode"):
        section.added = True
    elif line.startswith("deleted file mode"):
        section.deleted = True
    elif line.startswith("Binary files "):
        section.binary = True
    return index


def _read_hunk(section: _Section, hunk: re.Match[str], lines: list[str], index: int) -> int:
    """Record the line numbers of the hunk's removed and added lines; return the index after it."""
    old_no, new_no = int(hunk.group(1)), int(hunk.group(3))
    old_left = 1 if hunk.group(2) is None else int(hunk.group(2))
    new_left = 1 if hunk.group(4) is None else int(hunk.group(4))
    removed: list[_HunkLine] = []
    added: list[_HunkLine] = []
    previous: list[_HunkLine] | None = None  # where the line before a "\ No newline" marker went
    # Count by the header: a removed line "-- x" reads "--- x" and must not end the hunk early.
    while (old_left > 0 or new_left > 0 or _is_marker(lines, index)) and index < len(lines):
        body = lines[index]
        index += 1
        tag = body[:1]
        if tag == "\\":  # "\ No newline at end of file" belongs to the line before it
            if previous:
                previous[-1] = (previous[-1][0], previous[-1][1], True)
        elif tag == "-":
            removed.append((old_no, body[1:], False))
            previous, old_no, old_left = removed, old_no + 1, old_left - 1
        elif tag == "+":
            added.append((new_no, body[1:], False))
            previous, new_no, new_left = added, new_no + 1, new_left - 1
        else:  # context (" ", or "" when diff.suppressBlankEmpty is set)
            previous, old_no, new_no = None, old_no + 1, new_no + 1
            old_left, new_left = old_left - 1, new_left - 1
    if _newline_only(removed, added):
        removed, added = [], added[1:]
    section.old_lines += [number for number, _, _ in removed]
    section.new_lines += [number for number, _, _ in added]
    return index


def _is_marker(lines: list[str], index: int) -> bool:
    return index < len(lines) and lines[index].startswith("\\")


def _newline_only(removed: list[_HunkLine], added: list[_HunkLine]) -> bool:
    """Did the hunk only add or drop the newline after the file's last line?

    Appending to a file that lacks its final newline rewrites that last line ("-x", "\\ No newline
    ...", "+x", "+more"); the function that ends there did not change.
    """
    return (len(removed) == 1 and bool(added) and removed[0][1] == added[0][1]
            and removed[0][2] != added[0][2])


def _freeze(section: _Section) -> FileChange:
    old_path, new_path = section.old_path, section.new_path
    status: ChangeStatus
    if old_path is None and new_path is None:  # no ---/+++ lines: empty, binary or mode-only change
        old_path = new_path = _path_from_git_line(section.git_line)
    if section.added or old_path is None:
        old_path, status = None, "added"
    elif section.deleted or new_path is None:
        new_path, status = None, "deleted"
    elif section.renamed or old_path != new_path:
        status = "renamed"
    else:
        status = "modified"
    return FileChange(old_path=old_path, new_path=new_path, status=status,
                      old_ranges=to_ranges(section.old_lines), new_ranges=to_ranges(section.new_lines),
                      binary=section.binary)


def to_ranges(line_numbers: list[int]) -> list[LineRange]:
    """``[3, 4, 5, 9]`` -> ``[(3, 5), (9, 9)]``."""
    ranges: list[LineRange] = []
    for number in sorted(set(line_numbers)):
        if ranges and ranges[-1][1] == number - 1:
            ranges[-1] = (ranges[-1][0], number)
        else:
            ranges.append((number, number))
    return ranges


def _path_after(token: str, prefix: str) -> str | None:
    """The path in a ``---``/``+++`` line, without its prefix; None for /dev/null."""
    if not token.startswith('"'):
        # git appends a tab to an unquoted name that contains a space (for GNU patch)
        token = token.removesuffix("\t")
    path = _unquote(token)
    if path == _DEV_NULL:
        return None
    return path.removeprefix(prefix)


def _path_from_git_line(rest: str) -> str:
    """The path in ``diff --git a/P b/P`` when both sides are the same file (no rename)."""
    if rest.startswith('"'):
        path, _ = _read_quoted(rest)
        return path.removeprefix("a/")
    # Unquoted names may contain spaces, so split in the middle: "a/P b/P" has 2*len(P) + 5 chars.
    half = (len(rest) - 5) // 2
    return rest[2:2 + half]


def _unquote(token: str) -> str:
    """Undo git's C-style quoting (``"a/h\\303\\251llo.py"`` -> ``a/héllo.py``); plain text passes."""
    if not token.startswith('"'):
        return token
    return _read_quoted(token)[0]


def _read_quoted(text: str) -> tuple[str, str]:
    """Read one quoted token from the start of ``text``; return it and the text after it."""
    data = bytearray()
    index = 1
    while index < len(text) and text[index] != '"':
        char = text[index]
        if char != "\\":
            data += char.encode("utf-8")
            index += 1
        elif text[index + 1:index + 2].isdigit():  # octal byte, e.g. \303
            data.append(int(text[index + 1:index + 4], 8))
            index += 4
        else:
            data.append(_C_ESCAPES.get(text[index + 1:index + 2], ord("\\")))
            index += 2
    return data.decode("utf-8", errors="replace"), text[index + 1:]
