"""What ``**kwargs`` carries: pop/get defaults, calls to module functions and classes, closed routes."""

from __future__ import annotations

import textwrap

import pytest

from docbot.verify.checks.page import check_doc
from docbot.verify.checks.kwargs_reach import carried_keywords

MODULE = '''
def _emit(key, value, pretty=False, newl="\\n", *, depth=0):
    pass


def _open_ended(key, size=1, **rest):
    pass


class Handler:
    def __init__(self, prefix="@", strip=True):
        pass


def unparse(data, encoding="utf-8", **kwargs):
    errors = kwargs.pop("errors", "replace")
    _emit(data, encoding, pretty=True, **kwargs)


def parse(xml, **kwargs):
    return Handler(strip=False, **kwargs)


def leaky(data, **kwargs):
    return _open_ended(data, **kwargs)


def unknown(data, **kwargs):
    return print(data, **kwargs)


def stored(data, **kwargs):
    global SAVED
    SAVED = kwargs
    _emit(data, 1, **kwargs)


def plain(data):
    return data
'''


def function(name: str) -> str:
    source = textwrap.dedent(MODULE)
    start = source.index(f"def {name}(")
    end = source.find("\n\n\n", start)
    return source[start : end if end != -1 else None]


CASES = [
    pytest.param("unparse", {"errors": "'replace'", "newl": "'\\n'", "depth": "0"}, True,
                 id="pop default, callee's parameters less those passed positionally or by keyword"),
    pytest.param("parse", {"prefix": "'@'"}, True, id="a class's __init__ less self and the keyword passed"),
    pytest.param("leaky", {"size": "1"}, False, id="a callee with **kwargs of its own: not closed"),
    pytest.param("unknown", {}, False, id="a callee outside the module carries nothing known"),
    pytest.param("stored", {"pretty": "False", "newl": "'\\n'", "depth": "0"}, False,
                 id="kwargs used another way: not closed"),
    pytest.param("plain", {}, False, id="no **kwargs"),
]


@pytest.mark.parametrize("name, defaults, closed", CASES)
def test_carried_keywords(name: str, defaults: dict[str, str], closed: bool) -> None:
    carried = carried_keywords(textwrap.dedent(MODULE), function(name))
    assert {k: p.default for k, p in carried.parameters.items()} == defaults
    assert carried.closed is closed


@pytest.mark.parametrize("item, kinds", [
    pytest.param("- `newl='\\n'`: newline.", [], id="the carried default, backslash literal in a code span"),
    pytest.param("- `newl='\\r'`: newline.", ["wrong_default"], id="a wrong default for a carried keyword"),
    pytest.param("- `newline='\\n'`: newline.", ["invented_parameter"], id="outside a closed route: fatal"),
])
def test_a_usage_list_of_carried_keywords(item: str, kinds: list[str]) -> None:
    doc = "## unparse\n\n- `data`: the data.\n- `encoding='utf-8'`: encoding.\n" + item + "\n"
    carried = carried_keywords(textwrap.dedent(MODULE), function("unparse"))
    found = check_doc(doc, function("unparse"), "unparse", carried=carried)
    assert [f.check for f in found if f.fatal] == kinds


def test_an_unknown_route_keeps_an_invented_keyword_a_note() -> None:
    doc = "## leaky\n\n- `data`: the data.\n- `size=1`: size.\n- `colour='red'`: colour.\n"
    carried = carried_keywords(textwrap.dedent(MODULE), function("leaky"))
    found = [(f.check, f.fatal) for f in check_doc(doc, function("leaky"), "leaky", carried=carried)]
    assert ("invented_parameter", False) in found and not any(fatal for _, fatal in found)


def test_one_name_equals_default_item_alone_is_not_a_parameter_list() -> None:
    doc = "## plain\n\nPass it as is.\n\n- `x=1` in the query string.\n"
    assert [f for f in check_doc(doc, function("plain"), "plain") if f.fatal] == []
    listed = doc + "- `y=2`: also.\n"
    assert [f.check for f in check_doc(listed, function("plain"), "plain") if f.fatal] == ["invented_parameter"] * 2
