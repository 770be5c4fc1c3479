"""Project-mode ``docbot verify``: the package found, the docs read (Markdown and RST), API names resolved,
examples run in a reader's fresh namespace, and exit 1 only on a contradiction."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest

from docbot.errors import ConfigError
from docbot.fronts.cli import main
from docbot.verify.project.api_index import ApiIndex, ApiName, Resolution
from docbot.verify.read.references import code_references, prose_references
from docbot.verify.project.doc_files import doc_paths, setup_for
from docbot.verify.project.package import find_package
from docbot.verify.project.package import public_api
from docbot.verify.read.rst import rst_to_markdown


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return root


PYPROJECT = '[project]\nname = "toy-pkg"\nversion = "1"\n'
CORE = '''\
    LIMIT = 3

    def add(a, b=2):
        return a + b

    class Box:
        def __init__(self):
            self.size = 1

        def open(self, force=False):
            return force
    '''


@pytest.mark.parametrize("files, name, base", [
    ({"pyproject.toml": PYPROJECT, "src/toy_pkg/__init__.py": ""}, "toy_pkg", "src"),
    ({"pyproject.toml": PYPROJECT, "toy_pkg/__init__.py": ""}, "toy_pkg", "."),
    ({"pyproject.toml": PYPROJECT, "toy_pkg.py": ""}, "toy_pkg", "."),
    ({"src/other/__init__.py": ""}, "other", "src"),  # no pyproject: the one package under src/
    ({"PKG-INFO": "Metadata-Version: 2.1\nName: toy-pkg\n", "toy_pkg/__init__.py": "", "other/__init__.py": ""},
     "toy_pkg", "."),  # an sdist's metadata names it
    ({"setup.py": "", "bs4/__init__.py": "", "tests/__init__.py": ""}, "bs4", "."),  # tests/ is not the package
])
def test_the_package_is_found_from_pyproject_or_the_src_layout(tmp_path: Path, files: dict[str, str], name: str,
                                                              base: str) -> None:
    package = find_package(_write(tmp_path, files))
    assert (package.name, package.base) == (name, (tmp_path / base).resolve() if base != "." else tmp_path)


def test_no_package_is_a_config_error_that_says_what_to_pass(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="pass SOURCE DOC"):
        find_package(_write(tmp_path, {"src/a/__init__.py": "", "src/b/__init__.py": ""}))


def test_the_docs_globs_name_the_readme_and_docs_pages_but_not_build_output(tmp_path: Path) -> None:
    _write(tmp_path, {"README.rst": "", "docs/a.md": "", "docs/sub/b.rst": "", "docs/_build/c.md": "",
                      "docs/conf.py": "", "notes.md": ""})
    found = [p.relative_to(tmp_path).as_posix() for p in doc_paths(tmp_path, ["README.*", "docs/**/*.md",
                                                                              "docs/**/*.rst"])]
    assert found == ["README.rst", "docs/a.md", "docs/sub/b.rst"]


def _index() -> ApiIndex:
    index = ApiIndex("pkg")
    index.add_module("pkg.core", textwrap.dedent(CORE))
    index.add_module("pkg", "from .core import add, Box as Crate\nfrom os import path\n", is_package=True)
    index.add_module("pkg.star", "from os.path import *\n")
    index.add_module("pkg.lazy", "def __getattr__(name):\n    return name\n")
    index.add_module("pkg.sub", "class Child(dict):\n    pass\n")
    return index


@pytest.mark.parametrize("dotted, expected", [
    ("pkg.add", Resolution.FOUND),  # re-exported by the package
    ("pkg.core.add", Resolution.FOUND),
    ("pkg.core.LIMIT", Resolution.FOUND),
    ("pkg.subtract", Resolution.MISSING),
    ("pkg.core.subtract", Resolution.MISSING),
    ("pkg.Crate.open", Resolution.FOUND),  # an alias of a re-export, then a method
    ("pkg.Crate.close", Resolution.MISSING),
    ("pkg.Crate.size", Resolution.FOUND),  # an instance attribute set in __init__
    ("pkg.star.anything", Resolution.UNKNOWN),  # a star import: the module may have it
    ("pkg.lazy.anything", Resolution.UNKNOWN),  # a module __getattr__
    ("pkg.sub.Child.keys", Resolution.UNKNOWN),  # inherited from a base we do not read
    ("pkg.path.join", Resolution.UNKNOWN),  # another package's name
    ("pkg.add.__doc__", Resolution.UNKNOWN),  # an attribute of a function is not API surface
    ("other.f", Resolution.UNKNOWN),
    ("pkg.sub", Resolution.FOUND),  # a submodule
])
def test_names_resolve_only_where_the_package_is_known(dotted: str, expected: Resolution) -> None:
    assert _index().resolve(dotted) is expected


_SETS_SELF = """
class Box:
    def __init__(self, items):
        self.plain = 1
        self.first, (self.second, *self.rest) = items
        self.total: int = 0
        self.total += 1
        for self.index in range(3):
            pass
        with open(items) as self.handle:
            pass
        if items:
            self.in_if = 1
        else:
            self.in_else = 1
        while False:
            pass
        else:
            self.in_while_else = 1
        try:
            self.in_try = 1
        except ValueError:
            self.in_handler = 1
        finally:
            self.in_finally = 1
        match items:
            case []:
                self.in_case = 1

        def later():
            self.in_nested = 1

    async def start(self):
        async with self.lock() as self.session:
            async for self.chunk in self.session:
                pass

    def reads(self, other):
        print(self.read_only, other.not_self)
        other.elsewhere = 1
"""


@pytest.mark.parametrize("attribute, expected", [
    *((name, Resolution.FOUND) for name in (
        "plain", "first", "second", "rest", "total", "index", "handle", "in_if", "in_else", "in_while_else",
        "in_try", "in_handler", "in_finally", "in_case", "in_nested", "session", "chunk")),
    ("read_only", Resolution.MISSING),  # read, never set
    ("not_self", Resolution.MISSING),
    ("elsewhere", Resolution.MISSING),  # set on another object
])
def test_an_instance_attribute_is_one_a_method_sets_on_self(attribute: str, expected: Resolution) -> None:
    index = ApiIndex("pkg")
    index.add_module("pkg", _SETS_SELF, is_package=True)
    assert index.resolve(f"pkg.Box.{attribute}") is expected


@pytest.mark.parametrize("init, expected", [
    ("__path__ = __import__('pkgutil').extend_path(__path__, __name__)\n", Resolution.UNKNOWN),  # azure
    ("try:\n    __import__('pkg_resources').declare_namespace(__name__)\nexcept ImportError:\n    pass\n",
     Resolution.UNKNOWN),
    ("from .core import add\n", Resolution.MISSING),  # a package of its own: known not to have it
    ("path = []\n", Resolution.MISSING),
])
def test_a_namespace_packages_other_subpackages_are_another_distributions(init: str, expected: Resolution) -> None:
    index = ApiIndex("pkg")
    index.add_module("pkg", init, is_package=True)
    index.add_module("pkg.core", "def add():\n    pass\n")
    assert index.resolve("pkg.identity.Credential") is expected
    assert index.resolve("pkg.core.add") is Resolution.FOUND


def test_a_re_export_resolves_to_where_it_is_defined() -> None:
    assert _index().canonical("pkg.Crate") == "pkg.core.Box"
    assert _index().canonical("pkg.core.add") == "pkg.core.add"


def test_examples_name_the_api_through_imports_and_aliases() -> None:
    aliases: dict[str, str] = {}
    refs = code_references("import pkg as p\nfrom pkg.core import add as plus\np.core.add(1)\nplus(2)\nx.y", 4,
                           "pkg", aliases)
    assert sorted((r.dotted, r.how) for r in refs) == [("pkg.core.add", "code"), ("pkg.core.add", "import")]
    assert aliases == {"p": "pkg", "plus": "pkg.core.add"}
    prose = prose_references([(1, "Call `p.core.add()` or `pkg.Box.open`, not `os.path`, `add`, `pkg.py`, "
                                  "`pkg.pl`, `pkg.html`, `pkg.Box.method_name()` or `pkg.your_hook`.")],
                             "pkg", aliases)
    assert [(r.dotted, r.line) for r in prose] == [("pkg.core.add", 1), ("pkg.Box.open", 1)]


@pytest.mark.parametrize("blocks, prose, named", [
    (["from .pkg import pkg\npkg.control.inspect()"], "", []),  # celery's guide: the reader's own app module
    (["import other as pkg\npkg.x.y()"], "", []),
    (["pkg = make_app()", "pkg.control.purge()"], "See `pkg.conf.x`.", []),  # the doc's app, named like it
    (["import pkg\npkg = pkg.Celery()"], "", ["pkg.Celery"]),  # the line that rebinds still reads the package
    (["import pkg\napp = pkg.Celery()", "pkg.control.purge()"], "See `pkg.conf.x`.",
     ["pkg.Celery", "pkg.control.purge", "pkg.conf.x"]),  # another name rebound: the package stays the package
    (["import pkg as p\np = p.make()", "p.more()"], "", ["pkg.make"]),
])
def test_a_name_the_doc_rebinds_stops_standing_for_the_package(blocks: list[str], prose: str,
                                                              named: list[str]) -> None:
    aliases = {"pkg": "pkg"}
    refs = [r.dotted for i, code in enumerate(blocks) for r in code_references(code, i, "pkg", aliases)
            if r.how == "code"]
    assert refs + [r.dotted for r in prose_references([(9, prose)], "pkg", aliases)] == named


@pytest.mark.parametrize("lines, named", [
    ([(1, "extendable through `pkg.extension` and `pkg.formatting` entry"), (2, "points")], []),  # flake8
    ([(1, "Celery recognizes `pkg.commands` entry-points to install sub-commands")], []),
    ([(1, "the `pkg.backends`, `pkg.schedulers` or `pkg.x` entrypoint group")], []),
    ([(1, "Call `pkg.extension` from your entry point")], ["pkg.extension"]),  # the API, then other words
    ([(1, "`pkg.load` reads the entry"), (3, "points")], ["pkg.load"]),  # not the next line: a paragraph apart
    ([(1, "a package that provides"), (2, "entry-points (for the `pkg.commands`, `pkg.backends`,"),
      (3, "or `pkg.beat` namespaces) only takes effect after")], []),  # celery's extending guide
    ([(1, "Entry points are read at start. See `pkg.entry.load`")], ["pkg.entry.load"]),  # another sentence
])
def test_a_code_span_naming_an_entry_point_group_is_no_api_name(lines: list[tuple[int, str]],
                                                                named: list[str]) -> None:
    assert [r.dotted for r in prose_references(lines, "pkg", {})] == named


def test_public_api_follows_an_all_that_names_submodules(tmp_path: Path) -> None:
    _write(tmp_path, {"pyproject.toml": PYPROJECT, "toy_pkg/__init__.py": "from .core import add\n"
                      "__all__ = ['add', 'extra']\n", "toy_pkg/core.py": CORE,
                      "toy_pkg/extra.py": "def shout(t):\n    return t\n", "toy_pkg/hidden.py": "def h():\n    pass\n"})
    package = find_package(tmp_path)
    # each by the path a reader imports it from (issue 33): `toy_pkg.add`, re-exported from toy_pkg.core
    assert public_api(package, package.index()) == [ApiName("toy_pkg.add", "function"),
                                                    ApiName("toy_pkg.extra.shout", "function")]


@pytest.mark.parametrize("init", [
    "from .core import add, mul\n__all__ = ['add']\n__all__ += ['extra', 'mul']\n",
    "from .core import add, mul\n__all__ = ['add']\n__all__.extend(['extra'])\n__all__.append('mul')\n",
])
def test_coverage_reads_all_as_the_scan_does(tmp_path: Path, init: str) -> None:
    """``__all__ += [...]`` (and ``.extend``, ``.append``) widen the public API for ``docbot targets --all``; verify's
    coverage read only the first assignment and left `extra` and `mul` out."""
    _write(tmp_path, {"pyproject.toml": PYPROJECT, "toy_pkg/__init__.py": init,
                      "toy_pkg/core.py": textwrap.dedent(CORE) + "\ndef mul(a, b):\n    return a * b\n",
                      "toy_pkg/extra.py": "def shout(t):\n    return t\n"})
    package = find_package(tmp_path)
    assert [a.path for a in public_api(package, package.index())] == ["toy_pkg.add", "toy_pkg.extra.shout",
                                                                      "toy_pkg.mul"]


def test_rst_is_read_as_headings_prose_and_code_at_its_own_lines() -> None:
    text = "Title\n=====\n\nUse :func:`pkg.add` here.\n\nUsage\n-----\n\n.. code-block:: python\n\n    x = 1\n\n" \
           ">>> pkg.add(1)\n3\n"
    converted = rst_to_markdown(text)
    md = converted.markdown.splitlines()
    assert md[0] == "# Title" and "## Usage" in md and "Use `pkg.add` here." in md
    start = md.index("```python")
    assert md[start + 1] == "x = 1" and converted.lines[start + 1] == 11
    pycon = md.index("```pycon")
    assert md[pycon + 1 : pycon + 3] == [">>> pkg.add(1)", "3"] and converted.lines[pycon + 1] == 13


@pytest.mark.parametrize("relative, expected", [
    ("docs/guide.md", "import os\nx = 1"),
    ("README.md", "import os"),
    ("docs/api/ref.rst", "import os\nx = 1"),
])
def test_docs_setup_applies_each_glob_that_matches(relative: str, expected: str) -> None:
    assert setup_for(relative, {"*": "import os", "docs/*": "x = 1"}) == expected


TOY = {"pyproject.toml": PYPROJECT, "src/toy_pkg/__init__.py": "from .core import add, Box\nWHO = 'module'\n",
       "src/toy_pkg/core.py": CORE}


def _verify(root: Path, *argv: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, object]]:
    cwd = os.getcwd()
    os.chdir(root)
    try:
        code = main(["verify", *argv, "--json"])
    finally:
        os.chdir(cwd)
    return code, json.loads(capsys.readouterr().out)


def _kinds(report: dict[str, object]) -> list[tuple[str, str]]:
    docs = report["docs"]
    assert isinstance(docs, list)
    return [(f["kind"], f["check"]) for d in docs for f in d["findings"]]


@pytest.mark.parametrize("readme, kinds, code", [
    pytest.param("```python\nfrom toy_pkg import add\nadd(1)  # -> 3\n```\n", [], 0, id="correct"),
    pytest.param("```python\nfrom toy_pkg import add\nadd(1)  # -> 4\n```\n",
                 [("contradiction", "example_mismatch")], 1, id="a wrong stated value"),
    pytest.param("Call `toy_pkg.subtract()` to subtract.\n", [("contradiction", "unresolved_reference")], 1,
                 id="an API name the package lacks"),
    pytest.param("```pycon\n>>> from toy_pkg import add\n>>> add(1,\n2)\n3\n```\n",
                 [("not_runnable_as_printed", "example_raises")], 0, id="a block that does not parse is no failure"),
    pytest.param("```python\nfrom toy_pkg import add\nadd(data)  # -> 3\n```\n",
                 [("setup_elided", "example_raises")], 0, id="a name the doc never defines"),
    pytest.param("Python 3.99 and later:\n\n```python\nfrom toy_pkg import add\nadd(1)  # -> 4\n```\n",
                 [("version_dependent", "example_mismatch")], 0, id="marked for a later Python"),
    # issue 28 item 9: the package's own public name, never imported: a reader who pastes it gets a NameError
    pytest.param("```pycon\n>>> WHO\n'module'\n```\n", [("not_runnable_as_printed", "example_raises")], 0,
                 id="the module's names are not in a reader's namespace"),
    pytest.param("```pycon\n>>> WHO = 'doc'\n>>> WHO\n'doc'\n```\n", [], 0, id="the doc's own variable is kept"),
    pytest.param("```pycon\n>>> import toy_pkg\n>>> toy_pkg.ad\nTraceback (most recent call last):\n"
                 "AttributeError: module 'toy_pkg' has no attribute 'ad'. Did you mean: 'add'?\n```\n", [], 0,
                 id="a console's traceback with its suggestion"),
])
def test_project_mode_kinds_and_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str], readme: str,
                                            kinds: list[tuple[str, str]], code: int) -> None:
    root = _write(tmp_path, {**TOY, "README.md": readme,
                             "config.json": json.dumps({"example_sandbox": "allow-guard"})})
    got, report = _verify(root, capsys=capsys)
    assert (_kinds(report), got) == (kinds, code)


def test_strict_fails_on_undocumented_api_and_docs_setup_supplies_prose_setup(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    readme = "```python\nfrom toy_pkg import add\nadd(data)  # -> 3\n```\n"
    root = _write(tmp_path, {**TOY, "README.md": readme,
                             "config.json": json.dumps({"example_sandbox": "allow-guard", "docs_setup": {
                                 "README.*": "data = 1"}})})
    code, report = _verify(root, capsys=capsys)
    assert (_kinds(report), code) == ([], 0)
    assert report["undocumented"] == ["toy_pkg.Box", "toy_pkg.core.Box.open"]
    assert _verify(root, "--strict", capsys=capsys)[0] == 1


def _classified(kind: str, doc_text: str, code_fact: str, prose: str = "", code: str = "x = 1") -> str | None:
    from docbot.sandbox.step import Step
    from docbot.verify.findings import Finding
    from docbot.verify.checks.reader import classify

    finding = Finding(kind, "m", doc_text, code_fact, line=1)
    steps = [Step("defined = 1", "none", line=0), Step(code, "output", line=1), Step("later = 2", "none", line=2)]
    found = classify(finding, steps, [prose, "```pycon"], {"defined", "later"}, {})
    return None if found is None else found.severity.value


@pytest.mark.parametrize("kind, doc_text, code_fact, prose, code, expected", [
    ("example_wrong_exception", "ValidationError: 'a' is bad", "pkg.errors.ValidationError: 'a' is bad\n\nmore",
     "", "x", "note"),  # the first line of a longer message
    ("example_wrong_exception", "ValidationError: 'b' is bad", "pkg.errors.ValidationError: 'a' is bad\n\nmore",
     "", "x", "contradiction"),  # a wrong first line is still wrong
    ("example_wrong_exception", "ValidationError: 'a' is bad", "pkg.errors.ValidationError: 'a' is bad, too",
     "", "x", "contradiction"),  # one line that only starts alike: not an elision
    ("example_raises", "pkg.Bad: no", "pkg.Bad: no", "", "x", "note"),  # a traceback's last line, no header
    # python-docx styles-using.rst: a KeyError's message as a person writes it, without its repr's quotes
    ("example_raises", "KeyError: no style 'A'", "KeyError: \"no style 'A'\"", "", "x", "note"),
    ("example_raises", "KeyError: no style 'B'", "KeyError: \"no style 'A'\"", "", "x", "contradiction"),
    ("example_raises", "ValueError: no style 'A'", "KeyError: \"no style 'A'\"", "", "x", "contradiction"),
    ("example_raises", "", "TypeError: unsupported operand type(s) for >>: 'builtin_function_or_method' and 'X'",
     "", "print >>sys.stderr, 'a'", "version_dependent"),  # Python 2
    ("example_raises", "", "SystemExit: 2", "", "main()", "not_runnable_as_printed"),
    ("example_timeout", "", "time limit reached", "", "sleep(99)", "note"),
    ("example_raises", "", "MemoryError", "", "x *= 10**9", "note"),
    ("example_raises", "", "NameError: name 'defined' is not defined", "", "x", "contradiction"),
    ("example_raises", "", "NameError: name 'other' is not defined", "", "x", "setup_elided"),
    # defined further down (chardet's usage page uses EncodingEra a block before importing it): not runnable in order
    ("example_raises", "", "NameError: name 'later' is not defined", "", "x", "not_runnable_as_printed"),
    # rich's README: `os.listdir(sys.argv[1])`, a program run from the shell with an argument
    ("example_raises", "", "IndexError: list index out of range", "", "print(sys.argv[1])", "not_runnable_as_printed"),
    ("example_raises", "", "IndexError: list index out of range", "", "print(items[1])", "contradiction"),
    ("example_mismatch", "3", "4", "New in Python 3.10+:", "x", "contradiction"),  # 3.10 is not later than this
    ("example_mismatch", "3", "4", "Requires Python 3.99 or later", "x", "version_dependent"),
    ("example_mismatch", "3", "4", "Install with pip install pkg[fast]", "x", "version_dependent"),
    ("example_mismatch", "'2020-01-01'", "'2026-12-01'", "", "date.today()", "time_dependent"),
    ("example_wrong_exception", "NameError: name 'ad' is not defined. Did you mean: 'add'?",
     "NameError: name 'ad' is not defined", "", "ad", None),
])
def test_findings_are_told_apart_by_what_they_mean_to_the_reader(kind: str, doc_text: str, code_fact: str,
                                                                  prose: str, code: str,
                                                                  expected: str | None) -> None:
    assert _classified(kind, doc_text, code_fact, prose, code) == expected


def test_re_exports_that_form_a_cycle_end() -> None:
    index = ApiIndex("pkg")
    index.add_module("pkg.a", "from pkg.b import x\n")
    index.add_module("pkg.b", "from pkg.a import x\n")
    assert index.canonical("pkg.a.x") in ("pkg.a.x", "pkg.b.x")
