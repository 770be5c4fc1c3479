"""The lossless finder: where the public functions of a module are, read from a libcst tree.

The parser of last resort for files the running interpreter's ``ast`` rejects (newer grammar). Same
rules and same results as the ``ast`` finder (``tests/scan/test_targets_equivalence.py``), which reads every
other file, a diff's included (docs/design.md#scanner); imported only when needed, because importing
libcst alone costs a no-op hook run ~0.2 s.

One pass with only ``PositionProvider``: the class stack is tracked by hand because
QualifiedNameProvider pulls in scope analysis and costs several times more (docs/design.md#decisions).
"""

from __future__ import annotations

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from docbot.scan.ast_finder import Found, is_public

ParserSyntaxError = cst.ParserSyntaxError


def find(text: str, include_dunder: bool) -> Found:
    """(qualname, span) of every public function of ``text`` in source order.

    Raises ``ParserSyntaxError`` (or RecursionError) when libcst cannot parse it. The caller screens
    the text first: libcst's native parser can crash the whole process on deep nesting.
    """
    tree = cst.parse_module(text)
    wrapper = MetadataWrapper(tree, unsafe_skip_copy=True)  # a fresh parse needs no defensive copy
    collector = _Collector(_exported_names(tree), include_dunder)
    wrapper.visit(collector)
    return collector.found


class _Collector(cst.CSTVisitor):
    """Collects (qualname, span) for every public function; returns False to skip what cannot hold one."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, exported: set[str] | None, include_dunder: bool) -> None:
        super().__init__()
        self.exported = exported
        self.include_dunder = include_dunder
        self.classes: list[tuple[str, bool]] = []  # enclosing classes: (name, public)
        self.found: Found = []

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

    def visit_If(self, node: cst.If) -> bool:
        if not _is_main_guard(node.test):
            return True
        if node.orelse is not None:  # only the guarded body is script code
            node.orelse.visit(self)
        return False

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        return False  # plain statements cannot hold a def; skipping them keeps big files cheap

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> bool:
        return False  # the one-line body in "if x: y = 1"

    def _is_public(self, name: str, *, is_class: bool) -> bool:
        classes = tuple(c for c, _ in self.classes)
        return is_public(name, classes, self.exported, is_class=is_class, include_dunder=self.include_dunder)


def _is_main_guard(test: cst.BaseExpression) -> bool:
    """``__name__ == "__main__"`` (either way round)."""
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, cst.Equal)):
        return False
    sides = (test.left, test.comparisons[0].comparator)
    return (any(isinstance(s, cst.Name) and s.value == "__name__" for s in sides)
            and any(isinstance(s, cst.SimpleString) and s.evaluated_value == "__main__" for s in sides))


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
        names.add(evaluated if isinstance(evaluated, str) else evaluated.decode("utf-8", "replace"))
    return names
