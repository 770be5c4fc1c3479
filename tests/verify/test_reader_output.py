"""The reader's rules for stated outputs and for errors that say what a run lacked (issue 28's after-fix classes):
each case is a shape from a published doc (named beside it), beside a real stale error of the same shape, which
must stay a contradiction."""

from __future__ import annotations

import pytest

from docbot.sandbox.step import Step
from docbot.verify.checks.reader import classify
from docbot.verify.checks.reader_output import by_output
from docbot.verify.findings import Check, Finding, Severity

C, N, V, T = Severity.CONTRADICTION, Severity.NOTE, Severity.VERSION_DEPENDENT, Severity.TIME_DEPENDENT


@pytest.mark.parametrize("stated, got, expected", [
    pytest.param("2019-05-01 10:00:00,123 found zone", "2026-12-02 03:00:00,001 found zone", T, id="timestamps"),
    pytest.param("2019-05-01 10:00:00,123 found zone", "2026-12-02 03:00:00,001 lost zone", C,
                 id="... and another message"),
    pytest.param("<type 'int'>", "<class 'int'>", V, id="Python 2's <type>"),
    pytest.param("['blah', 'foo']", "dict_keys(['foo', 'blah'])", V, id="werkzeug quickstart: keys() as a list"),
    pytest.param("['blah', 'bar']", "dict_keys(['foo', 'blah'])", C, id="... with another key"),
    pytest.param("'Hello World!'", "b'Hello World!'", V, id="werkzeug quickstart: response.data as a str"),
    pytest.param("'Hello World'", "b'Hello World!'", C, id="... with other text"),
    pytest.param("string encoded as utf-8 on Py2", "Unicode string: x", V,
                 id="future compatible_idioms: a comment stating what Py2 prints"),
    pytest.param("string encoded as utf-8 on Py2 and Py3", "Unicode string: x", C, id="... and Py3"),
    pytest.param('"Okay, folks.\n   — Police Chief Wiggum', '"Okay, folks.\n\t— Police Chief Wiggum', N,
                 id="beartype README: a tab shown as spaces"),
    pytest.param("Match({\n  'index': 5,\n  'raw': 'github.com'})", "Match({'index': 5, 'raw': 'github.com'})", N,
                 id="linkify-it-py README: a value pretty-printed"),
    pytest.param("Match({\n  'index': 5,\n  'raw': 'github.org'})", "Match({'index': 5, 'raw': 'github.com'})", C,
                 id="... with another value"),
    pytest.param("1 2", "12", C, id="too little text to call it spacing"),
    pytest.param("beartype.door.UnionTypeHint  # <-- what madness is this?", "<class 'beartype.door.UnionTypeHint'>",
                 N, id="beartype api_door: a class by its name, and a remark"),
    pytest.param("(int, str, NoneType)  # <-- sense", "(<class 'int'>, <class 'str'>, <class 'NoneType'>)", N,
                 id="... a tuple of classes by their short names"),
    pytest.param("beartype.door.TypeHint  # <-- what madness", "<class 'beartype.door.UnionTypeHint'>", C,
                 id="... another class"),
    pytest.param("42  # the answer", "41", C, id="a remark after a wrong value"),
])
def test_a_stated_output_as_the_reader_meets_it(stated: str, got: str, expected: Severity) -> None:
    assert by_output(Finding(Check.EXAMPLE_MISMATCH, "m", stated, got, line=3), 4).severity is expected


def _classified(error: str, steps: list[str], defined: set[str]) -> Severity:
    finding = Finding(Check.EXAMPLE_RAISES, "m", "", error, line=9)
    ran = [Step(code, "none", line=n) for n, code in enumerate(steps)] + [Step("use()", "none", line=9)]
    found = classify(finding, ran, ["x"] * 12, defined, {})
    assert found is not None
    return found.severity


FLASK = "RuntimeError: Working outside of application context.\n\nThis typically means that you attempted to use..."


@pytest.mark.parametrize("error, steps, defined, expected", [
    pytest.param(FLASK, [], set(), Severity.SETUP_ELIDED, id="flask: code meant for an app context"),
    pytest.param("RuntimeError: Working outside of request context.", [], set(), Severity.SETUP_ELIDED,
                 id="flask: ... a request context"),
    pytest.param("RuntimeError: no running event loop", [], set(), Severity.SETUP_ELIDED, id="asyncio: no loop"),
    pytest.param("RuntimeError: the context manager was left", [], set(), C, id="another RuntimeError"),
    pytest.param('beartype.roar.BeartypeClawHookUnpackagedException: Top-level script "<doc example 4>" resides '
                 'outside package structure.', [], set(), Severity.SETUP_ELIDED,
                 id="beartype api_claw: code for a package's __init__, run as a script"),
    pytest.param("NameError: name 'db' is not defined", ["def get_db():\n    db = connect()\n    return db"], {"db"},
                 Severity.SETUP_ELIDED, id="flask sqlite3: a name bound only inside a function"),
    pytest.param("NameError: name 'event' is not defined", ["for event in ws.events():\n    print(event)"],
                 {"event"}, Severity.SETUP_ELIDED, id="wsproto: a name bound only by a loop"),
    pytest.param("NameError: name 'app' is not defined", ["if debug:\n    app = make()"], {"app"},
                 Severity.SETUP_ELIDED, id="... only in a branch"),
    pytest.param("NameError: name 'app' is not defined", ["with ctx() as app:\n    pass"], {"app"}, C,
                 id="bound by a with at the top: the doc's to answer for"),
    pytest.param("NameError: name 'app' is not defined", ["try:\n    app = make()\nexcept E:\n    pass"], {"app"}, C,
                 id="... by a try body"),
    pytest.param("NameError: name 'app' is not defined", ["app = make()"], {"app"}, C,
                 id="bound at the top of an earlier block"),
    pytest.param("NameError: name 'app' is not defined", [], set(), Severity.SETUP_ELIDED, id="never bound"),
])
def test_an_error_that_says_what_the_run_lacked(error: str, steps: list[str], defined: set[str],
                                                expected: Severity) -> None:
    assert _classified(error, steps, defined) is expected


@pytest.mark.parametrize("stated, expected", [
    pytest.param("TypeError: argument can't be unicode string", V, id="future bytes_object.rst: Python 2's wording"),
    pytest.param("TypeError: unorderable types: bytes() and <type 'unicode'>", V, id="... its <type> and comparison"),
    pytest.param("TypeError: sequence item 0: expected bytes, found unicode string", V, id="... its join"),
    pytest.param("TypeError: can't concat int to bytes", C, id="a Python 3 message, stale"),
    pytest.param("UnicodeDecodeError: 'ascii' codec can't decode", C, id="a Unicode error's name is no Python 2 text"),
])
def test_a_stated_message_only_python_2_gives(stated: str, expected: Severity) -> None:
    finding = Finding(Check.EXAMPLE_WRONG_EXCEPTION, "m", stated, "TypeError: can't concat str to bytes", line=3)
    found = classify(finding, [Step("b + u'x'", "raises", line=3)], ["x"] * 12, set(), {})
    assert found is not None and found.severity is expected
