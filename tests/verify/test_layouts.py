"""The layouts a project really has (issue 28, item 4 and class 8): flat modules at the root, a single-module package,
``lib/``, a ``README`` with no extension. None may end in exit 2 where a package exists. And the guards the rules'
mutation testing showed missing: ``README.*`` taking folders and ``README.txt``; a submodule that does not parse
read as a closed scope (false unresolved references)."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest

from docbot.errors import ConfigError
from docbot.fronts.cli import main
from docbot.verify.project.api_index import ApiIndex, Resolution
from docbot.config.choices import DEFAULT_DOCS_GLOBS
from docbot.verify.project.doc_files import doc_paths
from docbot.verify.project.package import find_package
from docbot.verify.read.rst import is_rst_doc


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return root


@pytest.mark.parametrize("files, name, path", [
    # a single-module package under lib/ (the name given, or the one module there)
    ({"pyproject.toml": "[project]\nname = 'slug'\n", "lib/slug.py": ""}, "slug", "lib/slug.py"),
    ({"PKG-INFO": "Name: slugger\n", "lib/slug.py": "", "setup.py": ""}, "slug", "lib/slug.py"),
    ({"pyproject.toml": "[project]\nname = 'slug'\n", "lib/slug/__init__.py": ""}, "slug", "lib/slug"),
    # flat modules at the root: the one that is not tooling, or the one most like the project's name
    ({"PKG-INFO": "Name: python-slugify-lite\n", "slugify_lite.py": "", "setup.py": "", "noxfile.py": "",
      "conftest.py": "", "test_slugify.py": ""}, "slugify_lite", "slugify_lite.py"),
    ({"PKG-INFO": "Name: bottle-extras\n", "bottle_extras.py": "", "helpers.py": "", "tasks.py": ""},
     "bottle_extras", "bottle_extras.py"),
    ({"PKG-INFO": "Name: tiny\n", "tinylib.py": "", "tests/__init__.py": "", "tests/test_x.py": ""},
     "tinylib", "tinylib.py"),
    # a tooling file is never the package, however like the project's name it is
    ({"PKG-INFO": "Name: noxfile-lite\n", "noxfile.py": "", "lite.py": ""}, "lite", "lite.py"),
    # `python-` and `py` off the distribution's name
    ({"PKG-INFO": "Name: python-dateparse\n", "dateparse/__init__.py": "", "other/__init__.py": ""},
     "dateparse", "dateparse"),
    ({"PKG-INFO": "Name: PyHumane\n", "humane/__init__.py": "", "extra/__init__.py": ""}, "humane", "humane"),
    # an sdist's own listing of what it installs
    ({"PKG-INFO": "Name: acme\n", "acme.egg-info/top_level.txt": "roadrunner\n", "roadrunner.py": "",
      "coyote/__init__.py": "", "wile/__init__.py": ""}, "roadrunner", "roadrunner.py"),
])
def test_the_package_of_each_layout(tmp_path: Path, files: dict[str, str], name: str, path: str) -> None:
    package = find_package(_write(tmp_path, files))
    assert (package.name, package.path) == (name, tmp_path / path)


def test_several_packages_and_no_name_to_choose_by_is_still_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="pass SOURCE DOC"):
        find_package(_write(tmp_path, {"a/__init__.py": "", "b/__init__.py": "", "tool.py": ""}))


NODEENV_README = """\
Node.js virtual environment
===========================

``nodeenv`` (node.js virtual environment) is a tool to create
isolated node.js environments.
"""  # nodeenv 1.12.0, README (no extension, RST)


@pytest.mark.parametrize("files, found", [
    ({"README": NODEENV_README}, ["README"]),  # the only README: read
    ({"README": NODEENV_README, "README.rst": NODEENV_README}, ["README.rst"]),  # nodeenv ships both: once
    ({"README": "# tabulate\n", "README.md": "# tabulate\n"}, ["README.md"]),  # tabulate 0.10.0 too
    ({"README.txt": "plain text"}, []),  # plain text is neither Markdown nor RST
    ({"README.d/notes.md": "# x\n"}, []),  # a folder README.* matches is no doc
    ({"README.md": "", "README.txt": "", "README.d/x.md": ""}, ["README.md"]),
])
def test_readme_is_the_file_a_project_has(tmp_path: Path, files: dict[str, str], found: list[str]) -> None:
    paths = doc_paths(_write(tmp_path, files), list(DEFAULT_DOCS_GLOBS))
    assert [p.relative_to(tmp_path).as_posix() for p in paths] == found


@pytest.mark.parametrize("name, text, rst", [
    ("README", NODEENV_README, True),
    ("README", "# tabulate\n\nPretty-print tabular data.\n", False),
    ("README", "Intro\n\n.. code-block:: python\n\n    x = 1\n", True),
    ("README", "plain words only\n", False),
    ("README.rst", "# not a heading in RST\n", True),
    ("README.md", "Title\n=====\n", False),
])
def test_a_readme_with_no_extension_is_read_in_its_own_format(name: str, text: str, rst: bool) -> None:
    assert is_rst_doc(name, text) is rst


def _verify(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, object]]:
    cwd = os.getcwd()
    os.chdir(root)
    try:
        code = main(["verify", "--json"])
    finally:
        os.chdir(cwd)
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("files, stated, expected", [
    ({"pyproject.toml": "[project]\nname = 'slug'\n", "lib/slug.py": "def slug(t):\n    return t.lower()\n"},
     "abc", 0),
    ({"pyproject.toml": "[project]\nname = 'slug'\n", "lib/slug.py": "def slug(t):\n    return t.lower()\n"},
     "ABC", 1),
    ({"PKG-INFO": "Name: python-slug\n", "slug.py": "def slug(t):\n    return t.lower()\n", "setup.py": ""},
     "abc", 0),
])
def test_verify_checks_these_layouts_instead_of_exiting_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        files: dict[str, str], stated: str, expected: int) -> None:
    readme = f"slug\n====\n\n.. code-block:: python\n\n    from slug import slug\n    slug('ABC')  # -> '{stated}'\n"
    root = _write(tmp_path, {**files, "README": readme, "config.json": json.dumps({"example_sandbox": "allow-guard"})})
    code, report = _verify(root, capsys)
    assert [d["path"] for d in report["docs"]] == ["README"]  # type: ignore[index, union-attr]
    assert code == expected


@pytest.mark.parametrize("broken", ["def f(:\n", "print 'python 2'\n", "x = 1\0\n"])
def test_a_submodule_that_does_not_parse_is_unknown_not_empty(broken: str) -> None:
    """A module docbot cannot read may bind anything: a name in it is not known to be missing (before: the parent
    never learnt of the submodule, and every name under it was a false unresolved reference)."""
    index = ApiIndex("pkg")
    index.add_module("pkg", "def top():\n    pass\n", is_package=True)
    index.add_module("pkg.broken", broken, is_package=True)
    index.add_module("pkg.broken.inner", "def deep():\n    pass\n", is_package=False)
    assert index.resolve("pkg.broken.anything") is Resolution.UNKNOWN
    assert index.resolve("pkg.broken.inner.deep") is Resolution.FOUND
    assert index.resolve("pkg.gone") is Resolution.MISSING  # the readable parent still says what it lacks


def test_a_doc_naming_a_python_2_submodule_gets_no_false_contradiction(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    root = _write(tmp_path, {"pyproject.toml": "[project]\nname = 'pkg'\n", "pkg/__init__.py": "",
                             "pkg/legacy.py": "print 'hello'\n\ndef convert(x):\n    return x\n",
                             "README.md": "# pkg\n\nUse `pkg.legacy.convert` or `pkg.missing`.\n"})
    code, report = _verify(root, capsys)
    found = [(f["check"], f["doc_text"]) for d in report["docs"] for f in d["findings"]]  # type: ignore[union-attr]
    assert (found, code) == ([("unresolved_reference", "pkg.missing")], 1)
