"""Which public functions a file defines, and which of them a diff touched.

The rules are docs/design.md#public-functions and #diff-rules.

Pure: source text and a ``FileChange`` in, ``Target`` values out. Two finders implement the same
rules and give the same targets (``tests/scan/test_targets_equivalence.py`` proves it on the stdlib):
the stdlib ``ast`` (``docbot.scan.ast_finder``) reads every file, a diff's included, and libcst
(``docbot.scan.cst_finder``) only those the running interpreter's ``ast`` rejects (newer grammar).
A second libcst reading of a diff would give the same answer at ~30x the cost (docs/design.md#scanner).

Every file is screened with ``ast.parse`` before libcst sees it: libcst's native parser crashes the
whole process (SIGSEGV) on about 2000 nested brackets, where ``ast`` raises a clean error. A file
that cannot be parsed raises ``SourceParseError``, which callers report and skip (a ``ScanError``).

Public means: a module-level function or class named in ``__all__`` when the module has a literal
``__all__``, otherwise any name without a leading underscore; a method is public when its class (and
every enclosing class) is public and its own name is. ``__init__`` is public because it documents
the constructor; other dunders only with ``include_dunder``. Functions inside functions never are,
nor are those under ``if __name__ == "__main__":`` (script code); those under other module-level
``if``/``try`` blocks (``TYPE_CHECKING``, version checks, import fallbacks) are.
Definitions that share a qualified name (``@overload`` stubs and their implementation, a property's
getter and setter, if/else variants) make *one* target whose source holds all of them.
Whether the *module* is public (``pkg/_private.py``) is decided over the whole scan: ``docbot.scan.publicity``.
"""

from __future__ import annotations

import ast
import enum
import functools
import re
from typing import TYPE_CHECKING, NamedTuple

from docbot.scan import ast_finder, old_side
from docbot.scan.names import importable as importable, importable_as as importable_as, module_name  # re-exported
from docbot.results import ChangeKind, SourceParseError, Target
from docbot.scan.ast_finder import Found, Span

if TYPE_CHECKING:  # only the types: a whole-tree scan and verify never read a diff (git_diff ~1.3 ms to import)
    from docbot.git.diff import FileChange, LineRange




class _Definition(NamedTuple):  # not a dataclass: ~1 ms less on every hook run's imports
    """A public function as found in one blob: every piece that carries its qualified name. Its text is
    cut from the blob's lines when a target needs it: a diff needs only the touched functions'."""

    qualname: str
    spans: tuple[Span, ...]
    lines: list[str]  # the whole blob's, shared by its definitions

    @property
    def source(self) -> str:
        return "\n".join(_piece(self.lines, s) for s in self.spans)


class Parser(enum.Enum):
    """Which finder reads a file: both give the same targets (the equivalence test holds them to it)."""

    AST = "ast"  # the fast path; libcst only for grammar the running ast rejects
    LIBCST = "libcst"  # libcst after the ast screen; raises SourceParseError where libcst fails


def public_functions(source: str, module: str, path: str, *, include_dunder: bool = False,
                     parser: Parser = Parser.AST) -> list[Target]:
    """Every public function and method of ``source`` in source order, each with kind "unchanged"."""
    finder = _definitions if parser is Parser.AST else _cst_definitions
    return [_target(d, module, path, "unchanged") for d in finder(source, path, include_dunder)]


def public_spans(source: str, path: str, *, include_dunder: bool = False) -> list[tuple[str, tuple[Span, ...]]]:
    """Each public function's qualified name and the spans of its pieces: what ``docbot.scan.cache`` keeps."""
    return [(d.qualname, d.spans) for d in _definitions(source, path, include_dunder)]


def targets_at(spans: list[tuple[str, tuple[Span, ...]]], source: str, module: str, path: str) -> list[Target]:
    """The targets ``public_functions`` gives, rebuilt from ``public_spans`` without parsing."""
    lines = _prepare(source, path).split("\n")
    return [_target(_Definition(qualname, pieces, lines), module, path,
                    "unchanged") for qualname, pieces in spans]


def clear_caches() -> None:
    """Forget the parsed blobs (benchmarks time cold parses)."""
    _both_readings.cache_clear()
    _spliced_readings.cache_clear()
    _cst_definitions.cache_clear()


def changed_targets(old_source: str | None, new_source: str | None, change: FileChange, module: str,
                    path: str, *, include_dunder: bool = False, old_module: str | None = None) -> list[Target]:
    """The public functions ``change`` added, modified or deleted, new side first, each in source order.

    ``path`` and ``module`` name the file on the new side (the old side for a deleted file).
    ``old_module`` names the old side of a renamed file (default: derived from ``change.old_path``);
    when it differs from ``module`` every old function is deleted and every new one added, so the
    docs move with the file. A new blob that does not parse raises ``SourceParseError``; an old blob
    that does not parse counts as empty, so fixing a broken file documents all of it.
    """
    old_path = change.old_path or path
    if change.status != "renamed":
        old_module = None  # a file that stays in place keeps its module
    elif old_module is None:
        old_module = module_name(old_path)
    new_defs = () if new_source is None else _definitions(new_source, path, include_dunder)
    old_defs = None
    if change.status == "modified" and not change.binary and old_source is not None and new_source is not None:
        old_lines = _lines_or_none(old_source, old_path)
        same = _same_functions(new_defs, old_lines, change) if new_defs and old_lines is not None else None
        if same is not None:  # the old side defines the new side's functions: only ``same`` touched there
            touched = same | {d.qualname for d in new_defs if _touches(d, change.new_ranges, False)}
            return [_target(d, module, path, "modified") for d in new_defs if d.qualname in touched]
        if old_lines is not None:
            old_defs = _spliced(new_source, path, old_source, old_path, change, include_dunder)
    if old_defs is None:
        old_defs = _old_definitions(old_source, new_source, old_path, include_dunder)
    return _diff(new_defs, old_defs, change, module, path, old_module)


def _lines_or_none(source: str, path: str) -> list[str] | None:
    try:
        return _prepare(source, path).split("\n")
    except SourceParseError:
        return None


def _same_functions(new_defs: tuple[_Definition, ...], old_lines: list[str], change: FileChange) -> set[str] | None:
    """``old_side.old_touched`` for this change; None when the old side has to be parsed."""
    pieces = [(d.qualname, span) for d in new_defs for span in d.spans]
    return old_side.old_touched(pieces, old_lines, change.old_ranges, change.new_ranges)


def _spliced(new_source: str, path: str, old_source: str, old_path: str, change: FileChange,
             include_dunder: bool) -> tuple[_Definition, ...] | None:
    """The old side's definitions from ``old_side.spliced``: the new side's unchanged top-level statements
    and a parse of the old lines between them; None when the whole old side has to be parsed."""
    readings = _spliced_readings(new_source, path, old_source, old_path, tuple(change.old_ranges),
                                 tuple(change.new_ranges))
    return None if readings is None else readings[include_dunder]


@functools.lru_cache(maxsize=32)  # the hook's screen and its check (or a scan and its run) splice the same diff
def _spliced_readings(new_source: str, path: str, old_source: str, old_path: str, removed: tuple[LineRange, ...],
                      added: tuple[LineRange, ...]) -> tuple[tuple[_Definition, ...], tuple[_Definition, ...]] | None:
    reading = _both_readings(new_source, path)
    if reading.layout is None:
        return None
    old_lines = _lines_or_none(old_source, old_path)
    if old_lines is None:
        return None
    pieces = tuple(sorted(((d.qualname, span) for d in defs for span in d.spans), key=lambda piece: piece[1][0])
                   for defs in (reading.narrow, reading.wide))
    found = old_side.spliced((pieces[0], pieces[1]), reading.layout.chunks, reading.layout.exported,
                             (reading.layout.lines, old_lines), list(removed), list(added))
    return None if found is None else (_group(found[0], old_lines), _group(found[1], old_lines))


def _old_definitions(old_source: str | None, new_source: str | None, old_path: str,
                     include_dunder: bool) -> tuple[_Definition, ...]:
    """The old side's definitions; () when there is none, or when it does not parse and a new side does."""
    if old_source is None:
        return ()
    try:
        return _definitions(old_source, old_path, include_dunder)
    except SourceParseError:
        if new_source is not None:
            return ()
        raise


def _diff(new_defs: tuple[_Definition, ...], old_defs: tuple[_Definition, ...], change: FileChange,
          module: str, path: str, old_module: str | None) -> list[Target]:
    old_path = change.old_path or path
    if old_module is not None and old_module != module:
        return ([_target(d, module, path, "added") for d in new_defs]
                + [_target(d, old_module, old_path, "deleted") for d in old_defs])
    old_names = {d.qualname for d in old_defs}
    new_names = {d.qualname for d in new_defs}
    # Added and deleted come from the names alone: an __all__ edit can publish or hide an untouched def.
    touched = ({d.qualname for d in old_defs if _touches(d, change.old_ranges, change.binary)}
               | {d.qualname for d in new_defs if _touches(d, change.new_ranges, change.binary)})
    targets: list[Target] = []
    for definition in new_defs:
        if definition.qualname not in old_names:
            targets.append(_target(definition, module, path, "added"))
        elif definition.qualname in touched:
            targets.append(_target(definition, module, path, "modified"))
    targets += [_target(d, module, old_path, "deleted") for d in old_defs if d.qualname not in new_names]
    return targets


def _touches(definition: _Definition, ranges: list[LineRange], binary: bool) -> bool:
    if binary:  # git showed no lines, so any of them may have changed
        return True
    return any(start <= high and low <= end for start, end in definition.spans for low, high in ranges)


def _target(definition: _Definition, module: str, path: str, kind: ChangeKind) -> Target:
    return Target(module=module, qualname=definition.qualname, path=path,
                  lineno=definition.spans[0][0], end_lineno=definition.spans[-1][1],
                  kind=kind, source=definition.source)


MAX_SOURCE_CHARS = 2_000_000
MAX_FALLBACK_DEPTH = 500  # brackets; libcst parses 1000 and crashes near 2000, CPython stops at 200


def _definitions(source: str, path: str, include_dunder: bool) -> tuple[_Definition, ...]:
    """Screen and parse ``source`` with ``ast`` (libcst for grammar ``ast`` does not know) and group
    its public functions by qualified name, in source order."""
    reading = _both_readings(source, path)
    return reading.wide if include_dunder else reading.narrow


class _Layout(NamedTuple):
    """What ``old_side.spliced`` needs of a parsed new side besides its definitions."""

    lines: list[str]
    chunks: tuple[old_side.Chunk, ...]
    exported: set[str] | None


class _Reading(NamedTuple):
    narrow: tuple[_Definition, ...]
    wide: tuple[_Definition, ...]
    layout: _Layout | None  # None for libcst's reading (grammar the running ast rejects)


# A run parses the same blob in scan, then again in run/check; the hook's screen (dunders included)
# and its check (the settings' choice) read it once between them.
@functools.lru_cache(maxsize=32)
def _both_readings(source: str, path: str) -> _Reading:
    """``_definitions`` without and with dunders."""
    text = _prepare(source, path)
    lines = text.split("\n")  # not splitlines(): a form feed inside the code is not a line break
    try:
        tree = ast.parse(text)
    except SyntaxError as err:
        return _Reading(_group(_last_resort(text, path, False, err), lines),
                        _group(_last_resort(text, path, True, err), lines), None)
    except (RecursionError, MemoryError):  # CPython's own limits on nesting: libcst would crash
        raise SourceParseError(path, 0, "nesting too deep to parse") from None
    except ValueError as err:  # a null byte, a lone surrogate
        raise SourceParseError(path, 0, f"not valid source text ({err})") from None
    exported = ast_finder.exported_names(tree, lines)
    narrow, wide = ast_finder.find_in(tree.body, lines, exported)
    layout = _Layout(lines, old_side.chunks_of(tree, lines, exported), exported)
    grouped = _group(wide, lines)
    if len(narrow) == len(wide):  # no dunder function: one grouping serves both
        return _Reading(grouped, grouped, layout)
    kept = {qualname for qualname, _ in narrow}  # the pieces of one qualname share its (dunder) name
    return _Reading(tuple(d for d in grouped if d.qualname in kept), grouped, layout)


@functools.lru_cache(maxsize=32)
def _cst_definitions(source: str, path: str, include_dunder: bool) -> tuple[_Definition, ...]:
    """libcst's reading of a blob, after the ``ast`` screen (which raises first on what crashes libcst)."""
    _definitions(source, path, include_dunder)
    from docbot.scan import cst_finder  # libcst costs 0.2 s to import: only when asked for

    text = _prepare(source, path)
    try:
        found = cst_finder.find(text, include_dunder)
    except cst_finder.ParserSyntaxError as err:
        raise SourceParseError(path, err.raw_line, _short_message(err.message)) from None
    except RecursionError:
        raise SourceParseError(path, 0, "nesting too deep to parse") from None
    return _group(found, text.split("\n"))


_FORM_FEED_INDENT = re.compile(r"^[ \t\f]*\f", re.M)


def _prepare(source: str, path: str) -> str:
    """The text both parsers read: no BOM, LF line ends (line numbers stay as git counts them), and no
    form feed in an indentation: Python restarts the count after one, so what follows is the same code,
    but a function's text with it would not dedent (docs/design.md#docstrings)."""
    text = source.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")  # a lone CR ends a line too
    if "\f" in text:
        text = _FORM_FEED_INDENT.sub("", text)
    if len(text) > MAX_SOURCE_CHARS:  # libcst's native parser can crash the process on huge files (#980)
        raise SourceParseError(path, 0, f"larger than {MAX_SOURCE_CHARS // 1_000_000} MB; skipped as generated code")
    return text


def _last_resort(text: str, path: str, include_dunder: bool, err: SyntaxError) -> Found:
    """libcst for a file the running ``ast`` rejects, unless the rejection is about nesting."""
    line = err.lineno or 0
    if "too many nested" in err.msg or "too complex" in err.msg or _bracket_depth(text) > MAX_FALLBACK_DEPTH:
        raise SourceParseError(path, line, "nesting too deep to parse")
    from docbot.scan import cst_finder

    try:
        return cst_finder.find(text, include_dunder)
    except (cst_finder.ParserSyntaxError, RecursionError):
        raise SourceParseError(path, line, _short_message(err.msg)) from None


def _bracket_depth(text: str) -> int:
    """The deepest bracket nesting, counting brackets in strings and comments too (an upper bound
    for real code, which is all the crash guard needs)."""
    depth = deepest = 0
    for match in re.finditer(r"[\[\](){}]", text):
        depth = depth + 1 if match.group() in "([{" else max(depth - 1, 0)
        deepest = max(deepest, depth)
    return deepest


def _group(found: Found, lines: list[str]) -> tuple[_Definition, ...]:
    spans_by_name: dict[str, list[Span]] = {}
    for qualname, span in found:
        spans_by_name.setdefault(qualname, []).append(span)
    return tuple(_Definition(qualname, tuple(spans), lines)
                 for qualname, spans in spans_by_name.items())


def _piece(lines: list[str], span: Span) -> str:
    """The text of one definition, dedented by its own first line's indentation (methods)."""
    chunk = lines[span[0] - 1:span[1]]
    indent = chunk[0][: len(chunk[0]) - len(chunk[0].lstrip(" \t"))]
    # Remove exactly that prefix: textwrap.dedent would give up on a docstring line at column 0.
    return "".join(line.removeprefix(indent) + "\n" for line in chunk)


def _short_message(message: str) -> str:
    """Keep what helps a human; libcst's messages start with "parser error: error at 3:4: "."""
    message = re.sub(r"^(parser error: )?(error at \d+:\d+: )?", "", message.strip())
    return message if len(message) <= 120 else message[:117] + "..."
