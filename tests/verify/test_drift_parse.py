"""The drift gate reads each module of the package once (issue 32): one ``ast.parse`` serves the package's
``ApiIndex`` and its reach graph, and gives what parsing for each gave."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.verify.project import drift
from docbot.verify.project.package import Package
from docbot.verify.project.reach import Reach, split_module
from tests.support.parses import counted_parses

FILES = {
    "toy/__init__.py": "from toy.core import add, Box\nfrom toy import broken\n__all__ = ['add', 'Box']\n",
    "toy/core.py": "import os\n\nDEFAULT = 2\n\n\ndef add(a, b=DEFAULT):\n    return _helper(a) + b\n\n\n"
                   "def _helper(a):\n    return os.fspath(a)\n\n\nclass Box:\n    size = 1\n\n"
                   "    def open(self):\n        self.state = add(1)\n        return self.state\n",
    "toy/broken.py": "print 'python 2'\n",  # does not parse: what it binds is unknown
    "toy/sub/__init__.py": "from ..core import *\n",
}


@pytest.fixture
def package(tmp_path: Path) -> Package:
    for rel, text in FILES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    return Package.at(tmp_path / "toy", tmp_path)


def test_one_parse_per_module_gives_the_index_and_the_splits(package: Package,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    expected_index = package.index()
    expected_defs = {m: split_module(package.source(m), m, f.name == "__init__.py")
                     for m, f in package.modules.items()}
    parsed = counted_parses(monkeypatch)
    index, defs = drift.read_package(package)
    assert sorted(parsed) == sorted(package.source(m) for m in package.modules)  # each module once
    assert index == expected_index
    assert defs == expected_defs
    assert set(defs) == {"toy", "toy.core", "toy.broken", "toy.sub"}
    assert index.scopes["toy.broken"].open  # a module that does not parse binds what we cannot know


def test_the_reach_graph_reads_no_module_it_was_given(package: Package) -> None:
    _index, defs = drift.read_package(package)

    def unread(module: str) -> str:
        raise AssertionError(f"{module} read again")

    graph = Reach({m: f.name == "__init__.py" for m, f in package.modules.items()}, unread, defs)
    assert graph.reaches({"toy.core.add"}, {"toy.core._helper"})  # add calls _helper
    assert graph.reaches({"toy.core.add"}, {"toy.core.DEFAULT"})  # ... and defaults to DEFAULT
    assert not graph.reaches({"toy.core._helper"}, {"toy.core.DEFAULT"})  # _helper uses no DEFAULT
