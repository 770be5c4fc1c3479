"""What a person's docstring says that a new one must keep (docs/design.md#docstrings, "do no harm").

Approval says the new doc is true; it does not say it kept what the person wrote. So before an approved doc
replaces a person's docstring, each fact of the old one is looked for in the new: each documented exception
(by its name), each example (each of its ``>>>`` lines), each directive (as written), and the docstring's style
(Google, NumPy or reST sections). A fact that is no longer true is not owed: an exception nothing the function
reaches can raise any more (docbot.verify.checks.reach). Any other fact the new docstring drops makes it a
suggestion, not a write; the report lists what was kept and what would have been dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from docbot.docstrings.existing import directives, seed_model
from docbot.docstrings.text import DocstringStyle
from docbot.verify.checks.reach import CodeBase, may_raise

__all__ = ["Fact", "FactKind", "dropped", "facts_of"]

_STYLE_MARKS = {
    DocstringStyle.NUMPY: re.compile(r"^[ \t]*(?:Parameters|Returns|Yields|Raises|Examples)[ \t]*\n[ \t]*-{3,}", re.M),
    DocstringStyle.GOOGLE: re.compile(r"^[ \t]*(?:Args|Arguments|Returns|Yields|Raises|Examples?):[ \t]*$", re.M),
    DocstringStyle.REST: re.compile(r"^[ \t]*:(?:param|returns?|rtype|raises?)\b[^:\n]*:", re.M),
}


class FactKind(Enum):
    RAISE = "raise"
    EXAMPLE = "example"
    DIRECTIVE = "directive"
    STYLE = "style"


@dataclass(frozen=True)
class Fact:
    kind: FactKind
    text: str  # the exception's name, the example's first line, the directive, the style's name
    kept: bool  # the new docstring has it
    true: bool  # still true of the code (only an exception can stop being one)

    def describe(self) -> str:
        state = "kept" if self.kept else "dropped" if self.true else "dropped (no longer true)"
        return f"{self.kind.value} {self.text}: {state}"


def style_of(doc: str) -> DocstringStyle | None:
    """The style a docstring's sections are in; None for plain prose (no sections: no style to keep)."""
    counts = {style: len(pattern.findall(doc)) for style, pattern in _STYLE_MARKS.items()}
    best = max(counts.values())
    return next(s for s, n in counts.items() if n == best) if best else None


def facts_of(before: str, after: str, code: tuple[CodeBase, str, str] | None = None) -> list[Fact]:
    """Each fact of the person's docstring ``before``, and whether ``after`` keeps it. ``code``: (the code base, the
    function's module, its qualname), where its exceptions are held to its reach; None: all are taken as true."""
    found: list[Fact] = []
    model = seed_model(before)
    names = [r.type.strip() for r in model.raises if r.type.strip()] if model else []
    names += [m for m in re.findall(r"\b[Rr]aises?\s+:?(?:exc:)?`{0,2}([A-Z]\w*(?:Error|Exception|Warning))", before)
              if m not in names]
    for name in dict.fromkeys(names):
        true = code is None or may_raise(code[0], code[1], code[2], name) is not False
        found.append(Fact(FactKind.RAISE, name, _names(after, name.rsplit(".", 1)[-1]), true))
    for example in _examples(before):
        found.append(Fact(FactKind.EXAMPLE, example[0], all(_has_line(after, line) for line in example), True))
    for directive in directives(before):
        found.append(Fact(FactKind.DIRECTIVE, directive.split("\n", 1)[0], directive.strip() in after, True))
    style = style_of(before)
    if style is not None:
        found.append(Fact(FactKind.STYLE, style.value, style_of(after) in (style, None), True))
    return found


def dropped(facts: list[Fact]) -> list[Fact]:
    """The facts still true that the new docstring would lose."""
    return [f for f in facts if f.true and not f.kept]


def _names(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(name)}\b", text) is not None


def _examples(doc: str) -> list[list[str]]:
    """Each doctest example's ``>>>`` and ``...`` lines (prompts off, spaces normalised)."""
    found: list[list[str]] = []
    for line in doc.split("\n"):
        stripped = line.strip()
        if stripped.startswith(">>> "):
            found.append([_normal(stripped[4:])])
        elif stripped.startswith("... ") and found:
            found[-1].append(_normal(stripped[4:]))
    return found


def _normal(line: str) -> str:
    return " ".join(line.split())


def _has_line(doc: str, line: str) -> bool:
    return any(_normal(candidate.strip().removeprefix(">>> ").removeprefix("... ")) == line
               for candidate in doc.split("\n"))
