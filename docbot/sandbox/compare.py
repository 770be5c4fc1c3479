"""How a stated example output is compared with what the code really produced.

The rules follow doctest's by default, and every relaxation is listed here (tests: tests/sandbox/test_compare.py):

1. **Text.** The stated and the real output match when they are the same text once trailing whitespace
   is taken off every line and leading/trailing blank lines are dropped. Whitespace *inside* a line
   and the line structure of a multi-line output are significant (a misaligned table is different),
   with what a reader's terminal and doctest make of it: a tab is the spaces to the next 8-column stop, a
   ``<BLANKLINE>`` line is a blank line, and an indentation every line of one side shares (an output block
   indented in a list) is layout, not output.
2. **Ellipsis.** ``...`` in the stated output stands for any text, as with doctest's ELLIPSIS; in a stated
   value too (``# -> [1, 2, ...]``), where it is not Python's ``Ellipsis``.
3. **Values.** When both sides parse as Python literals they match when the values are equal: dict
   keys and set members in any order, ``frozenset({3, 1})`` equal to ``frozenset({1, 3})``, ``0.1+0.2``
   equal to ``0.30000000000000004``. Literals here are ``ast.literal_eval``'s plus ``set(...)``,
   ``frozenset(...)`` and ``+ - * /`` between numbers; nothing else is evaluated.
4. **Numbers.** Tolerance applies only between two numbers, never inside strings. An integer claim is
   exact (``110`` does not match ``110.00000000000001``, though it matches ``110.0``). A claim with a
   decimal point matches a value within 1e-9 (relative) or one that rounds to the digits shown
   (``110.25`` for ``110.2500004``). ``True`` is not ``1``.
5. **Numbers in printed lines.** A printed line matches when its text outside numbers is the same, its
   quoted strings are the same character for character (``'1.00 x 10⁰'`` is not ``'1.0 x 10⁰'``), and its
   numbers match by rule 4.
6. **Strings.** A string's repr matches the same string printed (``'abc'`` against ``abc``).
7. **Returned values** (``# -> 3``, ``# returns true``) match when the value's repr or str matches by the
   rules above, or when the stated text, evaluated where the example ran, gives an equal value
   (``Decimal('1.10')``). Comment words ``true``, ``false``, ``none``/``nothing`` are read as ``True``,
   ``False`` and ``None`` (docbot.verify.read.examples).

Outputs that differ between two runs of the same example (uuids, timestamps) are not judged by these
rules: they are reported as nondeterministic (docbot.verify.checks.examples). Stdlib only: the
sandboxed child imports this module too.
"""

from __future__ import annotations

import ast
import math
import operator
import re

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing, which the sandbox child need not load
if TYPE_CHECKING:
    from typing import Any

_NUMBER = r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w])"
_PIECES = re.compile(rf"""(?P<str>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")|(?P<num>{_NUMBER})""")
_TOLERANCE = 1e-9
_ARITHMETIC = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}
_SETS = {"set": set, "frozenset": frozenset}
_BLANKLINE = re.compile(r"^<BLANKLINE>[ \t]*$", re.MULTILINE)  # doctest's marker for a blank output line


def literal(text: str) -> tuple[Any, bool]:
    """``(value, True)`` when ``text`` is a Python literal (rule 3), else ``(None, False)``."""
    try:
        return _value(ast.parse(text.strip(), mode="eval").body), True
    except (ValueError, SyntaxError, TypeError, ArithmeticError, MemoryError, RecursionError):
        return None, False


def _value(node: ast.expr) -> Any:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _SETS:
        if node.keywords or len(node.args) > 1:
            raise ValueError("not a literal")
        return _SETS[node.func.id](_value(node.args[0]) if node.args else ())
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        left, right = _value(node.left), _value(node.right)
        if not all(_is_number(v) for v in (left, right)):
            raise ValueError("arithmetic only between numbers")
        return _ARITHMETIC[type(node.op)](left, right)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        items = [_value(e) for e in node.elts]
        return {ast.List: list, ast.Tuple: tuple, ast.Set: set}[type(node)](items)
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise ValueError("** in a dict display")
        return {_value(k): _value(v) for k, v in zip(node.keys, node.values) if k is not None}
    return ast.literal_eval(node)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float, complex)) and not isinstance(value, bool)


def decimals_shown(text: str) -> int | None:
    """Digits after the point in a number as written: ``110.25`` -> 2, ``1e-3`` / ``110`` -> None."""
    match = re.fullmatch(r"\s*[-+]?\d*\.(\d+)\s*", text)
    return len(match.group(1)) if match else None


def numbers_equal(actual: float, stated: float, shown: str | None = None) -> bool:
    """Rule 4: an integer as written is exact; otherwise within 1e-9 or rounding to the digits shown."""
    if math.isnan(actual) or math.isnan(stated):
        return math.isnan(actual) and math.isnan(stated)
    if shown is not None and re.fullmatch(r"\s*[-+]?\d+\s*", shown):
        return actual == stated
    if math.isclose(actual, stated, rel_tol=_TOLERANCE, abs_tol=_TOLERANCE):
        return True
    digits = decimals_shown(shown if shown is not None else repr(stated))
    return digits is not None and abs(actual - stated) <= 0.5 * 10.0**-digits + _TOLERANCE


def values_equal(actual: Any, stated: Any, shown: str | None = None) -> bool:
    """Deep equality where numbers use ``numbers_equal`` and dict/set order never matters."""
    if isinstance(actual, bool) or isinstance(stated, bool):
        return type(actual) is type(stated) and actual == stated
    if isinstance(actual, (int, float)) and isinstance(stated, (int, float)):
        if isinstance(stated, int) and (not isinstance(actual, int) and not float(actual).is_integer()):
            return False  # "110" is an exact claim, not a rounding
        return numbers_equal(float(actual), float(stated), shown)
    if isinstance(actual, dict) and isinstance(stated, dict):
        return actual.keys() == stated.keys() and all(values_equal(actual[k], stated[k]) for k in actual)
    if isinstance(actual, (list, tuple)) and isinstance(stated, (list, tuple)):
        return (type(actual) is type(stated) and len(actual) == len(stated)
                and all(values_equal(a, s) for a, s in zip(actual, stated)))
    try:
        return bool(actual == stated)
    except Exception:  # noqa: BLE001 - an == that raises or returns an array: not provably equal
        return False


def output_matches(want: str, got: str) -> bool:
    """Whether printed output ``got`` is what the doc states as ``want`` (rules 1-6)."""
    want = _BLANKLINE.sub("", want)
    want_lines, got_lines = _lines(want), _lines(got)
    if want_lines == got_lines or _dedented(want_lines) == _dedented(got_lines):
        return True
    if "..." in want and _ellipsis_match(want_lines, got_lines):
        return True
    stated, stated_ok = literal(want)
    actual, actual_ok = literal(got)
    if stated_ok and actual_ok:
        return values_equal(actual, stated, want.strip())
    if actual_ok and isinstance(actual, str) and actual == want.strip():
        return True  # the repr of a string vs the string printed
    return len(want_lines) == len(got_lines) > 0 and all(map(line_matches, want_lines, got_lines))


def line_matches(want: str, got: str) -> bool:
    """Rule 5: the same text and quoted strings, numbers equal by rule 4."""
    if want.rstrip() == got.rstrip():
        return True
    want_pieces, got_pieces = _pieces(want.rstrip()), _pieces(got.rstrip())
    if len(want_pieces) != len(got_pieces) or not any(kind == "num" for kind, _ in want_pieces):
        return False
    for (want_kind, want_text), (got_kind, got_text) in zip(want_pieces, got_pieces):
        if want_kind != got_kind:
            return False
        if want_kind == "num":
            if not numbers_equal(float(got_text), float(want_text), want_text):
                return False
        elif want_text != got_text:
            return False
    return True


def _pieces(line: str) -> list[tuple[str, str]]:
    """A line cut into ("text" | "str" | "num", text) pieces, in order."""
    pieces: list[tuple[str, str]] = []
    position = 0
    for match in _PIECES.finditer(line):
        if match.start() > position:
            pieces.append(("text", line[position : match.start()]))
        pieces.append(("str" if match.group("str") else "num", match.group(0)))
        position = match.end()
    if position < len(line):
        pieces.append(("text", line[position:]))
    return pieces


def value_matches(actual: Any, want: str, namespace: dict[str, Any] | None = None) -> bool:
    """Rule 7: whether a returned value is what the doc states, as a literal, an expression or text."""
    text = want.strip()
    shown = [_safe(repr, actual), _safe(str, actual)]
    stated, ok = literal(text)
    if ok and "..." in text and any(s is not None and output_matches(text, s) for s in shown):
        return True  # `[1, 2, ...]`: doctest's ellipsis, not a list holding Ellipsis
    if ok:
        return values_equal(actual, stated, text) or any(s is not None and _lines(s) == _lines(text) for s in shown)
    if any(s is not None and output_matches(text, s) for s in shown):
        return True
    if namespace is None:
        return False
    try:  # e.g. "Decimal('1.10')" or "Point(x=1, y=2)": evaluate it where the example ran
        return values_equal(actual, eval(text, dict(namespace)))
    except Exception:  # noqa: BLE001 - a stated text that does not evaluate is not equal
        return False


def _safe(render: Any, value: Any) -> str | None:
    try:
        return str(render(value))
    except Exception:  # noqa: BLE001 - a broken __repr__/__str__ shows nothing
        return None


def _lines(text: str) -> list[str]:
    return [line.expandtabs().rstrip() for line in text.strip("\n").splitlines()]


def _dedented(lines: list[str]) -> list[str]:
    """The lines without the indentation all their non-blank lines share."""
    indents = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(indents, default=0)
    return [line[cut:] for line in lines]


def _ellipsis_match(want_lines: list[str], got_lines: list[str]) -> bool:
    pattern = ".*?".join(re.escape(piece) for piece in "\n".join(want_lines).split("..."))
    return re.fullmatch(pattern, "\n".join(got_lines), re.DOTALL) is not None
