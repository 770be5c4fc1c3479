"""Examples that fail because of the sandbox or the machine are notes with the reason; the same failure without
that cause is still a contradiction (docs/design.md#sandbox). Each pair runs through the real sandbox."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from docbot.sandbox.runner import run_steps
from docbot.verify.checks.environment import (Environment, bound_names, handed_names, machine_values, read_paths,
                                              set_paths)
from docbot.verify.checks.examples import findings_from_run
from docbot.verify.read.examples import extract_steps
from docbot.verify.findings import Finding, Severity
from docbot.sandbox.step import Step
from tests.support.sandboxing import NO_BWRAP

# A package's own code, as python-discovery, bs4 and identify do it: it catches what went wrong and raises its own.
MODULE = '''
import os, subprocess

def query(run=True):
    """Ask another interpreter; a refused subprocess becomes the package's own RuntimeError."""
    if run:
        try:
            subprocess.run(["/bin/true"], check=False)
            return "answered"
        except OSError:
            pass
    raise RuntimeError("failed to query the interpreter")

def quiet_query():
    try:
        subprocess.run(["/bin/true"], check=False)
        return "answered"
    except OSError:
        return "nobody"

def parse(markup, features="html"):
    try:
        import no_such_parser_lib
    except ImportError:
        pass
    if features == "xml":
        raise LookupError("Couldn't find a tree builder: xml. Do you need to install a parser library?")
    return markup

def tags(path):
    if not os.path.lexists(path):
        raise ValueError(f"{path} does not exist.")
    return {"file"}

def broken(path):
    raise ValueError(f"{path} does not exist.")

def where():
    import sys
    return sys.prefix + "/lib/libblas.so"

def source_of(function):
    import inspect
    return inspect.getsource(function).splitlines()[0]
'''


@pytest.fixture(scope="module")
def module_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("envmod")
    (folder / "envmod.py").write_text(MODULE)
    return folder


def run(module_dir: Path, session: str, guard_only: bool = False) -> list[Finding]:
    steps = extract_steps("```python\n" + textwrap.dedent(session).strip() + "\n```\n")
    outcome = run_steps(steps, "envmod", "query", (str(module_dir),), timeout_s=30, memory_mb=256,
                        sandbox="allow-guard" if guard_only else "os", bwrap=NO_BWRAP if guard_only else None)
    assert outcome.ready and outcome.not_run is None, outcome
    return findings_from_run(steps, outcome, 30, memory_mb=256)


def kinds(found: list[Finding]) -> list[tuple[str, Severity]]:
    return [(f.check.value, f.severity) for f in found]


NOTE, CONTRA = Severity.NOTE, Severity.CONTRADICTION
CASES = [
    # the sandbox refused a subprocess; the package swallowed it and raised its own error / returned another value
    ("refusal swallowed, own error", ">>> query()\n'answered'", [("example_raises", NOTE)], "subprocess.Popen"),
    ("refusal swallowed, other value", ">>> quiet_query()\n'answered'", [("example_mismatch", NOTE)],
     "subprocess.Popen"),
    ("same error, nothing refused", ">>> query(run=False)\n'answered'", [("example_raises", CONTRA)], None),
    # memory: the step that ran out, and a later one that reads what it was to make
    ("memory and its echo", ">>> big = [0]\n>>> big *= 10**9\n>>> len(big)\n1000000000\n>>> 1 + 1\n3",
     [("example_raises", NOTE), ("example_mismatch", NOTE), ("example_mismatch", CONTRA)], "256 MB"),
    # a placeholder path the example passes; a documented failure is still compared
    ("placeholder path", ">>> tags('/path/to/file.py')\n{'file'}", [("example_raises", NOTE)], "/path/to/file.py"),
    ("a document the reader has", ">>> tags('existing-document-file.docx')\n{'file'}", [("example_raises", NOTE)],
     "existing-document-file.docx"),  # python-docx's documents.rst
    ("path that exists", ">>> broken('/etc/os-release')\n{'file'}", [("example_raises", CONTRA)], None),
    ("path the example does not pass", ">>> broken('/etc' + '/nope')\n{'file'}", [("example_raises", CONTRA)], None),
    ("documented failure, same message", ">>> tags('/path/to/x')\nTraceback (most recent call last):\n"
     "ValueError: /path/to/x does not exist.", [], None),
    ("documented failure, other message", ">>> tags('/path/to/x')\nTraceback (most recent call last):\n"
     "ValueError: /path/to/x is missing", [("example_wrong_exception", CONTRA)], None),
    # an import that found nothing, caught by the package, which then asks for an install
    ("caught import, asks install", ">>> parse('<a/>', 'xml')\n'<a/>'", [("example_raises", NOTE)],
     "no_such_parser_lib"),
    ("caught import, other error", ">>> parse(1, 'xml') + parse(None)\n2", [("example_raises", NOTE)], None),
    ("no import tried, asks install", ">>> raise LookupError('Do you need to install a parser library?')\n1",
     [("example_raises", CONTRA)], None),
    ("a module not installed", ">>> import no_such_module_at_all\n>>> 1\n1", [("example_raises", NOTE)],
     "no_such_module_at_all"),
    # the output shows this machine's own paths
    ("machine path in the output", ">>> where()\n'/usr/lib/libblas.so'", [("example_mismatch", NOTE)],
     "Python installation"),
    ("no machine value", ">>> where()[-12:]\n'/libblas.sox'", [("example_mismatch", CONTRA)], None),
    # the example's own source is readable, as from a reader's file
    ("source of an example's function", ">>> def f(x):\n...     return x\n>>> source_of(f)\n'def f(x):'", [], None),
]


@pytest.mark.parametrize(("session", "expected", "reason"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_environment_failures_are_notes_and_the_rest_contradictions(
        module_dir: Path, session: str, expected: list[tuple[str, Severity]], reason: str | None) -> None:
    found = run(module_dir, session)
    assert kinds(found) == expected, found
    if reason is not None:
        assert reason in found[0].reason and reason in found[0].message
    assert all(f.reason == "" for f in found if f.fatal)


@pytest.mark.parametrize(("session", "severity"), [(">>> query()\n'answered'", NOTE),
                                                  (">>> query(run=False)\n'answered'", CONTRA)])
def test_the_guard_alone_witnesses_its_refusals_too(module_dir: Path, session: str, severity: Severity) -> None:
    found = run(module_dir, session, guard_only=True)
    assert [f.severity for f in found] == [severity]
    assert ("subprocess.Popen" in found[0].reason) is (severity is NOTE)


def test_the_caught_import_names_the_missing_library(module_dir: Path) -> None:
    found = run(module_dir, ">>> parse(1, 'xml') + parse(None)\n2")
    assert found[0].reason == "it needs a library that is not installed here (tried and not found: no_such_parser_lib)"


def test_a_traceback_shows_the_examples_own_line(module_dir: Path) -> None:
    found = run(module_dir, ">>> import traceback\n>>> def g():\n...     return 1 / 0\n"
                ">>> try:\n...     g()\n... except ZeroDivisionError as e:\n"
                "...     print(traceback.format_tb(e.__traceback__)[-1].splitlines()[1].strip())\nreturn 1 / 0")
    assert found == []


@pytest.mark.parametrize(("result", "why"), [
    ({"status": "ok", "refused": ["subprocess.Popen"]}, None),  # refused but the doc held: no finding at all
    ({"status": "raised", "error": "RuntimeError: x", "refused": ["os.system"]}, "refused: os.system"),
    ({"status": "raised", "error": "MemoryError"}, "512 MB"),
    ({"status": "mismatch", "got": "MemoryError"}, None),  # only a raised MemoryError is the cap's
    ({"status": "wrong_exception", "error": "MemoryError"}, "512 MB"),  # the doc said another error
    ({"status": "no_exception", "error": "MemoryError"}, None),
    ({"status": "wrong_exception", "error": "ValueError: x"}, None),
    ({"status": "raised", "error": "ValueError: /a/b does not exist", "missing_paths": ["/a/b"]}, "/a/b"),
    ({"status": "raised", "error": "ImportError: No module named 'lxml'"}, "lxml"),
    ({"status": "raised", "error": "KeyError: 'lxml'", "missing": ["lxml"]}, "lxml"),
    ({"status": "raised", "error": "KeyError: 'lx'", "missing": ["lx"]}, None),  # too short to be named
    ({"status": "raised", "error": "KeyError: 'xlxml'", "missing": ["lxml"]}, None),  # a word, not the name
    ({"status": "raised", "error": "ValueError: please install it", "missing": ["yaml"]}, "yaml"),
    ({"status": "raised", "error": "ValueError: please install it"}, None),
    # what a reader's machine has: a session variable, an account, a terminal (secretstorage, databricks-sdk, click)
    ({"status": "raised", "error": "NotAvailable: Environment variable DBUS_SESSION_BUS_ADDRESS is unset"},
     "DBUS_SESSION_BUS_ADDRESS"),
    ({"status": "raised", "error": "RuntimeError: TOY_API_KEY is not set"}, "TOY_API_KEY"),
    ({"status": "raised", "error": "RuntimeError: the variable is set"}, None),
    ({"status": "raised", "error": "ValueError: default auth: cannot configure default credentials, please check"},
     "credentials"),
    ({"status": "raised", "error": "ValueError: the credentials are wrong"}, None),  # a doc's bad credentials
    ({"status": "raised", "error": "OSError: [Errno 6] No such device or address: '/dev/tty'"}, "terminal"),
    ({"status": "raised", "error": "OSError: [Errno 2] No such file or directory: 'x'"}, None),
    # the doc shows its author's machine: a home folder's path, a shared library this machine lacks
    ({"status": "mismatch", "got": "[]"}, None),
])
def test_the_reason_of_one_result(result: dict[str, object], why: str | None) -> None:
    got = Environment(512).reason(Step("x = f()", "none"), result)
    assert (got is None) if why is None else (got is not None and why in got), got


@pytest.mark.parametrize(("want", "got", "why"), [
    ("[{'filepath': '/home/ogrisel/envs/lib/libmkl_rt.so', 'num_threads': 2}]", "[]", "/home/ogrisel"),
    ("[{'filepath': '/usr/local/lib/libflexiblas.so.3.3'}]", "[]", "libflexiblas.so.3.3"),  # threadpoolctl
    ("'/Users/ann/project/data.csv'", "'/root/project/data.csv'", "/Users/ann"),
    ("'/home/ann/a.txt'", "'/home/ann/a.txt '", None),  # the run shows the same path
    ("'/usr/lib/python3/x.py'", "'/usr/lib/python3/y.py'", None),  # no home, no library: the doc's to answer for
    (f"{sys.prefix!r}", "'/elsewhere'", None),  # a path this machine has
])
def test_an_output_of_the_doc_author_s_machine(want: str, got: str, why: str | None) -> None:
    found = Environment(512).reason(Step("info()", "value", want=want), {"status": "mismatch", "got": got})
    assert (found is None) if why is None else (found is not None and why in found), found


def test_a_later_step_is_excused_only_for_the_names_a_failed_step_was_to_bind() -> None:
    environment = Environment(512)
    assert environment.reason(Step("sl *= 10", "none"), {"status": "raised", "error": "MemoryError"})
    assert environment.reason(Step("sl.count('c')", "value"), {"status": "mismatch"}) is not None
    assert environment.reason(Step("other.count('c')", "value"), {"status": "mismatch"}) is None
    assert bound_names("import a.b as c, d.e\nfrom f import g\nx, y = 1, 2\ndef h(): z = 1\nclass K: pass") == \
        {"c", "d", "g", "x", "y", "h", "z", "K"}


def test_a_name_an_output_showed_to_be_the_machines_stays_the_machines() -> None:
    environment = Environment(512)
    machine = {"status": "mismatch", "got": f"Lib({sys.prefix!r})"}
    assert environment.reason(Step("tz", "value", want="Lib('/usr')"), machine) is not None
    assert environment.reason(Step("dt = f(tzinfo=tz)\ndt.hour", "value"), {"status": "mismatch"}) is not None
    assert environment.reason(Step("dt.hour", "value"), {"status": "mismatch"}) is not None  # made with tz
    # a step excused for reading tz does not make the other names it reads the machine's
    assert environment.reason(Step("g(tz, other)", "value"), {"status": "mismatch"}) is not None
    assert environment.reason(Step("other.x", "value"), {"status": "mismatch"}) is None
    # a NameError is excused only for the name a failed step was to bind, not for another name it reads
    assert environment.reason(Step("g(tz)", "none"), {"status": "raised", "error": "NameError: name 'g' is not "
                                                                                 "defined"}) is None
    assert environment.reason(Step("h = g(tz)", "none"), {"status": "raised", "error": "ValueError: x"}) is not None
    assert environment.reason(Step("h()", "none"), {"status": "raised", "error": "NameError: name 'h' is not "
                                                                                "defined"}) is not None
    # a failure for another reason spoils what it binds, not what it reads
    assert environment.reason(Step("x = other", "none"), {"status": "raised", "error": "MemoryError"})
    assert environment.reason(Step("other.y", "value"), {"status": "mismatch"}) is None


def test_machine_values_are_this_machines() -> None:
    values = dict((value, what) for what, value in machine_values())
    assert values[sys.prefix] == "Python installation"
    assert "kernel release" in values.values()  # a user agent shows it (requests-toolbelt's docs/user-agent.rst)
    if Path("/etc/os-release").exists():
        assert "operating system" in values.values()


@pytest.mark.parametrize("code, line, handed", [
    ('cur.execute("copy t to stdout", stream=out)', 1, {"out"}),  # pg8000's README
    ("fill(buf, size)\nother(keep)", 1, {"buf", "size"}),  # only the statement that failed
    ("fill(buf, size)\nother(keep)", 2, {"keep"}),
    ("print(x, file=out, sep=str(y))", 1, {"x", "out", "y"}),  # inner calls' arguments too
    ("data = list(map(str, items))", 1, {"items"}),  # a builtin is no value of the doc's
    ("total = a + b", 1, set()),  # nothing handed to a call
    ("f(a.b, c[0])", 1, set()),  # only names are followed, not what they hold
    ("def g(:", 1, set()),  # does not parse
    # the attribute or item it sets, as written, not its object (python-docx's sections.rst)
    ("section.start_type = WD_SECTION.ODD_PAGE", 1, {"section.start_type"}),
    ("doc.sections[0].width = w", 1, {"doc.sections[0].width"}),
    ("table['a'] += step", 1, {"table['a']"}),
    ("a.b = 1\nc.d = 2", 2, {"c.d"}),  # only the statement that failed
    ("x = y.z", 1, set()),  # a name it reads an attribute of is not one it sets
])
def test_what_the_failed_statement_was_handed(code: str, line: int, handed: set[str]) -> None:
    assert handed_names(code, line) == handed


@pytest.mark.parametrize("code, paths", [
    ("section.start_type = x\ny[0] = 1\nz = 2", {"section.start_type", "y[0]"}),  # a name bound is no path set
    ("n.total += 1", {"n.total"}),
    ("q: int = 1", set()),
])
def test_the_attributes_and_items_a_step_sets(code: str, paths: set[str]) -> None:
    assert set_paths(code) == paths


@pytest.mark.parametrize("code, paths", [
    ("section.start_type.name", {"section.start_type.name", "section.start_type", "section"}),
    ("f(doc.sections[0])", {"f", "doc", "doc.sections", "doc.sections[0]"}),  # the index itself is a constant
    ("section.start_type = x", {"section", "x"}),  # the path it sets is no path it reads
])
def test_the_names_attributes_and_items_a_step_reads(code: str, paths: set[str]) -> None:
    assert read_paths(code) == paths
