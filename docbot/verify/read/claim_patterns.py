"""What one statement says, before its subject is known: the patterns of the claim reader
(docbot.verify.read.claims, docs/design.md#claims).

Each function reads one kind of claim from a statement's text: a default, a type, a parameter, an exception, a
return type or value. A claim whose verb has another subject ("a callback that returns a list", "your function
should raise `StopIteration`") is marked as not the statement's own; one that is tied to a name by its syntax
("`f()` raises", "the `timeout` of `connect()`") carries that name, so the reader can resolve it.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

__all__ = ["Kind", "Stated", "call_names", "default_value", "literal_value", "parse_signature", "type_words"]


class Kind(Enum):
    EXISTS = "exists"  # the name is one the API has
    TAKES = "takes"  # it takes parameter P
    DEFAULT = "default"  # P defaults to V
    TYPE = "type"  # P has type T
    RAISES = "raises"  # it raises E
    RETURNS_TYPE = "returns_type"  # it returns a T
    RETURNS_VALUE = "returns_value"  # it returns V


@dataclass(frozen=True)
class Stated:
    kind: Kind
    parameter: str = ""
    value: str = ""  # the default's text, the type words joined by "|", the exception, the literal, the name
    explicit: bool = False  # a parameter the text says is one (a Parameters row, "the `x` argument")
    bound: str = ""  # the name the syntax ties it to ("`f()` raises"); "" for the statement's own subject


# --- types --------------------------------------------------------------------------------------------------------

# type word -> the builtin type names that make it true (shared with docbot.verify.checks.returns' reading)
WORDS: dict[str, frozenset[str]] = {
    "str": frozenset({"str"}), "string": frozenset({"str"}),
    "bytes": frozenset({"bytes", "bytearray"}), "bytestring": frozenset({"bytes", "bytearray"}),
    "bytearray": frozenset({"bytearray"}), "list": frozenset({"list"}), "dict": frozenset({"dict"}),
    "dictionary": frozenset({"dict"}), "tuple": frozenset({"tuple"}), "set": frozenset({"set", "frozenset"}),
    "frozenset": frozenset({"frozenset", "set"}), "int": frozenset({"int", "bool"}),
    "integer": frozenset({"int", "bool"}), "float": frozenset({"float", "int"}),
    "number": frozenset({"int", "float", "complex"}), "complex": frozenset({"complex"}),
    "bool": frozenset({"bool"}), "boolean": frozenset({"bool"}), "none": frozenset({"NoneType"}),
}
_PLURALS = {"strings": "string", "lists": "list", "dicts": "dict", "dictionaries": "dictionary", "tuples": "tuple",
            "sets": "set", "integers": "integer", "ints": "int", "floats": "float", "numbers": "number",
            "booleans": "boolean", "bools": "bool"}
_ARTICLES = {"a", "an", "the", "one", "single", "new", "plain", "python", "builtin", "built-in"}
_STOP = {"of", "if", "when", "unless", "otherwise", "or", "and", "for", "with", "to", "from", "in", "on", "by",
         "as", "is", "that", "which", "else", "where", "containing", "whose", "like", "such", "than"}
_ANNOTATION_WORDS = {"str": "str", "bytes": "bytes", "bytearray": "bytearray", "int": "int", "float": "float",
                     "complex": "complex", "bool": "bool", "list": "list", "List": "list", "dict": "dict",
                     "Dict": "dict", "tuple": "tuple", "Tuple": "tuple", "set": "set", "Set": "set",
                     "frozenset": "frozenset", "FrozenSet": "frozenset", "None": "none", "NoneType": "none"}


def _word(phrase: str) -> str | None:
    """The type word a short phrase leads with: ``a list of str`` -> "list"; None when it names none."""
    words = [w.strip("`*_,.;:()").lower() for w in phrase.split()]
    for word in words:
        if word in _ARTICLES or not word:
            continue
        word = _PLURALS.get(word, word)
        if word in WORDS:
            return word
        if word in _STOP or word.endswith("'s") or not word.replace("-", "").isalpha():
            return None
        if word in ("positive", "negative", "non-negative", "non-empty", "empty", "unicode", "optional"):
            continue  # "a positive integer", "a non-empty string": a modifier, then the type
        return None
    return None


def _annotation_words(text: str) -> frozenset[str] | None:
    """``Optional[int]``, ``str | None``, ``dict[str, Any]`` -> the type words; None when a part is no builtin."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = _annotation_words(ast.unparse(node.left)), _annotation_words(ast.unparse(node.right))
        return left | right if left is not None and right is not None else None
    if isinstance(node, ast.Subscript):
        base = ast.unparse(node.value).removeprefix("typing.")
        inner = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if base in ("Optional", "Union"):
            parts = [_annotation_words(ast.unparse(e)) for e in inner]
            if any(p is None for p in parts):
                return None
            return frozenset().union(*[p for p in parts if p is not None]) | (
                {"none"} if base == "Optional" else set())
        node = node.value
    name = ast.unparse(node).removeprefix("typing.").removeprefix("builtins.")
    word = _ANNOTATION_WORDS.get(name)
    return frozenset({word}) if word else None


def type_words(phrase: str) -> frozenset[str] | None:
    """The type words a stated type names: ``int or None`` -> {int, none}; None unless every part names one."""
    text = re.sub(r",?\s*\b(?:optional|default\b.*)$", "", phrase.strip().strip("`"), flags=re.IGNORECASE).strip()
    if not text:
        return None
    exact = _annotation_words(text.replace("`", ""))
    if exact is not None:
        return exact
    parts = [p for p in re.split(r"\s*(?:\bor\b|\||,|/)\s*", text) if p.strip()]
    words = [_word(p) for p in parts]
    if not words or any(w is None for w in words):
        return None
    return frozenset(w for w in words if w is not None)


# --- values -------------------------------------------------------------------------------------------------------

_VALUE = r"(`[^`]+`|\"[^\"]*\"|'[^']*'|[-+]?\.?\d[\w.+-]*|True\b|False\b|None\b)"


def literal_value(text: str) -> str | None:
    """The stated value if it is a Python literal (or a name in code): ``"`'simple'`"`` -> "'simple'"."""
    # a sentence's own punctuation after the code span first ("returns `None`."): inside it, "`None`." stays
    value = re.sub(r"(?<=`)[.,;:)]+$", "", text.strip()).strip("`").strip()
    value = value.rstrip(".,;:)")
    if re.fullmatch(r"[A-Za-z_][\w.]*", value):
        return value if value in ("True", "False", "None") or text.strip().startswith("`") else None
    try:
        ast.literal_eval(value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return value


def default_value(text: str) -> str | None:
    """The default a text states about its own item: "Defaults to 5.", "(default: `'x'`)", "default is None"."""
    match = re.search(r"(?i:\bdefaults?)(?:\s+(?i:value|is|to|of|being))*\s*(?:[:=]|\bis\b|\bto\b)?\s*" + _VALUE, text)
    if match is None or re.search(r"(?i)\bno\s+default", text):
        return None
    return literal_value(match.group(1))


# --- signatures ---------------------------------------------------------------------------------------------------

_SIGNATURE = re.compile(r"^\s*(?:async\s+)?(?:def\s+|class\s+)?([A-Za-z_][\w.]*)\s*(\(.*\))\s*(?:->\s*(.+?))?\s*:?\s*$")


@dataclass(frozen=True)
class Signature:
    name: str
    parameters: tuple[tuple[str, str | None, str | None], ...]  # (name, default, annotation), no stars
    returns: str | None


def parse_signature(text: str) -> Signature | None:
    """A signature line: ``def f(a, b: int = 1) -> str``, ``f(a, b=1)``; None when it is no signature."""
    match = _SIGNATURE.match(text.replace("`", ""))
    if not match:
        return None
    try:
        tree = ast.parse(f"def _f{match.group(2)}: pass")
    except SyntaxError:
        return None
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef)
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    pairs = list(zip(positional, defaults)) + list(zip(args.kwonlyargs, args.kw_defaults))
    params = [(a.arg, ast.unparse(d) if d is not None else None, ast.unparse(a.annotation) if a.annotation else None)
              for a, d in pairs]
    return Signature(match.group(1), tuple(params), match.group(3).strip() if match.group(3) else None)


def call_names(text: str) -> list[tuple[str, int]]:
    """(name, offset) of each API-looking name a statement writes: code spans, and bare ``name()`` calls."""
    found = []
    for match in re.finditer(r"`~?([A-Za-z_][\w.]*)(?:\([^`]*\))?`|(?<![\w.`])([A-Za-z_][\w.]*)\(\)", text):
        found.append((match.group(1) or match.group(2), match.start()))
    return found


def own_definition(lines: Sequence[str], index: int) -> bool:
    """Whether the ``def`` at ``lines[index]`` of a code block is the doc's own function, not a signature it
    states: a method of a class the block defines (keyring's ``class TestKeyring(KeyringBackend)``), or a body that
    does anything (click's ``def echo(src): click.echo(src.read())`` under ``@click.command()``; ``pass``); a
    docstring or ``...`` alone documents one."""
    if not lines[index].lstrip().startswith(("def ", "async def ")):
        return False
    indent = len(lines[index]) - len(lines[index].lstrip())
    outer = next((lines[i] for i in range(index - 1, -1, -1)
                  if lines[i].strip() and len(lines[i]) - len(lines[i].lstrip()) < indent), "")
    if indent and outer.lstrip().startswith("class "):
        return True
    end = next((i for i in range(index + 1, len(lines))
                if lines[i].strip() and len(lines[i]) - len(lines[i].lstrip()) <= indent), len(lines))
    try:
        tree = ast.parse(textwrap.dedent("\n".join(lines[index:end])))
    except SyntaxError:
        return False
    node = tree.body[0] if tree.body else None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    return any(not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
                    and (stmt.value.value is Ellipsis or isinstance(stmt.value.value, str))) for stmt in node.body)
