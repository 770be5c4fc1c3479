"""Unit conversions for the truth-check benchmark (lookups, templates, percent-formatted messages)."""

from __future__ import annotations

import re

_SCALES = {"c": "celsius", "f": "fahrenheit", "k": "kelvin"}
_ROMAN = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
          (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def convert_temperature(value: float, source: str = "c", target: str = "f") -> float:
    for unit in (source, target):
        if unit not in _SCALES:
            raise ValueError("unknown unit %r (use c, f or k)" % unit)  # noqa: UP031 - a %-message, on purpose
    kelvin = {"c": value + 273.15, "f": (value - 32) * 5 / 9 + 273.15, "k": value}[source]
    if kelvin < 0:
        raise ValueError("temperature below absolute zero")
    result = {"c": kelvin - 273.15, "f": (kelvin - 273.15) * 9 / 5 + 32, "k": kelvin}[target]
    return round(result, 2)


def parse_duration(text: str) -> int:
    match = re.fullmatch(r"(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?", text.strip())
    if not match or not text.strip():
        raise ValueError(f"cannot parse duration {text!r}; use forms like '1h30m' or '45s'")
    hours, minutes, seconds = (int(g) if g else 0 for g in match.groups())
    return hours * 3600 + minutes * 60 + seconds


def format_bytes(size: int, binary: bool = True) -> str:
    if size < 0:
        raise ValueError("size must be non-negative")
    base = 1024 if binary else 1000
    units = ["B", "KiB", "MiB", "GiB", "TiB"] if binary else ["B", "kB", "MB", "GB", "TB"]
    value = float(size)
    for unit in units:
        if value < base or unit == units[-1]:
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= base
    raise AssertionError("unreachable")


def clamp(value: float, low: float, high: float) -> float:
    if low > high:
        raise ValueError("low must not exceed high: {} > {}".format(low, high))  # noqa: UP032 - on purpose
    return max(low, min(high, value))


def to_roman(number: int) -> str:
    if not isinstance(number, int) or isinstance(number, bool):
        raise TypeError("number must be an int")
    if not 0 < number < 4000:
        raise ValueError("number must be between 1 and 3999")
    out = []
    for value, letters in _ROMAN:
        while number >= value:
            out.append(letters)
            number -= value
    return "".join(out)


def from_roman(text: str) -> int:
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    previous = 0
    for letter in reversed(text.upper()):
        if letter not in values:
            raise ValueError(f"not a roman numeral: {letter}")
        value = values[letter]
        total += -value if value < previous else value
        previous = max(previous, value)
    return total


def bmi(weight_kg: float, height_m: float, *, digits: int = 1) -> float:
    if height_m <= 0 or weight_kg <= 0:
        raise ValueError("weight and height must be positive")
    return round(weight_kg / height_m**2, digits)
