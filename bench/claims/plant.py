"""Single planted prose edits in published docs: each states one thing the code makes false (bench/claims/README.md).

The planter reads the doc with its own small rules (where a callable is first written, where its paragraph ends),
never docbot's reader, and takes what is true from the probe (bench.claims.probe: the package imported and
inspected). Each edit is one statement about one callable the doc already uses, in one form: a sentence, a table
row, a definition-list item, a bullet, or a signature line; in the doc's own markup (Markdown or RST). The
phrasings were written before any result was read, several per class, natural ones docbot's patterns may not know
among them; the oracle (bench.claims.oracle) then checks by importing the code that each is false.
"""

from __future__ import annotations

import ast
import re
from dataclasses import asdict, dataclass
from typing import Any

CLASSES = ("default.prose", "default.table", "default.bullet", "default.definition", "default.signature",
           "default.edited", "parameter.prose", "parameter.table", "parameter.bullet", "parameter.signature",
           "type.prose", "type.table", "type.definition", "type.signature", "return_type.prose",
           "return_type.signature", "return_value.prose", "exception.prose", "exception.bullet", "name.prose")
_PER_DOC = 2  # plants of one class in one doc at most: the corpus's docs weigh alike
_WRONG_TYPES = {"int": "dict", "float": "list", "str": "dict", "bool": "list", "bytes": "dict", "list": "str",
                "dict": "str", "tuple": "str", "set": "str", "none": "list"}
_WORD = {"dict": "dictionary", "list": "list", "str": "string", "int": "integer", "float": "float", "bool": "boolean",
         "tuple": "tuple", "bytes": "bytes"}
_EXCEPTIONS = ("FileNotFoundError", "PermissionError", "IsADirectoryError", "ConnectionRefusedError")
_INVENTED = ("max_retries", "verbose_output", "encoding_name", "strict_mode", "chunk_limit")


@dataclass(frozen=True)
class Plant:
    id: str
    package: str
    doc: str
    cls: str
    markup: str  # "md" or "rst"
    written: str  # the callable as the doc writes it
    module: str  # where it is defined (pair mode checks the doc against that file)
    text: str  # the planted lines
    at: int  # 0-based line: inserted before it (or the line replaced, for an edit)
    replaces: int  # lines replaced (0: an insertion)
    oracle: dict[str, Any]

    def apply(self, doc: str) -> str:
        lines = doc.split("\n")
        return "\n".join(lines[: self.at] + self.text.split("\n") + lines[self.at + self.replaces :])

    def span(self) -> tuple[int, int]:
        """The 0-based lines the plant occupies in the planted doc."""
        return self.at, self.at + len(self.text.split("\n"))

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _code(text: str, markup: str) -> str:
    return f"``{text}``" if markup == "rst" else f"`{text}`"


def insertion_line(doc: str, written: str) -> int | None:
    """The line after the block where ``written(`` first appears: past its paragraph, fence or indented block."""
    lines = doc.split("\n")
    first = next((i for i, line in enumerate(lines) if f"{written}(" in line), None)
    if first is None:
        return None
    fenced = False
    for index, line in enumerate(lines):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        if index < first:
            continue
        nxt = lines[index + 1] if index + 1 < len(lines) else ""
        if not fenced and not line.strip() and (not nxt.strip() or not nxt[:1].isspace()):
            return index + 1
    return len(lines)


def _sentence(cls: str, n: int, c: dict[str, str], markup: str) -> str:
    """One sentence of the class, its phrasing chosen by ``n`` (the templates are the list below)."""
    k = lambda text: _code(text, markup)  # noqa: E731 - the templates read better with a short name
    f, p, v, q, t, e = (c.get(x, "") for x in ("f", "p", "v", "q", "t", "e"))
    options = {
        "default.prose": [f"The {k(p)} argument of {k(f + '()')} defaults to {k(v)}.",
                          f"By default, {k(p)} is {k(v)} when you call {k(f + '()')}.",
                          f"{k(f + '()')} uses {k(f'{p}={v}')} by default.",
                          f"If you leave it out, {k(f + '()')} sets {k(p)} to {k(v)}.",
                          f"When calling {k(f + '()')}, {k(p)} is optional and defaults to {v}."],
        "parameter.prose": [f"{k(f + '()')} also accepts a {k(q)} argument.",
                            f"Pass {k(q + '=True')} to {k(f + '()')} to turn this on.",
                            f"The {k(q)} parameter of {k(f + '()')} limits the work done.",
                            f"{k(f + '()')} takes an optional {k(q)} keyword argument."],
        "type.prose": [f"The {k(p)} argument of {k(f + '()')} must be a {t}.",
                       f"{k(f + '()')} expects {k(p)} to be a {t}.",
                       f"When calling {k(f + '()')}, {k(p)} is a {t}."],
        "return_type.prose": [f"{k(f + '()')} returns a {t}.", f"Calling {k(f + '()')} gives back a {t}.",
                              f"The result of {k(f + '()')} is a {t}.", f"{k(f + '()')} always returns a {t}."],
        "return_value.prose": [f"{k(f + '()')} returns {k(v)} when nothing matches.",
                               f"On failure, {k(f + '()')} returns {k(v)}.",
                               f"{k(f + '()')} returns {k(v)} if the input is empty."],
        "exception.prose": [f"{k(f + '()')} raises {k(e)} if the file cannot be read.",
                            f"If the path does not exist, {k(f + '()')} raises {k(e)}.",
                            f"A {k(e)} is raised by {k(f + '()')} when the connection fails.",
                            f"Be ready to catch {k(e)}: {k(f + '()')} throws it when the disk is full."],
        "name.prose": [f"See {k(q + '()')} for the batch form.", f"{k(q + '()')} does the same for many inputs.",
                       f"For streams, use {k(q + '()')} instead."],
    }
    found = options[cls]
    return found[n % len(found)]


def _table(rows: list[tuple[str, str, str]], head: tuple[str, str, str], markup: str) -> str:
    if markup == "md":
        body = [f"| {a} | {b} | {c} |" for a, b, c in rows]
        return "\n".join([f"| {head[0]} | {head[1]} | {head[2]} |", "| --- | --- | --- |", *body])
    out = [".. list-table::", "   :header-rows: 1", ""]
    for row in [head, *rows]:
        out += [f"   * - {row[0]}", f"     - {row[1]}", f"     - {row[2]}"]
    return "\n".join(out)


def _lead(f: str, markup: str) -> str:
    return f"{_code(f + '()', markup)} takes these arguments:"


def structured(cls: str, c: dict[str, str], markup: str, other: dict[str, str] | None) -> str:
    """A table, a bullet list, a definition list or a signature line about ``c['f']`` with the one false item."""
    k = lambda text: _code(text, markup)  # noqa: E731
    f, p, v, q, t = (c.get(x, "") for x in ("f", "p", "v", "q", "t"))
    name = q if cls.startswith("parameter") else p
    true_row = (k(other["p"]), k(other["v"]), "as the code has it") if other else None
    if cls in ("default.table", "parameter.table"):
        rows = [(k(name), k(v) if v else "", "the setting it controls")] + ([true_row] if true_row else [])
        return _lead(f, markup) + "\n\n" + _table(rows, ("Argument", "Default", "Description"), markup)
    if cls == "type.table":
        return _lead(f, markup) + "\n\n" + _table([(k(p), k(t), "the value to use")], ("Argument", "Type",
                                                                                       "Description"), markup)
    if cls in ("default.bullet", "parameter.bullet"):
        item = f"- {k(name)} (default: {k(v)}): the setting it controls" if v else f"- {k(name)}: an option"
        return _lead(f, markup) + "\n\n" + item
    if cls == "default.definition":
        if markup == "rst":
            return _lead(f, markup) + f"\n\n{k(p)}\n    Defaults to {k(v)}."
        return _lead(f, markup) + f"\n\n{k(p)}\n: Defaults to {k(v)}."
    if cls == "type.definition":
        if markup == "rst":
            return _lead(f, markup) + f"\n\n{k(p)} : {t}\n    The value to use."
        return _lead(f, markup) + f"\n\n{k(p)} ({t})\n: The value to use."
    if cls == "exception.bullet":
        return f"{k(f + '()')} raises:\n\n- {k(c['e'])}: when the file cannot be opened"
    raise ValueError(cls)


def signature_line(f: str, params: list[str], returns: str, markup: str) -> str:
    text = f"{f}({', '.join(params)})" + (f" -> {returns}" if returns else "")
    return f".. function:: {text}" if markup == "rst" else f"```python\ndef {text}\n```"


def _literal_other(default: str) -> str | None:
    """A literal of the same kind as ``default`` that differs from it."""
    try:
        value = ast.literal_eval(default)
    except (ValueError, SyntaxError):
        return None
    if isinstance(value, bool):
        return repr(not value)
    if isinstance(value, int):
        return repr(value * 2 + 3)
    if isinstance(value, float):
        return repr(value * 2 + 1.5)
    if isinstance(value, str):
        return repr(value + "_x" if value else "auto")
    return None


def _signature_params(params: list[dict[str, Any]], change: dict[str, str]) -> list[str]:
    out = []
    for param in params:
        name = param["name"]
        star = {"VAR_POSITIONAL": "*", "VAR_KEYWORD": "**"}.get(param["kind"], "")
        if star:
            out.append(star + name)
        elif name in change:
            out.append(f"{name}={change[name]}")
        elif param["default"] is not None:
            out.append(f"{name}={param['default']}")
        else:
            out.append(name if not param["has_default"] else f"{name}=...")
    return out


def edited_defaults(doc: str, written: str, params: list[dict[str, Any]]) -> list[tuple[int, str, str, str]]:
    """(line, new line, parameter, new value) for each signature-like line of the doc that states a true default
    of ``written`` (a heading, a ``def`` line, a directive, a code span of the call's signature)."""
    found = []
    for index, line in enumerate(doc.split("\n")):
        if f"{written.rsplit('.', 1)[-1]}(" not in line or ">>>" in line:
            continue
        if not re.search(r"^\s*(?:#+\s|\.\.\s+(?:py:)?\w+::|def\s)|``?[\w.]+\(", line):
            continue
        for param in params:
            if param["default"] is None:
                continue
            pattern = re.compile(rf"\b{re.escape(param['name'])}\s*=\s*{re.escape(param['default'])}(?=[,)\s])")
            other = _literal_other(param["default"])
            if other and pattern.search(line):
                found.append((index, pattern.sub(f"{param['name']}={other}", line, count=1), param["name"], other))
                break
    return found


def invented(params: list[dict[str, Any]], n: int) -> str:
    names = {p["name"] for p in params}
    return next(q for q in (_INVENTED[(n + i) % len(_INVENTED)] for i in range(len(_INVENTED))) if q not in names)


def wrong_type(types: list[str]) -> str | None:
    wanted = [_WRONG_TYPES[t] for t in types if t in _WRONG_TYPES]
    choice = next((w for w in wanted if w not in types and not (w == "list" and "tuple" in types)), None)
    return choice
