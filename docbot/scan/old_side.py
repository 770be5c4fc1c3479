"""The old side of a diff without parsing it, when the diff provably left the file's structure alone.

A diff needs the old side's public functions for three answers: which names are new (added), which
are gone (deleted), and which the removed lines touched. When every changed line, on both sides,
lies strictly inside one public function after its first line, the text around those functions is
byte for byte the same on both sides; if each such function's old text still parses on its own as
one function of the same name, the old side defines exactly the new side's public functions (same
names, same classes, same ``__all__``), and only those functions can be touched. Then only their
old text is parsed, not the whole old blob: an edit inside one function of a 3,000-line file costs
one parse, not two.

When a change reaches further (a header, a class, module-level code), ``spliced`` still avoids most of
the old blob: every top-level statement of the new side that no changed line reaches, and whose lines
map one to one onto the old side, is the same text there, and a top-level statement is read the same
wherever it stands, provided what comes before it ends cleanly. So the old side is the new side's
unchanged statements (their functions moved to old line numbers) plus the old lines between them,
parsed region by region. A region that does not parse alone (a string or bracket left open, an
``else:`` or an indented line continuing the statement before it) or that touches ``__all__`` returns
None, and the caller parses the whole old side as before (docs/design.md#scanner).
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from docbot.scan import ast_finder
from docbot.scan.ast_finder import Found, Span

if TYPE_CHECKING:
    from docbot.git.diff import LineRange

Piece = tuple[str, Span]  # a public function's qualified name and one piece's lines on the new side


@dataclass(frozen=True)
class Layout:
    """What ``spliced`` needs from the new side's parse: the lines of its top-level statements and
    its ``__all__`` (None when it has no literal one)."""

    tops: tuple[Span, ...]
    exported: frozenset[str] | None


def old_touched(pieces: Sequence[Piece], old_lines: list[str], removed: list[LineRange],
                added: list[LineRange]) -> set[str] | None:
    """The qualnames the removed lines touch on the old side, when the old side is known to define the
    same public functions as the new side (``pieces``); None when it must be parsed to know."""
    gone = sorted(line for low, high in removed for line in range(low, high + 1))
    new = sorted(line for low, high in added for line in range(low, high + 1))
    inside: dict[Piece, Span] = {}  # each touched piece and its old span
    olds = {piece: _old_span(piece[1], gone, new) for piece in pieces}
    for low, high in added:
        piece = next((p for p in pieces if p[1][0] < low and high <= p[1][1]), None)
        if piece is None or olds[piece] is None:
            return None
        inside[piece] = olds[piece]  # type: ignore[assignment]
    touched: set[str] = set()
    for low, high in removed:
        piece = next((p for p, old in olds.items() if old is not None and old[0] < low and high <= old[1]), None)
        if piece is None:
            return None
        inside[piece] = olds[piece]  # type: ignore[assignment]
        touched.add(piece[0])
    if not all(_one_function(old_lines, span, qualname.rsplit(".", 1)[-1]) for (qualname, _), span in inside.items()):
        return None
    return touched


def _old_span(span: Span, gone: list[int], new: list[int]) -> Span | None:
    """Where a new-side piece lies on the old side, when its first line and the line after it are
    unchanged (None otherwise): the lines between map one to one, in order."""
    first, after = span[0], span[1] + 1
    if _is_in(new, first) or _is_in(new, after):
        return None
    return _to_old(first, gone, new), _to_old(after, gone, new) - 1


def _to_old(line: int, gone: list[int], new: list[int]) -> int:
    """The old line number of an unchanged new-side line: the k-th unchanged line on one side is the
    k-th on the other."""
    old = line - bisect.bisect_left(new, line)  # k: unchanged lines up to and including this one
    for removed in gone:  # each removed line at or before the candidate pushes it down one
        if removed > old:
            break
        old += 1
    return old


def _is_in(lines: list[int], line: int) -> bool:
    index = bisect.bisect_left(lines, line)
    return index < len(lines) and lines[index] == line


def _one_function(old_lines: list[str], span: Span, name: str) -> bool:
    """Whether the old lines ``span`` parse on their own as exactly one function named ``name``."""
    chunk = old_lines[span[0] - 1:span[1]]
    if not chunk or len(chunk) != span[1] - span[0] + 1:
        return False
    indented = chunk[0][:1] in (" ", "\t")
    text = "\n".join((["if 1:"] if indented else []) + chunk) + "\n"  # a block may start at any indent
    try:
        body = ast.parse(text).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    if indented:
        if len(body) != 1 or not isinstance(body[0], ast.If):
            return False
        body = body[0].body
    return (len(body) == 1 and isinstance(body[0], (ast.FunctionDef, ast.AsyncFunctionDef))
            and body[0].name == name and body[0].end_lineno == len(chunk) + indented)


def spliced(layout: Layout, new_lines: list[str], pieces: Sequence[Piece], old_lines: list[str],
            removed: list[LineRange], added: list[LineRange], include_dunder: bool) -> Found | None:
    """The old side's public functions, (qualname, span) in source order, reading only the old lines
    the new side's unchanged top-level statements do not account for; None when that is not sound.
    ``pieces`` are the new side's functions, one entry per piece."""
    gone = sorted(line for low, high in removed for line in range(low, high + 1))
    new = sorted(line for low, high in added for line in range(low, high + 1))
    kept = _kept(layout.tops, gone, new, old_lines)
    unchanged = {top for top, _ in kept}
    if any("__all__" in "\n".join(new_lines[a - 1:b]) for a, b in layout.tops if (a, b) not in unchanged):
        return None  # the module's __all__ may differ between the sides
    found: Found = []
    cursor = 1  # the first old line not yet accounted for
    for top, old_first in kept:
        region = _region(old_lines, cursor, old_first - 1, layout.exported, include_dunder)
        if region is None:
            return None
        shift = old_first - top[0]
        found += region + [(name, (a + shift, b + shift)) for name, (a, b) in pieces
                           if top[0] <= a and b <= top[1]]
        cursor = old_first + top[1] - top[0] + 1
    tail = _region(old_lines, cursor, len(old_lines), layout.exported, include_dunder)
    return None if tail is None else found + tail


_CONTINUATIONS = ("else", "elif", "except", "finally")


def _kept(tops: Sequence[Span], gone: list[int], new: list[int], old_lines: list[str]) -> list[tuple[Span, int]]:
    """The unchanged top-level statements and their old first lines, less any whose old side goes on
    after it (a deleted last method, an ``else:``): that statement is re-read with the lines after it."""
    # Statements sharing a line ("import a; import b") are kept or changed together and hold no function.
    kept = [(top, old_first) for top in tops if (old_first := _unchanged_at(top, gone, new)) is not None]
    return [(top, first) for index, (top, first) in enumerate(kept)
            if not _continues(old_lines, first + top[1] - top[0] + 1,
                              kept[index + 1][1] if index + 1 < len(kept) else len(old_lines) + 1)]


def _continues(old_lines: list[str], first: int, stop: int) -> bool:
    """Whether the first code line among old lines ``first``..``stop - 1`` continues the statement
    before it: indented, or a clause of a compound statement."""
    for line in old_lines[first - 1:stop - 1]:
        code = line.lstrip()
        if code and not code.startswith("#"):
            return len(code) != len(line) or code.split(":")[0].split()[0] in _CONTINUATIONS
    return False


def _unchanged_at(top: Span, gone: list[int], new: list[int]) -> int | None:
    """The old first line of a new-side top-level statement no added line reaches and no removed line
    splits; None for a changed one."""
    index = bisect.bisect_left(new, top[0])
    if index < len(new) and new[index] <= top[1]:
        return None
    first, last = _to_old(top[0], gone, new), _to_old(top[1], gone, new)
    return first if last - first == top[1] - top[0] else None


def _region(old_lines: list[str], first: int, last: int, exported: frozenset[str] | None,
            include_dunder: bool) -> Found | None:
    """The public functions of old lines ``first``..``last`` read alone, at their old line numbers;
    None when they do not parse alone or touch ``__all__``."""
    chunk = old_lines[first - 1:last]
    if all(not line.strip() or line.lstrip().startswith("#") for line in chunk):
        return []
    text = "\n".join(chunk)
    if "__all__" in text:
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    names = None if exported is None else set(exported)
    return [(name, (a + first - 1, b + first - 1))
            for name, (a, b) in ast_finder.find_in(tree.body, chunk, names, include_dunder)]
