"""Text helpers for the truth-check benchmark (strings, generators, re-raises, templates)."""

from __future__ import annotations

import re
from collections.abc import Iterator


class TemplateError(Exception):
    """A template names a field the values do not have."""


def slugify(text: str, separator: str = "-", max_length: int | None = None) -> str:
    if not separator:
        raise ValueError("separator must not be empty")
    words = re.findall(r"[a-z0-9]+", text.lower())
    slug = separator.join(words)
    return slug[:max_length] if max_length is not None else slug


def truncate(text: str, width: int, suffix: str = "...") -> str:
    if width < len(suffix):
        raise ValueError(f"width must be at least {len(suffix)}")
    if len(text) <= width:
        return text
    return text[: width - len(suffix)] + suffix


def word_count(text: str, *, ignore_case: bool = True) -> dict[str, int]:
    counts: dict[str, int] = {}
    for word in re.findall(r"[\w']+", text):
        key = word.lower() if ignore_case else word
        counts[key] = counts.get(key, 0) + 1
    return counts


def parse_pairs(text: str, sep: str = "=") -> dict[str, str]:
    pairs = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if sep not in line:
            raise ValueError(f"line {number}: expected 'key{sep}value'")
        key, value = line.split(sep, 1)
        pairs[key.strip()] = value.strip()
    return pairs


def render(template: str, **values: object) -> str:
    try:
        return template.format(**values)
    except KeyError as error:
        raise TemplateError("missing value for field %s" % error) from None  # noqa: UP031 - a %-message, on purpose


def wrap_words(text: str, width: int = 20) -> Iterator[str]:
    if width <= 0:
        raise ValueError("width must be positive")
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            yield line
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        yield line


def initials(name: str) -> str:
    parts = [p for p in name.replace("-", " ").split() if p]
    if not parts:
        raise ValueError("name is empty")
    return "".join(p[0].upper() + "." for p in parts)


def count_vowels(text: str, vowels: str = "aeiou") -> int:
    return sum(1 for ch in text.lower() if ch in vowels)


def is_palindrome(text: str, /, strict: bool = False) -> bool:
    cleaned = text if strict else "".join(ch.lower() for ch in text if ch.isalnum())
    return cleaned == cleaned[::-1]
