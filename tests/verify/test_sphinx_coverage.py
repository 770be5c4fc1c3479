"""verify's coverage line on a Sphinx project (issue 33 item 5): a constant or a type alias is no "function", each
name is given by its public path (``outcome.Value``, not ``outcome._impl.Value``), and ``.. module::`` with
``.. autofunction::``, ``.. autodata::``, ``.. data::``, ``.. autoclass::`` (and ``:members:``) documents a name,
so ``--strict`` passes a project that documents every one.

The end-to-end case is a real library: the files of the ``outcome`` 1.3.0.post0 sdist (tests/data/sphinx_outcome).
Before, ``docbot verify --strict`` there said "coverage: 5 public functions no doc names: outcome._impl.Error,
outcome._impl.Outcome, outcome._impl.Value, outcome._impl.Maybe, outcome._util.AlreadyUsedError" and exited 1.
"""

from __future__ import annotations

import json
import os
import shutil
import textwrap
from pathlib import Path

import pytest

from docbot.fronts.cli import main
from docbot.verify.project.api_index import ApiIndex
from docbot.verify.read.autodoc import documented, members_by_default
from docbot.verify.read.rst import rst_to_markdown

OUTCOME = Path(__file__).parents[1] / "data" / "sphinx_outcome"


def _outcome(root: Path) -> Path:
    """The fixture as its sdist ships it (each ``.py.txt`` back to ``.py``; the fixture's own NOTICE left out)."""
    shutil.copytree(OUTCOME, root, dirs_exist_ok=True, ignore=shutil.ignore_patterns("NOTICE.md"))
    for stored in root.rglob("*.py.txt"):
        stored.rename(stored.with_suffix(""))
    return root


def _verify(root: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object], str]:
    cwd = os.getcwd()
    os.chdir(root)
    try:
        code = main(["verify", "--no-examples", "--strict", "--json", *argv])
        data = json.loads(capsys.readouterr().out)
        main(["verify", "--no-examples", *argv])
        text = capsys.readouterr().out
    finally:
        os.chdir(cwd)
    return code, data, text


def test_a_fully_documented_sphinx_project_passes_strict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data, text = _verify(_outcome(tmp_path), capsys)
    assert (data["undocumented"], code) == ([], 0)
    assert "coverage" not in text


@pytest.mark.parametrize("drop, path, kind", [
    (".. autoclass:: AlreadyUsedError\n", "outcome.AlreadyUsedError", "class"),
    (".. autoclass:: Value\n   :members:\n   :inherited-members:\n", "outcome.Value", "class"),
    (".. py:data:: Maybe\n   :value: Value[ResultT] | Error\n", "outcome.Maybe", "type alias"),
])
def test_a_name_left_out_is_named_by_its_public_path_and_kind(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              drop: str, path: str, kind: str) -> None:
    root = _outcome(tmp_path)
    api = root / "docs" / "source" / "api.rst"
    assert drop in api.read_text(encoding="utf-8")
    api.write_text(api.read_text(encoding="utf-8").replace(drop, ""), encoding="utf-8")
    code, data, text = _verify(root, capsys)
    assert (data["undocumented"], data["undocumented_kinds"], code) == ([path], {path: kind}, 1)
    assert f"coverage: 1 public name no doc names (1 {kind}): {path}" in text


SPHINX = """\
.. module:: pkg

.. autofunction:: to_name

.. autodata:: LIMIT

.. data:: Number

.. autoclass:: pkg.Box
   :members:

.. class:: Crate(size)

   A crate.

   .. method:: open()

.. currentmodule:: pkg.extra

.. automodule:: pkg.extra
   :members:

.. autosummary::
   :toctree: generated

   shout
"""


def test_every_sphinx_directive_names_what_it_documents() -> None:
    found = documented(rst_to_markdown(SPHINX).markdown, "pkg")
    assert [(d.dotted, d.directive, d.members) for d in found] == [
        ("pkg.to_name", "autofunction", False), ("pkg.LIMIT", "autodata", False), ("pkg.Number", "data", False),
        ("pkg.Box", "autoclass", True), ("pkg.Crate", "class", False), ("pkg.Crate.open", "method", False),
        ("pkg.extra", "automodule", True), ("pkg.extra.shout", "autosummary", False)]


MYST = """\
# API

```{module} pkg
```

```{autofunction} to_name
```

```{eval-rst}
.. autoclass:: Box
   :members:
```

```{py:data} LIMIT
```
"""


def test_a_myst_page_s_directives_document_the_same_names() -> None:
    assert [(d.dotted, d.members) for d in documented(MYST, "pkg")] == [
        ("pkg.to_name", False), ("pkg.Box", True), ("pkg.LIMIT", False)]


@pytest.mark.parametrize("conf, members", [
    ('autodoc_default_options = {"members": True}\n', True),  # one of the sdists of bench/published
    ("autodoc_default_options = {\n    'members': None,\n    'undoc-members': True,\n}\n", True),
    ('autodoc_default_options = {"members": False}\n', False),
    ('autodoc_default_options = {"exclude-members": "__weakref__"}\n', False),  # marshmallow 4.4.0
    ("autodoc_default_flags = ['members']\n", True),
    ("extensions = ['sphinx.ext.autodoc']\n", False),
])
def test_conf_py_may_make_members_the_default(conf: str, members: bool) -> None:
    assert members_by_default(conf) is members


def test_members_are_the_public_names_of_the_class_or_module() -> None:
    index = ApiIndex("pkg")
    index.add_module("pkg", "from ._core import Box\n", is_package=True)
    index.add_module("pkg._core", textwrap.dedent("""\
        LIMIT = 3
        Number = int | float


        class Box:
            def open(self):
                pass

            def _hidden(self):
                pass
        """))
    assert index.members("pkg.Box") == ["pkg._core.Box.open"]
    assert sorted(index.members("pkg._core")) == ["pkg._core.Box", "pkg._core.Box.open", "pkg._core.LIMIT",
                                                  "pkg._core.Number"]
    assert [index.kind(n) for n in ("pkg.Box", "pkg._core.LIMIT", "pkg._core.Number")] == ["class", "value", "alias"]


PACKAGE = {"pyproject.toml": "[project]\nname = 'pkg'\n", "pkg/__init__.py": "from .core import Box, local\n",
           "pkg/core.py": "import threading\n\nlocal = threading.local()\n\n\nclass Box:\n    def open(self):\n"
                           "        return 1\n"}


@pytest.mark.parametrize("files, undocumented", [
    ({"docs/api.rst": ".. module:: pkg\n\n.. autoclass:: Box\n\n.. data:: local.name\n"}, ["pkg.core.Box.open"]),
    # sphinx's conf.py makes `:members:` the default: the method is documented with its class
    ({"docs/api.rst": ".. module:: pkg\n\n.. autoclass:: Box\n\n.. data:: local.name\n",
      "docs/conf.py": "autodoc_default_options = {'members': True}\n"}, []),
    # an attribute documented is its object documented (sniffio 1.3.1's `.. data:: thread_local.name`)
    ({"docs/api.rst": ".. module:: pkg\n\n.. autoclass:: Box\n   :members:\n"}, ["pkg.local"]),
    # a changelog's mention documents nothing
    ({"docs/api.rst": ".. module:: pkg\n\n.. autoclass:: Box\n   :members:\n",
      "docs/changelog.rst": "Changelog\n=========\n\n* Added ``pkg.local``.\n"}, ["pkg.local"]),
])
def test_what_a_directive_documents_beyond_its_name(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    files: dict[str, str], undocumented: list[str]) -> None:
    for name, text in {**PACKAGE, **files}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    code, data, _ = _verify(tmp_path, capsys)
    assert (data["undocumented"], code) == (undocumented, 1 if undocumented else 0)


def test_a_members_default_applies_to_classes_and_modules_only() -> None:
    page = rst_to_markdown(".. module:: pkg\n\n.. autofunction:: f\n\n.. autoclass:: Box\n").markdown
    assert [(d.dotted, d.members) for d in documented(page, "pkg", members=True)] == [("pkg.f", False),
                                                                                     ("pkg.Box", True)]


@pytest.mark.parametrize("line, kind", [
    ("X = int | None", "alias"), ("X = dict[str, int]", "alias"), ("X: TypeAlias = 'Box'", "alias"),
    ("X = typing.Optional[int]", "alias"), ('X = TypeVar("X")', "alias"),
    ("X = None", "value"), ("X = Box", "value"), ("X = FLAG_A | FLAG_B", "value"), ("X = 3", "value"),
    ("X = re.I | re.M", "value"),
])
def test_a_type_alias_is_told_from_a_constant(line: str, kind: str) -> None:
    index = ApiIndex("pkg")
    index.add_module("pkg", f"import re\nimport typing\n\n\nclass Box:\n    pass\n\n\n{line}\n", is_package=True)
    assert index.kind("pkg.X") == kind


def test_a_private_module_s_names_are_public_only_re_exported(tmp_path: Path) -> None:
    from docbot.verify.project.package import find_package, public_api

    for name, text in {"pyproject.toml": "[project]\nname = 'pkg'\n", "pkg/__init__.py": "from ._impl import run\n",
                       "pkg/_impl.py": "def run():\n    pass\n\n\ndef helper():\n    pass\n"}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    package = find_package(tmp_path)
    assert [(a.path, a.kind) for a in public_api(package, package.index())] == [("pkg.run", "function")]
