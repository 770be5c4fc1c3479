"""Value-aware comparison of a stated example output with what the code really produced.

Docs write ``0.50`` for ``0.5``, list dict keys in another order, round floats to the digits they show,
and print strings with or without quotes. None of that is an error; a different value is. Stdlib only:
the sandboxed child imports this module too.
"""

from __future__ import annotations

import ast
import math
import re
from typing import Any

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
_TOLERANCE = 1e-9


def literal(text: str) -> tuple[Any, bool]:
    """``(value, True)`` when ``text`` is a Python literal, else ``(None, False)``."""
    try:
        return ast.literal_eval(text.strip()), True
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None, False


def decimals_shown(text: str) -> int | None:
    """Digits after the point in a number as written: ``110.25`` -> 2, ``1e-3`` / ``110`` -> None."""
    match = re.fullmatch(r"\s*[-+]?\d*\.(\d+)\s*", text)
    return len(match.group(1)) if match else None


def numbers_equal(actual: float, stated: float, shown: str | None = None) -> bool:
    """Equal within 1e-9, or equal once ``actual`` is printed with the digits ``stated`` shows."""
    if math.isnan(actual) or math.isnan(stated):
        return math.isnan(actual) and math.isnan(stated)
    if math.isclose(actual, stated, rel_tol=_TOLERANCE, abs_tol=_TOLERANCE):
        return True
    digits = decimals_shown(shown if shown is not None else repr(stated))
    return digits is not None and abs(actual - stated) <= 0.5 * 10.0**-digits + _TOLERANCE


def values_equal(actual: Any, stated: Any, shown: str | None = None) -> bool:
    """Deep equality where numbers use ``numbers_equal`` and dict/set order never matters."""
    if isinstance(actual, bool) or isinstance(stated, bool):
        return type(actual) is type(stated) and actual == stated
    if isinstance(actual, (int, float)) and isinstance(stated, (int, float)):
        if isinstance(stated, int) and isinstance(actual, float) and not actual.is_integer():
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
    """Whether printed output ``got`` is what the doc states as ``want``."""
    want_lines, got_lines = _lines(want), _lines(got)
    if want_lines == got_lines or _squash(want) == _squash(got):
        return True
    if "..." in want and _ellipsis_match(want, got):
        return True
    stated, stated_ok = literal(want)
    actual, actual_ok = literal(got)
    if stated_ok and actual_ok and values_equal(actual, stated, want.strip()):
        return True
    if actual_ok and isinstance(actual, str) and actual == want.strip():
        return True  # the repr of a string vs the string printed
    return len(want_lines) == len(got_lines) > 0 and all(map(line_matches, want_lines, got_lines))


def line_matches(want: str, got: str) -> bool:
    """One printed line: the text around numbers must be equal, the numbers value-equal."""
    if _squash(want) == _squash(got):
        return True
    want_text, got_text = _NUMBER.split(want), _NUMBER.split(got)
    want_numbers, got_numbers = _NUMBER.findall(want), _NUMBER.findall(got)
    if len(want_numbers) != len(got_numbers) or not want_numbers:
        return False
    if [_squash(t) for t in want_text] != [_squash(t) for t in got_text]:
        return False
    return all(numbers_equal(float(g), float(w), w) for w, g in zip(want_numbers, got_numbers))


def value_matches(actual: Any, want: str, namespace: dict[str, Any] | None = None) -> bool:
    """Whether a returned value is what the doc states, as a literal, an expression or printed text."""
    text = want.strip()
    shown = [_safe(repr, actual), _safe(str, actual)]
    if any(s is not None and (_squash(s) == _squash(text) or output_matches(text, s)) for s in shown):
        return True
    stated, ok = literal(text)
    if ok:
        return values_equal(actual, stated, text)
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
    return [line.rstrip() for line in text.strip("\n").splitlines()]


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _ellipsis_match(want: str, got: str) -> bool:
    pattern = ".*?".join(re.escape(_squash(piece)) for piece in want.split("..."))
    return re.fullmatch(pattern, _squash(got), re.DOTALL) is not None
