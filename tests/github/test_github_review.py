"""The docstring suggestion's lines: which head lines it replaces and with what (pure), and the
review comment GitHub gets for it."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.docstrings.writer import set_docstring
from docbot.github.review import REVIEW_MARKER, Suggestion, _changed_span

CASES = [
    # a docstring inserted: the def line comes along, since a suggestion replaces whole lines
    ("def f(x):\n    return x\n", (1, 1, ["def f(x):", '    """Doc."""'])),
    # a multi-line signature: the line that ends it comes along
    ("def f(\n    x,\n):\n    return x\n", (3, 3, ["):", '    """Doc."""'])),
    # an old docstring replaced: only its lines
    ('def f(x):\n    """Old."""\n    return x\n', (2, 2, ['    """Doc."""'])),
    ('def f(x):\n    """Old.\n\n    More.\n    """\n    return x\n', (2, 5, ['    """Doc."""'])),
    # a one-line function: its body moves under the docstring
    ("def f(x): return x\n", (1, 1, ["def f(x):", '    """Doc."""', "    return x"])),
    # the same docstring already there: nothing to suggest
    ('def f(x):\n    """Doc."""\n    return x\n', None),
]


@pytest.mark.parametrize("source, expected", CASES)
def test_changed_span(source: str, expected: tuple[int, int, list[str]] | None) -> None:
    edited = set_docstring(source, "f", "Doc.")
    span = _changed_span(source.splitlines(), edited.splitlines())
    assert span == expected
    if span is not None:  # the suggestion applied gives the edited file
        start, end, lines = span
        old = source.splitlines()
        assert old[: start - 1] + lines + old[end:] == edited.splitlines()


def test_a_suggestion_on_several_lines_gives_start_line() -> None:
    one = Suggestion("pkg.f", "pkg/a.py", 4, 4, ("x",), "approved").to_json()
    many = Suggestion("pkg.f", "pkg/a.py", 2, 5, ("x",), "approved").to_json()
    assert (one["line"], one["side"], "start_line" in one) == (4, "RIGHT", False)
    assert (many["start_line"], many["start_side"], many["line"]) == (2, "RIGHT", 5)


def test_the_suggestion_block_cannot_be_closed_by_its_text() -> None:
    body = Suggestion("pkg.<b>f", "a.py", 1, 1, ("    ```", '    """x"""'), "approved, 97/95").body()
    assert body.startswith(REVIEW_MARKER + "\n")
    assert "````suggestion\n    ```\n" in body and body.endswith("\n````\n")
    assert "<code>pkg.&lt;b&gt;f</code>" in body


ROUND_TRIPS = [
    (b"def f(x):\n    return x\n", True),
    ("def f(x):\n    return '\u00e9'\n".encode(), True),  # UTF-8 text is what a suggestion commits
    (b"# -*- coding: latin-1 -*-\ndef f(x):\n    return '\xe9'\n", False),  # its byte would become UTF-8
    (b"\xef\xbb\xbfdef f(x):\n    return x\n", False),  # BOM
    (b"def f(x):\r\n    return x\r\n", False),  # CRLF
    (b"def f(x):\r    return x\r", False),  # CR-only
    (b"class A:\n\x0c    def f(self):\n        return 1\n", False),  # a form feed
    (b"def f(x):\n    return '\xff'\n", False),  # not UTF-8 at all
]


@pytest.mark.parametrize(("data", "ok"), ROUND_TRIPS)
def test_a_suggestion_only_for_files_it_round_trips(data: bytes, ok: bool) -> None:
    from docbot.github.review import round_trips

    assert (round_trips(data) is not None) is ok


@pytest.mark.parametrize(("data", "kind"), [(b"def f(x):\n    return x\n", "Suggestion"),
                                            (b"# -*- coding: latin-1 -*-\n# caf\xe9\ndef f(x):\n    return x\n",
                                             "Fallback")])
def test_a_latin_1_file_gets_its_docstring_in_the_comment_not_a_suggestion(tmp_path: Path, data: bytes,
                                                                           kind: str) -> None:
    from docbot.docmodel import DocModel
    from docbot.github.review import suggest
    from docbot.github.sources import PrSources
    from docbot.results import FunctionResult, SectionStatus
    from tests.support.git_repo import GitRepo

    repo = GitRepo(tmp_path / "repo").write_bytes("pkg/m.py", b"").commit("base")
    base = repo.git("rev-parse", "HEAD").strip()
    head = repo.write_bytes("pkg/m.py", data).commit("head").git("rev-parse", "HEAD").strip()
    result = FunctionResult("pkg.m", "f", "updated", path="pkg/m.py", approval=SectionStatus.UNAPPROVED,
                            doc_model=DocModel(summary="D\u00e9j\u00e0 vu."), scores=[60])
    found = suggest(result, PrSources(repo.root, base, head))
    assert type(found).__name__ == kind
    if kind == "Fallback":  # the person's byte is never turned into U+FFFD by a one-click commit
        assert "\ufffd" not in found.literal and "D\u00e9j\u00e0 vu." in found.literal  # type: ignore[union-attr]
