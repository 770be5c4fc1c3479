"""Markers are parsed exactly (issue 21 item 5, issue 22 item 6): every case fails on a one-line bug.

- a ``score=100`` marker parses (a score pattern of two digits would drop the section, and the next
  merge would write a second copy);
- a marker inside a closed code fence is a person's text, never a marker (a fenced example of the format);
- an example that holds an end marker can never close its section.
"""

from __future__ import annotations

import pytest

from docbot.apidocs.pages import Section, merge, parse_doc_file, render_doc_file
from docbot.apidocs.render import render_section
from docbot.docmodel import DocModel, Example
from docbot.facts.function import extract_facts
from docbot.results import SectionStatus

SOURCE = "def f(x):\n    return x\n"


@pytest.mark.parametrize("score", [0, 9, 10, 99, 100])
def test_every_score_parses_and_a_merge_writes_one_copy(score: int) -> None:
    text = render_doc_file("m", {"f": Section("h1", "## f\n\nold", SectionStatus.APPROVED, score)})
    parsed = parse_doc_file(text)
    assert parsed.sections["f"] == Section("h1", "## f\n\nold", SectionStatus.APPROVED, score)
    merged = merge(parsed, "m", ["f"], {"f": Section("h2", "## f\n\nnew", SectionStatus.APPROVED, 100)}, set())
    assert merged is not None and merged.count("<!-- docbot:section f ") == 1
    assert parse_doc_file(merged).duplicates == []


HAND = ("# m\n\nHow docbot marks a section:\n\n````markdown\n<!-- docbot:section g hash=abc -->\n## g\n"
        "<!-- docbot:end g -->\n````\n")
SECTION = "<!-- docbot:section f hash=h1 -->\n## f\n\nbody\n\n<!-- docbot:end f -->\n"


@pytest.mark.parametrize(("text", "sections", "intro_has_example"), [
    (HAND, [], True),  # a fenced example of the format is text
    (HAND + "\n" + SECTION, ["f"], True),  # and the real section after it still parses
    (HAND.replace("````\n", "````\n", 1).replace("<!-- docbot:end g -->\n````\n", "<!-- docbot:end g -->\n"),
     ["g"], False),  # an unclosed fence protects nothing: the marker after it is a marker
    (HAND.replace("````markdown", "~~~").replace("````", "~~~"), [], True),  # tilde fences too
])
def test_a_marker_in_a_closed_fence_is_text(text: str, sections: list[str], intro_has_example: bool) -> None:
    parsed = parse_doc_file(text)
    assert list(parsed.sections) == sections
    assert ("<!-- docbot:section g hash=abc -->" in parsed.intro) is intro_has_example


def test_a_fenced_example_of_the_format_survives_a_merge() -> None:
    merged = merge(parse_doc_file(HAND), "m", ["f"], {"f": ("h1", "## f\n\nbody")}, set())
    assert merged is not None and HAND.rstrip("\n") in merged


def test_an_end_marker_in_a_section_fence_does_not_close_it() -> None:
    body = "## f\n\n```text\n<!-- docbot:end f -->\n```\n\nstill f"
    text = render_doc_file("m", {"f": ("h1", body)})
    assert parse_doc_file(text).sections["f"].body == body


def test_an_example_holding_an_end_marker_never_cuts_the_section() -> None:
    model = DocModel(summary="Echo.", examples=(Example(code="print('<!-- docbot:end f -->')",
                                                        output="<!-- docbot:end f -->"),
                                                Example(code="print(1)", output="1")))
    body = render_section(model, extract_facts(SOURCE, "f"), "m")
    assert "<!-- docbot:end" not in body and "1 example left out" in body
    parsed = parse_doc_file(render_doc_file("m", {"f": ("h1", body)}))
    assert parsed.sections["f"].body == body.rstrip("\n") and parsed.notes == {}
