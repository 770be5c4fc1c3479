"""A section cut from a doc is read as a slice of the doc's tokens, the same reading as parsing it alone."""

from __future__ import annotations

import pytest
from markdown_it.token import Token

from docbot.verify.read import md_tokens
from docbot.verify.read.markdown import headings
from docbot.verify.read.md_tokens import section_text, tokens

DOC = """# mod

Intro paragraph with `code` and a [link](https://example.org).

## `compound(rate, years=1)`

Returns a float.

| name | type | default |
| --- | --- | --- |
| `rate` | `float | None` | |
| `years` | int | `1` |

- `rate`: the rate
  * nested bullet

  loose continuation
- `years`: how long

```python
# not a heading
>>> compound(0.1)
1.1
```

Raises
------

`ValueError` when rate < 0.

## Account.deposit

> a quote
> # quoted heading-like line

<div>
html block
</div>

    indented code

---

Term
: definition

### Examples

>>> 1 + 1
2
"""


def _reading(stream: tuple[Token, ...]) -> list[tuple[object, ...]]:
    return [(t.type, t.tag, t.map, t.content, t.level, t.nesting, t.info, t.markup,
             [(c.type, c.content) for c in t.children or []]) for t in stream]


def _sections(doc: str) -> list[tuple[int, int]]:
    starts = [h.line for h in headings(doc)]
    return list(zip(starts, [*starts[1:], len(doc.splitlines())]))


def test_each_section_reads_as_when_parsed_alone() -> None:
    tokens.cache_clear()
    tokens(DOC)
    spans = _sections(DOC)
    assert len(spans) == 6  # the quoted heading-like line counts: its section crosses the quote, parsed alone
    for start, end in spans:
        text = section_text(DOC, start, end)
        sliced = tokens(text)
        alone = md_tokens._parser().parse(md_tokens._protect_code_pipes(text))
        assert _reading(sliced) == _reading(tuple(alone)), (start, end)


def test_a_section_is_not_parsed_again(monkeypatch: pytest.MonkeyPatch) -> None:
    tokens.cache_clear()
    tokens(DOC)
    parsed: list[str] = []
    real = md_tokens._parser()

    class Counting:
        def parse(self, text: str) -> list[Token]:
            parsed.append(text)
            return real.parse(text)

    monkeypatch.setattr(md_tokens, "_parser", lambda: Counting())
    found = headings(section_text(DOC, 4, 30))  # compound's section and its setext Raises
    assert parsed == []
    assert [(h.text, h.line) for h in found] == [("`compound(rate, years=1)`", 0), ("Raises", 21)]


@pytest.mark.parametrize(("doc", "start", "end"), [
    ("- item\n\n  ## inside a list\n\n  text\n- next\n", 2, 6),  # the heading sits in a list: the list crosses it
    ("> quote\n> ## quoted\n> more\n", 1, 3),
    ("one\ntwo\n\n## a\n", 1, 4),  # the paragraph crosses the first edge
    ("## a\n\none\ntwo\n", 0, 3),  # the paragraph crosses the last edge
    ("para\n\n## a\n\ntext\n", 0, 3),  # no block crosses: the slice is taken
])
def test_a_block_across_an_edge_is_parsed_alone(doc: str, start: int, end: int) -> None:
    tokens.cache_clear()
    stream = tokens(doc)
    crosses = any(t.level == 0 and t.nesting >= 0 and t.map and (t.map[0] < start < t.map[1] or
                                                                 t.map[0] < end < t.map[1]) for t in stream)
    assert (md_tokens._slice(doc, start, end) is None) is crosses
    text = section_text(doc, start, end)
    alone = md_tokens._parser().parse(md_tokens._protect_code_pipes(text))
    assert _reading(tokens(text)) == _reading(tuple(alone))


def test_a_link_defined_elsewhere_on_the_page_is_read_as_on_the_page() -> None:
    doc = "## f\n\nSee [the guide][g].\n\n## g\n\n[g]: https://example.org/guide\n"
    tokens.cache_clear()
    tokens(doc)
    inline = [t for t in tokens(section_text(doc, 0, 4)) if t.type == "inline"][1]
    assert [c.type for c in inline.children or []][:2] == ["text", "link_open"]
