"""The checks that keep a docstring write from breaking a file (docs/design.md#docstrings).

A source is read in the encoding it declares (PEP 263 cookie or BOM, ``tokenize.detect_encoding``) and
written back in it, so a ``latin-1`` file stays latin-1 and a ``coding: ascii`` file stays ASCII; text
the encoding cannot hold is refused for that function. A file that does not decode to exactly its own
bytes again is not touched at all. Before any rename, the new bytes must compile and their syntax tree,
docstrings aside, must equal the old one's: whatever went wrong in rendering or in libcst, the write
cannot change what the code does.
"""

from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import dataclass

__all__ = ["Decoded", "decode_source", "encodes", "same_code"]

_BOM = "\ufeff"


@dataclass(frozen=True)
class Decoded:
    """A source's text (no BOM), and how to turn text back into its bytes."""

    text: str
    encoding: str  # the codec name, "utf-8" for a BOM file too (the BOM is kept in ``bom``)
    bom: str  # "\ufeff" or ""

    def encode(self, text: str) -> bytes:
        return (self.bom + text).encode(self.encoding)


def decode_source(data: bytes) -> Decoded | str:
    """The decoded source, or why docbot leaves it alone (an unknown or wrong declared encoding, bytes
    that would not come back the same)."""
    try:
        declared, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as err:
        return f"its declared encoding cannot be used ({err})"
    encoding = "utf-8" if declared == "utf-8-sig" else declared
    try:
        text = data.decode(encoding)  # no newline translation: a CRLF file stays CRLF
    except (UnicodeDecodeError, LookupError):
        return f"it is not valid {declared}, the encoding it declares"
    bom = _BOM if text.startswith(_BOM) else ""
    decoded = Decoded(text[len(bom):], encoding, bom)
    if decoded.encode(decoded.text) != data:
        return f"its {declared} bytes do not survive a read and a write unchanged"
    return decoded


def encodes(decoded: Decoded, text: str) -> bool:
    """``text`` fits the file's encoding."""
    try:
        text.encode(decoded.encoding)
    except UnicodeEncodeError:
        return False
    return True


class _NoDocstrings(ast.NodeTransformer):
    """Drops the docstring of every module, class and function: the part a docstring write changes."""

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                node.body = node.body[1:]
        return node


def _code_of(data: bytes) -> str | None:
    try:
        tree = ast.parse(data)
        compile(tree, "<docbot>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):  # ValueError: a NUL byte in the source
        return None
    return ast.dump(_NoDocstrings().visit(tree))


def same_code(old: bytes, new: bytes) -> bool:
    """``new`` compiles, and outside docstrings its syntax tree is ``old``'s."""
    before, after = _code_of(old), _code_of(new)
    return after is not None and before == after
