"""api_scope: private modules and packages, their re-exports, and moves between files of one module."""

from __future__ import annotations

import pytest

from docbot.scan.publicity import PrivatePart, in_api, merge_moves, private_part, reexported
from docbot.results import ChangeKind, Target


def target(path: str, qualname: str, kind: ChangeKind = "unchanged", module: str = "") -> Target:
    return Target(module=module or path.removesuffix(".py").replace("/", "."), qualname=qualname, path=path,
                  lineno=1, end_lineno=2, kind=kind, source=f"def {qualname}(): pass\n")


@pytest.mark.parametrize(("path", "part"), [
    ("pkg/mod.py", None),
    ("pkg/__init__.py", None),
    ("src/pkg/sub/mod.py", None),
    ("pkg/_private.py", PrivatePart("pkg/__init__.py", "pkg", "pkg._private")),
    ("pkg/_internal/mod.py", PrivatePart("pkg/__init__.py", "pkg", "pkg._internal")),
    ("pkg/_internal/__init__.py", PrivatePart("pkg/__init__.py", "pkg", "pkg._internal")),
    ("src/pkg/sub/_impl.py", PrivatePart("src/pkg/sub/__init__.py", "pkg.sub", "pkg.sub._impl")),
    ("pkg/__main__.py", PrivatePart("pkg/__init__.py", "pkg", "pkg.__main__")),
    ("_tool.py", PrivatePart("", "", "_tool")),
    ("pkg/sub/_a/_b.py", PrivatePart("pkg/sub/__init__.py", "pkg.sub", "pkg.sub._a")),
])
def test_private_part(path: str, part: PrivatePart | None) -> None:
    assert private_part(path) == part


PRIVATE = PrivatePart("pkg/__init__.py", "pkg", "pkg._private")
INTERNAL = PrivatePart("pkg/__init__.py", "pkg", "pkg._internal")


@pytest.mark.parametrize(("init", "part", "names", "star"), [
    pytest.param("from ._private import f, g as h\n", PRIVATE, {"f", "g"}, False, id="relative"),
    pytest.param("from pkg._private import f\n", PRIVATE, {"f"}, False, id="absolute"),
    pytest.param("from ._private import *\n", PRIVATE, {"*"}, True, id="star"),
    pytest.param("from ._other import f\nfrom .public import g\n", PRIVATE, set(), False, id="other-modules"),
    pytest.param("from ._privateer import f\n", PRIVATE, set(), False, id="prefix-is-not-a-parent"),
    pytest.param("from . import _private\n", PRIVATE, set(), False, id="module-import-re-exports-no-name"),
    pytest.param("__all__ = ['f', 'Cls']\n", PRIVATE, {"f", "Cls"}, False, id="dunder-all"),
    pytest.param("from ._internal.mod import f\nfrom ._internal import g\n", INTERNAL, {"f", "g"}, False,
                 id="private-package"),
    pytest.param("try:\n    from ._private import fast\nexcept ImportError:\n    pass\n", PRIVATE, {"fast"}, False,
                 id="import-fallback-block"),
    pytest.param("def later():\n    from ._private import f\n", PRIVATE, set(), False, id="import-in-function"),
    pytest.param("from .. import _private\nfrom ..pkg._private import f\n",
                 PrivatePart("a/pkg/__init__.py", "a.pkg", "a.pkg._private"), {"f"}, False, id="level-two"),
    pytest.param("from ._private import (\n", PRIVATE, set(), False, id="init-does-not-parse"),
])
def test_reexported(init: str, part: PrivatePart, names: set[str], star: bool) -> None:
    assert reexported(init, part) == (frozenset(names), star)


def reader(files: dict[tuple[str, bool], str]) -> object:
    return lambda path, old_side: files.get((path, old_side))


def test_in_api_keeps_public_modules_and_reexports() -> None:
    found = [target("pkg/mod.py", "visible"),
             target("pkg/_private.py", "hidden"),
             target("pkg/_private.py", "shown"),
             target("pkg/_private.py", "Cls.method"),
             target("pkg/_internal/mod.py", "deep"),
             target("pkg/_internal/mod.py", "deep_hidden"),
             target("_tool.py", "script"),
             target("other/_x.py", "no_init")]
    init = "from ._private import shown, Cls\nfrom ._internal.mod import deep\n"
    kept = in_api(found, reader({("pkg/__init__.py", False): init}))  # type: ignore[arg-type]
    assert [t.qualname for t in kept] == ["visible", "shown", "Cls.method", "deep"]


def test_in_api_judges_a_deleted_target_by_the_old_init() -> None:
    found = [target("pkg/_private.py", "gone", "deleted"), target("pkg/_private.py", "new", "added")]
    files = {("pkg/__init__.py", True): "from ._private import gone\n",
             ("pkg/__init__.py", False): "from ._private import new\n"}
    assert [t.qualname for t in in_api(found, reader(files))] == ["gone", "new"]  # type: ignore[arg-type]


def test_in_api_star_import_keeps_every_target() -> None:
    found = [target("pkg/_private.py", "a"), target("pkg/_private.py", "b")]
    init = {("pkg/__init__.py", False): "from ._private import *\n"}
    assert len(in_api(found, reader(init))) == 2  # type: ignore[arg-type]


MOVE_CASES = [
    pytest.param([target("pkg/m.py", "f", "deleted", "pkg.m"), target("pkg/m/__init__.py", "f", "added", "pkg.m")],
                 [("pkg/m/__init__.py", "f", "modified")], id="module-becomes-package"),
    pytest.param([target("pkg/m/__init__.py", "f", "modified", "pkg.m"), target("pkg/m.py", "f", "deleted", "pkg.m")],
                 [("pkg/m/__init__.py", "f", "modified")], id="live-first"),
    pytest.param([target("pkg/a.py", "f", "deleted", "pkg.a"), target("pkg/b.py", "f", "added", "pkg.b")],
                 [("pkg/a.py", "f", "deleted"), ("pkg/b.py", "f", "added")], id="other-module-is-a-real-move"),
    pytest.param([target("pkg/m.py", "f", "deleted", "pkg.m"), target("pkg/m/__init__.py", "g", "added", "pkg.m")],
                 [("pkg/m.py", "f", "deleted"), ("pkg/m/__init__.py", "g", "added")], id="other-function"),
]


@pytest.mark.parametrize(("found", "expected"), MOVE_CASES)
def test_merge_moves(found: list[Target], expected: list[tuple[str, str, str]]) -> None:
    assert [(t.path, t.qualname, t.kind) for t in merge_moves(found)] == expected
