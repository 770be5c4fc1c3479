"""Examples: finding them in Markdown, comparing outputs by value, and running them in the sandbox."""

from __future__ import annotations

import os
import socket
import textwrap
import threading
from pathlib import Path

import pytest

from docbot.verify.checks.examples import ExampleContext
from docbot.verify.findings import Finding, Severity
from docbot.sandbox.compare import numbers_equal, output_matches, value_matches
from docbot.verify.checks.examples import check_examples
from docbot.verify.read.examples import extract_steps

FENCE = "```"


def block(body: str, lang: str = "python") -> str:
    return f"{FENCE}{lang}\n{textwrap.dedent(body).strip()}\n{FENCE}\n"


# (markdown, [(expect, want, exc_type, exc_message, target, fatal)])
EXTRACT_CASES = [
    pytest.param(block('--8<-- "examples/app.py"', lang="py"), [],
                 id="a pymdownx snippet include is markup (flask-cors)"),
    pytest.param(block("--8<-- 'examples/a.py'\n;--8<-- \"examples/b.py\"", lang="py"), [],
                 id="... one on each line, in either quotes"),
    pytest.param(block('x = 1\n--8<-- "examples/app.py"', lang="py"), [("none", "", "", None, "", True)],
                 id="... beside code, the block is code"),
    pytest.param(block(">>> @app.task(name='sum')\n>>> def add(x, y):\n...     return x + y\n\n>>> add.name\n'sum'\n"),
                 [("output", "", "", None, "", True), ("output", "'sum'\n", "", None, "", True)],
                 id="a decorator's own prompt line continues onto the definition, as a console does (celery)"),
    pytest.param(block(">>> @cache\n>>> @wraps(f)\n>>> def g():\n...     pass\n"),
                 [("output", "", "", None, "", True)], id="two decorator lines, then their definition"),
    pytest.param(block(">>> @property\n'@property'\n>>> x = 1\n"),
                 [("output", "'@property'\n", "", None, "", True), ("output", "", "", None, "", True)],
                 id="a decorator line with a stated output is an example of its own"),
    pytest.param(block(">>> f(1)\n2\n>>> f(-1)\nTraceback (most recent call last):\nValueError: bad\n"),
                 [("output", "2\n", "", None, "", True), ("raises", "ValueError: bad", "ValueError", "bad", "", True)],
                 id="doctest result and traceback"),
    pytest.param(block(">>> f(-1)\nTraceback (most recent call last):\nValueError: bad\n# then another alphabet\n"
                       "# second comment\n>>> f(2)\n3"),
                 [("raises", "ValueError: bad", "ValueError", "bad", "", True), ("output", "3\n", "", None, "", True)],
                 id="commentary after a traceback is not part of the stated message"),
    pytest.param(block(">>> f(-1)\nTraceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\n"
                       "    raise ValueError('bad')\nValueError: bad\n"),
                 [("raises", "ValueError: bad", "ValueError", "bad", "", True)],
                 id="a traceback's indented stack lines at prompt column 0 are not the message"),
    pytest.param(block("x = f(1)  # -> 2\nf(3)  # Output: 4\nprint(f(5))  # prints 6\nf(7)\n# returns 8\n"),
                 [("value", "2", "", None, "x", True), ("stdout", "4", "", None, "", True),
                  ("stdout", "6", "", None, "", True), ("value", "8", "", None, "", True)],
                 id="marker comments: same line and the line after"),
    pytest.param(block("print(f(1))  # Print True !\nprint(f(2))  # prints a !\nf(3)  # -> 4 !\n"
                       "print(f(5))  # prints 6!\n"),
                 [("stdout", "True", "", None, "", True), ("stdout", "a", "", None, "", True),
                  ("value", "4 !", "", None, "", True), ("stdout", "6!", "", None, "", True)],
                 id="a detached ! or . after a prose marker closes the sentence (charset-normalizer's docs)"),
    pytest.param(block("x = f(1)  # raises a TraitError") + block("TraitError: The 'bar' trait must be\nan int",
                                                                    lang=""),
                 [("raises", "TraitError: The 'bar' trait must be an int", "TraitError",
                   "The 'bar' trait must be an int", "", True)],
                 id="a raise marker's message in the block after (traitlets)"),
    pytest.param(block("x = f(1)  # raises a TraitError") + block("KeyError: 'k'", lang=""),
                 [("raises", "TraitError", "TraitError", None, "", True)],
                 id="a block after that states another exception is not the marker's"),
    pytest.param(block("setup = 1\nf(-1)  # raises ValueError: bad value\ng()  # -> KeyError('k')\n"),
                 [("none", "", "", None, "", True), ("raises", "ValueError: bad value", "ValueError", "bad value", "",
                                                     True), ("raises", "KeyError('k')", "KeyError", "k", "", True)],
                 id="promised exceptions; unmarked statements in a marked block still must run"),
    pytest.param(block("f('a_b')  # aB\nf(2)  # False\nf(3)  # [{'k': 1}]\nf(4)  # runs twice\nx = f(5)  # x_y\n"
                       "f(6)  # noqa\nprint(f(7))  # 8\n"),
                 [("value", "aB", "", None, "", True), ("value", "False", "", None, "", True),
                  ("value", "[{'k': 1}]", "", None, "", True), ("none", "", "", None, "", True),
                  ("none", "", "", None, "", True), ("none", "", "", None, "", True),
                  ("none", "", "", None, "", True)],
                 id="bare comment: a literal or identifier-like token states a bare expression's value"),
    pytest.param(block("print(f(1))") + "\nOutput:\n\n" + block("2", lang="text"),
                 [("stdout", "2", "", None, "", True)], id="an output block after the code"),
    pytest.param(block("f(1)") + "\n" + block("2", lang=""),
                 [("stdout", "2", "", None, "", True)], id="an unlabelled block that is not code is output"),
    pytest.param(block("import math\nvalue = f(1)"), [("none", "", "", None, "", True)],
                 id="a block with no stated output is presented as working"),
    pytest.param("This call fails:\n\n" + block("value = f(-1)"), [("none", "", "", None, "", False)],
                 id="a block the text says fails is not presented as working"),
    pytest.param("At the very top of your package's `__init__.py`:\n\n" + block("hook()"),
                 [("none", "", "", None, "", False)], id="code for a package's __init__ is no console session"),
    pytest.param(block("# Edit your package:\n$ vim {your_package}/__init__.py", lang="bash") + block("hook()"),
                 [("none", "", "", None, "", False)], id="the shell block above opens the package's __init__.py"),
    pytest.param(block('# At the top of your "{your_package}.__init__" submodule:\nhook()'),
                 [("none", "", "", None, "", False)], id="its own opening comment says so (beartype)"),
    pytest.param("Override `__init__` to set it up:\n\n" + block("hook()"),
                 [("none", "", "", None, "", True)], id="a method named __init__ is not the package's"),
    pytest.param("Handle invalid input:\n\n" + block("try:\n    f(-1)\nexcept KeyError:\n    pass"),
                 [("none", "", "", None, "", True)], id="a try block handles the failure: presented as working"),
    pytest.param(block("def f(a, b=1) -> int: ..."), [], id="a signature stub is not run"),
    pytest.param(block(">>> f(1)  # doctest: +SKIP\n2"), [], id="a doctest marked +SKIP is not run"),
    pytest.param(block("f(principal: float, rate: float) -> float"), [], id="pseudo-code is not run"),
    pytest.param(block("f(1,  # -> 2"), [("none", "", "", None, "", True)],
                 id="a broken block that states a result is run (and fails)"),
    pytest.param("Plain Markdown:\n\n    >>> f(2)\n    3\n", [("output", "3\n", "", None, "", True)],
                 id="an indented doctest outside a fence"),
]


@pytest.mark.parametrize("markdown, expected", EXTRACT_CASES)
def test_extract_steps(markdown: str, expected: list[tuple[object, ...]]) -> None:
    steps = extract_steps(markdown)
    assert [(s.expect, s.want, s.exc_type, s.exc_message, s.target, s.fatal) for s in steps] == expected


@pytest.mark.parametrize(
    "want, got, equal",
    [
        ("0.5", "0.50", True),
        ("0.50", "0.5", True),
        ("110.25", "110.25000000000001", True),  # float noise
        ("110.0", "110.25", False),
        ("0.33", "0.3333333333333333", True),  # printed to the precision the doc shows
        ("0.34", "0.3333333333333333", False),
        ("110", "110.25", False),  # an int is an exact claim
        ("{'b': 2, 'a': 1}", "{'a': 1, 'b': 2}", True),
        ("{'a': 1}", "{'a': 2}", False),
        ("[1, 2]", "(1, 2)", False),
        ("hello", "'hello'", True),  # str vs repr
        ("True", "1", False),
        ("Total: 110.25 EUR", "Total: 110.25000000000001 EUR", True),
        ("Total: 110.25 EUR", "Total: 110.25 USD", False),
        ("[1, 2, ...]", "[1, 2, 3, 4]", True),
        ("a\nb", "a\nc", False),
        ("  spaced   out ", "spaced out", False),
    ],
)
def test_output_matches_by_value(want: str, got: str, equal: bool) -> None:
    assert output_matches(want, got) is equal


def test_value_matches_evaluates_non_literal_statements() -> None:
    from decimal import Decimal

    namespace = {"Decimal": Decimal}
    assert value_matches(Decimal("1.10"), "Decimal('1.1')", namespace)
    assert not value_matches(Decimal("1.10"), "Decimal('1.2')", namespace)
    assert value_matches({"x": 0.1 + 0.2}, "{'x': 0.3}")
    assert numbers_equal(float("nan"), float("nan")) and not numbers_equal(1.0, float("nan"))


@pytest.fixture
def module_dir(tmp_path: Path) -> Path:
    (tmp_path / "money.py").write_text(textwrap.dedent('''
        import time

        def compound(principal, rate, periods=1):
            if principal < 0:
                raise ValueError("principal must be non-negative")
            return principal * (1 + rate / periods) ** periods

        def halves(values):
            return {k: v / 2 for k, v in values.items()}

        def slow():
            while True:
                time.sleep(0.05)
    '''))
    return tmp_path


def run(module_dir: Path, markdown: str, name: str = "compound", timeout_s: float = 10.0) -> list[Finding]:
    return check_examples(markdown, name, ExampleContext("money", (str(module_dir),), timeout_s=timeout_s))


def test_matching_examples_in_every_form_pass(module_dir: Path) -> None:
    doc = (block(">>> compound(100, 0.5)\n150.0\n>>> round(compound(100, 0.05, 2), 4)\n105.0625")
           + block("x = compound(100, 0.5)  # -> 150.00\nprint(x / 3)  # Output: 50.0\n")
           + block("print(compound(1, 1))") + "\n" + block("2.0", lang="text")
           + block(">>> from money import halves\n>>> halves({'b': 1, 'a': 3})\n{'a': 1.5, 'b': 0.5}")
           + block(">>> compound(-1, 0.1)\nTraceback (most recent call last):\n  ...\nValueError: principal must be "
                   "non-negative"))
    assert run(module_dir, doc) == []


def test_a_wrong_stated_result_is_fatal_with_both_values(module_dir: Path) -> None:
    found = run(module_dir, block(">>> compound(100, 0.05, 2)\n110.0"))
    assert [(f.check, f.fatal) for f in found] == [("example_mismatch", True)]
    assert found[0].message == "example `compound(100, 0.05, 2)` returns 105.06249999999999, the doc says 110.0"


@pytest.mark.parametrize("stated, wrong", [("'principal must be non-negative'", False),
                                           ('"principal must be non-negative"', False),  # the same value
                                           ("'rate must be positive'", True)])
def test_a_stated_output_after_a_compound_statement_is_what_the_console_echoes(module_dir: Path, stated: str,
                                                                               wrong: bool) -> None:
    # marshmallow's schema_validation.rst: `try: ... except ValidationError as err: err.messages` then `# => {...}`
    code = f"try:\n    compound(-1, 0.1)\nexcept ValueError as err:\n    str(err)\n# => {stated}\n"
    found = run(module_dir, block("from money import compound\n" + code))
    assert [f.check for f in found] == (["example_mismatch"] if wrong else [])


def test_a_compound_statement_that_prints_states_its_printing_alone(module_dir: Path) -> None:
    # (its values echoed too, the printing after them would not be the doc's line)
    code = "for rate in [1, 2]:\n    compound(2, rate)\n    print(rate)\n# => 1\n# 2\n"
    assert run(module_dir, block("from money import compound\n" + code)) == []


def test_an_example_that_raises_quotes_the_real_traceback_line(module_dir: Path) -> None:
    found = run(module_dir, block("compound(-5, 0.1)  # -> -5.5"))
    assert [(f.check, f.fatal) for f in found] == [("example_raises", True)]
    assert "raises ValueError: principal must be non-negative" in found[0].message


def test_a_promised_exception_that_does_not_happen_or_differs(module_dir: Path) -> None:
    found = run(module_dir, block(">>> compound(5, 0.1)\nTraceback (most recent call last):\nValueError: nope\n"
                                  ">>> compound(-5, 0.1)\nTraceback (most recent call last):\nTypeError: nope"))
    assert [f.check for f in found] == ["example_no_exception", "example_wrong_exception"]
    assert "returns 5.5" in found[0].message
    assert "raises ValueError: principal must be non-negative" in found[1].message


def test_an_unmarked_block_that_raises_is_a_contradiction(module_dir: Path) -> None:
    found = run(module_dir, block("total = compound(principal, rate)"))
    assert [(f.check, f.severity) for f in found] == [("example_raises", Severity.CONTRADICTION)]
    assert "the doc presents it as working" in found[0].message


def test_an_unmarked_block_the_text_says_fails_is_a_note(module_dir: Path) -> None:
    found = run(module_dir, "A negative principal is an error:\n\n" + block("total = compound(-1, 0.1)"))
    assert [(f.check, f.severity) for f in found] == [("example_shows_failure", Severity.NOTE)]


def test_an_endless_example_times_out(module_dir: Path) -> None:
    found = run(module_dir, block(">>> from money import slow\n>>> slow()\n1"), timeout_s=2)
    assert [(f.check, f.fatal) for f in found] == [("example_timeout", True)]
    assert "did not finish within 2s" in found[0].message


def test_network_is_refused(module_dir: Path) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    accepted: list[object] = []
    server.settimeout(3)
    listener = threading.Thread(target=lambda: accepted.append(_accept(server)))
    listener.start()
    port = server.getsockname()[1]
    found = run(module_dir, block(f">>> import socket\n>>> socket.create_connection(('127.0.0.1', {port}))\n1"))
    listener.join()
    server.close()
    assert accepted == [None]  # nobody ever connected
    assert [f.check for f in found] == ["example_raises"]
    assert "PermissionError: the docbot sandbox refuses network access" in found[0].message


def _accept(server: socket.socket) -> object:
    try:
        return server.accept()
    except OSError:
        return None


def test_writes_outside_the_example_folder_are_refused_inside_allowed(module_dir: Path, tmp_path: Path) -> None:
    outside = tmp_path / "escaped.txt"
    doc = block(f">>> open('inside.txt', 'w').write('ok')\n2\n>>> open({str(outside)!r}, 'w')\n1\n"
                f">>> import os\n>>> os.remove({str(module_dir / 'money.py')!r})\n")
    found = run(module_dir, doc)
    assert [f.check for f in found] == ["example_raises", "example_raises"]
    assert "refuses writing" in found[0].message and "os.remove outside the example folder" in found[1].message
    assert not outside.exists() and (module_dir / "money.py").exists()


def test_new_processes_are_refused(module_dir: Path) -> None:
    doc = block(">>> import os, subprocess\n>>> os.fork()\n0\n>>> subprocess.run(['true'])\n0\n"
                ">>> os.system('true')\n0\n>>> while True: os.fork()")
    found = run(module_dir, doc)
    assert [f.check for f in found] == ["example_raises"] * 4
    assert all("PermissionError: the docbot sandbox refuses" in f.message for f in found)


def test_the_environment_is_scrubbed_and_the_folder_is_temporary(module_dir: Path, monkeypatch: pytest.MonkeyPatch
                                                                  ) -> None:
    monkeypatch.setenv("DOCBOT_TEST_SECRET", "hunter2")
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.invalid:3128")
    doc = block(">>> import os\n>>> os.environ.get('DOCBOT_TEST_SECRET'), os.environ.get('HTTPS_PROXY')\n(None, None)\n"
                f">>> os.getcwd() != {os.getcwd()!r} and 'docbot-example-' in os.getcwd()\nTrue")
    assert run(module_dir, doc) == []


def test_memory_is_limited(module_dir: Path) -> None:
    found = check_examples(block(">>> len(bytearray(400 * 1024 * 1024))\n419430400"), "compound",
                           ExampleContext("money", (str(module_dir),), memory_mb=256))
    assert [f.check for f in found] == ["example_raises"] and "MemoryError" in found[0].message


def test_a_module_that_cannot_be_imported_is_a_note(tmp_path: Path) -> None:
    found = check_examples(block(">>> f()\n1"), "f", ExampleContext("no_such_module", (str(tmp_path),)))
    assert [(f.check, f.fatal) for f in found] == [("examples_not_run", False)]
    assert "ModuleNotFoundError" in found[0].message


def test_an_example_that_kills_the_interpreter_is_fatal(module_dir: Path) -> None:
    found = run(module_dir, block(">>> compound(1, 1)\n2.0\n>>> import os; os._exit(3)\n>>> compound(2, 1)\n4.0"))
    assert [(f.check, f.fatal) for f in found] == [("example_crashed", True)]
    assert "import os; os._exit(3)" in found[0].message and "exit code 3" in found[0].message


def test_a_module_that_hangs_on_import_is_a_note_not_the_docs_fault(tmp_path: Path) -> None:
    (tmp_path / "stuck.py").write_text("while True:\n    pass\n")
    found = check_examples(block(">>> f()\n1"), "f", ExampleContext("stuck", (str(tmp_path),), timeout_s=1.5))
    assert [(f.check, f.fatal) for f in found] == [("examples_not_run", False)]
    assert "did not finish within the time limit" in found[0].message


TRACEBACK = ">>> f(-1)\nTraceback (most recent call last):\n    ...\nValueError: bad\n"


@pytest.mark.parametrize("markdown, message", [
    (block(TRACEBACK, lang="pycon"), "bad"),  # a plain session: the message is stated
    (block(TRACEBACK, lang="{doctest}"), None),  # MyST's Sphinx doctest: its default flags ignore the detail
    (block(">>> f(-1)  # doctest: +IGNORE_EXCEPTION_DETAIL\nTraceback (most recent call last):\nValueError: bad\n",
           lang="pycon"), None),  # the example's own flag
    (block(">>> f(-1)  # doctest: -IGNORE_EXCEPTION_DETAIL\nTraceback (most recent call last):\nValueError: bad\n",
           lang="{doctest}"), "bad"),  # ... which overrides the toolchain's
])
def test_a_message_the_doc_s_own_test_ignores_is_no_claim(markdown: str, message: str | None) -> None:
    (step,) = extract_steps(markdown)
    assert (step.expect, step.exc_type, step.exc_message) == ("raises", "ValueError", message)


@pytest.mark.parametrize("directive, message", [
    (".. doctest::", None),  # jsonschema's validate.rst: sphinx.ext.doctest runs it with IGNORE_EXCEPTION_DETAIL
    (".. doctest:: group-a", None),  # the argument is a test group, not a language
    (".. doctest::\n   :options: -IGNORE_EXCEPTION_DETAIL", "bad"),
    (".. code-block:: pycon", "bad"),  # shown, not tested: the message is the doc's claim (joserfc's guide)
])
def test_a_sphinx_doctest_block_states_the_exception_type_alone(directive: str, message: str | None) -> None:
    from docbot.verify.read.rst import rst_to_markdown

    rst = f"Title\n=====\n\n{directive}\n\n" + textwrap.indent(TRACEBACK, "   ") + "\nAfter.\n"
    (step,) = extract_steps(rst_to_markdown(rst).markdown)
    assert (step.exc_type, step.exc_message) == ("ValueError", message)
