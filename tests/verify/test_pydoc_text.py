"""A pydoc dump in a doc read as per-function sections (docbot/verify/read/pydoc_text.py, source_doc.find_sections)."""

from __future__ import annotations

import textwrap

import pytest

from docbot.verify.checks.source_doc import verify_source_doc
from docbot.verify.read.pydoc_text import pydoc_entries

FENCE = "```"
DUMP = textwrap.dedent('''
    ## Documentation

    ```
    NAME
        tables - simple tables

    CLASSES
        class Table
         |  Methods defined here:
         |
         |  __init__(self, width=80)
         |      Constructor
         |
         |      - width is the maximum width
         |
         |  add_rows(self, rows, header=True)
         |      Add several rows
         |
         |      - 'header' says whether the first row is the header
         |
         |  draw(self)
         |      Draw the table
         |
         |      - the table is returned as a whole string
         |
         |  ----------------------------------------------------------------------
         |  Data and other attributes defined here:
         |
         |  BORDER = 1

    FUNCTIONS
        render(rows, sep=' ')
            Render rows on one line.

    DATA
        VERSION = '1.0'
    ```
''').lstrip("\n")
SOURCE = textwrap.dedent('''
    class Table:
        BORDER = 1

        def __init__(self, width=80):
            self.width = width
            self.rows = []

        def add_rows(self, rows, header=True):
            self.rows.extend(rows)

        def draw(self):
            out = ""
            for row in self.rows:
                out += " ".join(map(str, row)) + "\\n"
            return out[:-1]


    def render(rows, sep=' '):
        return sep.join(map(str, rows))
''')


def test_entries_of_a_class_and_of_the_module_functions() -> None:
    entries = pydoc_entries(DUMP)
    assert list(entries) == ["Table.__init__", "Table.add_rows", "Table.draw", "render"]
    assert entries["Table.add_rows"].signature == "add_rows(self, rows, header=True)"
    assert entries["Table.draw"].docstring == "Draw the table\n\n- the table is returned as a whole string"
    assert entries["render"].docstring == "Render rows on one line."
    lines = DUMP.splitlines()
    assert lines[entries["Table.draw"].start].strip() == "|  draw(self)"
    assert "BORDER" not in entries["Table.draw"].docstring  # the entry ends at the next gutter line at column 0


@pytest.mark.parametrize("block", [
    " |  looks(like, a=1)\n",  # a gutter with no class above it
    "class Table\n |      indented(self, a=1)\n",  # a docstring line, not a signature
    "    render(rows)\n",  # a signature-like line outside FUNCTIONS
])
def test_what_is_not_an_entry(block: str) -> None:
    assert pydoc_entries(f"{FENCE}\n{block}{FENCE}\n") == {}


def _fatal(doc: str, function: str) -> tuple[bool, list[str]]:
    (checked,) = verify_source_doc(SOURCE, doc, "tables", (), function=function, run_examples=False)
    return checked.section_found, [f.check for f in checked.fatal]


@pytest.mark.parametrize("old, new, function, kinds", [
    ("", "", "Table.add_rows", []),  # the dump as it is: found, nothing false
    ("", "", "Table.draw", []),
    ("", "", "render", []),
    ("add_rows(self, rows, header=True)", "add_rows(self, rows, header=False)", "Table.add_rows", ["wrong_default"]),
    ("__init__(self, width=80)", "__init__(self, width=72)", "Table.__init__", ["wrong_default"]),
    ("add_rows(self, rows, header=True)", "add_rows(self, lines, header=True)", "Table.add_rows",
     ["invented_parameter"]),
    ("returned as a whole string", "returned as a list of lines", "Table.draw", ["wrong_return_type"]),
    ("render(rows, sep=' ')", "render(rows, sep=',')", "render", ["wrong_default"]),
])
def test_a_dump_entry_is_the_section_of_its_function(old: str, new: str, function: str, kinds: list[str]) -> None:
    found, fatal = _fatal(DUMP.replace(old, new, 1), function)
    assert found and fatal == kinds


def test_under_a_heading_that_names_the_function_the_entry_is_read_too() -> None:
    doc = "# `Table.draw`\n\n" + DUMP.replace("returned as a whole string", "returned as a list of lines")
    assert _fatal(doc, "Table.draw") == (True, ["wrong_return_type"])
    assert _fatal("# `Table.draw`\n\n" + DUMP, "Table.draw") == (True, [])
