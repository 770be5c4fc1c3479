"""The drift gate reads each module of the package once (issue 32): one ``ast.parse`` serves the package's
``ApiIndex`` and its reach graph, and gives what parsing for each gave; with its cache, a module whose text
the last run read is not parsed again, and gives the same."""

from __future__ import annotations

from pathlib import Path

import pytest

import json

from docbot.verify.project.content_cache import ContentCache
from docbot.verify.project.package import Package
from docbot.verify.project.package_read import VERSION, read_package
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
    index, defs = read_package(package)
    assert sorted(parsed) == sorted(package.source(m) for m in package.modules)  # each module once
    assert index == expected_index
    assert defs == expected_defs
    assert set(defs) == {"toy", "toy.core", "toy.broken", "toy.sub"}
    assert index.scopes["toy.broken"].open  # a module that does not parse binds what we cannot know


def test_the_reach_graph_reads_no_module_it_was_given(package: Package) -> None:
    _index, defs = read_package(package)

    def unread(module: str) -> str:
        raise AssertionError(f"{module} read again")

    graph = Reach({m: f.name == "__init__.py" for m, f in package.modules.items()}, unread, defs)
    assert graph.reaches({"toy.core.add"}, {"toy.core._helper"})  # add calls _helper
    assert graph.reaches({"toy.core.add"}, {"toy.core.DEFAULT"})  # ... and defaults to DEFAULT
    assert not graph.reaches({"toy.core._helper"}, {"toy.core.DEFAULT"})  # _helper uses no DEFAULT


def _cold_then_warm(package: Package, path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object, list[str]]:
    cold = read_package(package, cache := ContentCache(path, VERSION))
    cache.save()
    parsed = counted_parses(monkeypatch)
    warm = read_package(package, ContentCache(path, VERSION))
    return cold, warm, parsed


def test_a_warm_read_parses_no_module_and_gives_what_parsing_gave(package: Package, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    cold, warm, parsed = _cold_then_warm(package, tmp_path / "package.json", monkeypatch)
    assert parsed == []
    assert warm == cold == read_package(package)
    parsed.clear()
    (package.path / "core.py").write_text(FILES["toy/core.py"] + "\n\ndef more():\n    pass\n", encoding="utf-8")
    again = read_package(package, ContentCache(tmp_path / "package.json", VERSION))
    assert parsed == [package.source("toy.core")]  # only the edited module is read again
    assert again == read_package(package) and again[0].scopes["toy.core"].names["more"] == "def"


@pytest.mark.parametrize("spoil", [
    lambda entry: entry.pop("refs"),
    lambda entry: entry.update(stars="toy.core"),  # a string where a list of strings belongs
    lambda entry: entry["scopes"].update({"toy.x": [{"a": 1}, False]}),
    lambda entry: entry.update(bases={"Box": [1]}),
])
def test_an_entry_that_does_not_read_back_is_read_again_from_the_text(
        package: Package, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spoil: object) -> None:
    path = tmp_path / "package.json"
    cold, _warm, _parsed = _cold_then_warm(package, path, monkeypatch)
    data = json.loads(path.read_text(encoding="utf-8"))
    for entry in data["entries"].values():
        spoil(entry)  # type: ignore[operator]
    path.write_text(json.dumps(data), encoding="utf-8")
    parsed = counted_parses(monkeypatch)
    assert read_package(package, ContentCache(path, VERSION)) == cold
    assert len(parsed) == len(package.modules)


def test_another_versions_file_is_an_empty_cache(package: Package, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "package.json"
    _cold_then_warm(package, path, monkeypatch)
    assert ContentCache(path, VERSION).entries and not ContentCache(path, VERSION + "x").entries


def test_the_file_keeps_only_what_the_last_run_used_and_is_written_only_when_that_changed(tmp_path: Path) -> None:
    path = tmp_path / "cache.json"
    first = ContentCache(path, VERSION)
    first.put("a", 1)
    first.put("b", 2)
    first.save()
    second = ContentCache(path, VERSION)
    assert second.get("a") == 1 and second.get("missing") is None
    second.save()
    assert ContentCache(path, VERSION).entries == {"a": 1}  # b was not used: dropped
    path.unlink()
    third = ContentCache(path, VERSION)  # an empty cache, every entry of it used: nothing to write
    third.save()
    assert not path.exists()
    unkept = ContentCache(None, VERSION)
    unkept.put("a", 1)
    assert unkept.get("a") is None  # a cache with no file keeps nothing
