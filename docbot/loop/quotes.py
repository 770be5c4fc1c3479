"""The critic's fatal claims must quote the doc they are about.

A fatal claim holds the gate shut, so it must point at text that is really on the rendered page. A
claim whose quotes are all absent (a weak critic inventing "the doc says X"), or that quotes nothing,
is demoted to an ordinary issue: it still reaches the reviser, it no longer blocks approval.
Quotes and page are compared as readable text: whitespace, case, Markdown escapes, character
references, tags, backticks and emphasis marks do not matter.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from docbot.mdtext import plain

__all__ = ["Claim", "ClaimVerdict", "MIN_QUOTE", "quoted_claims_hold"]

MIN_QUOTE = 3  # characters: a one-letter "quote" appears on every page and proves nothing

# "double", “curly”, `code`, and 'single' when the quotes are not apostrophes inside words.
_QUOTES = re.compile(r'"(?P<double>[^"]+)"|“(?P<curly>[^”]+)”|(?P<ticks>`+)(?P<code>.+?)(?P=ticks)'
                     r"|(?<!\w)'(?P<single>[^'\n]+)'(?!\w)", re.DOTALL)


@dataclass(frozen=True)
class Claim:
    text: str  # the claim as the critic wrote it
    quotes: tuple[str, ...]  # the doc text it says it is about

    @classmethod
    def from_text(cls, text: str) -> Claim:
        """A claim whose quotes are the quoted spans of its own text."""
        groups = ("double", "curly", "code", "single")
        found = tuple(next(m[g] for g in groups if m[g]) for m in _QUOTES.finditer(text))
        return cls(text, found)


@dataclass(frozen=True)
class ClaimVerdict:
    fatal: tuple[str, ...]  # claims that quote text present on the page: they block approval
    ordinary: tuple[str, ...]  # the others: issues for the reviser, never blocking


def _normal(text: str) -> str:
    return " ".join(plain(text).split()).casefold()


def quoted_claims_hold(claims: Sequence[str | Claim], rendered_page: str) -> ClaimVerdict:
    """Split fatal claims into those that quote the page (kept fatal) and the rest (ordinary)."""
    page = _normal(rendered_page)
    fatal: list[str] = []
    ordinary: list[str] = []
    for claim in claims:
        parsed = claim if isinstance(claim, Claim) else Claim.from_text(claim)
        quotes = [_normal(quote) for quote in parsed.quotes]
        holds = any(len(quote) >= MIN_QUOTE and quote in page for quote in quotes)
        (fatal if holds else ordinary).append(parsed.text)
    return ClaimVerdict(tuple(fatal), tuple(ordinary))
