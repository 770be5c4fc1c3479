"""Mutations of examples and returns: a wrong stated output, a call that must raise, an invented return."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from bench.truth.doctext import LABEL, find_part, in_code, prose_lines
from docbot.facts.function import Facts


def _stated_outputs(lines: list[str]) -> list[tuple[int, int, int]]:
    """(line, start, end) of each stated output: doctest wants, `# ->`-style markers, output blocks."""
    code = in_code(lines)
    found = []
    in_traceback = False
    for index, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(">>>"):
            in_traceback = False
            marker = None
        else:
            marker = re.search(r"#\s*(?:->|Output:|returns)\s*(.+)$", line)
        if marker and code[index]:
            found.append((index, marker.start(1), marker.end(1)))
        elif code[index] and stripped and not stripped.startswith(("```", "~~~", ">>>", "...")) and index > 0 \
                and _follows_prompt(lines, index):
            in_traceback = in_traceback or stripped.startswith("Traceback")
            if not in_traceback:
                found.append((index, len(line) - len(line.lstrip()), len(line)))
    return found


def _follows_prompt(lines: list[str], index: int) -> bool:
    """Whether a code line is output: a doctest want, or inside a block that is not Python."""
    back = index - 1
    while back >= 0 and not lines[back].lstrip().startswith(("```", "~~~", ">>>")):
        back -= 1
    if back < 0:
        return False
    opener = lines[back].strip()
    if opener.startswith(">>>"):
        return True
    return opener.startswith(("```", "~~~")) and opener.strip("`~ ").lower() in ("", "text", "output") and (
        not re.search(r"\w+\(", lines[index]))


def _perturb(text: str) -> str:
    if text.strip() in ("True", "False"):
        return text.replace(text.strip(), "False" if text.strip() == "True" else "True")
    for index in range(len(text) - 1, -1, -1):
        char = text[index]
        if char.isdigit():
            return text[:index] + str((int(char) + 1) % 10) + text[index + 1 :]
        if char.isalpha():
            shifted = chr((ord(char.lower()) - 97 + 1) % 26 + 97)
            return text[:index] + (shifted.upper() if char.isupper() else shifted) + text[index + 1 :]
    return text + "!"


def wrong_example_output(lines: list[str], facts: Facts) -> Iterator[tuple[str, list[str]]]:
    for line, start, end in _stated_outputs(lines)[:3]:
        stated = lines[line][start:end]
        edited = list(lines)
        edited[line] = lines[line][:start] + _perturb(stated) + lines[line][end:]
        yield f"output {stated!r} -> {_perturb(stated)!r}", edited


def example_raises(lines: list[str], facts: Facts) -> Iterator[tuple[str, list[str]]]:
    callee = facts.qualname.split(".")[-2] if facts.name == "__init__" else facts.name
    outputs = {line for line, _s, _e in _stated_outputs(lines)}
    produced = 0
    for index, line in enumerate(lines):
        stated = index + 1 in outputs and line.lstrip().startswith(">>>") or (
            index in outputs and "#" in line)
        if not stated or facts.kind == "property" or produced >= 2:
            continue
        broken = _break_call(line, callee, facts)
        if broken is not None:
            produced += 1
            edited = list(lines)
            edited[index] = broken
            yield f"call made to raise TypeError: {broken.strip()}", edited


def _break_call(line: str, callee: str, facts: Facts) -> str | None:
    """Edit the call so Python's own argument binding must raise TypeError."""
    code = line.split("#")[0].strip().removeprefix(">>>").strip()
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    call = next((n for n in ast.walk(tree) if isinstance(n, ast.Call) and (
        getattr(n.func, "id", None) == callee or getattr(n.func, "attr", None) == callee)), None)
    kinds = {p.kind for p in facts.parameters}
    if call is None or call.end_col_offset is None:
        return None
    if call.keywords and call.keywords[0].arg and "var-keyword" not in kinds:
        name = call.keywords[0].arg
        return line.replace(f"{name}=", f"{name}s=", 1)  # a keyword the function does not take
    if "var-positional" in kinds:
        return None  # any number of positionals binds: no edit that must fail
    positional = [p for p in facts.documentable_parameters if p.kind in ("positional", "positional-only")]
    extra = ["None"] * max(1, len(positional) + 1 - len(call.args))  # one more than it takes
    offset = line.index(code)
    if call.args:  # right after the last positional argument, before any keyword
        at, added = offset + (call.args[-1].end_col_offset or 0), ", " + ", ".join(extra)
    else:
        at = offset + (call.func.end_col_offset or 0) + 1  # just inside the parenthesis
        added = ", ".join(extra) + (", " if call.keywords else "")
    return line[:at] + added + line[at:]


def invented_return(lines: list[str], facts: Facts) -> Iterator[tuple[str, list[str]]]:
    if facts.returns_value or facts.return_annotation not in (None, "None"):
        return
    claim = "`int` — the number of items affected."
    part = find_part(lines, ("returns", "return"))
    if part is not None:
        start, end = part
        body = [line for line in lines[start:end] if line.strip()]
        if body:
            first = lines.index(body[0], start)
            label_inline = LABEL.match(lines[first]) is not None
            new = (re.sub(r"(:\s*).*$", rf"\1{claim}", lines[first]) if label_inline else claim)
            yield "Returns part now describes an int", lines[:first] + [new] + lines[first + 1 : end] + lines[end:]
    else:
        target = find_part(lines, ("raises", "examples", "example")) or (len(lines), len(lines))
        label = target[0] - 1 if target[0] < len(lines) else len(lines)
        while label > 0 and re.match(r"^\s*[-=]{3,}\s*$", lines[label]):
            label -= 1
        yield "added a Returns part", lines[:label] + ["**Returns**", "", claim, ""] + lines[label:]
    summary = next(i for i in prose_lines(lines) if lines[i].strip())
    yield "summary says it returns a value", (
        lines[:summary] + [lines[summary].rstrip() + " Returns the updated total as a `float`."] + lines[summary + 1 :])
