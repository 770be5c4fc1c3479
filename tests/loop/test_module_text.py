"""The loop reads a method's whole module: ``module_text`` found only top-level functions, because a method's
scanned source is dedented (issue 29), which turned off every module check (return types, bound names,
``**kwargs`` reach, constant defaults) for every method."""

from __future__ import annotations

from pathlib import Path

from docbot.loop.runner import holds, module_text
from docbot.scan.targets import public_functions

MODULE = '''\
class Box:
    """A box."""

    def size(self) -> int:
        """How big."""
        return len(self.items)

    @property
    def name(self):
        return "box"


def top(x):
    return x
'''


def test_a_methods_module_is_read(tmp_path: Path) -> None:
    (tmp_path / "box.py").write_text(MODULE, encoding="utf-8")
    targets = {t.qualname: t for t in public_functions(MODULE, "box", "box.py")}
    assert targets["Box.size"].source.startswith("def size")  # dedented, as the scan gives it
    assert module_text(tmp_path, targets["Box.size"]) == MODULE
    assert module_text(tmp_path, targets["Box.name"]) == MODULE  # decorated too
    assert module_text(tmp_path, targets["top"]) == MODULE


def test_a_module_that_changed_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "box.py").write_text(MODULE.replace("len(self.items)", "0"), encoding="utf-8")
    method = next(t for t in public_functions(MODULE, "box", "box.py") if t.qualname == "Box.size")
    assert module_text(tmp_path, method) == ""


def test_holds_compares_at_the_methods_own_indentation() -> None:
    method = "def size(self):\n    return 1\n"
    assert holds("class A:\n    def size(self):\n        return 1\n", method)
    assert not holds("class A:\n    def size(self):\n        return 2\n", method)
