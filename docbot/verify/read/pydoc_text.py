"""A ``help()``/pydoc dump pasted into a doc, read as the per-function sections it holds.

A README that documents its API with pydoc's output has no heading per function: its functions are entries
of a code block. pydoc lays them out one way:

- a class's members sit behind its gutter: ``class Texttable`` then `` |  add_rows(self, rows, header=True)``
  (the gutter and exactly two spaces, then the signature), the docstring indented four more;
- module functions sit under ``FUNCTIONS``, the signature indented four spaces and the docstring eight.

Each entry becomes a small Markdown section: a heading holding the signature, then the docstring dedented,
so the checks read it as they read any section (docs/design.md#pydoc-sections, tests/verify/test_pydoc_text.py).
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

from docbot.verify.read.markdown import code_blocks

_CLASS = re.compile(r"^\s*class\s+([A-Za-z_]\w*)\b")
_GUTTER = re.compile(r"^\s*\|(?: {2}(.*))?\s*$")
_SIGNATURE = re.compile(r"^([A-Za-z_]\w*)\(.*\)\s*$")
_SECTION_TITLE = re.compile(r"^[A-Z][A-Z ]+$")  # pydoc's NAME, FUNCTIONS, DATA, CLASSES ...


@dataclass(frozen=True)
class PydocEntry:
    qualname: str  # "Texttable.add_rows" or "loads"
    signature: str  # "add_rows(self, rows, header=True)"
    docstring: str  # dedented
    start: int  # doc line of the signature
    end: int  # doc line after the entry

    def as_markdown(self) -> str:
        return f"### `{self.qualname.rsplit('.', 1)[0] + '.' if '.' in self.qualname else ''}{self.signature}`" \
            f"\n\n{self.docstring}\n"


def pydoc_entries(markdown: str) -> dict[str, PydocEntry]:
    """qualname -> its entry, for every pydoc dump in the doc's code blocks (the first entry of a name wins)."""
    found: dict[str, PydocEntry] = {}
    for block in code_blocks(markdown):
        for entry in _block_entries(block.text.splitlines(), block.start + 1):
            found.setdefault(entry.qualname, entry)
    return found


def _block_entries(lines: list[str], first_line: int) -> list[PydocEntry]:
    entries: list[PydocEntry] = []
    owner = ""  # the class whose gutter lines follow
    section = ""
    current: tuple[str, str, int, list[str]] | None = None  # qualname, signature, line, docstring lines

    def close(end: int) -> None:
        nonlocal current
        if current is not None:
            name, signature, start, body = current
            docstring = textwrap.dedent("\n".join(body)).strip("\n")
            entries.append(PydocEntry(name, signature, docstring, first_line + start, first_line + end))
        current = None

    for index, line in enumerate(lines):
        gutter = _GUTTER.match(line)
        if gutter and owner:
            content = gutter.group(1) or ""
            if content and not content[0].isspace():
                close(index)
                match = _SIGNATURE.match(content)
                current = (f"{owner}.{match.group(1)}", content.strip(), index, []) if match else None
            elif current is not None:
                current[3].append(content)
            continue
        if current is not None and "." not in current[0] and (not line.strip() or line.startswith(" " * 8)):
            current[3].append(line)  # a module function's docstring, indented under its signature
            continue
        close(index)
        if (klass := _CLASS.match(line)) is not None:
            owner = klass.group(1)
        elif _SECTION_TITLE.match(line.strip()) and not line.startswith(" "):
            owner, section = "", line.strip()
        elif section == "FUNCTIONS" and re.match(r"^ {4}\S", line) and (match := _SIGNATURE.match(line.strip())):
            current = (match.group(1), line.strip(), index, [])
    close(len(lines))
    return entries
