"""The fast finder: where the public functions of a module are, read from the stdlib ``ast``.

It keeps exactly what the libcst finder (``docbot.scan.cst_finder``) keeps -- qualified name, first line
(decorators included) and last line -- at a fraction of the cost, because ``ast`` needs no position
pass over a lossless tree (libcst's pass measured 37x a bare ``ast.parse``). The two finders implement the same
rules; ``tests/scan/test_targets_equivalence.py`` proves they agree on the standard library.

Rules (shared with the libcst finder): see ``docbot.scan.targets``. Only module-level statements, the
blocks of compound statements (``if``/``try``/``with``/``for``/``while``/``match``) and public class
bodies are walked: a function body never holds a target, so it is never looked into.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize

Span = tuple[int, int]  # first line (decorators included) .. last line, 1-based inclusive
Found = list[tuple[str, Span]]

_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.TryStar, ast.Match)


def find(tree: ast.Module, lines: list[str], include_dunder: bool) -> Found:
    """(qualname, span) of every public function of ``tree`` in source order; ``lines`` is its text
    split on ``\n`` (needed to find a decorator's ``@``, which ``ast`` does not record)."""
    return find_both(tree, lines)[include_dunder]


def find_both(tree: ast.Module, lines: list[str]) -> tuple[Found, Found]:
    """``find`` without and with ``include_dunder``, from one walk: the hook's screen reads a diff with
    dunders and its check without, and one parse serves both. The setting decides only whether a dunder
    *function* is public, and a function's body is never walked, so the narrower reading is the wider
    one less those functions, in the same order."""
    return find_in(tree.body, lines, exported_names(tree, lines))


def find_in(statements: list[ast.stmt], lines: list[str], exported: set[str] | None,
            classes: tuple[str, ...] = ()) -> tuple[Found, Found]:
    """``find_both`` over some ``statements`` of a module whose ``__all__`` is ``exported``, inside the public
    ``classes``: a part of the old side of a diff, parsed alone (docbot.scan.old_side.spliced)."""
    walker = _Walker(exported, True, lines)
    walker.walk(statements, classes)
    return [f for index, f in enumerate(walker.found) if index not in walker.dunder_only], walker.found


def is_public(name: str, classes: tuple[str, ...], exported: set[str] | None, *, is_class: bool,
              include_dunder: bool) -> bool:
    """The naming rule for one definition, given the enclosing public classes."""
    if not classes and exported is not None:
        return name in exported
    if is_class:
        return not name.startswith("_")
    if name == "__init__":
        return True
    if name.startswith("__") and name.endswith("__") and len(name) > 4:
        return include_dunder
    return not name.startswith("_")


class _Walker:
    def __init__(self, exported: set[str] | None, include_dunder: bool, lines: list[str]) -> None:
        self.exported = exported
        self.include_dunder = include_dunder
        self.lines = lines
        self.found: Found = []
        self.dunder_only: set[int] = set()  # indices in ``found`` of functions public only with include_dunder

    def walk(self, statements: list[ast.stmt], classes: tuple[str, ...]) -> None:
        for node in statements:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if self._public(node.name, classes, is_class=False):
                    if not is_public(node.name, classes, self.exported, is_class=False, include_dunder=False):
                        self.dunder_only.add(len(self.found))
                    first = decorator_line(self.lines, node.decorator_list[0]) if node.decorator_list else node.lineno
                    self.found.append((".".join((*classes, node.name)), (first, node.end_lineno or node.lineno)))
            elif isinstance(node, ast.ClassDef):
                if self._public(node.name, classes, is_class=True):  # a private class hides its methods
                    self.walk(node.body, (*classes, node.name))
            elif isinstance(node, ast.If) and is_main_guard(node.test):
                self.walk(node.orelse, classes)  # the guarded body is script code, not API
            else:
                for block in blocks(node):
                    self.walk(block, classes)

    def _public(self, name: str, classes: tuple[str, ...], *, is_class: bool) -> bool:
        return is_public(name, classes, self.exported, is_class=is_class, include_dunder=self.include_dunder)


def blocks(node: ast.stmt) -> list[list[ast.stmt]]:
    """The statement blocks of a compound statement in source order ([] for a simple statement)."""
    if not isinstance(node, _COMPOUND):
        return []
    if isinstance(node, ast.Match):
        return [case.body for case in node.cases]
    blocks = [getattr(node, "body", [])]
    blocks += [handler.body for handler in getattr(node, "handlers", [])]
    return blocks + [getattr(node, "orelse", []), getattr(node, "finalbody", [])]


def is_main_guard(test: ast.expr) -> bool:
    """``__name__ == "__main__"`` (either way round)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = (test.left, test.comparators[0])
    return (any(isinstance(s, ast.Name) and s.id == "__name__" for s in sides)
            and any(isinstance(s, ast.Constant) and s.value == "__main__" for s in sides))


def decorator_line(lines: list[str], expression: ast.expr) -> int:
    """The line of the ``@`` before ``expression``. Usually the expression's own line, but ``@(`` or
    ``@\\`` put the expression lower; between the two only brackets, blanks and comments can stand."""
    line = expression.lineno
    if "@" in lines[line - 1][: expression.col_offset]:  # the prefix is ASCII, so bytes == characters
        return line
    line -= 1
    while line > 1 and "@" not in lines[line - 1].split("#", 1)[0]:
        line -= 1
    return line


# --- __all__ ------------------------------------------------------------------------------------


def exported_names(tree: ast.Module, lines: list[str]) -> set[str] | None:
    """The module's literal ``__all__`` (with later ``+=``, ``.extend`` and ``.append`` of literals),
    or None when it has none or computes it."""
    exported = exported_order(tree, lines)
    return None if exported is None else set(exported)


def exported_order(tree: ast.Module, lines: list[str]) -> list[str] | None:
    """``exported_names`` in the order the module writes them (each once): docbot's one ``__all__`` reader, for
    the scan's publicity and for verify's coverage alike."""
    exported: dict[str, None] | None = None
    for statement in tree.body:
        if isinstance(statement, (ast.Assign, ast.AnnAssign)) and _assigns_all(statement):
            names = _literal_names(statement.value, lines)  # a computed __all__ -> None: fall back
            exported = None if names is None else dict.fromkeys(names)
        elif exported is not None:
            exported.update(dict.fromkeys(_names_added(statement, lines) or ()))
    return None if exported is None else list(exported)


def _assigns_all(node: ast.Assign | ast.AnnAssign) -> bool:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    return any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets)


def _names_added(node: ast.stmt, lines: list[str]) -> list[str] | None:
    """Names from ``__all__ += [...]``, ``__all__.extend([...])`` or ``__all__.append("x")``."""
    if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id == "__all__":
        return _literal_names(node.value, lines)
    if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)):
        return None
    func = node.value.func
    arguments = [*node.value.args, *(k.value for k in node.value.keywords)]
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and func.value.id == "__all__" and len(arguments) == 1):
        return None
    argument = arguments[0].value if isinstance(arguments[0], ast.Starred) else arguments[0]
    if func.attr == "extend":
        return _literal_names(argument, lines)
    if func.attr == "append":
        return _literal_names(ast.List([argument]), lines)
    return None


def _literal_names(value: ast.expr | None, lines: list[str]) -> list[str] | None:
    """The strings of a list, tuple or set display of plain string literals, in order; None for anything else."""
    if not isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        return None
    names = []
    for element in value.elts:
        if isinstance(element, ast.Starred):
            element = element.value
        if not (isinstance(element, ast.Constant) and isinstance(element.value, (str, bytes))):
            return None
        if _is_concatenation(element, lines):  # "a" "b": not one literal, so not a readable name
            return None
        text = element.value
        names.append(text if isinstance(text, str) else text.decode("utf-8", "replace"))
    return names


# One string literal holding no quote, backslash or newline: certainly a single token. Tokenizing each
# name of a large ``__all__`` (and compiling the tokenizer's patterns) was a fifth of a hook's check.
_ONE_PLAIN_LITERAL = re.compile(r"""[rRbBuU]{0,2}(?:'[^'"\\\n]*'|"[^'"\\\n]*")""")


def _is_concatenation(node: ast.Constant, lines: list[str]) -> bool:
    """Whether a string constant is written as several adjacent literals."""
    if node.lineno == node.end_lineno:
        segment = lines[node.lineno - 1].encode()[node.col_offset:node.end_col_offset].decode()
    else:
        segment = "\n".join([lines[node.lineno - 1].encode()[node.col_offset:].decode(),
                             *lines[node.lineno:(node.end_lineno or node.lineno) - 1],
                             lines[(node.end_lineno or node.lineno) - 1].encode()[:node.end_col_offset].decode()])
    if _ONE_PLAIN_LITERAL.fullmatch(segment):  # nearly every name in an __all__: no tokenizer needed
        return False
    strings = 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(f"({segment})").readline):
            strings += token.type == tokenize.STRING
    except (tokenize.TokenError, SyntaxError):
        return True
    return strings != 1
