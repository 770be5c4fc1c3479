"""The old side of a diff spliced from the new side's unchanged statements (docbot.scan.old_side.spliced):
a table of cases, each held to the targets of parsing both sides, then a property over module-level and
class-level edits of stdlib files (code we did not write)."""

from __future__ import annotations

import random

import pytest

from docbot.git.diff import FileChange
from docbot.scan import old_side, targets
from docbot.scan.targets import changed_targets
from tests.scan.test_targets_old import checked, checked_edits, ranges

HEAD = "import os\n\n\ndef f():\n    return 1\n\n\nclass C:\n    x = 1\n\n    def m(self):\n        return 2\n\n" \
       "    def n(self):\n        pass\n\n\ndef g():\n    pass\n"


def found(old: str, new: str) -> tuple[list[tuple[str, tuple[int, int]]], ...] | None:
    """``old_side.spliced``'s answer (without dunders, with them) for the diff ``old`` -> ``new``."""
    removed, added = ranges(old, new)
    reading = targets._both_readings(new, "m.py")
    assert reading.layout is not None
    pieces = tuple(sorted(((d.qualname, s) for d in defs for s in d.spans), key=lambda p: p[1][0])
                   for defs in (reading.narrow, reading.wide))
    return old_side.spliced((pieces[0], pieces[1]), reading.layout.chunks, reading.layout.exported,
                            (reading.layout.lines, old.split("\n")), removed, added)


def parsed_old(old: str) -> tuple[list[tuple[str, tuple[int, int]]], ...]:
    """The reference: the old side's public pieces from parsing all of it."""
    return tuple([(d.qualname, s) for d in targets._definitions(old, "m.py", dunder) for s in d.spans]
                 for dunder in (False, True))


CASES = [
    # (old, new, spliced): spliced says whether the splice answers (False: the whole old side is parsed)
    (HEAD, HEAD.replace("import os\n", "import os\n# a comment\n"), True),  # the hook's private edit
    (HEAD, HEAD.replace("import os\n", "import os\nimport re\n"), True),
    (HEAD, HEAD.replace("def g():\n    pass\n", ""), True),  # g deleted: found in the old region
    (HEAD, HEAD.replace("def g():", "def h():"), True),  # renamed: g is old, h is new
    (HEAD, HEAD.replace("    x = 1\n", "    x = 2\n"), True),  # a class attribute: spliced inside C
    (HEAD, HEAD.replace("    def n(self):\n        pass\n", ""), True),  # a method deleted inside C
    (HEAD, HEAD.replace("    def n(self):", "    def k(self):"), True),  # a method renamed inside C
    (HEAD, HEAD.replace("class C:", "class D:"), True),  # the class header: C parsed alone on the old side
    (HEAD, HEAD.replace("def f():\n    return 1\n", "__all__ = ['g']\n\n\ndef f():\n    return 1\n"), False),
    (HEAD.replace("import os\n", "__all__ = ['f']\n"), HEAD.replace("import os\n", "__all__ = ['f', 'g']\n"), False),
    # a comment after an unchanged __all__ (inspect.py's private edit): its chunk changed, its __all__ did not
    (HEAD.replace("import os\n", "__all__ = ['f']\n"), HEAD.replace("import os\n", "__all__ = ['f']\n# c\n"), True),
    (HEAD.replace("import os\n", "__all__ = ['f']\n"), HEAD.replace("import os\n", "__all__ = ['f']  # c\n"), False),
    (HEAD.replace("import os\n", "__all__ = ['f']\n"), HEAD.replace("import os\n", "__all__ = ['g']\n"), False),
    (HEAD.replace("import os\n", "__all__ = ['f']\n"),  # a later += written in the old side only
     HEAD.replace("import os\n", "__all__ = ['f']\n").replace("def g():\n    pass\n", "def h():\n    pass\n"), True),
    (HEAD.replace("import os\n", "__all__ = ['f']\n") + "__all__ += ['g']\n",
     HEAD.replace("import os\n", "__all__ = ['f']\n"), False),
    # the old side held g inside a string: the string's first line goes with C, which then does not parse
    (HEAD.replace("def g():\n    pass\n", "s = '''\ndef g():\n    pass\n'''\n"), HEAD, False),
    (HEAD.replace("import os\n", "x = (\n"), HEAD, False),  # the old side does not parse at all
    (HEAD.replace("import os\n", "import os \\\n"), HEAD, True),  # a backslash joins the blank line below
    (HEAD.replace("import os\n\n\n", "import os \\\n"), HEAD, False),  # ... and here the def: no old parse
    # the old method n was at module level (dedented): the class region leaves the class
    (HEAD.replace("    def n(self):\n        pass\n", "def n(self):\n    pass\n"), HEAD, True),
    # the old method had a deeper indentation than its siblings: the old side does not parse
    (HEAD.replace("    def n(self):\n        pass\n", "      def n(self):\n        pass\n"), HEAD, False),
    (HEAD, HEAD.replace("class C:\n    x = 1\n", "class C:\n    x = 1\n    y = 2\n"), True),
    (HEAD, HEAD.replace("    def m(self):", "    @property\n    def m(self):"), True),  # a decorator added
    (HEAD, HEAD + "\n\nclass E:\n    def e(self):\n        pass\n", True),  # a class added at the end
    (HEAD.replace("class C:\n    x = 1\n", "class C:\n"), HEAD, True),  # inserted class body line
]


@pytest.mark.parametrize("old, new, spliced", CASES)
def test_splice_gives_the_old_side_of_a_full_parse(old: str, new: str, spliced: bool) -> None:
    answer = found(old, new)
    assert (answer is not None) == spliced
    if answer is not None:
        assert answer == parsed_old(old)


@pytest.mark.parametrize("old, new, spliced", CASES)
def test_changed_targets_with_a_splice_equal_both_sides_parsed(old: str, new: str, spliced: bool) -> None:
    assert checked(old, new) is not None


def test_a_private_edit_parses_only_the_changed_statement(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook's private edit in a large file: one ast.parse of the new side and one of the edited import,
    not a second parse of the whole file."""
    new = HEAD.replace("import os\n", "import os\n# a comment\n")
    sizes: list[int] = []
    real = targets.ast.parse

    def parse(source: str, *args: object, **kwargs: object) -> object:
        sizes.append(len(source.lstrip("\n")))
        return real(source, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(targets.ast, "parse", parse)
    targets.clear_caches()
    removed, added = ranges(HEAD, new)
    change = FileChange("m.py", "m.py", "modified", removed, added)
    assert changed_targets(HEAD, new, change, "m", "m.py") == []
    assert sizes[0] == len(new) and all(size < len(HEAD) // 4 for size in sizes[1:]), sizes
    assert len(sizes) >= 2


LINES = ["# a comment", "import sys", "X = 1", "def late():\n    pass", "class Late:\n    def m(self):\n        pass",
         "__all__ = ['late']", "s = '''", "    y = 1", "    def inner(self):\n        pass", "x = (", "    '''",
         "if X:\n    def cond():\n        pass"]


def module_edit(text: str, rng: random.Random) -> str | None:
    """``text`` with one to three lines replaced, deleted or inserted at the start of a top-level or
    class-level statement (or just after one)."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line[:1].isalpha() or line.startswith("    def ")
              or line.startswith("    @") or line.startswith("@")]
    if not starts:
        return None
    for _ in range(rng.randint(1, 3)):
        at = min(rng.choice(starts) + rng.randint(0, 2), len(lines) - 1)
        if at < 0:
            break
        kind = rng.randrange(3)
        if kind == 0:
            lines[at] = rng.choice(LINES)
        elif kind == 1:
            del lines[at]
        else:
            lines.insert(at, rng.choice(LINES))
    return "\n".join(lines)


@pytest.mark.slow  # edits of a stdlib sample: the README's command runs it
def test_module_edits_of_stdlib_files_give_the_targets_of_parsing_both_sides() -> None:
    compared = spliced = 0
    for old, new, _removed, _added in checked_edits(module_edit, 32, 100, 5):
        compared += 1
        answer = found(old, new)
        if answer is not None:
            spliced += 1
            assert answer == parsed_old(old)
    # Guards against a vacuous pass: most edits were compared, and the splice answered often but not always.
    assert compared > 150 and 0.3 * compared < spliced < 0.98 * compared, (compared, spliced)


@pytest.mark.parametrize("seed", range(20))
def test_all_to_old_maps_each_line_as_to_old_does(seed: int) -> None:
    rng = random.Random(seed)
    gone = sorted(rng.sample(range(1, 60), rng.randint(0, 15)))
    new = sorted(rng.sample(range(1, 60), rng.randint(0, 15)))
    lines = [line for line in range(1, 70) if line not in new and rng.random() < 0.5]
    assert old_side._all_to_old(lines, gone, new) == [old_side._to_old(line, gone, new) for line in lines]
