"""Reference pages read a docstring: its sections in all three styles (Google, NumPy, Sphinx/reST), rendered as
docbot renders its own, reST's admonitions, roles and doctest directives, and a module constant's value.
Before, a reST docstring ran into one paragraph (`:param x: ... :raises ValueError: ... .. note::`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.apidocs.api_model import load_api
from docbot.apidocs.doc_sections import split_trailing_directives
from docbot.apidocs.reference import Targets, render_page
from docbot.apidocs.sections_md import text_md

SPHINX = '''
def scale(value: float, factor: float = 2.0) -> float:
    """Scale a value.

    .. warning::
       Large factors overflow.

    :param value: the number, as :class:`float`
    :param factor: how much, see :func:`~pkg.core.other`
    :raises ValueError: when ``factor`` is negative
    :returns: the scaled value
    :rtype: float

    .. note::
       Works on ints too.

    .. doctest::

       >>> scale(2)
       4.0
    """
    if factor < 0:
        raise ValueError("negative")
    return value * factor
'''
GOOGLE = '''
def scale(value: float, factor: float = 2.0) -> float:
    """Scale a value.

    Args:
        value: the number.
        factor: how much.

    Returns:
        float: the scaled value.

    Raises:
        ValueError: when factor is negative.

    Note:
        Works on ints too.

    Examples:
        >>> scale(2)
        4.0
    """
    return value * factor
'''
NUMPY = '''
def scale(value: float, factor: float = 2.0) -> float:
    """Scale a value.

    Parameters
    ----------
    value : float
        the number.
    factor : float, optional
        how much.

    Returns
    -------
    float
        the scaled value.

    Raises
    ------
    ValueError
        when factor is negative.

    Notes
    -----
    Works on ints too.

    Examples
    --------
    >>> scale(2)
    4.0
    """
    return value * factor
'''
CONSTANTS = '''
"""Constants."""

LIMIT: int = 3
"""How many at most."""

NAMES = {"a": 1, "b": [1, 2]}
'''


def _page(tmp_path: Path, source: str) -> str:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "core.py").write_text(source + "\n\ndef other():\n    pass\n")
    modules = load_api(tmp_path, "pkg")
    core = next(m for m in modules if m.path == "pkg.core")
    return render_page(core, Targets.of(modules))


@pytest.mark.parametrize("source", [SPHINX, GOOGLE, NUMPY], ids=["sphinx", "google", "numpy"])
def test_each_style_renders_docbots_sections(tmp_path: Path, source: str) -> None:
    page = _page(tmp_path, source)
    assert "**Parameters**\n\n| Name | Type | Default | Description |" in page
    assert "| <code>value</code> | <code>float</code> | required | the number" in page
    assert "| <code>factor</code> | <code>float</code> | <code>2.0</code> | how much" in page
    assert "**Returns**\n\n<code>float</code>\n\nthe scaled value" in page
    assert "**Raises**\n\n- <code>ValueError</code> — when" in page
    assert "Works on ints too." in page and page.index("> **Not") < page.index("Works on ints too.")
    assert "```pycon\n>>> scale(2)\n4.0\n```" in page
    assert ":param" not in page and "Args:" not in page and "----------" not in page


def test_rest_directives_roles_and_the_order_they_stand_in(tmp_path: Path) -> None:
    page = _page(tmp_path, SPHINX)
    assert "> **Warning**\n>\n> Large factors overflow." in page  # before the fields: in the text, in place
    assert "> **Note**\n>\n> Works on ints too." in page  # after the fields: not swallowed by :rtype:
    assert page.index("Large factors") < page.index("**Parameters**") < page.index("Works on ints")
    assert "as <code>float</code>" in page and "see <code>other</code>" in page
    assert ":class:" not in page and ":func:" not in page
    assert ".. note::" not in page and ".. doctest::" not in page
    assert "**See also:** [`other`](#pkg.core.other)" in page  # the role's target is linked


def test_a_module_constant_shows_its_value(tmp_path: Path) -> None:
    page = _page(tmp_path, CONSTANTS)
    assert "```python\nLIMIT: int = 3\n```\n\nHow many at most." in page
    assert "```python\nNAMES = {'a': 1, 'b': [1, 2]}\n```" in page or \
        '```python\nNAMES = {"a": 1, "b": [1, 2]}\n```' in page


@pytest.mark.parametrize(("text", "body", "trailing"), [
    ("Text.\n\n:param x: y\n\n.. note::\n   A.\n\nMore.", "Text.\n\n:param x: y\n\nMore.", [".. note::\n   A."]),
    (".. note::\n   Before.\n\n:param x: y", ".. note::\n   Before.\n\n:param x: y", []),  # before: kept
    ("No fields.\n\n.. note::\n   A.", "No fields.\n\n.. note::\n   A.", []),
    (":returns: x\n:rtype: int\n\n.. doctest::\n\n   >>> 1\n   1", ":returns: x\n:rtype: int",
     [".. doctest::\n\n   >>> 1\n   1"]),
])
def test_split_trailing_directives(text: str, body: str, trailing: list[str]) -> None:
    assert split_trailing_directives(text) == (body, trailing)


@pytest.mark.parametrize(("text", "markdown"), [
    (".. code-block:: bash\n\n   pip install x", "```bash\npip install x\n```"),
    (".. versionadded:: 1.2\n   The flag.", "> **Added in version 1.2**\n>\n> The flag."),
    (".. seealso:: :func:`f`", "> **See also**\n>\n> `f`"),
    (".. autosummary::\n   x", "```rst\n.. autosummary::\n   x\n```"),  # unknown: shown as written
    ("See :ref:`the guide <guide>`.", "See `the guide`."),
    ("Use ``x`` here.", "Use ``x`` here."),
])
def test_text_md(text: str, markdown: str) -> None:
    assert text_md(text) == markdown


DECORATED = '''
import enum
from dataclasses import dataclass


class Color(enum.Enum):
    """A colour."""

    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Point:
    """A point."""

    x: int = 0

    @classmethod
    def origin(cls) -> "Point":
        """The origin."""
        return cls()
'''


def test_decorators_and_class_attribute_values_are_shown(tmp_path: Path) -> None:
    """What bench/render_module.py found on pdoc's and mkdocstrings' pages and not on docbot's."""
    page = _page(tmp_path, DECORATED)
    assert "```python\n@dataclass(frozen=True)\nclass Point(x: int = 0)\n```" in page
    assert "```python\n@classmethod\ndef origin(cls) -> Point\n```" in page
    assert "| Name | Kind | Type | Value | Description |" in page
    assert "`RED` | attribute |  | <code>&#39;red&#39;</code> |" in page
