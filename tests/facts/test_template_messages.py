"""A message the code formats, shown the way the code writes it (issue 28, "What to build" 2).

Before: ``raise ValueError("n must be > 0: %r" % n)`` was shown to the writer as ``ValueError(f"n must be > 0: {n}")``;
a perfect writer copying it failed the placeholder gate (its `{n}`), and repair and the page then rendered
``n must be > 0: {n}``, a message the code never gives (``%r`` shows ``repr(n)``). bench/bench_facts_messages.py
measures it on the stdlib: 109 of 178 functions with formatted messages failed, 0 now.
"""

from __future__ import annotations

import html
import re
import textwrap

import pytest

from docbot.apidocs.render import render_section
from docbot.docmodel import DocModel, RaisesDoc
from docbot.facts.function import Facts, extract_facts
from docbot.loop.prompts import ECHO_SENTENCES
from docbot.loop.repair import repair
from docbot.verify.checks.model import agreeing_site, check_model
from docbot.verify.checks.page import check_doc
from docbot.verify.checks.text_rules import Author


def facts_of(raise_line: str) -> Facts:
    return extract_facts(f"def f(n, name):\n    if n <= 0:\n        {raise_line}\n    return n\n", "f")


@pytest.mark.parametrize("raise_line, shown", [
    ('raise ValueError("n must be > 0: %r" % n)', 'ValueError("n must be > 0: %r" % n) when n <= 0'),
    ("raise ValueError('n must be > 0: %r' % (n,))", "ValueError('n must be > 0: %r' % (n,)) when n <= 0"),
    ('raise ValueError(f"n must be > 0: {n!r}")', 'ValueError(f"n must be > 0: {n!r}") when n <= 0'),
    ('raise ValueError("{} is not valid".format(name))', 'ValueError("{} is not valid".format(name)) when n <= 0'),
    ('raise ValueError("no module named " + name)', 'ValueError("no module named " + name) when n <= 0'),
    ('raise ValueError("n must be > 0")', 'ValueError("n must be > 0") when n <= 0'),  # a literal: its text
    # over several lines: one line, as `ast.unparse` writes it
    ('raise ValueError(\n            "n must be "\n            f"> 0: {n}")',
     "ValueError(f'n must be > 0: {n}') when n <= 0"),
])
def test_the_facts_show_a_message_as_the_code_writes_it(raise_line: str, shown: str) -> None:
    [site] = facts_of(raise_line).raises
    assert site.describe() == shown
    assert f"- {shown}" in facts_of(raise_line).to_prompt()


@pytest.mark.parametrize("raise_line, copied, matches", [
    ('raise ValueError("n must be > 0: %r" % n)', '"n must be > 0: %r" % n', True),  # the whole expression
    ('raise ValueError("n must be > 0: %r" % n)', "n must be > 0: %r", True),  # its template string
    ('raise ValueError("n must be > 0: %r" % n)', "n must be > 0: -1", True),  # a message it gives
    ('raise ValueError("n must be > 0: %r" % n)', "n must be > 1: %r", False),
    ('raise ValueError(f"n must be > 0: {n!r}")', "n must be > 0: {n!r}", True),
    ('raise ValueError("{} is not valid".format(name))', "{} is not valid", True),
    ('raise ValueError("no module named " + name)', "no module named ", False),  # half a message is not it
])
def test_a_copied_message_is_the_code_s(raise_line: str, copied: str, matches: bool) -> None:
    [site] = facts_of(raise_line).raises
    assert site.matches_message(copied) is matches


def _copied(facts: Facts) -> DocModel:
    """A perfect writer: the raises entry as the facts show it (the message between `Type(` and `)`)."""
    [site] = facts.raises
    line = site.describe()
    message = line[len(site.exception) + 1 : line.rindex(") when ")]
    return DocModel(summary="Check n.", returns="n.", raises=(RaisesDoc(type=site.exception, message=message,
                                                                         condition=site.condition or ""),))


def _raises_line(page: str) -> str:
    return html.unescape(re.sub(r"</?code>", "", page.split("**Raises**", 1)[1].strip().splitlines()[0]))


@pytest.mark.parametrize("raise_line", [
    'raise ValueError("n must be > 0: %r" % n)',
    'raise ValueError(f"n must be > 0: {n}")',
    'raise ValueError("{name} is not valid: {n}".format(name=name, n=n))',
])
def test_a_perfect_writer_passes_the_gates_and_its_page_shows_the_code_s_message(raise_line: str) -> None:
    facts = facts_of(raise_line)
    model = _copied(facts)
    assert [f.check for f in check_model(model, facts, lambda examples: [], prompts=ECHO_SENTENCES) if f.fatal] == []
    page = render_section(model, facts, "m")
    [site] = facts.raises
    assert _raises_line(page) == f"- ValueError: {site.written} — when n <= 0"
    # docbot's own page, checked as `docbot verify` checks it (a model's text: every rule applies)
    source = f"def f(n, name):\n    if n <= 0:\n        {raise_line}\n    return n\n"
    assert [f.check for f in check_doc(page, source, "f", author=Author.MODEL) if f.fatal] == []


def test_repair_never_renders_a_message_the_code_does_not_give() -> None:
    """A misquoted entry is replaced by the code's site: its message as the code writes it, not its `{n}` reading."""
    facts = facts_of('raise ValueError("n must be > 0: %r" % n)')
    wrong = DocModel(summary="Check n.", returns="n.", raises=(RaisesDoc(type="ValueError", message="n is bad"),))
    found = check_model(wrong, facts, lambda examples: [], prompts=ECHO_SENTENCES)
    fixed = repair(wrong, facts, [], found)
    assert [r.message for r in fixed.model.raises] == ['"n must be > 0: %r" % n']
    page = render_section(fixed.model, facts, "m")
    assert _raises_line(page) == '- ValueError: "n must be > 0: %r" % n — when n <= 0'


def test_a_site_whose_message_matches_comes_before_one_whose_message_is_unknown() -> None:
    """`raise ValueError(msg)` agrees with any message; the site the entry quotes is the one it is about (inspect's
    Parameter.__init__ has both), so the page shows that site's message."""
    facts = extract_facts(textwrap.dedent('''\
        def f(name, msg):
            if not name:
                raise ValueError(msg)
            raise ValueError("{!r} is not a valid parameter name".format(name))
        '''), "f")
    entry = RaisesDoc(type="ValueError", message="{!r} is not a valid parameter name")
    site = agreeing_site(entry, facts)
    assert site is not None and site.written == '"{!r} is not a valid parameter name".format(name)'
