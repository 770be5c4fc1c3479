"""The reader's session, reproduced (issue 28 classes 4-6, items 3, 5 and 9): each case is a shape from a published
doc (named beside it) that project mode called a contradiction although a reader's run agrees with the doc, beside
a real error of the same shape, which must still be a contradiction. Run for real, in the sandbox."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.sandbox.step import Step
from docbot.verify.checks.example_findings import builds_its_error
from docbot.verify.checks.reader import classify
from docbot.verify.findings import Check, DocFinding, Finding, Severity
from tests.verify.test_witness import CORE, block, kinds, project, verify

LOGS = CORE + ("import logging\n\n\ndef find(name):\n    logging.getLogger(__name__).debug('found %s', name)\n"
               "    return name\n\n\nclass TraitError(Exception):\n    pass\n\n\nclass Foo:\n"
               "    def __init__(self, bar=0):\n        if not isinstance(bar, int):\n"
               "            raise TraitError(f'bar must be an int, not {bar!r}')\n\n\n"
               "class Point:\n    def __init__(self, x, y):\n        self.x, self.y = x, y\n\n"
               "    def __repr__(self):\n        return f'Point(x={self.x}, y={self.y})'\n\n\n"
               "def ask():\n    return input('Your name: ')\n\n\n"
               "def fetch(url):\n    if ':' in url.split('//')[-1]:\n"
               "        raise ValueError(f'Failed to parse: {url.split(\"//\")[-1]!r}')\n    return url\n\n\n"
               "class Client:\n    def __init__(self, api_key=None):\n        if api_key is None:\n"
               "            raise TypeError('Could not resolve authentication method')\n        self.key = api_key\n")
IMPORTS = "from toy_pkg import add, find, Foo, Point, TraitError, ask, fetch, Client\n"


def contradictions(tmp_path: Path, capsys: pytest.CaptureFixture[str], readme: str) -> list[str]:
    _, doc = verify(project(tmp_path, "# toy\n\n" + readme, LOGS), capsys)
    return [check for kind, check, _ in kinds(doc) if kind == "contradiction"]


def severities(tmp_path: Path, capsys: pytest.CaptureFixture[str], readme: str) -> list[tuple[str, str]]:
    _, doc = verify(project(tmp_path, "# toy\n\n" + readme, LOGS), capsys)
    return [(kind, check) for kind, check, _ in kinds(doc)]


MISMATCH = ["example_mismatch"]
CASES = [
    # class 4: the reader's session
    pytest.param(block("with open('README.md') as readme:\n    first = readme.readline().strip()\n"
                       "print(first)  # => # toy"), [], id="rich README: opens a file at the project root"),
    pytest.param(block("with open('README.md') as readme:\n    first = readme.readline().strip()\n"
                       "print(first)  # => # rich"), MISMATCH, id="... and states its first line wrongly"),
    pytest.param(block("with open('hello.txt', 'w') as f:\n    f.write('Hello World!')\n"
                       "print(open('hello.txt').read())  # => Hello World!"), [],
                 id="click docs: writes a file of its own in the working folder"),
    pytest.param(block("with open('hello.txt', 'w') as f:\n    f.write('Hello World!')\n"
                       "print(open('hello.txt').read())  # => Hello"), MISMATCH, id="... and reads it back wrongly"),
    pytest.param("The following are equivalent:\n\n" + block(f"{IMPORTS}foo = Foo(bar=1)\n# or\nfoo = Foo(bar='3')"),
                 [], id="flask cli.rst: two alternatives a `# or` line parts, of which a reader runs one"),
    pytest.param(block(f"{IMPORTS}foo = Foo(bar=1)  # or 2\nfoo = Foo(bar='3')"), ["example_raises"],
                 id="... not an `or` inside a comment on a statement"),
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> add(1, 2)\n3\n>>> _ + 1\n4\n```\n", [], id="the console's _"),
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> add(1, 2)\n3\n>>> _ + 1\n5\n```\n", MISMATCH, id="... summed wrongly"),
    pytest.param(block(f"import logging\nlogging.basicConfig(level='DEBUG')\n{IMPORTS}find('zone')")
                 + "The output:\n\n```text\nDEBUG:toy_pkg:found zone\n```\n", [],
                 id="tzlocal README: the debug log a reader's terminal shows (stderr)"),
    pytest.param(block(f"import logging\nlogging.basicConfig(level='DEBUG')\n{IMPORTS}find('zone')")
                 + "The output:\n\n```text\nDEBUG:toy_pkg:looked for zone\n```\n", MISMATCH,
                 id="... a stale log line"),
    pytest.param("```pycon\n>>> print('a\\n\\nb')\na\n<BLANKLINE>\nb\n>>> print('a\\tb')\na       b\n```\n", [],
                 id="doctest's <BLANKLINE> and a tab as a terminal shows it"),
    pytest.param("```pycon\n>>> print('a\\n\\nb')\na\nb\n>>> print('a\\tb')\na b\n```\n", MISMATCH * 2,
                 id="... outputs that do differ"),
    pytest.param(block(f"{IMPORTS}print(Point(1, 2))") + "Output:\n\n```python\nPoint(x=1, y=2)\n```\n", [],
                 id="an output block labelled python, after 'Output:'"),
    pytest.param(block(f"{IMPORTS}print(Point(1, 2))") + "Output:\n\n```python\nPoint(x=1, y=3)\n```\n", MISMATCH,
                 id="... stating the wrong point"),
    pytest.param(block(f"{IMPORTS}print(Point(1, 2))") + "See also these classes:\n\n```python\nPoint\nFoo\n```\n", [],
                 id="tenacity README: 'See also these methods:' and a listing of names is no output"),
    pytest.param(block(f"{IMPORTS}print(add(1, 2))") + "## Configuration\n\n```text\n[tool.toy]\n```\n", [],
                 id="the next section's block is not this example's output"),
    pytest.param(block(f"{IMPORTS}print(add(1, 2))") + "```text\n4\n```\n", MISMATCH,
                 id="... the block right after it is"),
    pytest.param(block(f"{IMPORTS}print(add(1, 2))") + "Run it:\n\n```console\n$ python example.py\n3\n```\n", [],
                 id="click README: a shell line that runs the example, then its output"),
    pytest.param(block(f"{IMPORTS}print(add(1, 2))") + "Run it:\n\n```console\n$ python example.py\n4\n```\n",
                 MISMATCH, id="... and the wrong output"),
    pytest.param(block(f"{IMPORTS}print(add(1, 2))") + "```console\n$ pip install toy-pkg\n```\n", [],
                 id="urllib3 README: a shell session that installs is no output"),
    pytest.param(block("import getpass\nprint(len(getpass.getuser()) > 0)  # => True"), [],
                 id="getpass.getuser() answers, as on every reader's machine (/etc/passwd)"),
    pytest.param(block("import locale\nlocale.setlocale(locale.LC_ALL, 'xx_XX.UTF-8')"), [],
                 id="a locale this machine lacks"),
    pytest.param(block("import sys\nsys.stdout.buffer.write('caf\\u00e9\\n'.encode())\nprint('done')") +
                 "Output:\n\n```text\ncafé\ndone\n```\n", [],
                 id="click docs: click.echo(b'...') writes bytes to stdout, as to a terminal's"),
    pytest.param(block("import sys\nsys.stdout.buffer.write('caf\\u00e9\\n'.encode())\nprint('done')") +
                 "Output:\n\n```text\ncafe\ndone\n```\n", MISMATCH, id="... and the wrong bytes stated"),
    pytest.param(block("import sys\nprint(sys.stderr.mode, sys.stdout.name, sys.stderr.name)"
                       "  # => w <stdout> <stderr>"),
                 [], id="beartype eli5: a TextIO check asks the stream for its mode and name, as a console's"),
    pytest.param(block("import sys\nprint(sys.stderr.mode)  # => wb"), MISMATCH, id="... and a wrong mode stated"),
    pytest.param(block(f"{IMPORTS}name = ask()\nprint(name)  # => Ada"), [],
                 id="click docs: click.prompt waits for what a reader types"),
    pytest.param(block(f"{IMPORTS}prompt = 'Your name: '\nprint(add(prompt, 1))"), ["example_raises"],
                 id="... a block that only names a prompt and fails"),
    pytest.param(block(f"{IMPORTS}proxies = {{'http': 'http://PROXYSERVER:PROXYPORT'}}\nfetch(proxies['http'])"), [],
                 id="requests-toolbelt docs: a placeholder URL the reader fills in"),
    pytest.param(block(f"{IMPORTS}fetch('http://example.com:8080')"), ["example_raises"],
                 id="... a real URL the function cannot parse"),
    pytest.param(block(f"import os\n{IMPORTS}client = Client(api_key=os.environ.get('TOY_API_KEY'))"), [],
                 id="anthropic README: an API key a reader's environment holds"),
    pytest.param(block(f"import os\n{IMPORTS}os.environ['TOY_API_KEY'] = 'k'\nclient = Client()"), ["example_raises"],
                 id="... a block that sets the variable and still fails"),
    # class 5: a failure the doc announces
    pytest.param(block(f"{IMPORTS}foo = Foo(bar='3')  # raises a TraitError"), [],
                 id="traitlets docs: '# raises a TraitError'"),
    pytest.param(block(f"{IMPORTS}foo = Foo(bar=3)  # raises a TraitError"), ["example_no_exception"],
                 id="... where nothing is raised"),
    pytest.param(block(f"{IMPORTS}Foo(\n    bar='3',\n)\n# raises toy_pkg.TraitError: bar must be an int, not '3'"),
                 [], id="marshmallow quickstart: '# raises pkg.Error: message' under a call"),
    pytest.param(block(f"{IMPORTS}Foo(\n    bar='3',\n)\n# raises toy_pkg.TraitError: bar must be a str"),
                 ["example_wrong_exception"], id="... with another message"),
    pytest.param(block(f"{IMPORTS}Foo(bar='3')\n# Traceback (most recent call last):\n#   ...\n"
                       "# TraitError: bar must be an int, not '3'"), [], id="a pasted traceback in comments"),
    pytest.param(block(f"{IMPORTS}Foo(bar='3')\n# Traceback (most recent call last):\n#   ...\n"
                       "# ValueError: bar must be an int, not '3'"), ["example_wrong_exception"],
                 id="... of another exception"),
    pytest.param(block(f"{IMPORTS}\n# This raises a TraitError\nFoo(bar='3')"), [], id="a comment above announces it"),
    pytest.param(block(f"{IMPORTS}\n# This raises a ValueError\nFoo(bar='3')"), ["example_raises"],
                 id="... announcing another exception"),
    pytest.param(block(f"{IMPORTS}\n# this will raise TraitError, bar is a string\nbar = '3'\nFoo(bar=bar)"), [],
                 id="joserfc jwt.rst: the comment opening the failing line's paragraph announces it"),
    pytest.param(block(f"{IMPORTS}\n# this will raise ValueError, bar is a string\nbar = '3'\nFoo(bar=bar)"),
                 ["example_raises"], id="... announcing another exception"),
    pytest.param(block(f"{IMPORTS}\n# this will raise TraitError\nbar = '3'\n\nFoo(bar=bar)"), ["example_raises"],
                 id="... from another paragraph it does not"),
    pytest.param(block(f"{IMPORTS}class Sub:\n    @Foo(bar='3')\n    def bar(self):  # Raises, because bar is a str\n"
                       "        pass"), [], id="overrides README: the decorated definition's comment announces it"),
    pytest.param(block(f"{IMPORTS}class Sub:\n    @Foo(bar='3')\n    def bar(self):\n        pass\n\n"
                       "later = 1  # Raises, because later is new"), ["example_raises"],
                 id="... not the comment of a statement after it"),
    pytest.param(block(f"{IMPORTS}class Sub:\n    @Foo(bar='3')\n    def bar(self):  # Raises ValueError\n"
                       "        pass"), ["example_raises"], id="... nor one that names another exception"),
    pytest.param(block(f"{IMPORTS}class Sub:\n    @Foo(bar='3')\n    def bar(self):  # returns the bar\n"
                       "        pass"), ["example_raises"], id="... nor a comment that says no failure"),
    pytest.param(block("class AppError(Exception):\n    pass\n\nraise AppError('boom')"), [],
                 id="a recipe whose point is to raise its own error"),
    pytest.param(block(f"{IMPORTS}if add(1, 2) != 4:\n    raise ValueError('add is wrong')"), ["example_raises"],
                 id="... a check the doc's code makes of a result"),
    # what a failed step was to rebind, read after it: that failure's echo (celery's tasks guide)
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> total = add(1, 2)\n>>> total = add(undefined_app, 2)\n"
                 ">>> total\n9\n```\n", [],
                 id="a value from before the failed rebinding: its echo, not a contradiction"),
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> total = add(1, 2)\n>>> other = add(undefined_app, 2)\n"
                 ">>> total\n9\n```\n", ["example_mismatch"],
                 id="... a name the failed step was not to bind is still held to"),
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> total = add(1, 2)\n>>> total = add(total, 2)\n>>> total\n9\n```\n",
                 ["example_mismatch"], id="... and one a step that did not fail rebound"),
    # pg8000 1.31.6's README: the COPY fails with the connection a sandbox refuses; the stream it was to fill is empty
    pytest.param("```pycon\n>>> import io\n>>> out = io.StringIO()\n>>> print('filled', file=out, end=undefined_end)"
                 "\n>>> out.getvalue()\n'filled'\n```\n", [],
                 id="a value handed to the call that failed: what it holds is that failure's echo"),
    pytest.param("```pycon\n>>> import io\n>>> out, other = io.StringIO(), io.StringIO()\n"
                 ">>> print('filled', file=out, end=undefined_end)\n>>> other.getvalue()\n'filled'\n```\n",
                 ["example_mismatch"], id="... not a value it was not handed"),
    # python-docx's sections.rst: the setter fails on the enum import the page leaves out; the getter shows the old one
    pytest.param("```pycon\n>>> import types\n>>> section = types.SimpleNamespace(start_type='NEW_PAGE')\n"
                 ">>> section.start_type = WD_SECTION.ODD_PAGE\n>>> section.start_type\n'ODD_PAGE'\n```\n", [],
                 id="an attribute the failed step was to set: what it holds is that failure's echo"),
    pytest.param("```pycon\n>>> import types\n>>> section = types.SimpleNamespace(start_type='NEW_PAGE')\n"
                 ">>> other = types.SimpleNamespace(start_type='NEW_PAGE')\n"
                 ">>> section.start_type = WD_SECTION.ODD_PAGE\n>>> other.start_type\n'ODD_PAGE'\n```\n",
                 ["example_mismatch"], id="... not another object's"),
    pytest.param("```pycon\n>>> import types\n>>> section = types.SimpleNamespace(start_type='NEW', orientation='P')\n"
                 ">>> section.start_type = WD_SECTION.ODD_PAGE\n>>> section.orientation\n'LANDSCAPE'\n```\n",
                 ["example_mismatch"], id="... nor another attribute of the same object"),
    pytest.param("```pycon\n>>> import types\n>>> section = types.SimpleNamespace(start_type='NEW')\n"
                 ">>> section.start_type = WD_SECTION.ODD_PAGE\n>>> section.start_type = 'EVEN'\n"
                 ">>> section.start_type\n'ODD_PAGE'\n```\n",
                 ["example_mismatch"], id="... nor an attribute a later step set afresh"),
    pytest.param("```pycon\n>>> import types\n>>> section = types.SimpleNamespace(start_type='NEW')\n"
                 ">>> section.start_type = WD_SECTION.ODD_PAGE\n>>> section = types.SimpleNamespace(start_type='NEW')\n"
                 ">>> section.start_type\n'ODD_PAGE'\n```\n",
                 ["example_mismatch"], id="... nor one of an object a later step bound again"),
    # class 6: noise docbot has a kind for
    pytest.param(block("import asyncio\n\nasync def main():\n    async with asyncio.TaskGroup() as tg:\n"
                       "        tg.create_task(download(url))\n\nasyncio.run(main())"), [],
                 id="a NameError inside an ExceptionGroup (a setup the doc leaves out)"),
    pytest.param(block(f"import asyncio\n{IMPORTS}\nasync def main():\n    async with asyncio.TaskGroup() as tg:\n"
                       "        tg.create_task(asyncio.to_thread(Foo, bar='3'))\n\nasyncio.run(main())"),
                 ["example_raises"], id="... the package's own error inside one"),
    pytest.param(block(f"import logging\nlogging.basicConfig(format='%(asctime)s %(message)s', level='DEBUG')\n"
                       f"{IMPORTS}find('zone')") + "Output:\n\n```text\n2019-05-01 10:00:00,123 found zone\n```\n",
                 [], id="a timestamped log line"),
    pytest.param(block(f"import logging\nlogging.basicConfig(format='%(asctime)s %(message)s', level='DEBUG')\n"
                       f"{IMPORTS}find('zone')") + "Output:\n\n```text\n2019-05-01 10:00:00,123 lost zone\n```\n",
                 MISMATCH, id="... whose message is stale"),
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> type(add(1, 2))\n<type 'int'>\n>>> add(10, 0)\n10L\n```\n", [],
                 id="what Python 2 printed"),
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> type(add(1, 2))\n<type 'str'>\n```\n", MISMATCH,
                 id="... a wrong type in Python 2's words"),
    pytest.param(block("try:\n    import toy_pkg\nexcept ImportError, e:\n    pass"), [], id="Python 2 syntax"),
]


@pytest.mark.parametrize("readme, expected", CASES)
def test_a_reader_s_run_decides(tmp_path: Path, capsys: pytest.CaptureFixture[str], readme: str,
                                expected: list[str]) -> None:
    assert contradictions(tmp_path, capsys, readme) == expected


@pytest.mark.parametrize("readme, expected", [
    pytest.param(block("import locale\nlocale.setlocale(locale.LC_ALL, 'xx_XX.UTF-8')"), [("note", "example_raises")],
                 id="a locale this machine lacks: a note"),
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> type(add(1, 2))\n<type 'int'>\n```\n",
                 [("version_dependent", "example_mismatch")], id="Python 2's output: version dependent"),
    pytest.param(block("# Python 2 only\nmylist = range(5)\nassert mylist == [0, 1, 2, 3, 4]"),
                 [("version_dependent", "example_assert_failed")], id="a block marked Python 2 only (future's docs)"),
    pytest.param(block("# Python 2 and 3:\nmylist = list(range(5))\nassert mylist == [0, 1, 2, 3, 4, 5]"),
                 [("contradiction", "example_assert_failed")], id="a block marked for Python 2 and 3 is held to 3"),
    pytest.param(block(f"import logging\nlogging.basicConfig(format='%(asctime)s %(message)s', level='DEBUG')\n"
                       f"{IMPORTS}find('zone')") + "Output:\n\n```text\n2019-05-01 10:00:00,123 found zone\n```\n",
                 [("time_dependent", "example_mismatch")], id="a timestamped log line: time dependent"),
    pytest.param(block("import asyncio\n\nasync def main():\n    async with asyncio.TaskGroup() as tg:\n"
                       "        tg.create_task(download(url))\n\nasyncio.run(main())"),
                 [("setup_elided", "example_raises")], id="a NameError inside an ExceptionGroup: setup elided"),
    pytest.param(block("class AppError(Exception):\n    pass\n\nraise AppError('boom')"),
                 [("note", "example_shows_failure")], id="a recipe that raises: a note"),
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> find(None)\nNone\n```\n", [],
                 id="None shown for a value the console does not echo (python-docx, joserfc)"),
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> find(None)\nNone  # inherited from the style\n```\n", [],
                 id="None and a remark on it (python-docx)"),
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> add(1, 2)\nNone\n```\n", [("contradiction", "example_mismatch")],
                 id="None shown for a value that is not None"),
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> y = add(1, 2)\nNone\n```\n", [("contradiction", "example_mismatch")],
                 id="None shown under an assignment of a value that is not None"),
    # python-jose 3.5.0's README: `>>> token = jwt.encode(...)` then the token, as the name now holds it
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> token = find('eyJ0')\nu'eyJ0'\n```\n", [],
                 id="a value shown under an assignment: what the name now holds (Python 2's u prefix too)"),
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> token = find('eyJ0')\n'eyJ9'\n```\n",
                 [("contradiction", "example_mismatch")], id="... held to it"),
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> token: str = find('eyJ0')\n'eyJ0'\n```\n", [],
                 id="... an annotated one too"),
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> a = b = find('eyJ0')\n'eyJ0'\n```\n",
                 [("contradiction", "example_mismatch")], id="... but not two names at once"),
    pytest.param(block("raise ValueError('dodgy value').with_traceback(None)"),
                 [("note", "example_shows_failure")], id="a raise that builds its exception: a note"),
    # celery 5.7.0's calling.rst: "If you get the following ImportError:" over `>>> import bz2` and a traceback
    pytest.param("If you get the following error:\n\n```pycon\n>>> import json\nTraceback (most recent call last):"
                 "\n  File \"<stdin>\", line 1, in <module>\nImportError: No module named 'json'\n```\n",
                 [("note", "example_no_exception")], id="a failure the text says happens on some machines: a note"),
    pytest.param("This fails:\n\n```pycon\n>>> import json\nTraceback (most recent call last):"
                 "\n  File \"<stdin>\", line 1, in <module>\nImportError: No module named 'json'\n```\n",
                 [("contradiction", "example_no_exception")], id="... a failure it says always happens"),
    pytest.param(f"If you get the following:\n\n```pycon\n>>> {IMPORTS}>>> add(1, 2)\n9\n```\n",
                 [("contradiction", "example_mismatch")], id="... and no output it shows but a failure"),
    pytest.param("If you see the following:\n\n" + block(f"{IMPORTS}Foo(bar='3')"),
                 [("contradiction", "example_raises")], id="... nor a block that raises where it shows none"),
    pytest.param(block("raise ValueError('dodgy value').with_traceback()"),
                 [("contradiction", "example_raises")],
                 id="a raise whose building fails (future's compatible_idioms: a TypeError) is no recipe"),
    # future 1.0.0's compatible_idioms.rst: `raise_with_traceback(ValueError("dodgy value"))`, an idiom for raising
    pytest.param(block("gen = (x for x in ())\ngen.throw(ValueError('dodgy value'))"),
                 [("note", "example_shows_failure")], id="a call handed the exception it raises: a recipe, a note"),
    pytest.param(block("gen = (x for x in ())\ngen.throw(ValueError, 'dodgy value')"),
                 [("note", "example_shows_failure")], id="... handed its type and message (six's reraise)"),
    pytest.param(block("int(str(ValueError('dodgy')))"), [("contradiction", "example_raises")],
                 id="... not an exception of that type with another message"),
    pytest.param(block("import warnings\nwarnings.simplefilter('error')\nwarnings.warn('dodgy value')"),
                 [("contradiction", "example_raises")], id="... nor a call of another name with its message"),
    pytest.param(block("gen = (x for x in ())\ngen.throw(ValueError('dodgy value'))\nadd(None, 1)"),
                 [("note", "example_shows_failure")], id="... the call that failed, not a later one"),
    # redis 8's README: `r = redis.Redis(...)`, `p = r.pubsub()`, `p.subscribe('a', 'b', ...)`, `p.get_message()`
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> c = find(...)\n>>> d = find(c)\n>>> add(d, 1)\n3\n```\n",
                 [("not_runnable_as_printed", "example_raises")],
                 id="a failure that reads what a sketch's `...` made: not runnable"),
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> c = find(...)\n>>> d = find(c)\n>>> find(d)\n'eyJ0'\n```\n",
                 [("not_runnable_as_printed", "example_mismatch")], id="... an output too"),
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> c = find(...)\n>>> c = find(1)\n>>> add(c, 1)\n3\n```\n",
                 [("contradiction", "example_mismatch")], id="... not once the name is bound again"),
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> p = Point(..., ...)\n>>> p.removed()\n```\n",
                 [("contradiction", "example_raises")], id="... nor an attribute the API lacks, which it names"),
    pytest.param("```pycon\n>>> import toy_pkg\n>>> p = toy_pkg.Point(..., ...)\n"
                 ">>> getattr(toy_pkg, 'gone')(p)\n```\n", [("contradiction", "example_raises")],
                 id="... nor a module's"),
    pytest.param(f"```pycon\n>>> {IMPORTS}>>> class Model:\n...     x = find(...)\n...\n>>> add(Model.x, 1)\n```\n",
                 [("contradiction", "example_raises")],
                 id="... nor a class body's `Field(...)`-like marker (pydantic's, typer's: real code)"),
    # redis 8's README: "The async client mirrors this exactly:" over `await r.himport_prepare(...)`
    pytest.param(block(f"{IMPORTS}c = Point(1, 2)") + "The asynchronous one:\n\n" + block("await c.__repr__()"),
                 [("setup_elided", "example_raises")],
                 id="awaiting methods of an object only an earlier block made: setup elided"),
    pytest.param(block(f"{IMPORTS}c = Point(1, 2)\nawait c.__repr__()"), [("contradiction", "example_raises")],
                 id="... not of one its own block made"),
])
def test_the_kind_docbot_has_for_it(tmp_path: Path, capsys: pytest.CaptureFixture[str], readme: str,
                                    expected: list[tuple[str, str]]) -> None:
    assert severities(tmp_path, capsys, readme) == expected


def test_a_package_name_the_doc_never_imports_is_not_runnable_and_blinds_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """tenacity README: `@retry(stop=stop_after_attempt(7))` without importing stop_after_attempt. A reader who
    pastes it gets a NameError: not runnable as printed, with the import named; what the doc states after it is still
    compared (a false add(2, 2) is caught)."""
    readme = block("print(add(1, 2))  # => 3") + block("print(add(2, 2))  # => 5")
    code, doc = verify(project(tmp_path, readme, LOGS), capsys)
    found = [(f["kind"], f["check"], f["line"], f["reason"]) for f in doc["findings"] if f["kind"] != "gap"]
    assert found == [("not_runnable_as_printed", "example_raises", 1, "not runnable as printed: add "
                      "`from toy_pkg import add`"), ("contradiction", "example_mismatch", 5, "")]
    assert code == 1


def test_a_package_name_imported_only_further_down_is_not_runnable_where_it_is_first_used(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """tenacity README: `@retry(stop=stop_after_attempt(7))` blocks before the one that imports it."""
    readme = block("print(add(1, 2))  # => 3") + block("from toy_pkg import add\nprint(add(2, 2))  # => 5")
    code, doc = verify(project(tmp_path, readme, LOGS), capsys)
    found = [(f["kind"], f["line"], f["reason"]) for f in doc["findings"] if f["kind"] != "gap"]
    assert found == [("not_runnable_as_printed", 1, "not runnable as printed: add `from toy_pkg import add`"),
                     ("contradiction", 5, "")]
    assert code == 1


@pytest.mark.parametrize("init, expected", [
    pytest.param("from .app import Flask\n", [("setup_elided", "example_raises")],
                 id="a page's app is what an earlier page made, not the submodule toy_pkg.app"),
    pytest.param("from .app import Flask\nserver = Flask()\n", [("not_runnable_as_printed", "example_raises")],
                 id="a public object of the package: its import is what the reader lacks"),
])
def test_a_submodule_s_name_is_not_an_import_the_doc_left_out(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              init: str, expected: list[tuple[str, str]]) -> None:
    """flask's docs/views.rst: `@app.route("/users/")` on a page that assumes `app = Flask(__name__)`; docbot ran
    it after `from flask import app` (the submodule flask.app) and reported AttributeError: 81 false
    contradictions in flask and python-docx (document, table, section)."""
    app = "class Flask:\n    def route(self, path):\n        return lambda f: f\n"
    name = "server" if "server" in init else "app"
    readme = block(f"@{name}.route('/users/')\ndef users():\n    return 'ok'")
    code, doc = verify(project(tmp_path, readme, init, {"toy_pkg/app.py": app}), capsys)
    assert [(f["kind"], f["check"]) for f in doc["findings"] if f["kind"] not in ("gap", "note")] == expected
    assert code == 0


@pytest.mark.parametrize("readme, expected", [
    pytest.param(block("command.main(['go'], standalone_mode=False)"),
                 [("setup_elided", "example_raises")],
                 id="click's exceptions page: its `command` is a command an earlier page made, not click.command "
                    "(and no advice to import the function)"),
    pytest.param(block("from toy_pkg import command\ncommand.main(['go'])"), [("contradiction", "example_raises")],
                 id="... the doc's own import of the function: its failure is the doc's"),
])
def test_a_guessed_import_that_fails_is_the_guess_s(tmp_path: Path, capsys: pytest.CaptureFixture[str], readme: str,
                                                    expected: list[tuple[str, str]]) -> None:
    init = "def command(name=None):\n    return lambda f: f\n"
    code, doc = verify(project(tmp_path, readme, init), capsys)
    assert [(f["kind"], f["check"]) for f in doc["findings"] if f["kind"] not in ("gap", "note")] == expected


# Item 5: rules mutation testing showed unguarded, each case failing on its one-line bug.
TRACEBACK = "Traceback (most recent call last):\n  ...\nAttributeError: module 'toy_pkg' has no attribute 'ad'. " \
            "Did you mean: 'add'?"


def classified(finding: Finding, lines: list[str] | None = None) -> DocFinding | None:
    steps = [Step("import toy_pkg\ntoy_pkg.ad", "raises", line=finding.line or 0)]
    return classify(finding, steps, lines or ["x"] * 12, set(), {})


@pytest.mark.parametrize("code_fact, kept", [
    pytest.param("AttributeError: module 'toy_pkg' has no attribute 'ad'", False, id="the console's own suggestion"),
    pytest.param("KeyError: module 'toy_pkg' has no attribute 'ad'", True, id="another exception, same message"),
    pytest.param("AttributeError: module 'toy_pkg' has no attribute 'sub'", True, id="another message"),
    pytest.param("toy_pkg.errors.AttributeError: module 'toy_pkg' has no attribute 'ad'", False,
                 id="the same type, qualified"),
])
def test_a_pasted_did_you_mean_traceback_must_be_the_same_exception(code_fact: str, kept: bool) -> None:
    found = classified(Finding(Check.EXAMPLE_WRONG_EXCEPTION, "m", TRACEBACK, code_fact, line=0))
    assert (found is not None and found.severity is Severity.CONTRADICTION) is kept


@pytest.mark.parametrize("severity", list(Severity))
def test_the_fails_flag_of_json_is_the_contradiction(severity: Severity) -> None:
    finding = Finding(Check.EXAMPLE_MISMATCH, "m")
    if severity is not Severity.CONTRADICTION:
        from docbot.verify.findings import lower

        finding = lower(finding, severity, "why")
    assert DocFinding(finding, 3).to_json()["fails"] is (severity is Severity.CONTRADICTION)


@pytest.mark.parametrize("check, code_fact, message, expected", [
    (Check.EXAMPLE_RAISES, "SyntaxError: invalid syntax", "m", Severity.NOT_RUNNABLE),
    (Check.EXAMPLE_RAISES, "IndentationError: unexpected indent", "m", Severity.NOT_RUNNABLE),
    (Check.EXAMPLE_RAISES, "TabError: inconsistent use of tabs", "m", Severity.NOT_RUNNABLE),
    (Check.EXAMPLE_WRONG_EXCEPTION, "SyntaxError: invalid syntax", "m", Severity.NOT_RUNNABLE),
    (Check.EXAMPLE_RAISES, "toy_pkg.ParseError: x", "example `parse('a')` raises SyntaxError in its text",
     Severity.NOT_RUNNABLE),
    (Check.EXAMPLE_MISMATCH, "SyntaxError: invalid syntax", "m", Severity.NOT_RUNNABLE),
    (Check.EXAMPLE_MISMATCH, "3", "example prints SyntaxError", Severity.CONTRADICTION),
    (Check.EXAMPLE_RAISES, "ValueError: SyntaxError in the input", "m", Severity.CONTRADICTION),
])
def test_the_syntax_error_rule(check: Check, code_fact: str, message: str, expected: Severity) -> None:
    found = classified(Finding(check, message, "", code_fact, line=0))
    assert found is not None and found.severity is expected


@pytest.mark.parametrize("prose, at, expected", [
    ("Python 3.99+:", 3, Severity.VERSION_DEPENDENT),
    ("Needs Python 3.99 or newer.", 3, Severity.VERSION_DEPENDENT),
    ("Python 3.99 and later:", 3, Severity.VERSION_DEPENDENT),
    ("Python 3.99 only.", 3, Severity.VERSION_DEPENDENT),
    ("Python 3.11+:", 3, Severity.CONTRADICTION),  # this Python: the doc's marker holds here
    ("Python 3.10 and later:", 3, Severity.CONTRADICTION),
    ("Python 3.99+:", 0, Severity.VERSION_DEPENDENT),  # four lines up the window's start: still read
    ("Python 3.99+:", -1, Severity.CONTRADICTION),  # one line further up: another passage's
    ("Python 3.99 is out.", 3, Severity.CONTRADICTION),  # a release named, not a requirement
])
def test_the_python_version_marker(prose: str, at: int, expected: Severity) -> None:
    lines = ["text"] * 12
    block_line = 8
    if at >= 0:
        lines[block_line - 4 + at] = prose
    else:
        lines[block_line - 5] = prose
    found = classified(Finding(Check.EXAMPLE_MISMATCH, "m", "4", "3", line=block_line), lines)
    assert found is not None and found.severity is expected


@pytest.mark.parametrize("code, line, error, built", [
    ("gen.throw(ValueError('dodgy value'))", 1, "ValueError: dodgy value", "ValueError('dodgy value')"),
    ("raise_(errors.Bad, 'x', tb)", 1, "pkg.errors.Bad: x", "raise_(errors.Bad, 'x', tb)"),
    ("gen.throw(ValueError('dodgy value'))", None, "ValueError: dodgy value", None),  # no line of the doc's failed
    ("gen.throw(ValueError('dodgy value'", 1, "ValueError: dodgy value", None),  # does not parse
])
def test_the_exception_a_failing_call_is_handed(code: str, line: int | None, error: str, built: str | None) -> None:
    assert builds_its_error(code, line, error) == built
