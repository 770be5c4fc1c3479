"""The old side of a diff without parsing it, when the diff provably left the file's structure alone.

A diff needs the old side's public functions for three answers: which names are new (added), which
are gone (deleted), and which the removed lines touched. When every changed line, on both sides,
lies strictly inside one public function after its first line, the text around those functions is
byte for byte the same on both sides; if each such function's old text still parses on its own as
one function of the same name, the old side defines exactly the new side's public functions (same
names, same classes, same ``__all__``), and only those functions can be touched. Then only their
old text is parsed, not the whole old blob: an edit inside one function of a 3,000-line file costs
one parse, not two.

When a change reaches further (a header, a class, module-level code), ``spliced`` reads the old side
from the new side's unchanged top-level statements and parses only the old lines between them: a
comment added among a 3,000-line file's imports costs a parse of that import, not of the file (issue 32:
the hook's private edit and ``targets --base`` paid a second whole parse). Where the splice cannot
prove itself, the caller parses the whole old side.
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from docbot.scan import ast_finder
from docbot.scan.ast_finder import Found, Span

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


def _all_to_old(lines: list[int], gone: list[int], new: list[int]) -> list[int]:
    """``_to_old`` of each of ``lines`` (unchanged new-side lines in increasing order) in one pass."""
    found: list[int] = []
    added = removed = 0
    for line in lines:
        while added < len(new) and new[added] < line:
            added += 1
        kept = line - added  # the unchanged lines up to and including this one
        while removed < len(gone) and gone[removed] <= kept + removed:
            removed += 1
        found.append(kept + removed)
    return found


def _is_in(lines: list[int], line: int) -> bool:
    index = bisect.bisect_left(lines, line)
    return index < len(lines) and lines[index] == line


def _one_function(old_lines: list[str], span: Span, name: str) -> bool:
    """Whether the old lines ``span`` parse on their own as exactly one function named ``name``."""
    return old_function(old_lines, span, name) is not None


def old_function(old_lines: list[str], span: Span, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The old lines ``span`` parsed on their own, when they are exactly one function named ``name``."""
    chunk = old_lines[span[0] - 1:span[1]]
    if not chunk or len(chunk) != span[1] - span[0] + 1:
        return None
    indented = chunk[0][:1] in (" ", "\t")
    text = "\n".join((["if 1:"] if indented else []) + chunk) + "\n"  # a block may start at any indent
    try:
        body = ast.parse(text).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if indented:
        if len(body) != 1 or not isinstance(body[0], ast.If):
            return None
        body = body[0].body
    found = body[0] if len(body) == 1 else None
    if isinstance(found, (ast.FunctionDef, ast.AsyncFunctionDef)) and found.name == name and \
            found.end_lineno == len(chunk) + indented:
        return found
    return None


class Chunk(NamedTuple):
    """Whole statements of one block of the new side, from the first line of the first (its decorators
    included) to the line before the next chunk's: comments and blank lines go with the statement above."""

    span: Span
    body: tuple[Chunk, ...] = ()  # the chunks of a public class's body (when the chunk is that one class)
    name: str = ""  # that class's name
    indent: str = ""  # its body's indentation
    writes_all: tuple[str, ...] = ()  # at module level: the text of each statement that may write ``__all__``


def chunks_of(tree: ast.Module, lines: list[str], exported: set[str] | None) -> tuple[Chunk, ...]:
    """The new side (which parsed as ``tree``) cut into chunks of whole top-level statements; a public class
    is cut again inside its body, so a splice can keep its unchanged methods (``spliced``)."""
    return _cut(tree.body, (1, len(lines)), lines, exported, ())


def _cut(statements: list[ast.stmt], block: Span, lines: list[str], exported: set[str] | None,
         classes: tuple[str, ...]) -> tuple[Chunk, ...]:
    """``statements`` (one block, lines ``block``) cut before each statement that shares no line with the one
    above, whose last line ends in no backslash (which would join the next line to it): each chunk starts
    where the tokenizer is at the block's indentation with nothing open. Lines before the first statement
    (a module's opening comments) are a chunk of their own."""
    groups: list[tuple[int, list[ast.stmt]]] = []  # each chunk's first line and statements
    end = 0
    for node in statements:
        start = _first_line(node, lines)
        if groups and (start <= end or lines[end - 1].rstrip().endswith("\\")):
            groups[-1][1].append(node)
        else:
            groups.append((start, [node]))
        end = node.end_lineno or node.lineno
    if not groups or groups[0][0] > block[0]:
        groups.insert(0, (block[0], []))
    ends = [start - 1 for start, _ in groups[1:]] + [block[1]]
    return tuple(_chunk((start, last), held, lines, exported, classes)
                 for (start, held), last in zip(groups, ends))


def _chunk(span: Span, held: list[ast.stmt], lines: list[str], exported: set[str] | None,
           classes: tuple[str, ...]) -> Chunk:
    writes = () if classes else _writes_all(held, lines)
    node = held[0] if len(held) == 1 else None
    if not (isinstance(node, ast.ClassDef)
            and ast_finder.is_public(node.name, classes, exported, is_class=True, include_dunder=True)):
        return Chunk(span, writes_all=writes)
    body_first = _first_line(node.body[0], lines)
    if body_first <= node.lineno:  # ``class C: x = 1``: no line of its own for the body
        return Chunk(span)
    body = _cut(node.body, (body_first, span[1]), lines, exported, (*classes, node.name))
    return Chunk(span, body, node.name, _indentation(lines[node.body[0].lineno - 1]), writes)


_MAY_WRITE_ALL = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr)  # the statements exported_order reads


def _writes_all(statements: list[ast.stmt], lines: list[str]) -> tuple[str, ...]:
    """The text of each module-level statement that may write ``__all__`` (``ast_finder.exported_order``
    reads only these kinds): two sides with the same such texts in the same order have the same ``__all__``."""
    return tuple("\n".join(lines[node.lineno - 1:node.end_lineno]) for node in statements
                 if isinstance(node, _MAY_WRITE_ALL) and _mentions_all(lines, (node.lineno, node.end_lineno or 0)))


def _first_line(node: ast.stmt, lines: list[str]) -> int:
    decorators = getattr(node, "decorator_list", None)
    return ast_finder.decorator_line(lines, decorators[0]) if decorators else node.lineno


Both = tuple[Found, Found]  # a finder's answer without and with dunders


class _Splice(NamedTuple):
    pieces: tuple[Sequence[Piece], Sequence[Piece]]  # the new side's, both readings, in source order
    exported: set[str] | None
    new_lines: list[str]
    old_lines: list[str]
    gone: list[int]  # removed old lines
    new: list[int]  # added new lines
    starts: tuple[list[int], list[int]]  # each reading's pieces' first lines: a chunk's pieces by bisection


def spliced(pieces: tuple[Sequence[Piece], Sequence[Piece]], chunks: Sequence[Chunk], exported: set[str] | None,
            lines: tuple[list[str], list[str]], removed: list[LineRange], added: list[LineRange]) -> Both | None:
    """The old side's public functions without and with dunders (``ast_finder.find_both``'s answer) without
    parsing all of it, or None.

    ``pieces`` are the new side's (both readings, in source order), ``chunks`` its ``chunks_of``,
    ``exported`` its ``__all__``, ``lines`` the (new, old) texts. The old lines are cut where the diff maps
    an unchanged first line of a chunk; a unit that is one chunk no added line touches and whose lines are,
    byte for byte, the old lines is kept: its functions are the new side's, moved. A public class whose
    header is kept is spliced the same way inside. Every other unit is parsed alone and must parse as whole
    statements of its block, so the old module is the units in turn. None when a unit does not parse alone,
    or when a changed unit's statements that may write ``__all__`` are not those of its new chunks (then the
    old ``__all__`` may differ from the new one, and with it every kept function's publicity)."""
    new_lines, old_lines = lines
    gone = sorted(line for low, high in removed for line in range(low, high + 1))
    new = sorted(line for low, high in added for line in range(low, high + 1))
    starts = ([span[0] for _, span in pieces[0]], [span[0] for _, span in pieces[1]])
    work = _Splice(pieces, exported, new_lines, old_lines, gone, new, starts)
    found = _block(work, chunks, (1, len(old_lines)), (), None)
    return None if found is None else found[0]


def _block(work: _Splice, chunks: Sequence[Chunk], old: Span, classes: tuple[str, ...],
           indent: str | None) -> tuple[Both, int] | None:
    """One block's functions on the old side (its old lines ``old``), and how many statements it has there.
    ``classes`` are the public classes around it, ``indent`` its indentation (None: module level)."""
    narrow: Found = []
    wide: Found = []
    statements = 0
    for unit, members in _units(work, chunks, old):
        found = _unit(work, unit, members, classes, indent)
        if found is None:
            return None
        narrow += found[0][0]
        wide += found[0][1]
        statements += found[1]
    return (narrow, wide), statements


def _units(work: _Splice, chunks: Sequence[Chunk], old: Span) -> list[tuple[Span, list[Chunk]]]:
    """The block's old lines cut at each chunk whose first line is unchanged (where the diff maps it), each
    piece with the chunks that start in it; [] marks a cut the diff cannot place (nothing is kept then)."""
    unchanged = [index for index, c in enumerate(chunks) if not _is_in(work.new, c.span[0])]
    anchors = list(zip(unchanged, _all_to_old([chunks[i].span[0] for i in unchanged], work.gone, work.new)))
    units: list[tuple[Span, list[Chunk]]] = []
    line, taken = old[0], 0
    for index, at in anchors:
        if at < line or at > old[1] + 1:
            return [(old, list(chunks))]
        if at > line or index > taken:
            units.append(((line, at - 1), list(chunks[taken:index])))
        line, taken = at, index
    if line <= old[1] or taken < len(chunks):
        units.append(((line, old[1]), list(chunks[taken:])))
    return units


def _unit(work: _Splice, unit: Span, members: list[Chunk], classes: tuple[str, ...],
          indent: str | None) -> tuple[Both, int] | None:
    """A unit's functions and statement count: kept, spliced inside (a public class), or parsed alone."""
    first, last = unit
    if len(members) == 1:
        chunk = members[0]
        if _same_lines(work, chunk.span, unit):
            return (_moved(work, 0, chunk.span, first), _moved(work, 1, chunk.span, first)), 1
        if chunk.body:
            header = chunk.body[0].span[0] - chunk.span[0]
            if _same_lines(work, (chunk.span[0], chunk.body[0].span[0] - 1), (first, first + header - 1)):
                inside = _block(work, chunk.body, (first + header, last), (*classes, chunk.name), chunk.indent)
                if inside is not None and inside[1] > 0:
                    return inside[0], 1
    statements = _parsed(work.old_lines, unit, indent)
    if statements is None:
        return None
    if indent is None and _writes_all(statements, work.old_lines) != tuple(w for c in members for w in c.writes_all):
        return None  # the old ``__all__`` may differ, and with it the publicity of every kept function
    return ast_finder.find_in(statements, work.old_lines, work.exported, classes), len(statements)


def _moved(work: _Splice, reading: int, span: Span, first: int) -> Found:
    """One reading's pieces in the kept chunk ``span`` (each lies inside one of its statements), moved to the
    chunk's old first line ``first``."""
    starts, shift = work.starts[reading], first - span[0]
    low, high = bisect.bisect_left(starts, span[0]), bisect.bisect_right(starts, span[1])
    return [(name, (start + shift, end + shift)) for name, (start, end) in work.pieces[reading][low:high]]


def _same_lines(work: _Splice, new: Span, old: Span) -> bool:
    """Whether the new lines ``new`` are unchanged and, byte for byte, the old lines ``old``."""
    if new[1] - new[0] != old[1] - old[0]:
        return False
    at = bisect.bisect_left(work.new, new[0])
    if at < len(work.new) and work.new[at] <= new[1]:
        return False
    return work.old_lines[old[0] - 1:old[1]] == work.new_lines[new[0] - 1:new[1]]


def _mentions_all(lines: list[str], span: Span) -> bool:
    return any("__all__" in line for line in lines[span[0] - 1:span[1]])


def _parsed(old_lines: list[str], region: Span, indent: str | None) -> list[ast.stmt] | None:
    """The statements of the old lines ``region``, parsed alone at their own line numbers: at module level,
    or (``indent``) as the body of a class, each statement at exactly that indentation. None when they are
    not whole statements of that block (a block, bracket or string goes on outside them)."""
    chunk = old_lines[region[0] - 1:region[1]]
    if not any(line.strip() for line in chunk):
        return []
    head = "\n" * (region[0] - 1) if indent is None else "\n" * (region[0] - 2) + "class _:\n"
    try:
        body = ast.parse(head + "\n".join(chunk) + "\n").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if indent is None:
        return body
    if len(body) != 1 or not isinstance(body[0], ast.ClassDef) or body[0].lineno != region[0] - 1:
        return None  # the lines left the class: the old side's block ends inside them
    inside = body[0].body
    if any(_indentation(old_lines[node.lineno - 1]) != indent for node in inside):
        return None
    return inside


def _indentation(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t\f"))]
