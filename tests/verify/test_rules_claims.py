"""What reads as a claim: return clauses whose subject is not the function, a misquoted exception message,
and the shortest quote a fatal critic claim may rest on (issue 23, item 6). Each row fails on a one-line bug.
"""

from __future__ import annotations

import pytest

from docbot.verify.checks.page import check_doc
from docbot.loop.quotes import Claim, quoted_claims_hold
from docbot.verify.checks.returns import return_type_claims

# A return clause speaks of the function only when the function is its subject (docbot.verify.checks.returns).
TYPE_CLAIMS = [
    ("The header, which is returned as a list, is cached.", []),
    ("The rows, that is returned as a list, are cached.", []),
    ("The result is returned as a list.", ["list"]),
    ("A callback that returns a list.", []),
    ("Pass a parser, which returns a dict.", []),
    ("It returns a dict.", ["dict"]),
    ("This function returns a str.", ["str"]),
    ("`parse()` returns a dict.", ["dict"]),  # the function, by name
    ("`other()` returns a dict.", []),  # another function
    ("The callback function returns a list.", []),
]


@pytest.mark.parametrize("sentence, words", TYPE_CLAIMS)
def test_a_return_type_clause_is_a_claim_only_about_the_function(sentence: str, words: list[str]) -> None:
    assert [word for word, _text in return_type_claims(sentence, "parse")] == words


REGISTER = "def register(callback):\n    HANDLERS.append(callback)\n"


@pytest.mark.parametrize("sentence, invented", [
    ("Registers a callback that returns a list.", False),
    ("Registers a callback, which returns a list.", False),
    ("Registers the header, which is returned as a list later.", False),
    ("Registers a callback. It returns a list.", True),
    ("Registers a callback and returns a list.", True),
])
def test_a_relative_clause_is_no_invented_return(sentence: str, invented: bool) -> None:
    doc = f"## `register`\n\n{sentence}\n\n- `callback`: what to call\n"
    kinds = [f.check.value for f in check_doc(doc, REGISTER, "register")]
    assert ("invented_return" in kinds) is invented


# A quoted message that is not the code's is a contradiction when every message of that type is known, or
# when it is a near-copy (>= 0.8 alike) of a known one; otherwise (a message built at run time may be the one
# quoted) the doc is only told it does not quote the known one (docbot.verify.checks.raises).
ALL_KNOWN = ('def set_rate(rate):\n    if rate < 0:\n        raise ValueError("rate must be non-negative")\n'
             '    return rate\n')
ONE_BUILT = ('def set_rate(rate, name):\n    if rate < 0:\n        raise ValueError("rate must be non-negative")\n'
             '    if not name:\n        raise ValueError(make_message(name))\n    return rate\n')


@pytest.mark.parametrize("source, quote, expected", [
    (ALL_KNOWN, "rate must be non-negative", []),
    (ALL_KNOWN, "the rate is out of range", ["misquoted_message"]),  # unlike, but the only message there is
    (ALL_KNOWN, "rate must be positive", ["misquoted_message"]),
    (ONE_BUILT, "rate must not be negative", ["misquoted_message"]),  # a near-copy (0.84) of the known one
    (ONE_BUILT, "rate must be positive", ["message_not_quoted"]),  # 0.78: may be the built message
    (ONE_BUILT, "the rate is out of range", ["message_not_quoted"]),
])
def test_a_wrong_quoted_message(source: str, quote: str, expected: list[str]) -> None:
    doc = f'## `set_rate`\n\nReturns the rate.\n\nRaises:\n\n- `ValueError`: "{quote}" when rate is negative\n'
    kinds = [f.check.value for f in check_doc(doc, source, "set_rate") if "message" in f.check.value]
    assert kinds == expected
    fatal = [f for f in check_doc(doc, source, "set_rate") if f.check.value == "misquoted_message"]
    assert all(f.fatal for f in fatal)


PAGE = "The rate is an xy value; the abc of it."


@pytest.mark.parametrize("quote, fatal", [
    ("xy", False),  # two characters: on nearly every page, proves nothing
    ("abc", True),  # three: checked, and on the page
    ("a b", True),  # three, a space counted
    ("xyz", False),  # three, not on the page
    ("  XY  ", False),  # two once whitespace and case are normalised, though on the page
])
def test_the_shortest_quote_a_fatal_claim_rests_on_is_three_characters(quote: str, fatal: bool) -> None:
    page = PAGE.replace("the abc", "the a b abc")
    verdict = quoted_claims_hold([Claim(f"the doc says {quote!r}", (quote,))], page)
    assert bool(verdict.fatal) is fatal
    assert bool(verdict.ordinary) is not fatal
