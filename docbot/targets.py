"""Which public functions a file defines, and which of them a diff touched.

The rules are docs/design.md#public-functions and #diff-rules.

Pure: source text and a ``FileChange`` in, ``Target`` values out. One libcst pass per blob with only
``PositionProvider``: the class stack is tracked by hand because QualifiedNameProvider pulls in scope
analysis and costs several times more (docs/design.md#decisions).

Public means: a module-level function or class named in ``__all__`` when the module has a literal
``__all__``, otherwise any name without a leading underscore; a method is public when its class (and
every enclosing class) is public and its own name is. ``__init__`` is public because it documents
the constructor; other dunders only with ``include_dunder``. Functions inside functions never are.
Definitions that share a qualified name (``@overload`` stubs and their implementation, a property's
getter and setter, if/else variants) make *one* target whose source holds all of them.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from docbot.git_diff import FileChange, LineRange
from docbot.results import ChangeKind, Target

Span = tuple[int, int]  # first line (decorators included) .. last line, 1-based inclusive


class SourceParseError(ValueError):
    """A file that libcst cannot parse. Callers report it and carry on with the other files."""

    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}: cannot parse (line {line}): {message}")
        self.path = path
        self.line = line
        self.message = message


@dataclass(frozen=True)
class _Definition:
    """A public function as found in one blob: every piece that carries its qualified name."""

    qualname: str
    spans: tuple[Span, ...]
    source: str


def module_name(path: str) -> str:
    """``src/pkg/sub/mod.py`` -> ``pkg.sub.mod``; ``pkg/__init__.py`` -> ``pkg``."""
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
    if parts and parts[0] == "src":
        parts = parts[1:]
    if parts and parts[-1].endswith(".py"):
        parts[-1] = parts[-1][: -len(".py")]
    if len(parts) > 1 and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def public_functions(source: str, module: str, path: str, *, include_dunder: bool = False) -> list[Target]:
    """Every public function and method of ``source`` in source order, each with kind "unchanged"."""
    return [_target(d, module, path, "unchanged") for d in _definitions(source, path, include_dunder)]


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
    new_defs = _definitions(new_source, path, include_dunder) if new_source is not None else ()
    old_defs = _old_definitions(old_source, old_path, include_dunder, has_new_side=new_source is not None)
    if change.status == "renamed":
        old_module = old_module if old_module is not None else module_name(old_path)
        if old_module != module:
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


def _old_definitions(source: str | None, path: str, include_dunder: bool, *,
                     has_new_side: bool) -> tuple[_Definition, ...]:
    if source is None:
        return ()
    try:
        return _definitions(source, path, include_dunder)
    except SourceParseError:
        if has_new_side:
            return ()
        raise


def _touches(definition: _Definition, ranges: list[LineRange], binary: bool) -> bool:
    if binary:  # git showed no lines, so any of them may have changed
        return True
    return any(start <= high and low <= end for start, end in definition.spans for low, high in ranges)


def _target(definition: _Definition, module: str, path: str, kind: ChangeKind) -> Target:
    return Target(module=module, qualname=definition.qualname, path=path,
                  lineno=definition.spans[0][0], end_lineno=definition.spans[-1][1],
                  kind=kind, source=definition.source)


MAX_SOURCE_CHARS = 2_000_000


@functools.lru_cache(maxsize=32)  # a run parses the same blob in scan, then again in run/check
def _definitions(source: str, path: str, include_dunder: bool) -> tuple[_Definition, ...]:
    """Parse ``source`` and group its public functions by qualified name, in source order."""
    text = source.removeprefix("\ufeff").replace("\r\n", "\n")  # line numbers stay as git counts them
    if len(text) > MAX_SOURCE_CHARS:  # libcst's native parser can crash the process on huge files (#980)
        raise SourceParseError(path, 0, f"larger than {MAX_SOURCE_CHARS // 1_000_000} MB; skipped as generated code")
    try:
        tree = cst.parse_module(text)
    except cst.ParserSyntaxError as err:
        raise SourceParseError(path, err.raw_line, _short_message(err.message)) from None
    except RecursionError:  # pathologically deep expressions
        raise SourceParseError(path, 0, "nesting too deep to parse") from None
    wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)  # a fresh parse needs no defensive copy
    collector = _Collector(_exported_names(tree), include_dunder)
    wrapper.visit(collector)
    lines = text.split("\n")  # not splitlines(): a form feed inside the code is not a line break
    spans_by_name: dict[str, list[Span]] = {}
    for qualname, span in collector.found:
        spans_by_name.setdefault(qualname, []).append(span)
    return tuple(_Definition(qualname, tuple(spans), "\n".join(_piece(lines, s) for s in spans))
                 for qualname, spans in spans_by_name.items())


def _piece(lines: list[str], span: Span) -> str:
    """The text of one definition, dedented by its own first line's indentation (methods)."""
    chunk = lines[span[0] - 1:span[1]]
    indent = chunk[0][: len(chunk[0]) - len(chunk[0].lstrip(" \t"))]
    # Remove exactly that prefix: textwrap.dedent would give up on a docstring line at column 0.
    return "".join(line.removeprefix(indent) + "\n" for line in chunk)


def _short_message(message: str) -> str:
    """libcst says "parser error: error at 3:4: expected one of ..."; keep what helps a human."""
    message = re.sub(r"^(parser error: )?(error at \d+:\d+: )?", "", message.strip())
    return message if len(message) <= 120 else message[:117] + "..."


class _Collector(cst.CSTVisitor):
    """Collects (qualname, span) for every public function; returns False to skip what cannot hold one."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, exported: set[str] | None, include_dunder: bool) -> None:
        super().__init__()
        self.exported = exported
        self.include_dunder = include_dunder
        self.classes: list[tuple[str, bool]] = []  # enclosing classes: (name, public)
        self.found: list[tuple[str, Span]] = []

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        public = self._is_public(node.name.value, is_class=True)
        self.classes.append((node.name.value, public))
        return public  # methods of a private class are never targets

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.classes.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        name = node.name.value
        if self._is_public(name, is_class=False):
            position = self.get_metadata(PositionProvider, node)
            first = min([position.start.line]
                        + [self.get_metadata(PositionProvider, d).start.line for d in node.decorators])
            qualname = ".".join([c for c, _ in self.classes] + [name])
            self.found.append((qualname, (first, position.end.line)))
        return False  # nested functions (and classes inside functions) are not targets

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        return False  # plain statements cannot hold a def; skipping them keeps big files cheap

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> bool:
        return False  # the one-line body in "if x: y = 1"

    def _is_public(self, name: str, *, is_class: bool) -> bool:
        if not self.classes and self.exported is not None:
            return name in self.exported
        if is_class:
            return not name.startswith("_")
        if name == "__init__":
            return True
        if name.startswith("__") and name.endswith("__") and len(name) > 4:
            return self.include_dunder
        return not name.startswith("_")


def _exported_names(tree: cst.Module) -> set[str] | None:
    """The module's literal ``__all__``, or None when it has none or computes it."""
    exported: set[str] | None = None
    for statement in tree.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, (cst.Assign, cst.AnnAssign)) and _assigns_all(small):
                exported = _literal_names(small.value)  # a computed __all__ -> None: fall back
            elif exported is not None:
                exported |= _names_added(small) or set()
    return exported


def _assigns_all(node: cst.Assign | cst.AnnAssign) -> bool:
    targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
    return any(isinstance(t, cst.Name) and t.value == "__all__" for t in targets)


def _names_added(node: cst.BaseSmallStatement) -> set[str] | None:
    """Names from ``__all__ += [...]``, ``__all__.extend([...])`` or ``__all__.append("x")``."""
    if isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name) and node.target.value == "__all__":
        return _literal_names(node.value)
    if not (isinstance(node, cst.Expr) and isinstance(node.value, cst.Call)):
        return None
    func, args = node.value.func, node.value.args
    if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
            and func.value.value == "__all__" and len(args) == 1):
        return None
    if func.attr.value == "extend":
        return _literal_names(args[0].value)
    if func.attr.value == "append":
        return _literal_names(cst.List([cst.Element(args[0].value)]))
    return None


def _literal_names(value: cst.BaseExpression | None) -> set[str] | None:
    if not isinstance(value, (cst.List, cst.Tuple, cst.Set)):
        return None
    names = set()
    for element in value.elements:
        if not isinstance(element.value, cst.SimpleString):
            return None
        evaluated = element.value.evaluated_value
        names.add(evaluated if isinstance(evaluated, str) else evaluated.decode())
    return names
