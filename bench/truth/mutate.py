"""Inject one known error into a correct doc section, one error class at a time.

The mutator reads the doc with its own small rules (not docbot's checker code), so a blind spot of the
checker is not silently shared by the benchmark. It uses the code's facts only to know *what* is true
(which exceptions, parameters and defaults exist); the edits are plain text edits of the doc.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from bench.truth.doctext import entry_span, find_part, longest_part, param_entry, prose_lines
from bench.truth.mutate_examples import example_raises, invented_return, wrong_example_output
from docbot.facts.function import Facts, Parameter

CLASSES = (
    "wrong_exception_type", "misquoted_message", "missing_raise", "invented_parameter", "missing_parameter",
    "wrong_default", "wrong_example_output", "example_raises", "invented_return",
)
_SUBSTITUTES = ("TypeError", "ValueError", "RuntimeError", "KeyError")
_SYNONYMS = {"must": "should", "positive": "greater than zero", "empty": "blank", "not": "never", "is": "was",
             "unknown": "invalid", "be": "stay", "cannot": "could not", "bad": "invalid", "missing": "absent"}
_STRING_SWAPS = {"EUR": "USD", "-": "_", "=": ":", "...": "…", "aeiou": "aeiouy", "value": "number",
                 "c": "k", "f": "c", "w": "a"}


@dataclass(frozen=True)
class Mutation:
    error_class: str
    description: str
    doc: str


def mutations(section: str, facts: Facts) -> Iterator[Mutation]:
    makers: dict[str, Callable[[list[str], Facts], Iterator[tuple[str, list[str]]]]] = {
        "wrong_exception_type": _wrong_exception_type, "misquoted_message": _misquoted_message,
        "missing_raise": _missing_raise, "invented_parameter": _invented_parameter,
        "missing_parameter": _missing_parameter, "wrong_default": _wrong_default,
        "wrong_example_output": wrong_example_output, "example_raises": example_raises,
        "invented_return": invented_return,
    }
    for error_class in CLASSES:
        for description, lines in makers[error_class](section.splitlines(), facts):
            doc = "\n".join(lines) + "\n"
            if doc != section:
                yield Mutation(error_class, description, doc)


# -- the error classes -------------------------------------------------------------------------------


def _wrong_exception_type(lines: list[str], facts: Facts) -> Iterator[tuple[str, list[str]]]:
    raised = {r.type_name for r in facts.raises}
    for name in dict.fromkeys(r.type_name for r in facts.propagated_raises):
        substitute = next(s for s in _SUBSTITUTES if s not in raised and s != name)
        edited = list(lines)
        for index in prose_lines(lines):
            edited[index] = re.sub(rf"(?<![\w.]){re.escape(name)}\b", substitute, edited[index])
        yield f"{name} -> {substitute}", edited


def _misquote(text: str, strategy: int) -> str:
    words = text.split(" ")
    if strategy == 0 and len(words) > 2:
        return " ".join(words[: len(words) // 2] + words[len(words) // 2 + 1 :])  # drop a word
    if strategy == 1:
        for index, word in enumerate(words):
            if word in _SYNONYMS:
                return " ".join(words[:index] + [_SYNONYMS[word]] + words[index + 1 :])
    if strategy == 2 and text[:1].isalpha():
        return (text[0].upper() if text[0].islower() else text[0].lower()) + text[1:]
    return text.rstrip() + "."  # a period the code does not have


def _misquoted_message(lines: list[str], facts: Facts) -> Iterator[tuple[str, list[str]]]:
    for number, raise_ in enumerate(r for r in facts.propagated_raises if r.message):
        part = longest_part(raise_)
        where = next((i for i in prose_lines(lines) if len(part) >= 4 and part in lines[i]), None)
        if where is None:
            continue
        for strategy in range(number % 4, number % 4 + 4):
            changed = _misquote(part, strategy % 4)
            if changed != part:
                break
        edited = list(lines)
        edited[where] = lines[where].replace(part, changed, 1)
        yield f"{part!r} -> {changed!r}", edited


def _missing_raise(lines: list[str], facts: Facts) -> Iterator[tuple[str, list[str]]]:
    propagated = facts.propagated_raises
    for raise_ in propagated:
        alone = sum(r.type_name == raise_.type_name for r in propagated) == 1
        part = longest_part(raise_)
        doomed: set[int] = set()
        for index in prose_lines(lines):
            mentions_message = len(part) >= 4 and part in lines[index]
            mentions_type = alone and re.search(rf"(?<![\w.]){re.escape(raise_.type_name)}\b", lines[index])
            if mentions_message or mentions_type:
                doomed.update(range(*entry_span(lines, index)))
        if doomed:
            edited = [line for i, line in enumerate(lines) if i not in doomed]
            yield f"removed {raise_.type_name} ({part!r})", _drop_empty_raises(edited)


def _drop_empty_raises(lines: list[str]) -> list[str]:
    part = find_part(lines, ("raises",))
    if part is None or any(lines[i].strip() for i in range(*part)):
        return lines
    label = part[0] - 1 if part[0] > 0 and not re.match(r"^\s*[-=]{3,}", lines[part[0] - 1]) else part[0] - 2
    return lines[:label] + lines[part[1] :]


def _invented_parameter(lines: list[str], facts: Facts) -> Iterator[tuple[str, list[str]]]:
    if any(p.kind == "var-keyword" for p in facts.parameters):
        return  # **kwargs accepts any keyword: documenting one is not provably an invention
    fake = next(n for n in ("timeout", "verbose", "strict", "encoding") if not facts.parameter(n))
    params = facts.documentable_parameters
    span = param_entry(lines, params[0].name) if params else None
    if span is not None:
        copy = [re.sub(rf"\b{re.escape(params[0].name)}\b", fake, line, count=1) for line in lines[slice(*span)]]
        yield f"added `{fake}` like `{params[0].name}`", lines[: span[1]] + copy + lines[span[1] :]
        return
    summary_end = next(i for i in range(1, len(lines) + 1) if i == len(lines) or (i > 1 and not lines[i].strip()))
    block = ["", "**Parameters**", "", f"- `{fake}` (`bool`): Print progress while working."]
    yield f"added a Parameters list with `{fake}`", lines[:summary_end] + block + lines[summary_end:]


def _missing_parameter(lines: list[str], facts: Facts) -> Iterator[tuple[str, list[str]]]:
    # A parameter an example passes by keyword (`f(x, years=2)`) is documented by that example: taking
    # its entry out of the list leaves nothing missing.
    passed = {name for line in _example_lines(lines) for name in re.findall(r"[(,]\s*(\w+)\s*=(?!=)", line)}
    for param in facts.documentable_parameters:
        span = param_entry(lines, param.name)
        if span is not None and param.name not in passed:
            yield f"removed `{param.name}`", lines[: span[0]] + lines[span[1] :]


def _example_lines(lines: list[str]) -> list[str]:
    """Code lines that call things: doctest lines and fenced lines, signatures (``def``) left out."""
    found, fenced = [], False
    for line in lines:
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif (fenced or line.lstrip().startswith(">>>")) and not re.match(r"\s*(?:async\s+)?def\s", line):
            found.append(line)
    return found


def _wrong_values(param: Parameter) -> list[tuple[str, str]]:
    """(how the doc may write the default, the same text with a wrong value), most specific first."""
    try:
        value = ast.literal_eval(param.default or "")
    except (ValueError, SyntaxError):
        return []  # a constant's name: no literal to change
    if isinstance(value, bool):
        return [(repr(value), repr(not value))]
    if value is None:
        return [("None", "0")]
    if isinstance(value, int):
        return [(repr(value), repr(value + 1))]
    if isinstance(value, float):
        wrong = value * 2 if value else 1.0
        return [(repr(value), repr(wrong)), (f"{value:g}", f"{wrong:g}")]
    if isinstance(value, str):
        bad = _STRING_SWAPS.get(value, value.upper() if value.upper() != value else value + "x")
        return [(f'"{value}"', f'"{bad}"'), (f"'{value}'", f"'{bad}'"), (value, bad)]
    return []


def _wrong_default(lines: list[str], facts: Facts) -> Iterator[tuple[str, list[str]]]:
    for param in facts.documentable_parameters:
        span = param_entry(lines, param.name)
        if span is None:
            continue
        edit = _first_default_edit(lines, span, _wrong_values(param))
        if edit is not None:
            index, new_line, description = edit
            yield f"`{param.name}` default {description}", lines[:index] + [new_line] + lines[index + 1 :]


def _first_default_edit(lines: list[str], span: tuple[int, int],
                        pairs: list[tuple[str, str]]) -> tuple[int, str, str] | None:
    for index in range(*span):
        for form, wrong in pairs:
            # In backticks, after the word "default", or alone in a table cell.
            pattern = (rf"`{re.escape(form)}`|(?i:default)s?(?: to| is|:|=)?\s*{re.escape(form)}(?![\w.])"
                       rf"|\|\s*{re.escape(form)}\s*\|")
            match = re.search(pattern, lines[index])
            if match:
                new = match.group(0).replace(form, wrong)
                return index, lines[index][: match.start()] + new + lines[index][match.end() :], f"{form} -> {wrong}"
    return None
