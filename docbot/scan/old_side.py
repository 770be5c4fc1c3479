"""The old side of a diff without parsing it, when the diff provably left the file's structure alone.

A diff needs the old side's public functions for three answers: which names are new (added), which
are gone (deleted), and which the removed lines touched. When every changed line, on both sides,
lies strictly inside one public function after its first line, the text around those functions is
byte for byte the same on both sides; if each such function's old text still parses on its own as
one function of the same name, the old side defines exactly the new side's public functions (same
names, same classes, same ``__all__``), and only those functions can be touched. Then only their
old text is parsed, not the whole old blob: an edit inside one function of a 3,000-line file costs
one parse, not two.

When a change reaches further (a header, a class, module-level code), the caller parses the whole
old side. A splice that read only the old lines between the new side's unchanged top-level
statements was tried and removed: on eight release diffs it saved 0.001-0.12 CPU-s per scan, nothing
a hook or check run shows (docs/design.md#scanner).
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Sequence
from typing import TYPE_CHECKING

from docbot.scan.ast_finder import Span

if TYPE_CHECKING:
    from docbot.git.diff import LineRange

Piece = tuple[str, Span]  # a public function's qualified name and one piece's lines on the new side


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
