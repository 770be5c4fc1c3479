"""What a diff changed, found without parsing the old side whole when every differing line lies inside one
function (issue 32: the drift gate's second parse of a changed module). The answer is the whole parse's; the
old side is parsed whole only where the shortcut cannot prove itself."""

from __future__ import annotations

import pytest

from docbot.verify.project.sides import changed_names
from tests.support.parses import counted_parses

CLASS = "class C:\n    X = 1\n\n    def m(self):\n        return 1\n\n    def n(self):\n        return 2\n"
TAIL = "\n\nY = f()\n"


@pytest.mark.parametrize("old, new, changed, shortcut", [
    # one function's body, its last line, a method's, a nested function's: only that function's old text
    ("def f():\n    a = 1\n    return a\n" + TAIL, "def f():\n    a = 2\n    return a\n" + TAIL, {"f"}, True),
    ("def f():\n    return 1\n" + TAIL, "def f():\n    return 2\n" + TAIL, {"f"}, True),
    (CLASS, CLASS.replace("return 2", "return 3"), {"C.n"}, True),
    ("def f():\n    def g():\n        return 1\n    return g\n" + TAIL,
     "def f():\n    def g():\n        return 9\n    return g\n" + TAIL, {"f"}, True),
    ("def f():\n    return 1\n" + TAIL, "def f():\n    return 1  # why\n" + TAIL, set(), True),  # a comment
    ("def f():\n    a = 1\n    return a\n" + TAIL, "def f():\n    return 1\n" + TAIL, {"f"}, True),  # lines removed
    ("def f():\n    return 1\n" + TAIL, "def f():\n    a = 1\n    return 1\n" + TAIL, {"f"}, True),  # added
    ("def f(a):\n    return a\n" + TAIL, "def f(a, b=1):\n    return a\n" + TAIL, {"f"}, True),  # its signature
    ("def f():\n    if a:\n        return 1\nY = 3\n", "def f():\n    return 1\nY = 3\n", {"f"}, True),
    # where it cannot prove itself, the whole old side, as before
    ("def f():\n    return (1\n", "def f():\n    return (1)\n", {"<module>", "f"}, False),  # old: no parse
    ("def f():\n    return 1\n\n\ndef g():\n    return 1\n",
     "def f():\n    return 2\n\n\ndef g():\n    return 2\n", {"f", "g"}, False),  # two functions
    ("def g():\n    return 1\n", "def f():\n    return 1\n", {"f", "g"}, False),  # renamed
    ("@a\ndef f():\n    return 1\n", "@b\ndef f():\n    return 1\n", {"f"}, False),  # its decorator
    (CLASS, CLASS.replace("X = 1", "X = 2"), {"C"}, False),  # the class's own code
    ("if A:\n    def f():\n        return 1\n", "if A:\n    def f():\n        return 2\n", {"f"}, False),
    ("def f():\n    return 1\nY = 1\n", "def f():\n    return 1\nY = 2\n", {"Y"}, False),  # below it
])
def test_one_functions_change_is_found_from_its_old_text(old: str, new: str, changed: set[str], shortcut: bool,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    parsed = counted_parses(monkeypatch)
    assert changed_names(old, new, "toy.core", False) == {f"toy.core.{name}" for name in changed}
    assert (old not in parsed) is shortcut  # the old side parsed whole only where the shortcut gave up
    # (the shortcut's cases hold more than the one function, so its old text alone is not the old side)
