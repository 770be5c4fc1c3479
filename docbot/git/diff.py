"""Read ``git diff`` output into files and the line ranges that changed on each side.

Pure: bytes in, values out. ``docbot.scan.repo`` runs git with ``DIFF_FLAGS``: ``--raw -z`` records name
each file and its status with the paths unquoted and NUL-separated, then the ``-U0`` patch follows.
Paths are never read back out of the patch text, where git C-quotes unusual names and an unquoted
``diff --git a/x b/y`` line cannot be split when names hold spaces. The patch is read only for its
hunks: git prints one patch section per raw record, in the same order, except that a type change
(file <-> symlink) prints two, a deletion and then a creation.

Hunk bodies are walked line by line rather than trusting the ``@@`` header alone: a context line is
not a change, and a removed line belongs to the *old* side only. A pure deletion at the tail of one
function must not mark the function after it, which widening it onto the new side would do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

ChangeStatus = Literal["added", "modified", "deleted", "renamed"]
LineRange = tuple[int, int]  # 1-based, inclusive
_HunkLine = tuple[int, str, bool]  # line number, text, "\ No newline at end of file" follows it

# The flags whose output parse_git_diff reads. Each pins something user configuration would change:
# prefixes and quoting no longer matter (paths come from the raw records), but colour, external
# drivers, textconv, diff.relative and diff.submodule=log would change or drop patch sections.
DIFF_FLAGS = ("--raw", "-z", "--patch", "-U0", "--no-color", "--no-ext-diff", "--no-textconv",
              "--no-relative", "--submodule=short", "-M", "--src-prefix=a/", "--dst-prefix=b/")

_HUNK_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_SECTION_STARTS = ("diff --git ", "* Unmerged path ")
REGULAR_FILE_MODES = ("100644", "100755")  # not symlinks (120000), submodules (160000) or absent (000000)


class DiffShapeError(ValueError):
    """git's output did not have the shape DIFF_FLAGS asks for (a bug to report, never a user error)."""


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


# The two private records below are a NamedTuple and a plain class: a dataclass costs ~1 ms to create
# (its methods are compiled at import), and this module is on every hook run's import path.
class _Record(NamedTuple):
    """One ``--raw`` record: ``:oldmode newmode oldsha newsha STATUS`` and one or two paths."""

    old_mode: str
    new_mode: str
    letter: str  # A, C, D, M, R, T, U or X; R and C carry a similarity score we do not need
    old_path: str
    new_path: str


class _Lines:
    """The changed line numbers read from one or two patch sections."""

    __slots__ = ("old", "new", "binary")

    def __init__(self) -> None:
        self.old: list[int] = []
        self.new: list[int] = []
        self.binary = False


def parse_git_diff(output: bytes) -> list[FileChange]:
    """Every regular file of a ``git diff`` run with ``DIFF_FLAGS``, in the order git printed them.

    Unmerged paths, symlinks and submodules are left out: a side that is not a regular file counts as
    absent, so a file that became a symlink reads as deleted. DiffShapeError when the output does
    not have the expected shape.
    """
    raw, _, patch = output.partition(b"\0\0")  # the raw part ends with an empty record
    records = _records(raw.decode("utf-8", "surrogateescape"))
    sections = _sections(patch.decode("utf-8", "replace"))
    expected = sum(2 if record.letter == "T" else 1 for record in records)
    if len(sections) != expected:
        raise DiffShapeError(f"git diff printed {len(records)} files but {len(sections)} patch sections, "
                             f"expected {expected}")
    changes, start = [], 0
    for record in records:
        lines, end = _Lines(), start + (2 if record.letter == "T" else 1)
        for section in sections[start:end]:
            _read_section(section, lines)
        change, start = _change(record, lines), end
        if change is not None:
            changes.append(change)
    return changes


def _records(raw: str) -> list[_Record]:
    fields = raw.split("\0") if raw else []
    records = []
    while fields:
        info = fields.pop(0)
        parts = info.split(" ")
        if not info.startswith(":") or len(parts) != 5 or not fields:
            raise DiffShapeError(f"not a git diff --raw record: {info!r}")
        letter = parts[4][:1]
        old_path = fields.pop(0)
        new_path = fields.pop(0) if letter in ("R", "C") and fields else old_path
        records.append(_Record(parts[0][1:], parts[1], letter, old_path, new_path))
    return records


def _sections(patch: str) -> list[list[str]]:
    """The patch split into file sections. Body lines start with a tag (``+ - space \\``), so a line
    starting with a section header is one; split on \\n only (splitlines also breaks on \\f, \\x1c)."""
    sections: list[list[str]] = []
    for line in patch.split("\n"):
        if line.startswith(_SECTION_STARTS):
            sections.append([line])
        elif sections:
            sections[-1].append(line)
    return sections


def _change(record: _Record, lines: _Lines) -> FileChange | None:
    """The FileChange a record stands for; None for what docbot does not read."""
    old_path = record.old_path if record.old_mode in REGULAR_FILE_MODES and record.letter != "C" else None
    new_path = record.new_path if record.new_mode in REGULAR_FILE_MODES else None
    if record.letter in ("U", "X") or (old_path is None and new_path is None):
        return None
    status: ChangeStatus
    if old_path is None:
        status = "added"
    elif new_path is None:
        status = "deleted"
    else:
        status = "renamed" if old_path != new_path else "modified"
    return FileChange(old_path=old_path, new_path=new_path, status=status,
                      old_ranges=to_ranges(lines.old) if old_path else [],
                      new_ranges=to_ranges(lines.new) if new_path else [], binary=lines.binary)


def _read_section(section: list[str], lines: _Lines) -> None:
    index = 0
    while index < len(section):
        line = section[index]
        index += 1
        hunk = _HUNK_HEADER.match(line)
        if hunk:
            index = _read_hunk(lines, hunk, section, index)
        elif line.startswith("Binary files "):
            lines.binary = True


def _read_hunk(found: _Lines, hunk: re.Match[str], lines: list[str], index: int) -> int:
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
    found.old += [number for number, _, _ in removed]
    found.new += [number for number, _, _ in added]
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


def to_ranges(line_numbers: list[int]) -> list[LineRange]:
    """``[3, 4, 5, 9]`` -> ``[(3, 5), (9, 9)]``."""
    ranges: list[LineRange] = []
    for number in sorted(set(line_numbers)):
        if ranges and ranges[-1][1] == number - 1:
            ranges[-1] = (ranges[-1][0], number)
        else:
            ranges.append((number, number))
    return ranges
