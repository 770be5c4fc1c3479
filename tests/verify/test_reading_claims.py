"""What a published doc states, read as its reader reads it: the shapes behind the false contradictions of
bench/published (issue 23), each beside a real error of the same shape that must still be caught."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest

from docbot.fronts.cli import main
from docbot.verify.checks.page import check_doc
from docbot.verify.findings import Severity
from docbot.verify.read.examples import extract_steps
from docbot.verify.checks.returns import own_return_prose

FENCE = "```"


def block(body: str, lang: str = "python") -> str:
    return f"{FENCE}{lang}\n{textwrap.dedent(body).strip()}\n{FENCE}\n"


def claims(markdown: str) -> list[tuple[str, str, str]]:
    return [(s.expect, s.want, s.shown) for s in extract_steps(markdown)]


# (doc, [(expect, want, shown)] of every step)
STATED_CASES = [
    pytest.param(block('''
        async def show():
            print("lib:", current())

        # Prints "lib: trio"
        run(show)
        '''), [("none", "", "async def show():")],
        id="a remark above the next call is not the def's stated output (sniffio)"),
    pytest.param(block('''
        def area(w, h):
            return w * h
        print(area(2, 3))  # => 6
        '''), [("none", "", "def area(w, h):"), ("stdout", "6", "print(area(2, 3))")],
        id="the call after a def keeps its own remark"),
    pytest.param(block('''
        def area(w, h):
            return w * h  # => 6
        '''), [("none", "", "def area(w, h):")], id="a remark inside a def is not the def's output"),
    pytest.param(block('''
        print(f("a"))
        # => A

        # the same through g
        print(g("a"))
        '''), [("stdout", "A", 'print(f("a"))'), ("none", "", 'print(g("a"))')],
        id="a blank line ends a stated output: the next comment paragraph is not part of it (uritemplate)"),
    pytest.param(block('''
        print(f("a"))
        # => A

        # or
        print(g("a"))
        '''), [("stdout", "A", 'print(f("a"))')],
        id="... and a `# or` line parts two alternatives, of which a reader runs the first (uritemplate, flask)"),
    pytest.param(block('''
        print(f("a"))
        # => A
        # B
        '''), [("stdout", "A\nB", 'print(f("a"))')], id="touching comment lines continue a stated output"),
    pytest.param(block('''
        x = 1
        print(f(x))

        # Output: 2
        '''), [("none", "", "x = 1"), ("stdout", "2", "print(f(x))")],
        id="after the block's last statement a blank line does not end its output"),
    pytest.param(block('''
        print(f(1))

        # Output: 2

        print(f(2))
        '''), [("stdout", "2", "print(f(1))"), ("none", "", "print(f(2))")],
        id="a comment paragraph standing alone between blank lines is the statement's output"),
    pytest.param(block(">>> f(1)\n'x'\n#\n>>> g()\n#\n>>> h()\n3", lang="pycon"),
                 [("output", "'x'\n", "f(1)"), ("output", "", "g()"), ("output", "3\n", "h()")],
                 id="a bare # line after a doctest's output is a separator, not output (beautifulsoup4)"),
    pytest.param(block(">>> f(1)\n# heading\n", lang="pycon"), [("output", "# heading\n", "f(1)")],
                 id="a # line with text may be output: it stays"),
    pytest.param(block(">>> from typing import Annotated\n# >>> from typing_extensions import Annotated\n"
                       ">>> f(1)\n'x'\n#>>> f(2)\n", lang="pycon"),
                 [("output", "", "from typing import Annotated"), ("output", "'x'\n", "f(1)")],
                 id="a commented-out prompt is the doc's remark, not output (beartype README)"),
    pytest.param(block('''
        try:
            f(-1)
        except ValueError as err:
            print(err.args)  # => ('bad',)
            print(len(err.args))  # => 1
        '''), [("stdout", "('bad',)\n1", "try:")],
        id="a compound statement's per-line remarks are compared in order (marshmallow)"),
    pytest.param(block('''
        if flag:
            print(1)  # => 1
        else:
            print(2)  # => 2
        '''), [("none", "", "if flag:")], id="remarks in two branches: the statement is only run"),
    pytest.param(block('''
        for x in xs:
            print(x)  # => 1
        '''), [("none", "", "for x in xs:")], id="a remark inside a loop: the statement is only run"),
    pytest.param(block('''
        try:
            print(f(-1))
        except ValueError as err:
            print(err)  # => bad
        '''), [("none", "", "try:")], id="a print left without a remark: the statement is only run"),
    pytest.param(block('''
        with ctx:
            x = f(1)  # -> 2
        '''), [("none", "", "with ctx:")], id="a value remark inside a compound statement: only run"),
    pytest.param(block('''
        for x in range(3):
            print(x)
        # Output:
        # 0
        # 1
        # 2
        '''), [("stdout", "0\n1\n2", "for x in range(3):")], id="a remark after a loop, at its column, is its own"),
    pytest.param(block("f(1)  # output_columns returns the columns\nf(2)  # results in a list\n"),
                 [("none", "", "f(1)")],
                 id="a marker word must end: 'output_columns', 'results' are prose"),
    pytest.param(block("f(1)  # output: 3\n"), [("stdout", "3", "f(1)")], id="'output:' is a marker"),
    pytest.param(block("x = f(1)  # => 1 - 6/10 = 0.4\ny = f(2)  # => a = b\n"),
                 [("value", "0.4", "x = f(1)"), ("value", "a = b", "y = f(2)")],
                 id="a worked sum states its result; other text with '=' is left as written"),
    pytest.param(block("""
        value = f(1)
        # => 'eyJhbGc..6iWg'
        # since the payload is detached, you need to specify the
        # payload when calling g
        g(value)
        """), [("value", "'eyJhbGc..6iWg'", "value = f(1)"), ("none", "", "g(value)")],
        id="a remark after a whole value on the marker's line is not the value (joserfc)"),
    pytest.param(block("""
        x = f(1)  # Output: 3
        # 4
        # the values, one per line
        """), [("value", "3\n4\nthe values, one per line", "x = f(1)")],
        id="a value's next lines are the value's while the first of them is no remark"),
]


@pytest.mark.parametrize("markdown, expected", STATED_CASES)
def test_stated_outputs_are_what_the_doc_states(markdown: str, expected: list[tuple[str, str, str]]) -> None:
    assert claims(markdown) == expected


@pytest.mark.parametrize("sentence, kept", [
    ("Any object with a `read()` method that returns `bytes` works.", False),  # python-multipart
    ("If the converter function returns a pair of strings, it creates two markers.", False),  # stack-data
    ("Otherwise it should return `None` to drop the range.", False),
    ("It returns a list.", False),  # "it" may be anything in a topic passage
    ("The callback returns a dict.", False),
    ("`convert(items, fn)` returns a list of pairs.", True),
    ("pkg.convert() also returns a list.", True),
    ("`convert` — returns a list.", True),
    ("The list returned by `convert` is sorted.", True),
    ("**Returns:** a list", True),
    ("convert takes a list.", True),
])
def test_a_topic_passage_keeps_only_return_sentences_about_the_function(sentence: str, kept: bool) -> None:
    passage = f"## Usage\n\nFirst words. {sentence}\n\n{block('x = 1  # returns 3')}"
    out = own_return_prose(passage, "pkg.convert")
    assert (sentence in out, out.count("\n"), block("x = 1  # returns 3") in out) == (kept, passage.count("\n"),
                                                                                    True)


def test_a_table_without_a_name_column_documents_no_parameters() -> None:
    doc = "## f\n\n**Parameters**\n\n| Type | Required | Description |\n|---|---|---|\n| `str` | yes | The name. |\n"
    named = doc.replace("| Type |", "| Name | Type |").replace("|---|", "|---|---|", 1).replace("| `str` |",
                                                                                             "| `size` | `str` |")
    def fatal(text: str) -> list[str]:
        return [f.check for f in check_doc(text, "def f(name):\n    return name\n", "f")
                if f.severity is Severity.CONTRADICTION]

    assert (fatal(doc), fatal(named)) == ([], ["invented_parameter"])


TOY_CORE = '''\
def feed(stream, on_item):
    for item in stream:
        on_item(item)

def convert(items, fn):
    return [fn(i) for i in items]

def total(a, b):
    return a + b
'''


def _project(tmp_path: Path, readme: str, capsys: pytest.CaptureFixture[str]) -> list[tuple[str, str]]:
    files = {"pyproject.toml": '[project]\nname = "toy-pkg"\nversion = "1"\n',
             "src/toy_pkg/__init__.py": "from .core import feed, convert, total\n", "src/toy_pkg/core.py": TOY_CORE,
             "README.md": readme, "config.json": json.dumps({"example_sandbox": "allow-guard"})}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        main(["verify", "--json"])
    finally:
        os.chdir(cwd)
    report = json.loads(capsys.readouterr().out)
    return [(f["kind"], f["check"]) for d in report["docs"] for f in d["findings"] if f["kind"] != "gap"]


USES_FEED = "## Usage\n\n" + block("from toy_pkg import feed\nfeed([1], print)")
USES_CONVERT = "## Usage\n\n" + block("from toy_pkg import convert\nprint(convert([1], str))  # => ['1']")
CONTRADICTION = "contradiction"


@pytest.mark.parametrize("readme, expected", [
    pytest.param(USES_FEED + "\nAny object with a `read()` method that returns `bytes` works.\n", [],
                 id="another object's return in a topic passage"),
    pytest.param(USES_FEED + "\n`feed` returns the items it read.\n", [(CONTRADICTION, "invented_return")],
                 id="the function's own return claim is still read"),
    pytest.param(USES_CONVERT + "\nIf the converter returns a pair, it keeps both. Otherwise it should return "
                 "`None`.\n", [], id="the callback's return in a topic passage"),
    pytest.param(USES_CONVERT + "\n`convert()` returns nothing.\n", [(CONTRADICTION, "wrong_return")],
                 id="a false 'returns nothing' is still read"),
    pytest.param("## convert\n\n" + block("from toy_pkg import convert") + "\nReturns nothing.\n",
                 [(CONTRADICTION, "wrong_return")], id="the function's own heading: every sentence is its own"),
    pytest.param("## Usage\n\n" + block('''
        from toy_pkg import total
        def show():
            print(total(1, 2))

        # Prints 3
        show()
        '''), [], id="a remark above a call after a def"),
    pytest.param("## Usage\n\n" + block('''
        from toy_pkg import total
        def show():
            print(total(1, 2))
        print(total(1, 2))  # => 4
        '''), [(CONTRADICTION, "example_mismatch")], id="a wrong remark on the call itself"),
    pytest.param("## Usage\n\n" + block('''
        from toy_pkg import total
        try:
            total(1, None)
        except TypeError as err:
            print(type(err).__name__)  # => TypeError
            print(total(1, 2))  # => 3
        '''), [], id="per-line remarks in a try, all true"),
    pytest.param("## Usage\n\n" + block('''
        from toy_pkg import total
        try:
            total(1, None)
        except TypeError as err:
            print(total(1, 1))  # => 3
            print(total(1, 2))  # => 3
        '''), [(CONTRADICTION, "example_mismatch")], id="a false first remark in a try is caught"),
    pytest.param("## Usage\n\n" + block('''
        from toy_pkg import total
        print(total(1, 2))
        # => 3

        # or
        print(total(2, 1))
        '''), [], id="a next comment paragraph"),
    pytest.param("## Usage\n\n" + block(">>> from toy_pkg import total\n>>> total(1,\n2)\n3\n>>> total(2,\n3)\n5\n",
                                        lang="pycon"),
                 [("not_runnable_as_printed", "example_raises")], id="one finding for a block that does not parse"),
])
def test_project_mode_reads_topic_passages_as_a_reader(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       readme: str, expected: list[tuple[str, str]]) -> None:
    assert _project(tmp_path, readme, capsys) == expected


@pytest.mark.parametrize("table, fatal", [
    ("| Parameter | Default | Description |\n|---|---|---|\n| `a` | required | first |\n| `b` | `5` | second |\n",
     ["wrong_default"]),
    ("| Parameter | Default | Description |\n|---|---|---|\n| `a` | required | first |\n| `b` | `2` | second |\n", []),
    ("| Name | Default | Description |\n|---|---|---|\n| `timeout` | `5` | a setting |\n", []),  # settings, maybe
])
def test_a_parameter_table_outside_a_parameters_part_has_its_defaults_compared(table: str,
                                                                               fatal: list[str]) -> None:
    found = check_doc(f"## Usage\n\n{table}", "def total(a, b=2):\n    return a + b\n", "total")
    assert [f.check for f in found if f.severity is Severity.CONTRADICTION] == fatal


@pytest.mark.parametrize("mentions, near", [
    ([2], {2, 3, 5, 6, 8, 9}),  # its paragraph, and the next one: a code block, blank lines inside it kept out
    ([6], {5, 6, 8, 9, 11}),  # named in a code block: the block and the sentence after it
    ([13], {13, 15}),
    ([], set()),
])
def test_a_topic_passage_speaks_of_a_function_near_where_it_names_it(mentions: list[int], near: set[int]) -> None:
    from docbot.verify.project.topics import near_mentions

    lines = ["## Usage", "", "Call `f()` to go.", "It defaults x to 3.", "", "```python", "f()", "", "g()", "```", "",
             "It raises ValueError.", "", "Far away, `f` again.", "", "* `Bad input` - raised on bad input", ""]
    assert near_mentions("\n".join(lines), mentions) == near


FAR_ERRORS = ("\n\nThe module's other parts.\n\nMore about sockets.\n\nErrors: any error in the connection raises:\n\n"
              "* `Bad input` - This will be raised if the input is bad.\n\n"
              "class `ProxyError` - raised when the proxy refuses.\n")


@pytest.mark.parametrize("readme, expected", [
    pytest.param("## Usage\n\nFirst call `toy_pkg.total(1, 2)`." + FAR_ERRORS, [],
                 id="an exception list far from the one function a topic names is not that function's (PySocks)"),
    pytest.param("## Usage\n\nFirst call `toy_pkg.total(1, 2)`.\n\nIt raises ProxyError when the proxy refuses.\n",
                 [(CONTRADICTION, "invented_exception")], id="the paragraph after the name is about it"),
])
def test_a_topic_passage_s_far_paragraphs_are_not_the_function_s(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                 readme: str, expected: list[tuple[str, str]]) -> None:
    assert [f for f in _project(tmp_path, readme, capsys) if f[0] == CONTRADICTION] == expected
