"""Marker comments in a Python example block: which statement states what (stdlib and ``compare`` only).

A statement states an output with a marker comment on its line or the comment lines right after it
(``# Output: 3``, ``# -> 3``, ``# returns 3``, ``# raises ValueError: ...``); the comments after a marker
continue a multi-line stated output.

A bare expression statement with a trailing comment and no marker (``camelize("a_b")  # aB``,
``is_snake("x")  # False``) states the expression's value when the comment is a Python literal or one
identifier-like token (an inner capital, ``_``, ``-`` or a digit: ``jackInTheBox``, ``ruby_tuesdays``):
a README writes a bare expression only to show its value. A comment of prose words is not a claim
(tests/verify/test_examples.py, "bare comment").
"""

from __future__ import annotations

import ast
import io
import re
import tokenize

from docbot.sandbox.compare import literal

_MARKER = re.compile(
    r"^\s*(?:(?:=>|->|→|==>)|(?i:output|out|prints?|printed|result|returns?|gives|yields?|displays?|shows?)\s*:?)"
    r"\s*(.*)$"
)
_VALUE_TOKEN = re.compile(r"(?=[\w-]*(?:[_\d-]|[a-z][A-Z]))[A-Za-z_][\w-]*")
_RAISES_MARKER = re.compile(r"^\s*(?i:raises?|throws?)\s*:?\s*(.+)$")
_CLAIM_TAIL = r"\s*(?::\s*(.*)|\(\s*(['\"])(.*)\3\s*\))?\s*$"
# After "# raises" any class name will do; after "# ->" only a name that reads as an exception.
EXCEPTION_ANY = re.compile(r"^\s*((?:[A-Za-z_]\w*\.)*[A-Z]\w*)" + _CLAIM_TAIL, re.DOTALL)
EXCEPTION = re.compile(
    r"^\s*((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Iteration))" + _CLAIM_TAIL,
    re.DOTALL,
)


def is_print(node: ast.stmt) -> bool:
    return (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name) and node.value.func.id == "print")


def marked_statements(text: str, tree: ast.Module) -> dict[int, str]:
    """Statement index -> the text of its marker comment (same line, or comment lines right after)."""
    comments = _comments(text)
    ends = [node.end_lineno or node.lineno for node in tree.body]
    starts = [node.lineno for node in tree.body[1:]] + [len(text.splitlines()) + 1]
    found: dict[int, str] = {}
    for index, (end, next_start) in enumerate(zip(ends, starts)):
        stated = [comments[line] for line in range(end, next_start) if line in comments]
        stated_claim = claim(stated)
        if stated_claim is None and end in comments and _bare_claim(tree.body[index], comments[end]):
            stated_claim = comments[end]
        if stated_claim is not None:
            found[index] = stated_claim
    return found


def _bare_claim(node: ast.stmt, comment: str) -> bool:
    """Whether a trailing comment without a marker states a bare expression's value (the docstring)."""
    if not isinstance(node, ast.Expr) or is_print(node) or not comment.strip():
        return False
    return literal(comment)[1] or _VALUE_TOKEN.fullmatch(comment.strip()) is not None


def _comments(text: str) -> dict[int, str]:
    found: dict[int, str] = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                # Only "#" and one space go: the indentation of a multi-line stated output is its text.
                found[token.start[0]] = re.sub(r"^#+ ?", "", token.string).rstrip()
    except (tokenize.TokenError, IndentationError):
        pass
    return found


def comment_texts(text: str) -> list[str]:
    """Comments of a block that may not parse (so no tokenizer): text after a ``#`` outside quotes."""
    found = []
    for line in text.splitlines():
        code = re.sub(r"(['\"]).*?\1", "", line)
        if "#" in code:
            found.append(code.split("#", 1)[1].strip())
    return found


def claim(comments: list[str]) -> str | None:
    """The stated output of a run of comments: the first marker, continued by the comments after it."""
    for index, comment in enumerate(comments):
        raises = _RAISES_MARKER.match(comment)
        if raises and EXCEPTION_ANY.match(raises.group(1)):
            return "!raises " + raises.group(1)
        marker = _MARKER.match(comment)
        if marker:
            rest = [marker.group(1)] if marker.group(1) else []
            return "\n".join(rest + comments[index + 1 :]).strip() or None
    return None
