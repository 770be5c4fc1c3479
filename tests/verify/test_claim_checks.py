"""Each claim held to the code (docs/design.md#claims): a contradiction only where the code proves the statement
false, a note (lowered, with its reason) where the proof is not complete."""

from __future__ import annotations

import pytest

from docbot.verify.checks.page import check_doc
from docbot.verify.findings import Check, Severity

MODULE = '''\
import os

LIMIT = 30


class Broke(Exception):
    pass


def clip(text: str, width: int = 70, *, mode: str = "fast", limit=LIMIT) -> str:
    if width < 0:
        raise ValueError("width must be positive")
    return text[:width].strip()


def fill(text, width=None):
    width = width or 70
    return text[:width]


def load(path):
    with open(path) as handle:
        return handle.read()


def apply(func, value):
    return func(value)


def settle(amount):
    if amount < 0:
        raise Broke("negative")
    return amount


def flag(value) -> bool:
    return value > 0


def passthrough(text, **options):
    return clip(text, **options)


class Box:
    def size(self) -> str:
        return self._name().upper()

    def _name(self):
        return "box"
'''
FUNCTIONS = {name: f"def {name}(" + MODULE.split(f"def {name}(", 1)[1].split("\n\n\n", 1)[0] + "\n"
             for name in ("clip", "fill", "load", "apply", "settle", "flag", "passthrough")}
BOX_SIZE = "def size(self) -> str:\n    return self._name().upper()\n"


def checked(name: str, doc: str) -> list[tuple[str, str]]:
    source = BOX_SIZE if name == "Box.size" else FUNCTIONS[name]
    found = check_doc(f"## `{name}`\n\n{doc}\n", source, name, module_source=MODULE, module="pkg.mod")
    return sorted((f.check.value, f.severity.value) for f in found
                  if f.check in (Check.WRONG_DEFAULT, Check.INVENTED_PARAMETER, Check.WRONG_PARAMETER_TYPE,
                                 Check.INVENTED_EXCEPTION, Check.WRONG_EXCEPTION_TYPE, Check.WRONG_RETURN_TYPE,
                                 Check.WRONG_RETURN_VALUE))


C, NOTE = Severity.CONTRADICTION.value, Severity.NOTE.value


@pytest.mark.parametrize("name, doc, expected", [
    # defaults: the signature's, a module constant's value, and a None the body replaces
    ("clip", "`width` defaults to 80.", [("wrong_default", C)]),
    ("clip", "`width` defaults to 70.", []),
    ("clip", "By default, `mode` is `'slow'`.", [("wrong_default", C)]),
    ("clip", "`limit` defaults to 30.", []),
    ("clip", "`limit` defaults to 60.", [("wrong_default", C)]),
    ("fill", "`width` defaults to 70.", [("wrong_default", NOTE)]),  # `width = width or 70`
    ("clip", "`text` defaults to `'a'`.", [("wrong_default", C)]),  # it is required
    # parameters: explicit ones only; **kwargs may carry any
    ("clip", "It takes an optional `height` argument.", [("invented_parameter", C)]),
    ("clip", "`height` is 3.", []),  # not said to be a parameter
    ("apply", "It takes an optional `retries` argument.", [("invented_parameter", C)]),
    # types: the annotation, float accepting an int
    ("clip", "`width` must be a string.", [("wrong_parameter_type", C)]),
    ("clip", "`width` must be an integer.", []),
    ("fill", "`width` must be a string.", []),  # no annotation: nothing to hold it to
    # exceptions: nothing reachable raises it, and the reach is complete
    # (the section check pairs it with the ValueError it leaves out: one contradiction, said once)
    ("clip", "Raises `FileNotFoundError` if the file does not exist.", [("wrong_exception_type", C)]),
    ("flag", "Raises `FileNotFoundError` if the file does not exist.", [("invented_exception", C)]),
    ("load", "Raises `FileNotFoundError` if the file does not exist.", [("invented_exception", NOTE)]),  # open()
    ("apply", "Raises `FileNotFoundError` if the file does not exist.", [("invented_exception", NOTE)]),  # func()
    ("settle", "Raises `Broke` if the amount is negative.", []),
    ("flag", "Raises `Broke` when it fails.", [("invented_exception", C)]),  # only settle raises it
    # a bare verb after a sentence naming another callable: still the page's function
    ("flag", "See also `str.strip()`. Raises `FileNotFoundError` if the file does not exist.",
     [("invented_exception", C)]),
    ("clip", "Raises `ValueError` if `width` is negative.", []),
    # returns: types and values
    ("clip", "It returns a list.", [("wrong_return_type", C)]),
    ("clip", "It returns a string.", []),
    ("clip", "It returns `None` when the text is empty.", [("wrong_return_value", C)]),
    ("flag", "It returns `True` when the value is positive.", []),
    ("flag", "It returns `'yes'` when the value is positive.", [("wrong_return_value", C)]),
    ("Box.size", "It returns a list.", [("wrong_return_type", C)]),  # a method, the module read
    ("clip", "Calling `clip()` gives back a list.", [("wrong_return_type", C)]),
    ("clip", "Calling `clip()` gives back a string.", []),
    ("clip", "The result of `clip()` is a list.", [("wrong_return_type", C)]),
    ("clip", "The result of `clip()` is a string.", []),
    # a list its lead sentence says holds arguments, under a heading that names no API part (issue 29's plants on
    # idna's README: "## Usage"); a lead that writes no call leaves the heading's reading (an example's list)
    ("clip", "### Usage\n\n`clip()` takes these arguments:\n\n- `height` (default: `None`): the height",
     [("invented_parameter", C)]),
    ("clip", "### Usage\n\n`clip()` takes these arguments:\n\n- `width` (default: `70`): the width", []),
    ("clip", "### Notes\n\n`clip()` takes these arguments:\n\n- `height`: the height", [("invented_parameter", C)]),
    ("clip", "### Usage\n\nThe command line takes these arguments:\n\n- `height`: the height", []),
])
def test_each_claim_is_held_to_the_code(name: str, doc: str, expected: list[tuple[str, str]]) -> None:
    assert checked(name, doc) == expected


def test_a_lowered_claim_says_why() -> None:
    found = check_doc("## fill\n\n`width` defaults to 70.\n", FUNCTIONS["fill"], "fill", module_source=MODULE)
    [default] = [f for f in found if f.check is Check.WRONG_DEFAULT]
    assert default.severity is Severity.NOTE and "replaces the default" in default.reason


def test_a_claim_the_section_checks_already_make_is_said_once() -> None:
    doc = "## clip\n\n**Parameters**\n\n- `height`: the height.\n"
    found = [f for f in check_doc(doc, FUNCTIONS["clip"], "clip", module_source=MODULE)
             if f.check is Check.INVENTED_PARAMETER]
    assert len(found) == 1


def test_each_module_s_classes_are_read_once_however_many_names_a_doc_writes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Project mode asks every module of the package for each dotted name a doc writes: docbot's own README
    against its 188 modules re-parsed them per name (module_tree keeps 8 trees) and ran for minutes."""
    from docbot.verify.checks.class_bases import through_bases
    from tests.support.parses import counted_parses

    parsed = counted_parses(monkeypatch)
    sources = [f"class Base{i}:\n    def run(self): ...\n\n\nclass Sub{i}(Base{i}):\n    pass\n" for i in range(20)]
    for _round in range(3):
        for i, source in enumerate(sources):
            assert through_bases(source, f"Sub{i}.run", {f"Base{i}.run": ""}) == f"Base{i}.run"
    assert len(parsed) == len(sources)
