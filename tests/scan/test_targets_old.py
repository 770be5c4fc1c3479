"""The old side of a diff read from the new side (docbot.scan.old_side): exact cases, then a property
over edits of stdlib files (code we did not write): the targets equal those of parsing both sides."""

from __future__ import annotations

import difflib
import random
from collections.abc import Callable, Iterator

import pytest

from docbot.scan import targets
from docbot.git.diff import FileChange, LineRange
from docbot.results import Target
from docbot.scan.targets import SourceParseError, changed_targets
from docbot.scan.old_side import old_touched
from tests.scan.test_targets_equivalence import read, sample, stdlib_files


def ranges(old: str, new: str) -> tuple[list[LineRange], list[LineRange]]:
    """Removed and added line ranges, as a -U0 diff gives them."""
    removed: list[LineRange] = []
    added: list[LineRange] = []
    matcher = difflib.SequenceMatcher(None, old.split("\n"), new.split("\n"), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            removed.append((i1 + 1, i2))
        if tag in ("replace", "insert"):
            added.append((j1 + 1, j2))
    return removed, added


def pieces_of(new: str) -> list[tuple[str, tuple[int, int]]]:
    return [(d.qualname, span) for d in targets._definitions(new, "m.py", False) for span in d.spans]


F_G = "def f():\n    x = 1\n    return x\n\n\ndef g():\n    pass\n"
METHOD = "class C:\n    def m(self):\n        return 1\n\n    def n(self):\n        pass\n"

CASES = [
    # (old, new, expected): expected is the set old_touched gives, None when the old side must be parsed
    (F_G, F_G.replace("x = 1", "x = 2"), {"f"}),  # a body line changed
    (F_G, F_G.replace("    x = 1\n", ""), {"f"}),  # a body line deleted: touched on the old side only
    (F_G, F_G.replace("    x = 1\n", "    x = 1\n    y = 2\n"), set()),  # a line added: nothing old touched
    (F_G, F_G.replace("def f():", "def f(a):"), None),  # the first line: the header may change names
    (F_G, F_G + "\nX = 1\n", None),  # module-level code: outside every function
    (F_G, F_G.replace("    x = 1\n    return x\n", "    return 1\n"), {"f"}),  # to the last line of f
    (METHOD, METHOD.replace("return 1", "return 2"), {"C.m"}),  # indented: parsed inside "if 1:"
    ("@d\ndef g():\n    pass\n", "@d\ndef f():\n    pass\n", None),  # the old text defines another name
    ("def f():\n    pass\ndef h():\n    pass\n\nX = 1\n",  # old: h at module level; new: h nested in f
     "def f():\n    pass\n    def h():\n        pass\n\nX = 1\n", None),
    (F_G.replace("x = 1", "x = ("), F_G, None),  # the old side does not parse: it counts as empty
    ("def f():\n    s = '''\n\n\ndef g():\n    pass\n'''\n",  # old: g is inside a string
     "def f():\n    s = ''\n\n\ndef g():\n    pass\n''\n", None),
    (F_G, F_G.replace("    x = 1\n", "    x = 1\n\ndef k():\n    pass\n"), None),  # the line after f is new
]


@pytest.mark.parametrize("old, new, expected", CASES)
def test_old_touched(old: str, new: str, expected: set[str] | None) -> None:
    removed, added = ranges(old, new)
    assert old_touched(pieces_of(new), old.split("\n"), removed, added) == expected


def full(old: str, new: str, change: FileChange) -> list[Target]:
    """The reference: both sides parsed, as for any diff the shortcut does not apply to."""
    new_defs = targets._definitions(new, "m.py", False)
    old_defs = targets._old_definitions(old, new, "m.py", False)
    return targets._diff(new_defs, old_defs, change, "m", "m.py", None)


def checked(old: str, new: str) -> tuple[list[LineRange], list[LineRange]] | None:
    """Assert that the diff ``old`` -> ``new`` gives the targets of parsing both sides; its removed and
    added ranges, or None when the new side does not parse (no targets to compare)."""
    removed, added = ranges(old, new)
    change = FileChange("m.py", "m.py", "modified", removed, added)
    try:
        expected = full(old, new, change)
    except SourceParseError:
        return None
    assert changed_targets(old, new, change, "m", "m.py") == expected, (removed, added)
    return removed, added


@pytest.mark.parametrize("old, new, expected", CASES)
def test_changed_targets_equal_both_sides_parsed(old: str, new: str, expected: set[str] | None) -> None:
    assert checked(old, new) is not None


EDITS = ["    pass", "    x = '''", "pass", "    def inner(): pass", "    ", "    return (", "class Late:",
         "        y = 1", "    '''"]


def edited(text: str, rng: random.Random) -> str | None:
    """``text`` with one to three lines replaced, deleted or inserted inside or around a function."""
    lines = text.split("\n")
    defs = [i for i, line in enumerate(lines) if line.lstrip().startswith("def ")]
    if not defs:
        return None
    for _ in range(rng.randint(1, 3)):
        at = min(rng.choice(defs) + rng.randint(0, 6), len(lines) - 1)
        kind = rng.randrange(3)
        if kind == 0:
            lines[at] = lines[at][: len(lines[at]) - len(lines[at].lstrip())] + "z = 0" if rng.random() < 0.7 \
                else rng.choice(EDITS)
        elif kind == 1:
            del lines[at]
        else:
            lines.insert(at, lines[at][: len(lines[at]) - len(lines[at].lstrip())] + "z = 0" if rng.random() < 0.7
                         else rng.choice(EDITS))
    return "\n".join(lines)


Edit = tuple[str, str, list[LineRange], list[LineRange]]  # old, new, removed, added


def checked_edits(editor: Callable[[str, random.Random], str | None], seed: int, files: int,
                  per_file: int) -> Iterator[Edit]:
    """Edits of a stdlib sample whose diff targets were checked against parsing both sides (the assert
    is here); an edit whose new side does not parse has no targets to compare and is not yielded."""
    rng = random.Random(seed)
    for file in sample(stdlib_files(), files):
        old = read(file)
        if old is None or len(old) > 200_000:
            continue
        for _ in range(per_file):
            new = editor(old, rng)
            if new is None:
                continue
            found = checked(old, new)
            if found is not None:
                yield old, new, *found


@pytest.mark.slow  # edits of a stdlib sample: the README's command runs it
def test_edits_of_stdlib_files_give_the_targets_of_parsing_both_sides() -> None:
    compared = shortcut = 0
    for old, new, removed, added in checked_edits(edited, 15, 100, 5):
        compared += 1
        shortcut += old_touched(pieces_of(new), old.split("\n"), removed, added) is not None
    # Guards against a vacuous pass: most edits were compared, and both paths were taken often.
    assert compared > 150 and 0.2 * compared < shortcut < 0.95 * compared, (compared, shortcut)
