"""The benchmark mutator's own small Markdown reading: code lines, labelled parts, entries.

Deliberately separate from docbot's checker, so a blind spot of the checker is not shared by the
benchmark that measures it.
"""

from __future__ import annotations

import re

from docbot.facts.function import Raise

LABEL = re.compile(
    r"^\s*(?:#{1,6}\s*|\*\*|__)?`?(Parameters|Params|Args|Arguments|Returns?|Yields?|Raises|Examples?|Signature)"
    r"\b`?(?:\*\*|__)?\s*:?\s*(?:\*\*)?\s*$|^\s*(?:\*\*)?(Returns?|Raises|Args|Yields?)(?:\*\*)?:\s*\S",
    re.IGNORECASE,
)


def in_code(lines: list[str]) -> list[bool]:
    """Fenced lines, and unfenced doctest paragraphs (from a ``>>>`` line to the next blank line)."""
    flags, inside, doctest = [], False, False
    for line in lines:
        fence = line.lstrip().startswith(("```", "~~~"))
        doctest = not inside and (line.lstrip().startswith(">>>") or (doctest and bool(line.strip())))
        flags.append(inside or fence or doctest)
        if fence:
            inside = not inside
    return flags


def is_label(line: str, next_line: str = "") -> bool:
    if line.lstrip().startswith("#"):
        return True
    return bool(LABEL.match(line)) or bool(re.match(r"^\s*[-=]{3,}\s*$", next_line) and line.strip())


def find_part(lines: list[str], names: tuple[str, ...]) -> tuple[int, int] | None:
    """(first content line, end) of the part whose label is one of ``names``."""
    code = in_code(lines)
    for index, line in enumerate(lines):
        match = LABEL.match(line)
        label = match and (match.group(1) or match.group(2) or "").lower()
        if code[index] or not label or label not in names:
            continue
        start = index + 1
        if start < len(lines) and re.match(r"^\s*[-=]{3,}\s*$", lines[start]):
            start += 1  # numpy underline
        end = start
        while end < len(lines) and not (not code[end] and end > start and is_label(
                lines[end], lines[end + 1] if end + 1 < len(lines) else "")):
            end += 1
        return (index if label and match and match.group(2) else start), end
    return None


def entry_span(lines: list[str], start: int) -> tuple[int, int]:
    """An entry and its continuation lines (indented deeper, or wrapped bullet text)."""
    if lines[start].lstrip().startswith("|"):
        return start, start + 1
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = start + 1
    while end < len(lines) and lines[end].strip() and len(lines[end]) - len(lines[end].lstrip()) > indent:
        end += 1
    return start, end


def param_entry(lines: list[str], name: str) -> tuple[int, int] | None:
    part = find_part(lines, ("parameters", "params", "args", "arguments"))
    if part is None:
        return None
    word = re.escape(name)
    patterns = (rf"^\s*\|\s*[`*\\]*{word}[`*]*\s*\|", rf"^\s*[-*+]\s+[`*\\]*{word}\b",
                rf"^\s*[`*\\]*{word}[`*]*\s*(?:\(|:|—|–|-|$)")
    for index in range(*part):
        if any(re.match(p, lines[index]) for p in patterns):
            return entry_span(lines, index)
    return None


def prose_lines(lines: list[str]) -> list[int]:
    code = in_code(lines)
    return [i for i, line in enumerate(lines) if not code[i] and not line.lstrip().startswith("#")]


def longest_part(raise_: Raise) -> str:
    parts = raise_.parts or ((raise_.message,) if raise_.message else ())
    return max(parts, key=len) if parts else ""
