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
    r"^\s*(?:(?:=>|->|→|==>)|(?i:(output|out|prints?|printed|displays?|shows?)|result|returns?|gives|yields?)\b\s*:?)"
    r"\s*(.*)$"
)
# A claim read after an output word ("# prints lib", "# Output: 3") states what the console shows, not the
# call's return value: ``marked_step`` compares it with what the statement prints and echoes.
PRINTS = "!prints "
_DETACHED_STOP = re.compile(r"(?<=\S)\s+[!.]$")
_VALUE_TOKEN = re.compile(r"(?=[\w-]*(?:[_\d-]|[a-z][A-Z]))[A-Za-z_][\w-]*")
_PROSE = re.compile(r"[A-Za-z]+(?:,?\s+[A-Za-z']+){3}")  # four words: a remark, not a value's next line
_TRACEBACK = re.compile(r"^\s*Traceback \(most recent call last\):?\s*$")
_RAISES_MARKER = re.compile(r"^\s*(?i:raises?|throws?)\s*:?\s*(?:an?\s+)?(.+)$")  # "# raises a TraitError."
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
    """Statement index -> the text of its marker comment (same line, or comment lines right after).

    The comments after a statement are its own while they touch it (a blank line ends them), so a
    remark standing above the next statement (``# Prints "x"`` over ``run(f)``) or a next paragraph of
    comments (``# or``) is not the statement's stated output (tests/verify/test_reading_claims.py). A
    ``def`` or ``class`` states nothing (defining prints nothing); a compound statement's inner remarks are
    read by ``_compound_claim``.
    """
    comments = _comments(text)
    lines = text.splitlines()
    found: dict[int, str] = {}
    introduced: str | None = None  # a comment above this statement that ends with ":" introduces it
    for index, node in enumerate(tree.body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            introduced = None
            continue
        after = _touching(node, comments, lines, node.col_offset)
        before, introduced = introduced, None
        following = tree.body[index + 1] if index + 1 < len(tree.body) else None
        if after and following is not None and after[-1].rstrip().endswith(":") and \
                following.lineno == (node.end_lineno or node.lineno) + len(after) + 1:
            introduced, after = claim(after), []  # `# raises ValueError:` over the next line is the next line's
        if _has_suite(node):
            stated_claim = _compound_claim(node, comments, lines)
            if stated_claim is None and not _inner_claims(node, comments, lines):
                stated_claim = claim(after)
        else:
            end = node.end_lineno or node.lineno
            stated_claim = claim(([comments[end][0]] if end in comments else []) + after)
            if stated_claim is None and end in comments and _bare_claim(node, comments[end][0]):
                stated_claim = comments[end][0]
        stated_claim = stated_claim if stated_claim is not None else before
        if stated_claim is not None:
            found[index] = stated_claim
    return found


def _touching(node: ast.stmt, comments: dict[int, tuple[str, int]], lines: list[str], column: int,
              inner: bool = False) -> list[str]:
    """The comment-only lines right after a statement, up to a blank line or code; for ``inner``, those
    indented past ``column`` (inside the compound), else those at or left of it. When none touch it, a
    comment paragraph standing alone after a blank line is its own too (``print(x)``, a blank line,
    ``# Output: 3``, a blank line or the block's end), but not one that stands over the next statement."""
    first = (node.end_lineno or node.lineno) + 1
    taken, after = _comment_run(first, comments, lines, column, inner)
    if taken or inner:
        return taken
    gap = first
    while gap <= len(lines) and not lines[gap - 1].strip():
        gap += 1
    if gap == first:
        return []
    alone, after = _comment_run(gap, comments, lines, column, inner)
    return alone if after > len(lines) or not lines[after - 1].strip() else []


def _comment_run(line: int, comments: dict[int, tuple[str, int]], lines: list[str], column: int,
                 inner: bool) -> tuple[list[str], int]:
    """The comment-only lines from ``line`` on (on the side of ``column`` that ``inner`` says), and the line
    after them."""
    taken: list[str] = []
    while line <= len(lines) and line in comments and lines[line - 1].lstrip().startswith("#"):
        if (comments[line][1] > column) != inner:
            break
        taken.append(comments[line][0])
        line += 1
    return taken, line


def _has_suite(node: ast.stmt) -> bool:
    return isinstance(getattr(node, "body", None), list)


def _simple_statements(node: ast.stmt) -> list[tuple[ast.stmt, list[ast.stmt], bool]]:
    """(statement, the suite it stands in, inside a loop) for each simple statement of a compound one; a nested
    ``def``/``class`` body is left out (defining it runs none of it)."""
    found: list[tuple[ast.stmt, list[ast.stmt], bool]] = []

    def walk(current: ast.stmt, looped: bool) -> None:
        looped = looped or isinstance(current, (ast.For, ast.AsyncFor, ast.While))
        suites = [getattr(current, f, None) for f in ("body", "orelse", "finalbody")]
        suites += [h.body for h in getattr(current, "handlers", [])]
        suites += [c.body for c in getattr(current, "cases", [])]
        for suite in (s for s in suites if isinstance(s, list)):
            for child in suite:
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    continue
                if _has_suite(child):
                    walk(child, looped)
                else:
                    found.append((child, suite, looped))

    walk(node, False)
    return found


def _inner_claims(node: ast.stmt, comments: dict[int, tuple[str, int]],
                  lines: list[str]) -> list[tuple[ast.stmt, list[ast.stmt], bool, str]]:
    found = []
    for child, suite, looped in _simple_statements(node):
        end = child.end_lineno or child.lineno
        said = ([comments[end][0]] if end in comments else []) + _touching(child, comments, lines, node.col_offset,
                                                                         inner=True)
        stated = claim(said)
        if stated is not None:
            found.append((child, suite, looped, stated))
    return found


def _compound_claim(node: ast.stmt, comments: dict[int, tuple[str, int]], lines: list[str]) -> str | None:
    """The stated output of a compound statement whose lines carry their own remarks (``print(a)  # => 1``
    inside a ``try``): the remarks in order, when they are all on ``print`` calls of one suite outside any
    loop and no other ``print`` of the statement is left unremarked; else None (the statement is then only
    run), never one remark against all the statement prints."""
    inner = _inner_claims(node, comments, lines)
    if not inner:
        return None
    suites = {id(suite) for _, suite, _, _ in inner}
    prints = [child for child, _, _ in _simple_statements(node) if is_print(child)]
    if (len(suites) > 1 or any(looped for _, _, looped, _ in inner)
            or any(not is_print(child) or said.startswith("!raises ") for child, _, _, said in inner)
            or len(prints) != len(inner)):
        return None
    return "\n".join(said.removeprefix(PRINTS) for _, _, _, said in inner)


def _bare_claim(node: ast.stmt, comment: str) -> bool:
    """Whether a trailing comment without a marker states a bare expression's value (the docstring)."""
    if not isinstance(node, ast.Expr) or is_print(node) or not comment.strip():
        return False
    return literal(comment)[1] or _VALUE_TOKEN.fullmatch(comment.strip()) is not None


def _comments(text: str) -> dict[int, tuple[str, int]]:
    """Line -> (the comment's text, its column)."""
    found: dict[int, tuple[str, int]] = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                # Only "#" and one space go: the indentation of a multi-line stated output is its text.
                found[token.start[0]] = (re.sub(r"^#+ ?", "", token.string).rstrip(), token.start[1])
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
    """The stated output of a run of comments: the first marker, continued by the comments after it; a pasted
    traceback (``# Traceback (most recent call last):`` ... ``# ValueError: bad``) states its last line."""
    if comments and _TRACEBACK.match(comments[0]):
        stated = next((c.strip() for c in reversed(comments[1:]) if EXCEPTION_ANY.match(c.strip())
                       and not c.startswith((" ", "\t"))), None)
        return "!raises " + stated if stated else None
    for index, comment in enumerate(comments):
        raises = _RAISES_MARKER.match(comment)
        stated = raises.group(1) if raises else ""
        if ":" not in stated and "(" not in stated:
            stated = stated.rstrip().removesuffix(".")  # a sentence's period after a bare type, not a message's
        if raises and EXCEPTION_ANY.match(stated):
            return "!raises " + stated
        marker = _MARKER.match(comment)
        if marker:
            rest = [marker.group(2)] if marker.group(2) else []
            more = comments[index + 1 :]
            if rest and more and literal(rest[0])[1] and _PROSE.match(more[0]):
                # `# => 'eyJ...'` then `# since the payload is detached, ...` (joserfc): a whole value on the
                # marker's line, and a remark after it that no longer reads as part of one
                more = []
            stated = "\n".join(rest + more).strip()
            if marker.group(1) and "\n" not in stated:
                # "# Print True !": after a prose word, a detached "!" or "." closes the sentence, not the value
                stated = _DETACHED_STOP.sub("", stated)
            return (PRINTS * bool(marker.group(1)) + stated) if stated else None
    return None
