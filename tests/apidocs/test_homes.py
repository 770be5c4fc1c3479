"""The rules of ``docbot.apidocs.homes``: which page a module goes to without griffe, and a merge on a page
several modules share (docs/design.md#docs-files)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.apidocs import homes, pages


@pytest.mark.parametrize("module, public, nearest, parents", [
    ("pkg.geo", True, "pkg.geo", []),
    ("pkg._funcs", False, "pkg", ["pkg"]),
    ("pkg.sub._impl", False, "pkg.sub", ["pkg.sub", "pkg"]),
    ("pkg._impl.deep", False, "pkg", ["pkg"]),
    ("_private", False, "_private", []),
])
def test_public_parents(module: str, public: bool, nearest: str, parents: list[str]) -> None:
    assert (homes.is_public(module), homes.nearest_public(module), homes.public_parents(module)) == \
        (public, nearest, parents)


@pytest.mark.parametrize("module, holding, expected", [
    ("pkg.geo", {"pkg"}, "pkg.geo"),  # a public module is its own page, whatever a page holds
    ("pkg.sub._impl", {"pkg"}, "pkg"),  # a parent's page that holds its sections keeps them
    ("pkg.sub._impl", {"pkg.sub", "pkg"}, "pkg.sub"),  # the nearest first
    ("_private", {"_private"}, "_private"),
])
def test_a_page_holding_the_modules_sections_decides_without_griffe(module: str, holding: set[str],
                                                                    expected: str) -> None:
    names = homes.PageNames(root=None)  # type: ignore[arg-type]  # griffe would need a root: never reached
    assert names.page(module, lambda page: page in holding) == expected


PAGE = pages.render_doc_file("pkg", {
    "pkg._a:f": pages.Section("1", "## `f`\n\nA's f."),
    "pkg._b:f": pages.Section("2", "## `f`\n\nB's f."),  # the same qualname in two modules: two sections
    "pkg._a:g": pages.Section("3", "## `g`\n\nA's g."),
    "own": pages.Section("4", "## `own`\n\nThe page's own module's."),
})


@pytest.mark.parametrize("module, order, updates, removals, keys, bodies", [
    ("pkg._a", ["g", "f"], {}, set(), ["pkg._a:g", "pkg._a:f", "pkg._b:f", "own"], {}),
    ("pkg._a", ["f"], {}, set(), ["pkg._a:f", "pkg._b:f", "own"], {}),  # g is gone from the code
    ("pkg._a", ["f", "g"], {}, {"f"}, ["pkg._a:g", "pkg._b:f", "own"], {}),
    ("pkg._b", ["f"], {"f": pages.Section("9", "## `f`\n\nB's new f.")}, set(),
     ["pkg._a:f", "pkg._b:f", "pkg._a:g", "own"], {"pkg._b:f": "B's new f.", "pkg._a:f": "A's f."}),
    ("pkg._c", ["h"], {"h": pages.Section("5", "## `h`")}, set(),
     ["pkg._a:f", "pkg._b:f", "pkg._a:g", "own", "pkg._c:h"], {}),  # a new module goes last
    ("pkg", ["own"], {"own": pages.Section("6", "## `own`\n\nNew.")}, set(),
     ["pkg._a:f", "pkg._b:f", "pkg._a:g", "own"], {"own": "New."}),
])
def test_a_merge_changes_only_its_own_modules_sections(module: str, order: list[str],
                                                       updates: dict[str, pages.Section], removals: set[str],
                                                       keys: list[str], bodies: dict[str, str]) -> None:
    text = homes.merge_module(pages.parse_doc_file(PAGE), "pkg", module, order, updates, removals)
    assert text is not None
    merged = pages.parse_doc_file(text).sections
    assert list(merged) == keys
    assert all(body in merged[key].body for key, body in bodies.items())
    assert homes.module_view(pages.parse_doc_file(text), "pkg", "pkg._b") is not None


PACKAGE = {
    "pkg/__init__.py": "from pkg._funcs import asdict, astuple\nfrom pkg.sub._impl import run\n"
                       "__all__ = ['asdict', 'astuple', 'run']\n",
    "pkg/_funcs.py": "def asdict(x):\n    return {}\n\n\ndef astuple(x):\n    return ()\n\n\n"
                     "def _hidden():\n    pass\n",
    "pkg/filters.py": "from pkg._funcs import asdict\nfrom pkg._make import Factory\n",
    "pkg/_make.py": "class Factory:\n    def make(self):\n        pass\n",
    "pkg/_alone.py": "def lonely():\n    pass\n",
    "pkg/sub/__init__.py": "from ._impl import run, stop\n",
    "pkg/sub/_impl.py": "def run():\n    pass\n\n\ndef stop():\n    pass\n",
}


def test_reexported_names_the_public_module_showing_most_of_a_private_modules_objects(tmp_path: Path) -> None:
    """griffe's reading, without building the pages' objects: the same answer as counting ``load_api``'s."""
    from collections import Counter

    from docbot.apidocs.api_model import load_api

    for rel, text in PACKAGE.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    found = homes.reexported(tmp_path, "pkg")
    assert found == {"pkg._funcs": "pkg", "pkg._make": "pkg.filters", "pkg.sub._impl": "pkg.sub"}
    counts: dict[str, Counter[str]] = {}
    for module in load_api(tmp_path, "pkg"):
        for obj in module.members:
            source = obj.canonical.rsplit(".", 1)[0]
            if source != module.path and not homes.is_public(source):
                counts.setdefault(source, Counter())[module.path] += 1
    assert found == {source: min(c, key=lambda p: (-c[p], p.count("."), p)) for source, c in counts.items()}
    names = homes.PageNames(tmp_path)
    assert [names.page(m) for m in ("pkg._funcs", "pkg._alone", "pkg.sub._impl")] == ["pkg", "pkg", "pkg.sub"]


def test_a_loaded_package_is_let_go(tmp_path: Path) -> None:
    """griffe's dataclass extension caches every dataclass it reads, and each holds its whole package: after
    ``reexported`` no griffe object of the package is left (check --all loads package after package)."""
    import gc

    files = {**PACKAGE, "pkg/_make.py": "from dataclasses import dataclass\n\n\n@dataclass\nclass Factory:\n"
                                         "    size: int = 1\n\n    def make(self):\n        pass\n"}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    old = gc.get_threshold()
    gc.set_threshold(100_000, 50, 100)  # as a whole-tree scan runs
    try:
        assert homes.reexported(tmp_path, "pkg")["pkg._make"] == "pkg.filters"
        left = [o for o in gc.get_objects() if str(type(o).__module__).startswith("griffe")
                and not isinstance(o, type) and str(getattr(o, "filepath", "")).startswith(str(tmp_path))]
    finally:
        gc.set_threshold(*old)
    assert left == []
