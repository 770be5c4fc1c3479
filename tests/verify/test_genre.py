"""Each doc read as its genre (issue 28, "What to build" 2): history (by name, by heading, removal prose) names what
was, not what is; the markup of the doc's own toolchain (MyST roles and directives, Jinja) is markup.

Every case is the shape of a real published doc (the sdist and file are named), beside the false contradiction the
rule removes, and beside a real error in the same kind of doc that is still found.
"""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest

from docbot.fronts.cli import main
from docbot.verify.read.genre import is_design_path, is_history_heading, is_history_path, read_genre, removed_in
from docbot.verify.read.markdown import code_blocks


@pytest.mark.parametrize("path, history", [
    ("docs/upgrading.rst", True),  # marshmallow 4.4.0
    ("docs/v2-migration-guide.rst", True),  # urllib3 2.8.0
    ("docs/release-notes.rst", True),  # jeepney 0.9.0
    ("docs/source/history.rst", True),  # sniffio 1.3.1
    ("docs/source/changelog.rst", True),  # gcsfs 2026.10.1
    ("docs/source/migration.rst", True),  # traitlets
    ("CHANGES.rst", True), ("HISTORY.md", True), ("NEWS", True), ("docs/whatsnew/1.2.rst", True),
    ("docs/changelog/v3.md", True),
    ("docs/development/release-process.rst", False),  # packaging 26.3: how to release, today's process
    ("docs/migrating-from-requests.md", False),  # another library: today's API, told to its users
    ("docs/how-to-make-changes.md", False), ("docs/newsletter.md", False), ("README.md", False),
])
def test_a_history_page_by_its_name(path: str, history: bool) -> None:
    assert is_history_path(path, "pkg") is history


@pytest.mark.parametrize("path, design", [
    ("docs/dev/analysis/features/text/font-color.rst", True),  # python-docx 1.2.0: what the API could be
    ("docs/roadmap.rst", True),  # future 1.0.0: proposed names
    ("rfcs/0001-streams.md", True), ("docs/proposals/typed.md", True), ("doc/adr/0003-cache.md", True),
    ("docs/rfc/7515.rst", False),  # joserfc 1.8.0: how it implements RFC 7515
    ("docs/design.rst", False),  # flask: how today's code works
    ("docs/analytics.md", False), ("docs/api/index.rst", False), ("README.md", False),
])
def test_a_design_page_by_its_name(path: str, design: bool) -> None:
    assert is_design_path(path) is design


@pytest.mark.parametrize("heading, history", [
    ("Release history", True), ("Sniffio 1.3.1 (2024-02-26)", True),  # sniffio docs/source/history.rst
    ("Changelog", True),  # defusedxml 0.7.1 README.md
    ("Changes", True), ("0.7.0 - 2021-01-23", True),  # mccabe 0.7.0 README.rst
    ("Upgrading to 4.0", True), ("Upgrading to newer releases", True),  # marshmallow docs/upgrading.rst
    ("[Unreleased]", True), ("[1.2.0] - 2020-01-01", True), ("What's new in 2.0", True), ("v2.0.0", True),
    ("Migrating from requests", False), ("Usage", False), ("Installation", False), ("Python 3.8+", False),
    ("Django 4.2", False), ("Changing the default", False),
    # celery 5.7.0's docs/internals/deprecation.rst: its title, and one heading per release's removals
    ("Celery Deprecation Time-line", False), ("Pkg Deprecation Time-line", True), ("Deprecation timeline", True),
    ("Pkg Changelog", True), ("Pkgs Changelog", False),
    ("Removals for version 6.0", True), ("Removals in 2.0", True), ("Removals", True),
    ("Removals of old settings", False), ("Deprecation warnings", False),
])
def test_a_history_stretch_by_its_heading(heading: str, history: bool) -> None:
    assert is_history_heading(heading, "pkg") is history


@pytest.mark.parametrize("sentence, gone", [
    # gcsfs docs/source/changelog.rst:26
    ("The internal ``gcsfs.prefetcher`` module has been removed from GCSFS and upstreamed into "
     "``fsspec>=2026.9.0``.", {"gcsfs.prefetcher"}),
    # jeepney docs/release-notes.rst: the name to use now is no history
    ("Removed ``jeepney.integrate`` APIs, which were deprecated in 0.7. Use ``jeepney.io`` instead.",
     {"jeepney.integrate"}),
    ("`a` has been renamed to `b`.", {"a"}),
    ("Use `b` instead of `a`, which was removed.", {"a"}),
    # jeepney docs/api/index.rst:22: a deprecated name still exists: the sentence claims it does
    ("There is also a deprecated ``jeepney.io.tornado`` integration.", set()),
    ("`pkg.f` returns a list.", set()),
])
def test_removal_prose_names_what_is_gone(sentence: str, gone: set[str]) -> None:
    assert set(removed_in(sentence.replace("``", "`"))) == gone


def test_a_history_heading_spans_to_the_next_heading_of_its_level() -> None:
    doc = "# pkg\n\n## Usage\n\ntext\n\n## Changelog\n\n### 1.0 (2020-01-01)\n\n- x\n\n## License\n\nMIT\n"
    genre = read_genre("README.md", doc)
    lines = doc.splitlines()
    assert [lines[i] for i in range(len(lines)) if genre.history_at(i)] == [
        "## Changelog", "", "### 1.0 (2020-01-01)", "", "- x", ""]
    assert genre.history == ((6, 12, "Changelog"),)  # the release heading inside it is one stretch with it
    assert genre.history_at(10) == "under the heading 'Changelog'"


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def _verify(root: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[tuple[str, str, str]]]:
    """`docbot verify --json` at ``root``: its exit code and (doc, severity, check) of each finding."""
    cwd = os.getcwd()
    os.chdir(root)
    try:
        code = main(["verify", "--json", *argv])
    finally:
        os.chdir(cwd)
    report = json.loads(capsys.readouterr().out)
    return code, [(d["path"], f["kind"], str(f["check"])) for d in report["docs"] for f in d["findings"]]


def _contradictions(found: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    return sorted((doc, check) for doc, kind, check in found if kind == "contradiction")


SANDBOX = {"config.json": json.dumps({"example_sandbox": "allow-guard"})}

# marshmallow 4.4.0, docs/upgrading.rst:268-296: the 3.x half of the example names what 4.x removed
MARSHMALLOW_UPGRADING = """\
Upgrading to newer releases
===========================

Use standard library functions to handle RFC 822 and ISO 8601 dates, times, and datetimes
*****************************************************************************************

ISO 8601 and RFC 822 utilities are removed from `marshmallow.utils` in favor
of using the standard library implementations.

.. code-block:: python

    # 3.x
    import datetime as dt
    from marshmallow.utils import (
        from_iso_date,
        from_iso_time,
        isoformat,
    )

    from_iso_date("2013-11-10")
    from_iso_time("01:23:45")

    # 4.x
    import datetime as dt

    dt.date.fromisoformat("2013-11-10")
"""
MARSHMALLOW = {"pyproject.toml": "[project]\nname = 'marshmallow'\n", "src/marshmallow/__init__.py": "",
               "src/marshmallow/utils.py": "def is_generator(obj):\n    return False\n", **SANDBOX}


def test_an_upgrading_guide_names_what_was_and_a_quickstart_what_is(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Before: 3 unresolved names and a failing example, all contradictions, on the upgrading guide. The same
    import in today's quickstart is a real error: still found."""
    quickstart = "Quickstart\n==========\n\n.. code-block:: python\n\n    from marshmallow.utils import isoformat\n"
    root = _write(tmp_path, {**MARSHMALLOW, "docs/upgrading.rst": MARSHMALLOW_UPGRADING,
                             "docs/quickstart.rst": quickstart})
    code, found = _verify(root, capsys)
    assert _contradictions(found) == [("docs/quickstart.rst", "unresolved_reference")]
    assert code == 1
    # the guide's example fails on 4.x (its 3.x half): told, as a note on what an earlier version did
    assert ("docs/upgrading.rst", "note", "example_raises") in found


# defusedxml 0.7.1, README.md:717-735: the changelog at the end of a README
DEFUSEDXML_README = """\
# defusedxml

## Usage

```python
from defusedxml.ElementTree import fromstring
```

# Changelog

## defusedxml 0.7.1

*Release date: 08-Mar-2021*

  - Fix regression `defusedxml.ElementTree.ParseError` (\\#63) The
    `ParseError` exception is now the same class object as
    `xml.etree.ElementTree.ParseError` again.

## defusedxml 0.7.0

  - Re-add and deprecate `defusedxml.cElementTree`
  - `defusedxml.cElementTree` is not available with Python 3.9.

# License
"""


@pytest.mark.parametrize("usage, expected", [
    ("from defusedxml.ElementTree import fromstring", []),
    # a real error in the same README, outside its changelog: still a contradiction
    ("from defusedxml.cElementTree import fromstring", [("README.md", "unresolved_reference")]),
])
def test_a_readme_s_changelog_section_is_history_and_its_usage_is_not(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], usage: str, expected: list[tuple[str, str]]) -> None:
    readme = DEFUSEDXML_README.replace("from defusedxml.ElementTree import fromstring", usage)
    root = _write(tmp_path, {"PKG-INFO": "Name: defusedxml\n", "defusedxml/__init__.py": "",
                             "defusedxml/ElementTree.py": "def fromstring(text):\n    return text\n"
                             "class ParseError(Exception):\n    pass\n", "README.md": readme, **SANDBOX})
    code, found = _verify(root, capsys)
    assert (_contradictions(found), code) == (expected, 1 if expected else 0)


# jeepney 0.9.0: docs/release-notes.rst:37 (history) and docs/api/index.rst:22 (today's page)
JEEPNEY = {"PKG-INFO": "Name: jeepney\n", "jeepney/__init__.py": "", "jeepney/io/__init__.py": "",
           "jeepney/io/asyncio.py": "def open_dbus_router():\n    pass\n", **SANDBOX}


@pytest.mark.parametrize("path, text, expected", [
    ("docs/release-notes.rst", "0.8\n---\n\n* Removed deprecated ``jeepney.io.tornado`` API. Tornado now uses the "
     "asyncio\n  event loop, so you can use it along with ``jeepney.io.asyncio``.\n", []),
    # removal prose in today's page: the gone name is history; the one it points to must exist
    ("docs/api/index.rst", "Integrations\n============\n\nThe ``jeepney.io.tornado`` integration was removed. Use "
     "``jeepney.io.asyncio`` instead.\n", []),
    ("docs/api/index.rst", "Integrations\n============\n\nThe ``jeepney.io.tornado`` integration was removed. Use "
     "``jeepney.io.trio`` instead.\n", [("docs/api/index.rst", "unresolved_reference")]),
    # the real stale sentence: a deprecated integration is said to exist; 0.8 removed it
    ("docs/api/index.rst", "Integrations\n============\n\nThere is also a deprecated ``jeepney.io.tornado`` "
     "integration. Recent versions\nof Tornado are built on asyncio.\n", [("docs/api/index.rst",
                                                                         "unresolved_reference")]),
])
def test_removal_prose_and_release_notes(tmp_path: Path, capsys: pytest.CaptureFixture[str], path: str, text: str,
                                         expected: list[tuple[str, str]]) -> None:
    root = _write(tmp_path, {**JEEPNEY, path: text})
    assert _contradictions(_verify(root, capsys)[1]) == expected


@pytest.mark.parametrize("title, design", [
    ('"The Big Instance" Refactor', True),  # celery 5.7.0, docs/internals/app-overview.rst
    ("Roadmap", True), ("A proposal for streams", True),
    ("JOSE RFC", False), ("RFC 7515", False),  # joserfc 1.8.0: the standards it implements, today's API
    ("Refactorings", False),  # rope's docs: what a refactoring tool does today
    ("Usage", False), ("Proposals for the config file format are welcome", True),
])
def test_a_design_page_by_its_title(title: str, design: bool) -> None:
    doc = f"# {title}\n\nText.\n\n## Refactor\n\nA later heading is no title.\n"
    assert (read_genre("docs/page.md", doc).whole != "") is design
    assert read_genre("docs/page.md", f"# Usage\n\n## {title}\n").whole == ""  # only the first heading


# celery 5.7.0, docs/internals/app-overview.rst:1-18 and docs/userguide/application.rst:370-377
CELERY = {"pyproject.toml": "[project]\nname = 'celery'\n", "celery/__init__.py": "class Celery:\n    pass\n",
          **SANDBOX}
CELERY_REFACTOR = """\
"The Big Instance" Refactor
===========================

The `app` branch is a work-in-progress to remove the use of a global configuration in Celery.

.. code-block:: python

    from celery import ping, Task
"""
CELERY_REMOVED = """\
The default app
===============

The :class:`celery.Task` base class is no longer available. Use the
methods on the app instance, not the module based API:

.. code-block:: python

    from celery import Task     # << OLD Task base class.

    from celery import Celery   # << NEW base class.

Elsewhere
---------

.. code-block:: python

    from celery import Task
"""


def test_a_refactors_design_note_and_the_block_a_removal_introduces(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Before: each old name the design note and the removal's block show was a contradiction. The same import
    under a later heading, which no removal sentence introduces, is still one."""
    root = _write(tmp_path, {**CELERY, "docs/internals/app-overview.rst": CELERY_REFACTOR,
                             "docs/userguide/application.rst": CELERY_REMOVED})
    code, found = _verify(root, capsys)
    assert _contradictions(found) == [("docs/userguide/application.rst", "unresolved_reference")]
    assert code == 1
    genre = read_genre("x.md", "`a.b` was removed:\n\n```python\nimport a.b.c\n```\n\nNext.\n")
    assert [genre.said_gone(line, "a.b.c") for line in range(7)] == [True, True, True, True, True, False, False]
    assert not genre.said_gone(0, "a.bc") and genre.said_gone(0, "x.a.b")


# click 8.5.1, docs/utils.md:1-21: a MyST page; before, each {func} role was a "template placeholder" contradiction
CLICK_UTILS = """\
# Utilities

```{currentmodule} click
```

## Printing to Stdout

The most obvious helper is the {func}`echo` function, which in many ways works like the Python `print` statement or
function. The main difference is that it works the same in many different terminal environments.

Example:

```python
import click

click.echo('Hello World!')
```
"""
CLICK = {"pyproject.toml": "[project]\nname = 'click'\n", "src/click/__init__.py": "from .utils import echo\n",
         "src/click/utils.py": "def echo(message=None, nl=True):\n    print(message, end='\\n' if nl else '')\n",
         **SANDBOX}


@pytest.mark.parametrize("extra, expected", [
    ("", []),
    # a MyST code directive holds Python: its example runs (before: never run), and a wrong output is found
    ("\n```{code-block} python\n:caption: hello.py\n\nimport click\nclick.echo('Hello')  # prints Hello, World!\n```\n",
     [("docs/utils.md", "example_mismatch")]),
    ("\n```{code-block} python\n:caption: hello.py\n\nimport click\nclick.echo('Hello')  # prints Hello\n```\n", []),
])
def test_a_myst_page_s_roles_are_markup_and_its_code_directives_code(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: str, expected: list[tuple[str, str]]) -> None:
    root = _write(tmp_path, {**CLICK, "docs/utils.md": CLICK_UTILS + extra})
    assert _contradictions(_verify(root, capsys)[1]) == expected


@pytest.mark.parametrize("info, body, lang, text", [
    ("{code-block} python", ":caption: hello.py\n\nimport click", "python", "import click"),
    ("{code-block} python", "---\ncaption: hello.py\n---\nimport click", "python", "import click"),
    ("{doctest}", ">>> 1\n1", "doctest", ">>> 1\n1"),  # Sphinx's directive: its flags apply (read.examples)
    ("{eval-rst}", ".. autofunction:: f", "eval-rst", ".. autofunction:: f"),
    ("{note}", "Beware.", "note", "Beware."),
    # Jinja in an unlabelled block is a template (flask 3.1.3 docs/templating.rst:163); inside a string it is data
    ("", "{% for x in mylist | reverse %}\n{% endfor %}", "jinja", None),
    ("", "<p>{{ user.name }}</p>", "jinja", None),
    ("", 't = Template("Hello {{ name }}!")\nprint(t.render(name="x"))', "", None),
    ("python", "x = {'a': 1}", "python", None),
])
def test_a_fence_is_read_as_its_toolchain_reads_it(info: str, body: str, lang: str, text: str | None) -> None:
    [block] = code_blocks(f"```{info}\n{body}\n```\n")
    assert (block.lang, block.text) == (lang, body if text is None else text)


def test_an_unlabelled_jinja_block_is_not_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: a block holding `{{ user.name }}` ran as Python (a set of a set): its NameError was setup the doc left
    out (`setup_elided`, failing --strict). Now no template block runs; the Python block after them still does, and
    its wrong output is found."""
    page = ("# Templates\n\nIn the template:\n\n```\n{{ user.name }}\n```\n\n::\n\n```\n"
            "{% for x in mylist | reverse %}\n{% endfor %}\n```\n\n```python\nimport click\n"
            "click.echo(1)  # prints 2\n```\n")
    root = _write(tmp_path, {**CLICK, "docs/templates.md": page})
    assert _verify(root, capsys)[1] == [("docs/templates.md", "contradiction", "example_mismatch")]


@pytest.mark.parametrize("marker, expected", [
    ("<!-- docbot:section pkg.core.add -->\n", [("docs/api/pkg.core.md", "template_placeholder")]),  # a model's text
    ("", []),  # the same words under a person's heading
])
def test_project_mode_holds_docbot_s_own_sections_to_the_model_s_text_rules(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], marker: str, expected: list[tuple[str, str]]) -> None:
    page = f"# pkg.core\n\n{marker}## add\n\nAdds `pkg.core.add` operands into {{total}}.\n"
    root = _write(tmp_path, {"pyproject.toml": "[project]\nname = 'pkg'\n", "pkg/__init__.py": "",
                             "pkg/core.py": "def add(a, b):\n    return a + b\n", "docs/api/pkg.core.md": page})
    assert _contradictions(_verify(root, capsys)[1]) == expected


# sniffio 1.3.1, docs/source/history.rst: a towncrier changelog, its example the shape of a release note's
SNIFFIO_EXAMPLE = ("- Added ``current_async_library``::\n\n    >>> import sniffio\n"
                   "    >>> sniffio.current_async_library()\n    'trio'\n")


@pytest.mark.parametrize("path, text, expected", [
    # what an earlier version printed, on a history page by its name: a note
    ("docs/source/history.rst", "History\n=======\n\n" + SNIFFIO_EXAMPLE, []),
    # under a release heading of any page: a note too
    ("docs/source/index.rst", "Release history\n===============\n\nSniffio 1.0.0 (2018-07-31)\n"
     "--------------------------\n\n" + SNIFFIO_EXAMPLE, []),
    # a design page weighs what the API could be: a note
    ("docs/dev/analysis/library.rst", "Analysis\n========\n\n" + SNIFFIO_EXAMPLE, []),
    # today's page: a contradiction
    ("docs/source/usage.rst", "Usage\n=====\n\n" + SNIFFIO_EXAMPLE, [("docs/source/usage.rst", "example_mismatch")]),
])
def test_a_changelog_s_example_is_what_an_earlier_version_did(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              path: str, text: str,
                                                              expected: list[tuple[str, str]]) -> None:
    root = _write(tmp_path, {"PKG-INFO": "Name: sniffio\n", "sniffio/__init__.py": "def current_async_library():\n"
                             "    return 'asyncio'\n", path: text, **SANDBOX})
    code, found = _verify(root, capsys)
    assert (_contradictions(found), code) == (expected, 1 if expected else 0)
    if not expected:
        assert (path, "note", "example_mismatch") in found


@pytest.mark.parametrize("markdown, python2", [
    # future 1.0.0 docs/isinstance.rst: a block introduced as Python 2's output
    ("Here is how to use it. (The output showing is from Py2):\n\n```pycon\n>>> type(a)\nlong\n```\n", True),
    ("On Py2, this gives us:\n\n```pycon\n>>> str\nfuture.types.newstr.newstr\n```\n", True),  # str_object.rst
    # future docs/imports.rst: everything under a heading that names Python 2 alone
    ("## Obsolete Python 2 builtins\n\nThis is equivalent to:\n\n```python\nfrom m import cmp\n```\n", True),
    # held to Python 3: both named (bytes_object.rst:72 and str_object.rst:81 are real stale errors)
    ("Here is an example that works identically on Python 2.x and 3.x:\n\n```pycon\n>>> b\n```\n", False),
    ("These objects on Py2 have the same behaviours as Python 3's str:\n\n```pycon\n>>> s\n```\n", False),
    ("## Porting to Python 3\n\nOn Py2 it differs; on Py3:\n\n```pycon\n>>> s\n```\n", False),
    # the sentence must introduce this block: an earlier paragraph's Py2 does not reach past a block
    ("On Py2:\n\n```pycon\n>>> a\n```\n\n```pycon\n>>> s\n```\n", False),
    ("Python 2 was a long time ago.\n\nToday:\n\n```pycon\n>>> s\n```\n", False),
    ("Using Python 3.12:\n\n```pycon\n>>> s\n```\n", False),
    # future docs/isinstance.rst: "And if this import is in effect on Python 2::", a block, "then the fifth test
    # fails too::" goes on with the sentence the block cut
    ("And if this is in effect on Python 2:\n\n```pycon\n>>> a\n```\n\nthen it fails too:\n\n```pycon\n>>> s\n```\n",
     True),
    ("And if this is in effect on Python 2:\n\n```pycon\n>>> a\n```\n\nThen it fails too:\n\n```pycon\n>>> s\n```\n",
     False),  # a new sentence
    ("On Python 2:\n\n```pycon\n>>> a\n```\n\nToday:\n\n```pycon\n>>> b\n```\n\nthen it fails:\n\n```pycon\n"
     ">>> s\n```\n", False),  # it goes on with the sentence just above, not one further up
])
def test_a_stretch_that_tells_what_python_2_does(markdown: str, python2: bool) -> None:
    last = markdown.rstrip("\n").splitlines()
    block_line = max(i for i, line in enumerate(last) if line.startswith(">>>") or line.startswith("from"))
    assert bool(read_genre("docs/page.md", markdown).python2_at(block_line)) is python2
