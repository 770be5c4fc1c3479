"""The quoted-claim rule: a critic's fatal claim blocks approval only if it quotes the rendered page."""

from __future__ import annotations

import pytest

from docbot.apidocs.render import render_section
from docbot.loop.quotes import Claim, ClaimVerdict, quoted_claims_hold
from tests.support.docmodel_samples import deposit, good_deposit

PAGE = render_section(good_deposit(), deposit(), "bank.account")


@pytest.mark.parametrize(("claim", "blocks"), [
    ('The doc says "amount must be positive" but the code says otherwise', True),
    ("The doc says `the new balance` which is wrong", True),
    ("“Add money to the account.” is misleading", True),
    ("The summary 'Add money to the account' is wrong", True),
    ('The doc says "amount   must be\n positive"', True),  # whitespace does not matter
    ('The doc says "AMOUNT MUST BE POSITIVE"', True),  # nor case
    ('The type "float | None" is wrong', False),  # not on the page (it says float)
    ('Quotes "**tags" from the table', True),  # the page writes it with references: &#42;&#42;tags
    ('Quotes "amount <= 0" from the raises list', True),  # the page writes &lt;= there
    ('The doc says "amount must be negative"', False),  # invented text
    ("The example output is wrong", False),  # quotes nothing
    ('It says "a"', False),  # too short to point at anything
    ("The doc doesn't say what 'x' means", False),  # apostrophes are not quotes; 'x' is too short
    ('The doc says "rate must be set" and the code says "amount must be positive"', True),  # one quote found
    ('"" empty quote', False),
])
def test_a_fatal_claim_blocks_only_with_a_quote_from_the_page(claim: str, blocks: bool) -> None:
    verdict = quoted_claims_hold([claim], PAGE)
    assert verdict == (ClaimVerdict((claim,), ()) if blocks else ClaimVerdict((), (claim,)))


def test_claims_keep_their_order_in_both_lists() -> None:
    claims = ['A "amount must be positive"', "B nothing", 'C "the new balance"', 'D "absent text here"']
    verdict = quoted_claims_hold(claims, PAGE)
    assert verdict.fatal == (claims[0], claims[2]) and verdict.ordinary == (claims[1], claims[3])


def test_structured_claims_use_their_own_quotes() -> None:
    present = Claim("the message is wrong", ("amount must be positive",))
    absent = Claim('the doc says "amount must be positive"', ("amount must be zero",))
    verdict = quoted_claims_hold([present, absent], PAGE)
    assert verdict.fatal == ("the message is wrong",) and verdict.ordinary == (absent.text,)


def test_an_empty_page_holds_no_claim() -> None:
    assert quoted_claims_hold(['"amount must be positive"'], "").fatal == ()


@pytest.mark.parametrize(("text", "quotes"), [
    ('say "a b" and “c d”', ("a b", "c d")),
    ("use ``x`y`` or `z`", ("x`y", "z")),
    ("it's the user's 'own words' here", ("own words",)),
    ("no quotes", ()),
])
def test_claim_quotes_are_read_from_the_text(text: str, quotes: tuple[str, ...]) -> None:
    assert Claim.from_text(text).quotes == quotes
