"""The docs/api writer: hashing, parse/render round trips, merging, atomic writes."""

from __future__ import annotations


import pytest

from docbot.apidocs.pages import (DocFile, Section, doc_path, marker_line, merge, parse_doc_file, render_doc_file,
                             source_hash)
from docbot.results import SectionStatus

FUNC = "def area(r):\n    \"\"\"Area of a circle.\"\"\"\n    return 3.14159 * r * r\n"

# (description, a variant of FUNC, whether it must hash like FUNC)
HASH_CASES = [
    ("identical", FUNC, True),
    ("indented as a method", ("    def area(r):\n        \"\"\"Area of a circle.\"\"\"\n"
                              "        return 3.14159 * r * r\n"), True),
    ("CRLF line ends", FUNC.replace("\n", "\r\n"), True),
    ("trailing spaces on a line", FUNC.replace("(r):", "(r):   "), True),
    ("surrounding blank lines", "\n\n" + FUNC + "\n\n\n", True),
    ("BOM at the start", "\ufeff" + FUNC, True),
    ("no final newline", FUNC.rstrip("\n"), True),
    ("body changed", FUNC.replace("3.14159", "3.14"), False),
    ("docstring changed", FUNC.replace("Area of", "The area of"), False),
    ("indentation inside the body changed", FUNC.replace("    return", "     return"), False),
    ("a decorator added", "@cache\n" + FUNC, False),
    ("a blank line added inside", FUNC.replace("\"\"\"\n", "\"\"\"\n\n"), False),
]


@pytest.mark.parametrize("description,variant,same", HASH_CASES, ids=[c[0] for c in HASH_CASES])
def test_source_hash_ignores_only_whitespace_noise(description: str, variant: str, same: bool) -> None:
    assert (source_hash(variant) == source_hash(FUNC)) is same


def test_source_hash_is_short_hex() -> None:
    digest = source_hash(FUNC)
    assert len(digest) == 12 and int(digest, 16) >= 0


SECTIONS = {
    "area": Section("aaaaaaaaaaaa", "## area\n\nArea of a circle.\n"),
    "Shape.scale": Section("bbbbbbbbbbbb", "## Shape.scale\n\n| p | t |\n|---|---|\n| k | float |"),
}

EXPECTED = (
    "# geo.shapes\n"
    "\n"
    "<!-- docbot:section area hash=aaaaaaaaaaaa -->\n"
    "## area\n"
    "\n"
    "Area of a circle.\n"
    "\n"
    "<!-- docbot:end area -->\n"
    "\n"
    "<!-- docbot:section Shape.scale hash=bbbbbbbbbbbb -->\n"
    "## Shape.scale\n"
    "\n"
    "| p | t |\n"
    "|---|---|\n"
    "| k | float |\n"
    "\n"
    "<!-- docbot:end Shape.scale -->\n"
)


def test_render_has_the_documented_layout() -> None:
    assert render_doc_file("geo.shapes", SECTIONS) == EXPECTED


def test_render_is_idempotent_through_parse() -> None:
    once = render_doc_file("geo.shapes", SECTIONS)
    parsed = parse_doc_file(once)
    assert parsed.title == "geo.shapes"
    assert list(parsed.sections) == ["area", "Shape.scale"]
    assert parsed.sections["area"] == Section("aaaaaaaaaaaa", "## area\n\nArea of a circle.")
    twice = render_doc_file("geo.shapes", parsed.sections)
    assert twice.encode() == once.encode()


# (description, body as the loop returned it, body as rendered)
BODY_CASES = [
    ("trailing blank lines", "## f\n\ntext\n\n\n", "## f\n\ntext"),
    ("trailing spaces per line", "## f  \n\ntext\t\n", "## f\n\ntext"),
    ("leading blank lines", "\n  \n## f\n", "## f"),
    ("CRLF", "## f\r\n\r\ntext\r\n", "## f\n\ntext"),
    ("inner blank lines kept", "## f\n\n\n\ntext", "## f\n\n\n\ntext"),
    ("indentation of the first line kept", "    code\ntext", "    code\ntext"),
]


@pytest.mark.parametrize("description,body,rendered", BODY_CASES, ids=[c[0] for c in BODY_CASES])
def test_render_normalises_body_whitespace(description: str, body: str, rendered: str) -> None:
    text = render_doc_file("m", {"f": ("h", body)})
    assert text == f"# m\n\n<!-- docbot:section f hash=h -->\n{rendered}\n\n<!-- docbot:end f -->\n"
    assert parse_doc_file(text).sections["f"].body == rendered


def test_parse_keeps_a_hand_written_intro_and_tolerates_crlf() -> None:
    text = ("# geo.shapes\r\n\r\nHand-written overview.\r\n\r\n"
            "<!-- docbot:section area hash=abc -->\r\n## area\r\n")
    parsed = parse_doc_file(text)
    assert parsed == DocFile("geo.shapes", "Hand-written overview.", {"area": Section("abc", "## area")})
    rendered = render_doc_file("geo.shapes", parsed.sections, parsed.intro)
    assert rendered == ("# geo.shapes\n\nHand-written overview.\n\n<!-- docbot:section area hash=abc -->\n## area\n"
                        "\n<!-- docbot:end area -->\n")


def test_parse_first_duplicate_section_wins_and_the_copy_is_reported_and_kept() -> None:
    text = ("# m\n\n<!-- docbot:section f hash=1 -->\nfirst\n\n"
            "<!-- docbot:section f hash=2 -->\nsecond\n")
    parsed = parse_doc_file(text)
    assert parsed.sections == {"f": Section("1", "first")}
    assert parsed.duplicates == ["f"]
    assert parsed.notes == {"f": "<!-- docbot:section f hash=2 -->\nsecond"}


def test_parse_text_without_markers_has_no_sections() -> None:
    parsed = parse_doc_file("# Notes\n\nNot written by docbot.\n")
    assert parsed.sections == {} and parsed.title == "Notes" and parsed.intro == "Not written by docbot."


def _existing(*names: str) -> DocFile:
    return parse_doc_file(render_doc_file("m", {n: (f"old-{n}", f"## {n}\n\nold {n} doc") for n in names}))


def _sections(text: str | None) -> list[tuple[str, str]]:
    assert text is not None
    return [(q, s.hash) for q, s in parse_doc_file(text).sections.items()]


# (description, existing sections, order, updates, removals, expected (qualname, hash) in file order)
MERGE_CASES = [
    ("new file in source order although updates come reversed", None, ["a", "b", "c"],
     {"c": ("h3", "## c"), "a": ("h1", "## a"), "b": ("h2", "## b")}, set(),
     [("a", "h1"), ("b", "h2"), ("c", "h3")]),
    ("an update slots in between kept sections", ("a", "c"), ["a", "b", "c"],
     {"b": ("h2", "## b")}, set(), [("a", "old-a"), ("b", "h2"), ("c", "old-c")]),
    ("an update replaces a stale section in place", ("a", "b", "c"), ["a", "b", "c"],
     {"b": ("new", "## b")}, set(), [("a", "old-a"), ("b", "new"), ("c", "old-c")]),
    ("a removed function loses its section", ("a", "b", "c"), ["a", "c"], {}, {"b"},
     [("a", "old-a"), ("c", "old-c")]),
    ("a vanished function's section is dropped without a removal", ("a", "gone"), ["a"], {}, set(),
     [("a", "old-a")]),
    ("reordered source reorders sections", ("a", "b"), ["b", "a"], {}, set(),
     [("b", "old-b"), ("a", "old-a")]),
    ("a function without docs stays without", ("a",), ["a", "b"], {}, set(), [("a", "old-a")]),
    ("an update outside the order is kept at the end", ("a",), ["a"], {"z": ("hz", "## z")}, set(),
     [("a", "old-a"), ("z", "hz")]),
]


@pytest.mark.parametrize("description,names,order,updates,removals,expected", MERGE_CASES,
                         ids=[c[0] for c in MERGE_CASES])
def test_merge(description: str, names: tuple[str, ...] | None, order: list[str],
               updates: dict[str, tuple[str, str]], removals: set[str],
               expected: list[tuple[str, str]]) -> None:
    existing = _existing(*names) if names is not None else None
    assert _sections(merge(existing, "m", order, updates, removals)) == expected


def test_merge_keeps_untouched_sections_byte_for_byte() -> None:
    old_text = render_doc_file("m", {"a": ("ha", "## a\n\n| x | y |\n|---|---|\n\n```python\n>>> a()\n1\n```"),
                                     "b": ("hb", "## b\n\nold"), "c": ("hc", "## c\n\nText  with  spaces.")},
                               intro="Overview by hand.")
    new_text = merge(parse_doc_file(old_text), "m", ["a", "b", "c"], {"b": ("hb2", "## b\n\nnew")}, set())
    assert new_text is not None
    expected = old_text.replace("hash=hb -->\n## b\n\nold", "hash=hb2 -->\n## b\n\nnew")
    assert new_text != old_text and new_text == expected


def test_merge_with_no_change_reproduces_the_file() -> None:
    old_text = render_doc_file("m", {"a": ("ha", "## a"), "b": ("hb", "## b")})
    assert merge(parse_doc_file(old_text), "m", ["a", "b"], {}, set()) == old_text


@pytest.mark.parametrize("order,removals", [([], {"a"}), ([], set()), (["b"], {"a"})])
def test_merge_removing_the_last_section_means_no_file(order: list[str], removals: set[str]) -> None:
    assert merge(_existing("a"), "m", order, {}, removals) is None


@pytest.mark.parametrize("docs_dir,module,expected", [
    ("docs/api", "pkg.mod", "docs/api/pkg.mod.md"),
    ("docs/api/", "pkg", "docs/api/pkg.md"),
    ("reference", "a.b.c", "reference/a.b.c.md"),
])
def test_doc_path(docs_dir: str, module: str, expected: str) -> None:
    assert doc_path(docs_dir, module) == expected


@pytest.mark.parametrize("marker, status, score", [
    ("<!-- docbot:section f hash=abc status=approved score=97 -->", SectionStatus.APPROVED, 97),
    ("<!-- docbot:section f hash=abc status=unapproved score=62 -->", SectionStatus.UNAPPROVED, 62),
    ("<!-- docbot:section f hash=abc status=unapproved -->", SectionStatus.UNAPPROVED, None),
    ("<!-- docbot:section f hash=abc score=0 -->", None, 0),
    ("<!-- docbot:section f hash=abc -->", None, None),  # written before the gate was recorded
])
def test_the_marker_records_the_gate(marker: str, status: SectionStatus | None, score: int | None) -> None:
    parsed = parse_doc_file(f"# m\n\n{marker}\n## f\n\n<!-- docbot:end f -->\n")
    assert parsed.sections["f"] == Section("abc", "## f", status, score)
    assert marker_line("f", "abc", status, score) == marker


def test_an_unknown_status_is_not_a_marker() -> None:
    parsed = parse_doc_file("# m\n\n<!-- docbot:section f hash=abc status=maybe -->\n## f\n")
    assert parsed.sections == {}


def test_the_status_survives_a_merge_that_keeps_the_section() -> None:
    first = render_doc_file("m", {"f": Section("abc", "## f", SectionStatus.UNAPPROVED, 62)})
    again = merge(parse_doc_file(first), "m", ["f", "g"], {"g": Section("def", "## g", SectionStatus.APPROVED, 97)},
                  set())
    assert again is not None
    sections = parse_doc_file(again).sections
    assert sections["f"].status is SectionStatus.UNAPPROVED and sections["f"].score == 62
    assert sections["g"] == Section("def", "## g", SectionStatus.APPROVED, 97)
