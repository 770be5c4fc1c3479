"""The old side of a diff spliced from the new side's unchanged top-level statements
(docbot.scan.old_side.spliced): exact cases, then a property over top-level edits of stdlib files (code we
did not write): whenever the splice answers, it answers what parsing the whole old side answers."""

from __future__ import annotations

import random

import pytest

from docbot.scan import targets
from docbot.git.diff import FileChange
from docbot.scan.targets import changed_targets
from docbot.scan.ast_finder import Found
from docbot.scan.old_side import spliced
from tests.scan.test_targets_old import checked, checked_edits, pieces_of, ranges


def splice(old: str, new: str, include_dunder: bool = False) -> Found | None:
    removed, added = ranges(old, new)
    parsed = targets._parse(new, "m.py", include_dunder)
    assert parsed.layout is not None
    pieces = sorted(((d.qualname, s) for d in parsed.defs for s in d.spans), key=lambda piece: piece[1])
    return spliced(parsed.layout, new.split("\n"), pieces, old.split("\n"), removed, added, include_dunder)


def parsed_whole(old: str) -> Found:
    """The reference: the old side parsed whole, one (qualname, span) per piece, in source order."""
    return sorted(pieces_of(old), key=lambda piece: piece[1])


F_G = "def f():\n    return 1\n\n\ndef g():\n    pass\n"
CLASS = ("X = 1\n\n\nclass C:\n    def m(self):\n        return 1\n\n    def n(self):\n        pass\n\n\n"
         "def tail():\n    pass\n")

SPLICED = [
    # (old, new): the splice answers, and its answer is the whole old side's
    (F_G, "X = 0\n" + F_G),  # module-level code added before everything: every function moves down
    (F_G, F_G.replace("def g():", "def g(a):")),  # a signature: g's statement is re-read on the old side
    (F_G, F_G.replace("def g():", "@cache\ndef g():")),  # a decorator added above an unchanged line
    (CLASS, CLASS.replace("class C:", "class C(Base):")),  # a class header: its methods keep their names
    (CLASS, CLASS.replace("    def n(self):\n        pass\n", "")),  # a method deleted: n is on the old side only
    (CLASS, CLASS.replace("X = 1", "X = 2")),  # untouched statements after it keep their old lines
    (CLASS.replace("class C:", "class _C:"), CLASS),  # the old class was private: no methods there
    (F_G + "\nif __name__ == '__main__':\n    def script():\n        pass\n", F_G),  # script code: never API
    ("import a; import b\n" + F_G, "import a; import b\n" + F_G.replace("return 1", "return 2") + "Y = 1\n"),
    ("# one\n" + F_G, "# two\n" + F_G + "\n# three\n"),  # comment-only regions
    (F_G, F_G.replace("def f():\n    return 1\n", "def f():\n    return 1\n\n\nclass D:\n    def k(self):\n"
                      "        pass\n")),  # a class added between two functions
    ("__all__ = ['g']\n" + F_G, "__all__ = ['g']\n" + F_G + "Z = 1\n"),  # an unchanged __all__ still decides
    ("def f():\n    a = 1\n    b = 2\n    return a\n\nX = 1\n",
     "def f():\n    a = 1\n    return a\n\nX = 2\n"),  # a line removed inside a statement: it is re-read
    ("@a\n@b\ndef f(): pass\n\nX = 1\n", "@a\ndef f(): pass\n\nX = 1\n"),  # a decorator removed inside it
    # The old side goes on after an unchanged statement: that statement is re-read with what follows it.
    ("if X:\n    def f(): pass\nelse:\n    def g(): pass\n\ndef h(): pass\n",
     "if X:\n    def f(): pass\n\ndef h(): pass\n"),  # an "else:" removed
    ("try:\n    def f(): pass\nexcept E:\n    def g(): pass\nX = 1\n", "try:\n    def f(): pass\nexcept E:\n"
     "    pass\nX = 2\n"),  # an except clause changed
    ("def f():\n    a = 1\n    b = 2\n\ndef g(): pass\n", "def f():\n    a = 1\n\ndef g(): pass\n"),  # indented
]

REFUSED = [
    # (old, new): the splice cannot be sure, so it answers None and the old side is parsed whole
    ("s = '''\n" + F_G + "'''\n", "s = ''\n" + F_G + "t = ''\n"),  # the old side's f and g are inside a string
    ("__all__ = ['f']\n" + F_G, "__all__ = ['f', 'g']\n" + F_G),  # __all__ changed: publicity may change
    (F_G, "__all__ = ['f']\n" + F_G),  # __all__ added on the new side
    ("__all__ = ['f']\n" + F_G, F_G),  # __all__ removed: only the old region shows it
    (F_G + "x = (\n", F_G + "x = 1\n"),  # the old region does not parse at all
]


@pytest.mark.parametrize("old, new", SPLICED)
def test_the_splice_answers_what_the_whole_old_side_says(old: str, new: str) -> None:
    assert splice(old, new) == parsed_whole(old)


@pytest.mark.parametrize("old, new", REFUSED)
def test_the_splice_refuses_what_it_cannot_know(old: str, new: str) -> None:
    assert splice(old, new) is None


@pytest.mark.parametrize("old, new", SPLICED + REFUSED)
def test_changed_targets_equal_both_sides_parsed(old: str, new: str) -> None:
    checked(old, new)  # asserts; a new side that does not parse has nothing to compare


def test_a_deleted_function_is_found_on_the_spliced_old_side() -> None:
    old, new = CLASS, CLASS.replace("class C:", "class C(Base):").replace("    def n(self):\n        pass\n", "")
    removed, added = ranges(old, new)
    change = FileChange("m.py", "m.py", "modified", removed, added)
    found = {(t.qualname, t.kind, t.lineno) for t in changed_targets(old, new, change, "m", "m.py")}
    assert found == {("C.n", "deleted", 8)}  # at its old line; the header change alone touches no function


TOP_EDITS = ["X = 0", "@decorator", "class Late(Base):", "else:", "'''", "__all__ = ['nothing']", "# a comment",
             "if __name__ == '__main__':", "    pass", "try:", "def late(a, b=1):", "import os; import sys", ""]


def top_edited(text: str, rng: random.Random) -> str | None:
    """``text`` with one to three lines at or just before column-0 statements replaced, deleted or inserted."""
    lines = text.split("\n")
    tops = [i for i, line in enumerate(lines) if line[:1].isalpha() or line[:1] == "@"]
    if not tops:
        return None
    for _ in range(rng.randint(1, 3)):
        at = max(min(rng.choice(tops) + rng.randint(-1, 1), len(lines) - 1), 0)
        kind = rng.randrange(3)
        if kind == 0:
            lines[at] = rng.choice(TOP_EDITS) if rng.random() < 0.5 else lines[at].replace("(", "(extra, ", 1)
        elif kind == 1:
            del lines[at]
        else:
            lines.insert(at, rng.choice(TOP_EDITS))
    return "\n".join(lines)


def test_top_level_edits_of_stdlib_files_give_the_targets_of_parsing_both_sides() -> None:
    compared = answered = 0
    for old, new, removed, added in checked_edits(top_edited, 16, 80, 4):
        compared += 1
        answer = splice(old, new)
        if answer is not None:
            assert answer == parsed_whole(old), (removed, added)
            answered += 1
    # Guards against a vacuous pass: many edits compared, and the splice both answered and refused often.
    assert compared > 100 and 0.2 * compared < answered < 0.95 * compared, (compared, answered)
