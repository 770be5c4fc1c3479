"""docs/api merging keeps every line a person wrote: appendix, notes, title, duplicates (issue 12, items 9-12).

Each case is an old file, what the run decided, and the exact new file; a merge that loses, moves or
rewrites a person's line fails it.
"""

from __future__ import annotations

import pytest

from docbot.apidocs.pages import keep_if_same, merge, parse_doc_file


def sec(qualname: str, hash_: str, body: str = "") -> str:
    """A section as docbot renders it."""
    return (f"<!-- docbot:section {qualname} hash={hash_} -->\n" + (f"{body}\n\n" if body else "")
            + f"<!-- docbot:end {qualname} -->")


def page(*parts: str) -> str:
    return "\n\n".join(parts) + "\n"


APPENDIX = "## Appendix\n\nWritten by hand, after every section."
A_NEW = {"a": ("a2", "## a\n\nnew a")}

# (description, old file, order, updates, removals, the new file; None: the file is removed)
CASES = [
    ("an appendix after the last section survives when that section is regenerated",
     page("# m", sec("a", "a1", "## a\n\nold a"), APPENDIX), ["a"], A_NEW, set(),
     page("# m", sec("a", "a2", "## a\n\nnew a"), APPENDIX)),
    ("the appendix stays last when a new section is added after the old last one",
     page("# m", sec("a", "a1", "## a"), APPENDIX), ["a", "b"], {"b": ("b1", "## b")}, set(),
     page("# m", sec("a", "a1", "## a"), sec("b", "b1", "## b"), APPENDIX)),
    ("a note between sections stays after its section",
     page("# m", sec("a", "a1", "## a"), "Note on a.", sec("b", "b1", "## b")), ["a", "b"],
     {"b": ("b2", "## b v2")}, set(),
     page("# m", sec("a", "a1", "## a"), "Note on a.", sec("b", "b2", "## b v2"))),
    ("a note after a removed section moves to the section before it",
     page("# m", sec("a", "a1", "## a"), sec("b", "b1", "## b"), "Note on b.", sec("c", "c1", "## c")),
     ["a", "c"], {}, {"b"},
     page("# m", sec("a", "a1", "## a"), "Note on b.", sec("c", "c1", "## c"))),
    ("a note after a removed first section joins the intro",
     page("# m", "Intro.", sec("a", "a1", "## a"), "Note on a.", sec("b", "b1", "## b")), ["b"], {}, {"a"},
     page("# m", "Intro.\n\nNote on a.", sec("b", "b1", "## b"))),
    ("a hand-written title line is kept",
     page("# The geometry API", sec("a", "a1", "## a")), ["a"], A_NEW, set(),
     page("# The geometry API", sec("a", "a2", "## a\n\nnew a"))),
    ("a file without a title line gets none added",
     page("Front text.", sec("a", "a1", "## a")), ["a"], A_NEW, set(),
     page("Front text.", sec("a", "a2", "## a\n\nnew a"))),
    ("an older file without end markers: a level-1 heading after the last section is an appendix",
     "# m\n\n<!-- docbot:section a hash=a1 -->\n## a\n\nold a\n\n# Appendix\n\nBy hand.\n", ["a"], A_NEW, set(),
     page("# m", sec("a", "a2", "## a\n\nnew a"), "# Appendix\n\nBy hand.")),
    ("an older file: a '# comment' inside a code fence stays in the section",
     "# m\n\n<!-- docbot:section a hash=a1 -->\n## a\n\n```python\n# comment\nx = 1\n```\n", ["a", "b"],
     {"b": ("b1", "## b")}, set(),
     page("# m", sec("a", "a1", "## a\n\n```python\n# comment\nx = 1\n```"), sec("b", "b1", "## b"))),
    ("a duplicated section is kept as written, where it stands",
     page("# m", sec("a", "a1", "## a"), sec("a", "a0", "## a (older copy)")), ["a"], A_NEW, set(),
     page("# m", sec("a", "a2", "## a\n\nnew a"), sec("a", "a0", "## a (older copy)"))),
    ("with every section gone, a hand-written intro keeps the file",
     page("# m", "Intro by hand.", sec("a", "a1", "## a")), [], {}, set(), page("# m", "Intro by hand.")),
    ("with every section gone, an appendix keeps the file",
     page("# m", sec("a", "a1", "## a"), APPENDIX), [], {}, set(), page("# m", APPENDIX)),
    ("with every section gone, a hand-written title keeps the file",
     page("# Geometry", sec("a", "a1", "## a")), [], {}, set(), page("# Geometry")),
    ("with every section gone from a file without a title or any other text, the file goes",
     page(sec("a", "a1", "## a")), [], {}, set(), None),
    ("with every section gone and only docbot's title left, the file goes",
     page("# m", sec("a", "a1", "## a"), sec("b", "b1", "## b")), [], {}, {"a"}, None),
]


@pytest.mark.parametrize("description,old,order,updates,removals,expected", CASES, ids=[c[0] for c in CASES])
def test_merge_keeps_what_a_person_wrote(description: str, old: str, order: list[str],
                                         updates: dict[str, tuple[str, str]], removals: set[str],
                                         expected: str | None) -> None:
    assert merge(parse_doc_file(old), "m", order, updates, removals) == expected


def test_a_rendered_file_with_free_text_round_trips_byte_for_byte() -> None:
    text = page("# Title", "Intro.", sec("a", "a1", "## a"), "Note.", sec("a", "a0", "## a copy"),
                sec("b", "b1", "## b"), APPENDIX)
    parsed = parse_doc_file(text)
    assert parsed.duplicates == ["a"] and parsed.appendix == APPENDIX and parsed.title == "Title"
    assert merge(parsed, "m", ["a", "b"], {}, set()) == text


# (description, the body of a section without an end marker, what of it is free text after the section)
UNMARKED_CASES = [
    ("a level-1 heading ends it", "## a\n\nDoc.\n\n# Appendix\n\nBy hand.", "# Appendix\n\nBy hand."),
    ("a level-2 heading does not", "## a\n\nDoc.\n\n## Notes\n\nMore.", ""),
    ("nor a level-1 heading in a code fence", "## a\n\n```python\n# comment\n```", ""),
    ("nor one in a tilde fence", "## a\n\n~~~\n# comment\n~~~", ""),
    ("nor one after an inner fence inside a longer outer fence",
     "## a\n\n````markdown\n```python\ny = 2\n```\n# x\n````", ""),
    ("a fence's closing line ends it, a line with an info string does not",
     "## a\n\n```\n```python\n# inside\n```\n\n# After", "# After"),
    ("nor a hash without a space", "## a\n\n#hashtag", ""),
]


@pytest.mark.parametrize("description,body,after", UNMARKED_CASES, ids=[c[0] for c in UNMARKED_CASES])
def test_a_section_without_an_end_marker(description: str, body: str, after: str) -> None:
    parsed = parse_doc_file(f"# m\n\n<!-- docbot:section a hash=1 -->\n{body}\n")
    assert parsed.sections["a"].body == body.removesuffix(after).rstrip()
    assert parsed.notes == ({"a": after} if after else {})


def test_end_marker_of_another_function_does_not_close_a_section() -> None:
    text = page("# m", "<!-- docbot:section a hash=1 -->\n## a\n<!-- docbot:end b -->\nmore a\n\n<!-- docbot:end a -->",
                "After a.")
    parsed = parse_doc_file(text)
    assert parsed.sections["a"].body == "## a\n<!-- docbot:end b -->\nmore a"
    assert parsed.notes == {"a": "After a."}


@pytest.mark.parametrize("old,same", [
    ("# m\n\n<!-- docbot:section a hash=a1 -->\n## a\n", True),  # an older file: only the end marker is new
    ("# m\n\n<!-- docbot:section a hash=a0 -->\n## a\n", False),  # the hash changed
    ("# m\n\n<!-- docbot:section a hash=a1 -->\n## a\n\nmore\n", False),  # the body changed
])
def test_a_file_that_would_only_change_layout_is_left_byte_for_byte(old: str, same: bool) -> None:
    new = page("# m", sec("a", "a1", "## a"))
    assert keep_if_same(old, parse_doc_file(old), new) == (old if same else new)
