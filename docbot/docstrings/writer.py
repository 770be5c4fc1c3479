"""Docstrings written into a source file: detect its style, then insert or replace one function's
docstring with libcst, leaving every other byte of the file as it was (pure text -> text).

The one exception to "every other byte": a function written on one line (``def f(): return 1``) has
no block to put a docstring in, so its body moves to an indented block under the docstring.
"""

from __future__ import annotations

import ast
import difflib
import re
from collections import Counter

import libcst as cst

from docbot.docmodel import DocModel
from docbot.docstrings.text import DocstringStyle, render_docstring
from docbot.facts.function import Facts

__all__ = ["DocstringStyle", "detect_style", "docstring_literal", "set_docstring", "style_counts", "write_docstring"]

_STYLE_MARKS = {
    DocstringStyle.NUMPY: re.compile(
        r"^[ \t]*(?:Parameters|Returns|Yields|Raises|Examples|Notes|Attributes)[ \t]*\n[ \t]*-{3,}[ \t]*$", re.M),
    DocstringStyle.GOOGLE: re.compile(
        r"^[ \t]*(?:Args|Arguments|Returns|Yields|Raises|Examples?|Attributes|Note|Notes):[ \t]*$", re.M),
    DocstringStyle.REST: re.compile(
        r"^[ \t]*(?:[rRuU]?(?:\"\"\"|'''))?:(?:param|parameter|arg|type|returns?|rtype|raises?)\b[^:\n]*:", re.M),
}


def _docstrings(source: str) -> list[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return [source]  # unparsable: judge the style from the raw text
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return [doc for node in ast.walk(tree) if isinstance(node, kinds)
            if (doc := ast.get_docstring(node, clean=False))]


def style_counts(source: str) -> Counter[DocstringStyle]:
    """How many section marks of each style the source's docstrings carry."""
    counts: Counter[DocstringStyle] = Counter()
    for doc in _docstrings(source):
        for style, pattern in _STYLE_MARKS.items():
            counts[style] += len(pattern.findall(doc))
    return counts


def detect_style(source: str) -> DocstringStyle:
    """The style most of one source's docstrings use; Google when none shows a style. docbot decides a
    project's style once (``docbot.docstrings.style``): this is that rule applied to one text."""
    counts = style_counts(source)
    best = max(counts.values(), default=0)
    if best == 0:
        return DocstringStyle.GOOGLE
    return next(style for style in DocstringStyle if counts[style] == best)


def docstring_literal(text: str, indent: str, newline: str = "\n") -> str:
    """``text`` as a triple-quoted literal for a body indented by ``indent``.

    A raw string when the text has backslashes and a raw string can hold it; escapes otherwise.
    ``inspect.cleandoc(eval(literal)) == text`` holds for any text (the tests check it).
    """
    lines = text.split("\n")
    body = lines[0] if len(lines) == 1 else "\n".join([lines[0], *(indent + ln if ln else "" for ln in lines[1:])])
    body += "" if len(lines) == 1 else "\n" + indent
    body = body.replace("\n", newline)  # a CRLF file keeps CRLF inside its docstrings too
    if "\\" not in body and '"""' not in body and not body.endswith('"'):
        return f'"""{body}"""'
    if '"""' not in body and not body.endswith(('"', "\\")):
        return f'r"""{body}"""'
    escaped = body.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    if escaped.endswith('"'):
        escaped = escaped[:-1] + '\\"'
    return f'"""{escaped}"""'


def write_docstring(source: str, qualname: str, model: DocModel, facts: Facts,
                    style: DocstringStyle | None = None, keep: tuple[str, ...] = ()) -> str:
    """``source`` with the docstring of ``qualname`` rendered from ``model`` in ``style`` (else the one
    its own docstrings use), the directive blocks ``keep`` appended."""
    text = render_docstring(model, facts, style or detect_style(source), keep)
    return set_docstring(source, qualname, text)


def set_docstring(source: str, qualname: str, text: str) -> str:
    """``source`` with ``qualname``'s docstring set to ``text`` (inserted when it had none).

    With several definitions of one name, the first that is not an ``@overload`` stub gets it (the
    getter of a property, the implementation of an overloaded function).
    Raises ``ValueError`` when the file has no function of that name (the caller's target is stale).
    """
    if _FORM_FEED_INDENT.search(source):
        return _around_form_feeds(source, qualname, text)
    module = cst.parse_module(source)
    finder = _Definitions()
    module.visit(finder)
    found = [node for path, node in finder.found if path == tuple(qualname.split("."))]
    if not found:
        raise ValueError(f"no function {qualname} in this source")
    target = next((node for node in found if not _is_overload(node)), found[0])
    edited = module.visit(_DocstringSetter(target, text, module.default_indent, module.default_newline)).code
    return _keep_final_line_end(source, edited)


def _keep_final_line_end(source: str, edited: str) -> str:
    """libcst drops the last line end of a CR-only file (``\\r``): give the edit the source's ending back."""
    ending = source[len(source.rstrip("\r\n")):]
    if ending and not edited.endswith(ending):
        return edited.rstrip("\r\n") + ending
    return edited


# Leading whitespace holding a form feed. Python resets the indentation count at a form feed; libcst's
# tokenizer refuses it ("no matching outer block for dedent"), so such a file is edited without them.
_FORM_FEED_INDENT = re.compile(r"^[ \t]*\f", re.M)
_UP_TO_LAST_FORM_FEED = re.compile(r"^[ \t\f]*\f", re.M)
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


def _around_form_feeds(source: str, qualname: str, text: str) -> str:
    """The edit made on a copy without leading form feeds (the same indentation to Python), then carried
    back line by line: every line the edit did not change keeps its own bytes, form feeds included."""
    plain = _UP_TO_LAST_FORM_FEED.sub("", source)
    edited = set_docstring(plain, qualname, text)
    old, plain_lines, new = (_LINE.findall(t) for t in (source, plain, edited))  # splitlines splits at form feeds
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=plain_lines, b=new, autojunk=False).get_opcodes():
        out += old[i1:i2] if op == "equal" else new[j1:j2]
    return "".join(out)


def _is_overload(node: cst.FunctionDef) -> bool:
    names = {cst.Module([]).code_for_node(d.decorator) for d in node.decorators}
    return bool(names & {"overload", "typing.overload", "typing_extensions.overload"})


def _is_docstring(statement: cst.BaseStatement) -> bool:
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return False
    expr = statement.body[0]
    if not isinstance(expr, cst.Expr) or not isinstance(expr.value, (cst.SimpleString, cst.ConcatenatedString)):
        return False
    return isinstance(expr.value.evaluated_value, str)


class _Definitions(cst.CSTVisitor):
    """Every function definition with its path of class and function names, in file order."""

    def __init__(self) -> None:
        super().__init__()
        self.names: list[str] = []
        self.found: list[tuple[tuple[str, ...], cst.FunctionDef]] = []

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.names.append(node.name.value)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.names.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.names.append(node.name.value)
        self.found.append((tuple(self.names), node))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.names.pop()


class _DocstringSetter(cst.CSTTransformer):
    """Sets the docstring of one definition (found by identity), indented like its body."""

    def __init__(self, target: cst.FunctionDef, text: str, default_indent: str, newline: str) -> None:
        super().__init__()
        self.target, self.text, self.default_indent, self.newline = target, text, default_indent, newline
        self.indents: list[str] = []

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self.indents.append(self.default_indent if node.indent is None else node.indent)

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        self.indents.pop()
        return updated

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if original is not self.target:
            return updated
        body = updated.body
        own = body.indent if isinstance(body, cst.IndentedBlock) and body.indent is not None else self.default_indent
        literal = cst.SimpleString(docstring_literal(self.text, "".join(self.indents) + own, self.newline))
        if isinstance(body, cst.SimpleStatementSuite):
            rest = cst.SimpleStatementLine(body=body.body, trailing_whitespace=body.trailing_whitespace)
            return updated.with_changes(body=cst.IndentedBlock(body=[_docstring_line(literal), rest]))
        assert isinstance(body, cst.IndentedBlock)  # the only other suite kind, handled above
        statements: list[cst.BaseStatement] = list(body.body)
        if statements and _is_docstring(statements[0]):
            first = statements[0]
            assert isinstance(first, cst.SimpleStatementLine)  # _is_docstring checked it
            statements[0] = first.with_changes(body=[first.body[0].with_changes(value=literal)])
        else:
            statements.insert(0, _docstring_line(literal))
        return updated.with_changes(body=body.with_changes(body=statements))


def _docstring_line(literal: cst.SimpleString) -> cst.SimpleStatementLine:
    return cst.SimpleStatementLine(body=[cst.Expr(literal)])
