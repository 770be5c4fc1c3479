"""A stated default against the code's: named constants and the 1e-9 tolerance (issue 23, item 6).

``def fetch(url, timeout=TIMEOUT)`` with ``TIMEOUT = 30`` at the top of the module: a doc saying "default 30" is
right and must not get a ``wrong_default``; "default 60" is still a contradiction (docbot.verify.read.doc_params).
"""

from __future__ import annotations

import pytest

from docbot.facts.module import module_constants, scope_constants
from docbot.verify.checks.page import check_doc
from docbot.verify.read.doc_params import same_default
from docbot.verify.findings import Check

CONSTANTS = {"TIMEOUT": "30", "MODE": "'fast'", "RATIO": "0.25"}


@pytest.mark.parametrize("stated, real, equal", [
    ("30", "TIMEOUT", True),  # the constant's value
    ("60", "TIMEOUT", False),  # a different value still contradicts
    ("TIMEOUT", "TIMEOUT", True),  # the name as written
    ("30.0", "TIMEOUT", True),
    ("fast", "MODE", True),  # `fast` for 'fast', as for a literal default
    ("slow", "MODE", False),
    ("0.25", "RATIO", True),
    ("30", "OTHER", None),  # a name the module does not bind to one literal: cannot be told, never false
    ("30", "TIMEOUT + 1", None),  # an expression is not looked up
])
def test_a_named_constant_default_is_compared_by_its_value(stated: str, real: str, equal: bool | None) -> None:
    assert same_default(stated, real, CONSTANTS) is equal


def test_without_the_module_a_named_default_cannot_be_told() -> None:
    assert same_default("30", "TIMEOUT") is None


# 1e-9, relative (never less than absolute): just inside is the same default, just outside is not.
@pytest.mark.parametrize("stated, real, equal", [
    ("1.0", "1.0000000009", True),
    ("1.0", "1.0000000011", False),
    ("1000.0", "1000.0000009", True),
    ("1000.0", "1000.0000011", False),
    ("0.0", "9e-10", True),
    ("0.0", "1.1e-09", False),
    ("1", "True", False),  # True is not 1
])
def test_the_default_tolerance_is_1e_9(stated: str, real: str, equal: bool) -> None:
    assert same_default(stated, real) is equal


@pytest.mark.parametrize("module, constants", [
    ("TIMEOUT = 30\n", {"TIMEOUT": "30"}),
    ("TIMEOUT: int = 30\nMODE = 'fast'\n", {"TIMEOUT": "30", "MODE": "'fast'"}),
    ("LIMITS = (1, -2)\n", {"LIMITS": "(1, -2)"}),
    ("TIMEOUT = 30\nTIMEOUT = 60\n", {}),  # which value a default saw depends on where the def is
    ("TIMEOUT = compute()\n", {}),  # not a literal
    ("A = B = 3\n", {}),
    ("if fast:\n    TIMEOUT = 1\n", {}),  # not at the top level
    ("TIMEOUT = 30\ndef f():\n    global TIMEOUT\n    TIMEOUT = 5\n", {}),
    ("TIMEOUT = 30\nfor TIMEOUT in range(3):\n    pass\n", {}),
    ("TIMEOUT = 30\nfrom os import TIMEOUT\n", {}),
    ("def broken(:\n", {}),
])
def test_module_constants_are_names_bound_once_to_a_literal(module: str, constants: dict[str, str]) -> None:
    assert dict(module_constants(module)) == constants


MODULE = "TIMEOUT = 30\n\n\ndef fetch(url, timeout=TIMEOUT):\n    return url\n"
FETCH = "def fetch(url, timeout=TIMEOUT):\n    return url\n"


@pytest.mark.parametrize("doc, wrong", [
    ("## `fetch`\n\nReturns the url.\n\nParameters:\n\n- `url`: where\n- `timeout`: seconds, default 30\n", False),
    ("## `fetch`\n\nReturns the url.\n\nParameters:\n\n- `url`: where\n- `timeout`: seconds, default 60\n", True),
    ("## `fetch`\n\nReturns the url.\n\n```python\ndef fetch(url: str, timeout: int = 30) -> str\n```\n", False),
    ("## `fetch`\n\nReturns the url.\n\n```python\ndef fetch(url: str, timeout: int = 60) -> str\n```\n", True),
])
def test_verify_holds_a_named_default_to_its_value(doc: str, wrong: bool) -> None:
    findings = [f for f in check_doc(doc, FETCH, "fetch", module_source=MODULE)
                if f.check is Check.WRONG_DEFAULT]
    assert bool(findings) is wrong
    if wrong:
        assert "TIMEOUT (= 30)" in findings[0].message


CLASSY = ("TIMEOUT = 30\nMODE = 'fast'\n\n\nclass Client:\n    BASE_URL = 'https://x/'\n    MODE = make()\n\n"
          "    class Inner:\n        DEPTH = 2\n\n        def go(self, depth=DEPTH):\n            pass\n\n"
          "    def __init__(self, base_url=BASE_URL, timeout=TIMEOUT, mode=MODE):\n        pass\n\n\n"
          "def fetch(url, timeout=TIMEOUT):\n    return url\n")


@pytest.mark.parametrize("qualname, constants", [
    # a method's defaults see its class body's literals, and the module's the class does not rebind
    # (MODE, bound again in the class, is no constant anywhere: which one a default saw depends on the scope)
    ("Client.__init__", {"TIMEOUT": "30", "BASE_URL": "'https://x/'"}),
    ("Client.Inner.go", {"TIMEOUT": "30", "DEPTH": "2"}),  # not its enclosing class's BASE_URL
    ("fetch", {"TIMEOUT": "30"}),
    ("Missing.method", {"TIMEOUT": "30"}),
])
def test_a_methods_defaults_see_its_class_body(qualname: str, constants: dict[str, str]) -> None:
    assert dict(scope_constants(CLASSY, qualname)) == constants


@pytest.mark.parametrize("stated, wrong", [("'https://x/'", False), ("'https://y/'", True)])
def test_verify_holds_a_class_constant_default_to_its_value(stated: str, wrong: bool) -> None:
    # slack_sdk's `base_url: str = BASE_URL`, BASE_URL bound in BaseClient's body (issue 29's held-out misses)
    init = "    def __init__(self, base_url=BASE_URL, timeout=TIMEOUT, mode=MODE):\n        pass\n"
    doc = f"## `Client`\n\nThe `base_url` argument of `Client()` defaults to `{stated}`.\n"
    findings = [f for f in check_doc(doc, init, "Client.__init__", module_source=CLASSY)
                if f.check is Check.WRONG_DEFAULT]
    assert bool(findings) is wrong
    if wrong:
        assert "BASE_URL (= 'https://x/')" in findings[0].message
