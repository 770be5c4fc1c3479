"""Which modules griffe reads to find a private module's page (docbot.apidocs.reach), and that the answer is
the one griffe gives with the whole package loaded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from docbot.apidocs import api_model, homes, reach


@pytest.mark.parametrize(("module", "is_package", "text", "expected"), [
    ("pkg.a", False, "from ._impl import f, g as h\n", {"pkg._impl", "pkg._impl.f", "pkg._impl.g", "pkg._impl.h"}),
    ("pkg.a", True, "from ._impl import f\n", {"pkg.a._impl", "pkg.a._impl.f", "pkg.a.f"}),
    ("pkg.a.b", False, "from .. import _x\n", {"pkg", "pkg._x"}),
    ("pkg.a.b", False, "from ..c import *\n", {"pkg.c"}),
    ("pkg", True, "from . import (\n    one,\n    two,\n)\n", {"pkg", "pkg.one", "pkg.two"}),
    ("pkg.m", False, "from pkg._impl import \\\n    f\n", {"pkg._impl", "pkg._impl.f"}),
    ("pkg.m", False, "import pkg._impl.core as core, os\n", {"pkg._impl.core", "core", "os"}),
    ("pkg.m", False, "from os import path\nimport pkg._r\n", {"os", "os.path", "pkg._r"}),
    ("pkg.m", False, "if x: from ._y import z\n", {"pkg._y", "pkg._y.z"}),
    ("pkg.m", False, "a = 1; import pkg._q\n", {"pkg._q"}),
    ("pkg.m", False, "from ... import x\n", set()),  # above the package: not one of its modules
    ("pkg.m", False, "x = 1\n", set()),
])
def test_imported_reads_every_module_a_statement_may_import(module: str, is_package: bool, text: str,
                                                             expected: set[str]) -> None:
    assert reach.imported(module, is_package, text) == expected


@pytest.mark.parametrize(("files", "expected"), [
    # the package's __init__ re-exports a private module: both read
    ({"pkg": (True, "from ._impl import f\n"), "pkg._impl": (False, ""), "pkg.other": (False, "import os\n")},
     {"pkg", "pkg._impl"}),
    # a public module off the __init__ chain re-exports, through a public module and a private package
    ({"pkg": (True, ""), "pkg.api": (False, "from .mid import f\n"), "pkg.mid": (False, "from ._p import f\n"),
      "pkg._p": (True, "from .core import f\n"), "pkg._p.core": (False, ""), "pkg.plain": (False, "")},
     {"pkg", "pkg.api", "pkg.mid", "pkg._p", "pkg._p.core"}),
    # a chain into a public module only: nothing to read (griffe reads the top module anyway)
    ({"pkg": (True, "from .a import f\n"), "pkg.a": (False, ""), "pkg._lone": (False, "")}, set()),
    # a submodule shadowing a kept package's import is read, though no chain runs through it
    ({"pkg": (True, "from ._s import sub\n"), "pkg._s": (False, ""), "pkg.sub": (False, ""), "pkg.x": (False, "")},
     {"pkg", "pkg._s", "pkg.sub"}),
    # a deep chain keeps its parent packages, which griffe reads the module under
    ({"pkg": (True, ""), "pkg.s": (True, ""), "pkg.s.t": (True, ""), "pkg.s.t.u": (False, "from ._v import f\n"),
      "pkg.s.t._v": (False, "")}, {"pkg", "pkg.s", "pkg.s.t", "pkg.s.t.u", "pkg.s.t._v"}),
    # a private module importing a private one is read only when a public module leads to it
    ({"pkg": (True, ""), "pkg._a": (False, "from ._b import f\n"), "pkg._b": (False, "")}, set()),
])
def test_needed_keeps_the_chains_from_public_to_private_modules(files: dict[str, tuple[bool, str]],
                                                                expected: set[str]) -> None:
    assert reach.needed((name, package, text) for name, (package, text) in files.items()) == expected


CHAINS = {
    "pkg/__init__.py": "from ._core import run\nfrom .tools import *\n",
    "pkg/_core.py": "def run():\n    pass\n\n\ndef walk():\n    pass\n",
    "pkg/tools.py": "from ._tool_impl import hammer, saw\n__all__ = ['hammer', 'saw']\n",
    "pkg/_tool_impl.py": "def hammer():\n    pass\n\n\ndef saw():\n    pass\n",
    "pkg/api/__init__.py": "",
    "pkg/api/v1.py": "from pkg._core import run, walk\nfrom .._private_pkg import thing\n",
    "pkg/_private_pkg/__init__.py": "from .deep import thing\n",
    "pkg/_private_pkg/deep.py": "class thing:\n    pass\n",
    "pkg/shadow/__init__.py": "from ._s import sub\n",
    "pkg/shadow/_s.py": "def sub():\n    pass\n",
    "pkg/shadow/sub.py": "x = 1\n",
    "pkg/unrelated.py": "import os\n\n\ndef f():\n    return os.sep\n",
    "pkg/broken.py": "def (\n",
}


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[set[str]]:
    """The modules each griffe load of ``defined_at`` reads, recorded."""
    loads: list[set[str]] = []
    load = api_model._load

    def recording(root: Path, package: str, pick: Any = None) -> Any:
        def picked(module: Any, every: Any) -> list[Any]:
            kept = pick(module, every)
            loads.append({api_model._name(module, parts) for parts, _ in kept})
            return kept
        return load(root, package, picked if pick else None)

    monkeypatch.setattr(api_model, "_load", recording)
    return loads


def test_griffe_on_the_chains_gives_the_whole_packages_answer(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Wildcards, ``__all__``, a public module off the ``__init__`` chain, a private package and a submodule
    shadowing a re-export: the same (module, definition) pairs as the whole package, and an unrelated module
    (here one that does not parse) is not read."""
    for rel, text in CHAINS.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    whole = [(m.path, t.path) for m in api_model._public_modules(api_model._load(tmp_path, "pkg"))
             for name in api_model._exported(m) if (t := api_model._shown(m[name])) is not None]
    counted = [pair for pair in whole if not homes.is_public(pair[1].rsplit(".", 1)[0])]
    assert [pair for pair in api_model.defined_at(tmp_path, "pkg") if pair in counted] == counted
    assert not [pair for pair in api_model.defined_at(tmp_path, "pkg") if pair not in whole]
    assert ("pkg.api.v1", "pkg._private_pkg.deep.thing") in counted and ("pkg.shadow", "pkg.shadow._s.sub") not in whole
    assert homes.reexported(tmp_path, "pkg") == {"pkg._core": "pkg.api.v1", "pkg._tool_impl": "pkg.tools",
                                                 "pkg._private_pkg.deep": "pkg.api.v1"}
    loads = _reads(monkeypatch)
    list(api_model.defined_at(tmp_path, "pkg"))
    # two groups no chain crosses (the top's imports join _core, tools and api), one griffe load each
    assert loads == [{"pkg._core", "pkg.tools", "pkg._tool_impl", "pkg.api", "pkg.api.v1", "pkg._private_pkg",
                      "pkg._private_pkg.deep"}, {"pkg.shadow", "pkg.shadow._s", "pkg.shadow.sub"}]


def test_a_namespace_package_is_read_by_its_chains(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A namespace package (no ``__init__``: a whole tree of packages under one folder) has no text of its own;
    its subpackages' chains are read, and an unrelated subpackage is not."""
    files = {"ns/sub/__init__.py": "from ._impl import f\n", "ns/sub/_impl.py": "def f():\n    pass\n",
             "ns/other/__init__.py": "def g():\n    pass\n", "ns/other/_x.py": "def h():\n    pass\n"}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    loads = _reads(monkeypatch)
    assert homes.reexported(tmp_path, "ns") == {"ns.sub._impl": "ns.sub"}
    assert loads == [{"ns.sub", "ns.sub._impl"}]


def test_a_public_module_is_counted_in_its_own_group_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``pkg.sub`` is read again in ``x``'s group (as its parent, with ``_y``, which its import binds): counted
    there too it would tie with ``other`` and take ``_y``'s page from it."""
    files = {"pkg/__init__.py": "", "pkg/sub/__init__.py": "from . import _y\nfrom ._y import f\n",
             "pkg/sub/_y.py": "def f():\n    pass\n\n\ndef h():\n    pass\n",
             "pkg/sub/other.py": "from ._y import f, h\n",
             "pkg/sub/x.py": "from ._z import g\n", "pkg/sub/_z.py": "def g():\n    pass\n"}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    loads = _reads(monkeypatch)
    assert homes.reexported(tmp_path, "pkg") == {"pkg.sub._y": "pkg.sub.other", "pkg.sub._z": "pkg.sub.x"}
    assert loads[1] >= {"pkg.sub", "pkg.sub._y", "pkg.sub.x", "pkg.sub._z"}
