"""The claim reader: what a doc states about the API, as typed claims about one resolved object each
(docs/design.md#claims).

Every statement of a doc (docbot.verify.read.claim_units: a sentence, a list item, a table row, a definition, a
signature line; of a Markdown page, an RST page, or a doc model's prose fields) yields the claims it makes
(docbot.verify.read.claim_statements): the object takes parameter P, P defaults to V, P has type T, it raises E,
it returns a T or the value V, a name exists. A claim is about one API object, its *subject*, found in this
order: the name the syntax ties it to (a signature's own name, "`f()` raises", "`connect(timeout=...)`"), the
one API name the statement writes, the signature directive whose body it is in, the term, the sentence that
introduced its list or table, its heading, and last the passage's own subject (a README section whose examples
use exactly one function: the caller knows). Precision first: **a claim whose subject does not resolve to exactly
one object is not made**. A statement naming two API objects, or a callable the resolver does not know (another
library's), makes no claim unless its syntax says which it is about.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from docbot.verify.read.claim_patterns import Kind, call_names, parse_signature
from docbot.verify.read.claim_statements import statements
from docbot.verify.read.claim_units import Form, Unit, markdown_units, rst_units

__all__ = ["Claim", "Kind", "Passage", "Resolver", "markdown_claims", "read_claims", "rst_claims"]

# a sentence whose subject is left out, as a docstring's are: "Raises X if ...", "Returns a list."
_BARE_VERB = re.compile(r"(?:Raises|Throws|Returns|Yields)\b")
_EXCEPTION_NAME = re.compile(r"(?:Error|Exception|Warning|Exit|Interrupt|Iteration|Failure|Fault|Timeout)$")


class Resolver(Protocol):
    """Where the written names of a doc lead: the caller's API (a project's package, a source file, one function)."""

    def subject(self, written: str) -> str | None:
        """The key of the one callable ``written`` names (``f``, ``pkg.f``, ``Class`` for its ``__init__``,
        ``Class.method``); None when it names none, or more than one."""

    def missing(self, written: str) -> bool:
        """True only when the API is known not to have ``written`` (a dotted name); False when it has it or
        cannot tell."""


Passage = Callable[[int], "str | None"]  # the subject of the passage holding a doc line, where the caller knows one


def no_passage(_line: int) -> str | None:
    return None


@dataclass(frozen=True)
class Claim:
    kind: Kind
    subject: str  # the resolved object's key
    text: str  # the statement that makes it
    line: int  # 0-based line of the doc
    form: Form
    parameter: str = ""  # TAKES, DEFAULT, TYPE
    value: str = ""  # DEFAULT: its text; TYPE, RETURNS_TYPE: type words "a|b"; RAISES: the exception; EXISTS: the name
    explicit: bool = False  # TAKES: the doc says it is a parameter (an invented one is then a contradiction)


def read_claims(units: Sequence[Unit], resolver: Resolver, passage: Passage = no_passage,
                one: bool = False) -> list[Claim]:
    """The claims of ``units`` whose subject resolves to exactly one object. ``one``: the doc is about the passage's
    object alone (one function's page or docstring), where a sentence of prose that opens with a bare verb and
    names nothing ("Raises `KeyError` if ...", "Returns a list.") is about that object, as docstrings write it,
    whatever the sentence before it names."""
    found: dict[tuple[object, ...], Claim] = {}
    for unit in units:
        said = statements(unit)
        # A name the statement uses as a parameter ("| `timeout` | ... |", "`verbose` defaults to ...") is the
        # parameter, never the object it is about, even where the package has a function of that name too.
        own = _subject(unit, resolver, passage, one, frozenset(s.parameter for s in said if s.parameter))
        for stated in said:
            subject = resolver.subject(stated.bound) if stated.bound else own
            if subject is None:
                continue
            claim = Claim(stated.kind, subject, unit.text, unit.line, unit.form, stated.parameter, stated.value,
                          stated.explicit)
            key = (claim.kind, claim.subject, claim.parameter, claim.value, claim.line)
            if key not in found or claim.explicit and not found[key].explicit:
                found[key] = claim
        found.update({(Kind.EXISTS, name, unit.line): Claim(Kind.EXISTS, name, unit.text, unit.line, unit.form,
                                                              value=name) for name in _missing(unit, resolver)})
    return list(found.values())


def markdown_claims(markdown: str, resolver: Resolver, passage: Passage = no_passage,
                    one: bool = False) -> list[Claim]:
    return read_claims(markdown_units(markdown), resolver, passage, one)


def rst_claims(text: str, resolver: Resolver, passage: Passage = no_passage) -> list[Claim]:
    return read_claims(rst_units(text), resolver, passage)


def _names(text: str) -> list[str]:
    return [name for name, _offset in call_names(text)]


def _callable_looking(text: str) -> list[str]:
    """Names written as calls or dotted paths: the API objects (ours or not) a statement may be about."""
    return [n for n, offset in call_names(text) if "." in n or text[offset:].lstrip("`~").startswith(f"{n}(")
            or text[offset + len(n) + 1 :].startswith("()")]


def _resolved(text: str, resolver: Resolver, parameters: frozenset[str] = frozenset()) -> tuple[set[str], bool]:
    """(the keys the text's names resolve to, whether it writes a callable that resolves to none). An exception's
    name is what a statement says is raised, never what it is about ("raises `ValidationError` on failure"); a
    bare name in ``parameters`` is what the statement says is taken."""
    calls = _callable_looking(text)
    subjects = {n: resolver.subject(n) for n in _names(text)
                if not _EXCEPTION_NAME.search(n) and (n not in parameters or n in calls)}
    keys = {key for key in subjects.values() if key is not None}
    foreign = any(name in subjects and subjects[name] is None for name in calls)
    return keys, foreign


def _subject(unit: Unit, resolver: Resolver, passage: Passage, one: bool = False,
             parameters: frozenset[str] = frozenset()) -> str | None:
    """The one object a statement is about, when nothing in its syntax says (module docstring's order);
    ``parameters``: the names the statement says are taken, which are not what it is about."""
    if unit.form is Form.SIGNATURE:
        signature = parse_signature(unit.text)
        return resolver.subject(signature.name) if signature else None
    if unit.subject:
        signature = parse_signature(unit.subject)
        return resolver.subject(signature.name if signature else unit.subject.split("(")[0].strip())
    keys, foreign = _resolved(unit.text, resolver, parameters)
    if keys or foreign:
        return keys.pop() if len(keys) == 1 and not foreign else None
    if one and unit.form is Form.PROSE and _BARE_VERB.match(unit.text):
        return passage(unit.line)  # "See also `g()`. Raises KeyError if ...": the docstring's own function
    for context in (unit.term, unit.lead, unit.heading):
        keys, foreign = _resolved(context, resolver, parameters)
        if keys or foreign:
            return keys.pop() if len(keys) == 1 and not foreign else None
    return passage(unit.line)


def _missing(unit: Unit, resolver: Resolver) -> list[str]:
    """The dotted names the statement writes in code that the API is known not to have."""
    if unit.form is Form.SIGNATURE:
        return []
    written = [name + "()" if name in _callable_looking(unit.text) and f"{name}(" in unit.text else name
               for name in _names(unit.text)]
    return [bare for name in dict.fromkeys(written) if "." in (bare := name.removesuffix("()"))
            and resolver.missing(name)]
