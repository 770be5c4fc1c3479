"""The witness rule and no blinding (issue 28 items 1 and 7, issue 30 item 2; docs/design.md#witness and
#no-blinding): each contradiction carries the run a reader repeats, one that does not reproduce is a note, and a
block that sleeps past the time limit or ends the interpreter ends that block only. The attacks run for real, in
the sandbox, through `docbot verify` and `docbot check --base` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
import os
from pathlib import Path
from typing import Any

import pytest

from docbot.fronts.cli import main
from docbot.sandbox.step import Step
from docbot.verify.checks.examples import ExampleContext
from docbot.verify.checks.witness import held, replay
from docbot.verify.checks.witness_plans import Plan
from docbot.verify.findings import Check, DocFinding, Finding, Severity
from tests.support.git_repo import GitRepo

FENCE = "```"
PYPROJECT = '[project]\nname = "toy-pkg"\nversion = "1"\n'
CORE = "def add(a, b):\n    return a + b\n"
CONFIG = {"example_sandbox": "allow-guard", "example_timeout_s": 3}


def block(body: str) -> str:
    return f"{FENCE}python\n{body}\n{FENCE}\n\n"


def project(root: Path, readme: str, init: str = CORE, extra: dict[str, str] | None = None) -> Path:
    files = {"pyproject.toml": PYPROJECT, "toy_pkg/__init__.py": init, "README.md": readme,
             "config.json": json.dumps(CONFIG), **(extra or {})}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def verify(root: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    cwd = os.getcwd()
    os.chdir(root)
    try:
        code = main(["verify", "--json", *args])
    finally:
        os.chdir(cwd)
    return code, json.loads(capsys.readouterr().out)["docs"][0]


def kinds(doc: dict[str, Any]) -> list[tuple[str, str, int]]:
    return [(f["kind"], f["check"], f["line"]) for f in doc["findings"] if f["kind"] != "gap"]


SLEEPS = block("from toy_pkg import add\nimport time\ntime.sleep(60)\nprint(add(1, 2))  # => 3")
EXITS = block("from toy_pkg import add\nimport os\nos._exit(0)")
KILLS = block("from toy_pkg import add\nimport ctypes\nctypes.string_at(0)")  # a crash in native code: SIGSEGV


@pytest.mark.parametrize("killer", [
    pytest.param(SLEEPS, id="a block that sleeps past the time limit"),
    pytest.param(EXITS, id="a block that calls os._exit(0)"),
])
@pytest.mark.parametrize("stated, expected", [
    pytest.param("4", [("contradiction", "example_mismatch")], id="a false add(1, 2) below it is caught"),
    pytest.param("3", [], id="a true one passes"),
])
def test_a_block_that_ends_its_session_ends_that_block_only(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], killer: str, stated: str,
        expected: list[tuple[str, str]]) -> None:
    readme = killer + block(f"print(add(1, 2))  # => {stated}")
    code, doc = verify(project(tmp_path, readme), capsys)
    below = len(killer.splitlines()) + 1  # the false block's line
    assert [k for k in kinds(doc) if k[0] != "note"] == [(*e, below) for e in expected]
    assert code == (1 if expected else 0)
    # the killed block's own stated output (after the sleep) was never compared, and the report says so
    assert [(u["line"], u["example"]) for u in doc["unverified"]] == \
        ([(1, "print(add(1, 2))")] if killer == SLEEPS else [])


def test_the_session_after_the_first_kill_goes_on_past_a_second(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    readme = EXITS + SLEEPS + KILLS + block("print(add(2, 2))  # => 5")
    code, doc = verify(project(tmp_path, readme), capsys)
    last = len((EXITS + SLEEPS + KILLS).splitlines()) + 1
    assert [k for k in kinds(doc) if k[0] != "note"] == [("contradiction", "example_mismatch", last)]
    assert code == 1


def test_the_drift_gate_is_not_blinded_either(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """`check --base`: a change makes add's output false below a sleeping block; the gate fails on it."""
    code, drift = _drift_gate(tmp_path, SLEEPS + block("print(add(1, 2))  # => 3"), capsys, monkeypatch)
    assert code == 1
    assert [(s["line"], s["check"]) for s in drift["introduced"]] == [(len(SLEEPS.splitlines()) + 2,
                                                                       "example_mismatch")]


def _drift_gate(tmp_path: Path, readme: str, capsys: pytest.CaptureFixture[str],
                monkeypatch: pytest.MonkeyPatch) -> tuple[int, dict[str, Any]]:
    """`check --base main --drift-only --json` on a feature branch that makes add return one more."""
    repo = GitRepo(tmp_path / "p")
    for name, text in {"pyproject.toml": PYPROJECT, "toy_pkg/__init__.py": CORE, "config.json": json.dumps(CONFIG),
                       "README.md": readme}.items():
        repo.write(name, text)
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "feature")
    repo.write("toy_pkg/__init__.py", CORE.replace("a + b", "a + b + 1")).commit("change")
    monkeypatch.chdir(repo.root)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    code = main(["check", "--base", "main", "--drift-only", "--json"])
    return code, json.loads(capsys.readouterr().out)["drift"]


def test_a_future_import_in_an_earlier_block_goes_first_in_the_witness(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """future's compatible_idioms: a console takes `from __future__ import` at any prompt, a script only first;
    every witness after such a block was a SyntaxError, and its contradiction a note."""
    readme = block("from toy_pkg import add\nprint(add(1, 2))  # => 3") + \
        block("from __future__ import division\nprint(add(2, 2))  # => 5")
    code, doc = verify(project(tmp_path, "# toy\n\n" + readme), capsys)
    [found] = [f for f in doc["findings"] if f["kind"] == "contradiction"]
    assert found["witness"]["script"].startswith("from __future__ import division\n")
    assert found["witness"]["reproduced"] and code == 1


def test_claims_a_killed_block_left_unverified_fail_the_drift_gate(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30: the examples' run names what a timed-out block left unchecked, and the gate does not pass a doc
    that uses the changed code with any of them, though no contradiction was found (the real sandbox, no
    stand-in for the run)."""
    code, drift = _drift_gate(tmp_path, SLEEPS, capsys, monkeypatch)
    assert drift["introduced"] == [] and drift["unverified"] == [{"path": "README.md", "claims": 1}]
    assert code == 1


@pytest.mark.parametrize("readme, expected", [
    pytest.param(block("from toy_pkg import add\nprint(add(1, 2))  # => 4"),
                 ("from toy_pkg import add\nprint(add(1, 2))\n", 2, "4", "3", True), id="a stated output"),
    pytest.param("```pycon\n>>> from toy_pkg import add\n>>> add(1, 2)\n4\n```\n",
                 ("from toy_pkg import add\n_ = add(1, 2)\nprint(repr(_))\n", 2, "4", "3", True),
                 id="a doctest's echoed value: bound to _ and printed, as the console shows it"),
    pytest.param(block("from toy_pkg import add\nadd(1, 2)  # -> 4"),
                 ("from toy_pkg import add\n_ = add(1, 2)\nprint(repr(_))\n", 2, "4", "3", True),
                 id="a stated value"),
    pytest.param(block("from toy_pkg import add\nadd(1)"),
                 ("from toy_pkg import add\nadd(1)\n", 1, "it runs without an error",
                  "it raises TypeError: add() missing 1 required positional argument: 'b'", True),
                 id="an example presented as working that raises"),
])
def test_a_contradiction_carries_its_witness(tmp_path: Path, capsys: pytest.CaptureFixture[str], readme: str,
                                             expected: tuple[str, int, str, str, bool]) -> None:
    code, doc = verify(project(tmp_path, "# toy\n\n" + readme), capsys)
    [found] = [f for f in doc["findings"] if f["kind"] == "contradiction"]
    witness = found["witness"]
    assert (witness["script"], witness["claim_line"], witness["stated"], witness["shown"],
            witness["reproduced"]) == expected
    assert code == 1


def test_a_block_that_does_not_parse_is_left_out_of_the_witness(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """redis README: a block cut off mid-call (`r.ft().create_index(`) above a false claim; a console prints the
    SyntaxError and goes on, so the witness leaves that block out and still shows the false claim."""
    readme = block("from toy_pkg import add") + block("add(\n    1,") + block("print(add(1, 2))  # => 4")
    code, doc = verify(project(tmp_path, readme), capsys)
    [found] = [f for f in doc["findings"] if f["kind"] == "contradiction"]
    assert found["witness"]["script"] == "from toy_pkg import add\nprint(add(1, 2))\n"
    assert found["witness"]["reproduced"] and code == 1


def test_the_console_prints_the_witness_under_the_finding(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    root = project(tmp_path, block("from toy_pkg import add\nprint(add(1, 2))  # => 4"))
    cwd = os.getcwd()
    os.chdir(root)
    try:
        assert main(["verify"]) == 1
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out.splitlines()
    at = next(i for i, line in enumerate(out) if "CONTRADICTION" in line)
    assert out[at + 1:at + 6] == ["    witness (python3 at the project root; > the claim):",
                                  "      | from toy_pkg import add", "      > print(add(1, 2))",
                                  "      the doc states: 4", "      the run shows: 3"]


# Names the package attaches at import time, which its source never binds by name (a registration loop, setattr),
# and a doc variable named like the package: the live object has them; a name it lacks is still a contradiction.
REGISTERS = CORE + "import sys\n\nfor _name in ('red', 'green'):\n    setattr(sys.modules[__name__], _name, _name)\n"


@pytest.mark.parametrize("init, readme, expected", [
    pytest.param(REGISTERS, block("from toy_pkg import red\nprint(red)  # => red"), [],
                 id="a name a registration loop attaches (setattr at import)"),
    pytest.param(REGISTERS, block("from toy_pkg import blue\nprint(blue)  # => blue"),
                 [("contradiction", "unresolved_reference")], id="a name it does not attach"),
    pytest.param(REGISTERS, "Use `toy_pkg.green` for green.\n", [], id="prose naming an attached name"),
    pytest.param(REGISTERS, "Use `toy_pkg.blue` for blue.\n", [("contradiction", "unresolved_reference")],
                 id="prose naming a name it lacks"),
    pytest.param(CORE, block("class Parser:\n    def feed(self, text):\n        return text\n\n"
                             "toy_pkg = Parser()\nprint(toy_pkg.feed('x'))  # => x"), [],
                 id="a doc variable named like the package"),
    pytest.param(CORE, block("import toy_pkg\nprint(toy_pkg.feed('x'))  # => x"),
                 [("contradiction", "unresolved_reference")], id="the package itself lacks it"),
    pytest.param(CORE, block("print(add(1, 2))  # => 3") + block(
        "class Parser:\n    def feed(self, text):\n        return text\n\ntoy_pkg = Parser()\n"
        "print(toy_pkg.feed('x'))  # => x"), [], id="... after a block that leaves out the package's import"),
])
def test_a_name_is_held_to_the_live_object(tmp_path: Path, capsys: pytest.CaptureFixture[str], init: str,
                                           readme: str, expected: list[tuple[str, str]]) -> None:
    _, doc = verify(project(tmp_path, readme, init), capsys)
    found = [(f["kind"], f["check"]) for f in doc["findings"] if f["check"] == "unresolved_reference"]
    assert [f for f in found if f[0] == "contradiction"] == expected
    for f in doc["findings"]:
        if f["check"] == "unresolved_reference":  # every one, reported or lowered, carries its witness
            assert f["witness"]["reproduced"] is (f["kind"] == "contradiction")


def test_a_witness_runs_the_doc_as_a_console_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The lines a doctest shows raising ran up to the error, and a console goes on after it: the witness runs them
    inside `try`, so `seen` holds what the session saw (the doc's [] is false for a reader too)."""
    readme = ("```pycon\n>>> seen = []\n>>> seen.append(1); int('x')\nTraceback (most recent call last):\n"
              "ValueError: invalid literal for int() with base 10: 'x'\n>>> seen\n[]\n```\n")
    code, doc = verify(project(tmp_path, readme), capsys)
    [found] = [f for f in doc["findings"] if f["check"] == "example_mismatch"]
    assert (found["kind"], found["witness"]["reproduced"], found["witness"]["shown"]) == ("contradiction", True, "[1]")
    assert "try:\n    seen.append(1); int('x')\nexcept BaseException:" in found["witness"]["script"]
    assert code == 1


@pytest.mark.parametrize("script, reproduced, shown", [
    pytest.param("seen = [1]\nprint(seen)\n", True, "[1]", id="the run shows the contradiction again"),
    pytest.param("seen = []\nprint(seen)\n", False, "what the doc states", id="the run shows what the doc states"),
    pytest.param("seen = undefined\nprint(seen)\n", False,
                 "the doc's lines before it fail as one script: NameError: name 'undefined' is not defined",
                 id="the doc's lines before it fail as a script"),
    pytest.param("import time\ntime.sleep(60)\nprint(seen)\n", False, "it did not finish in time",
                 id="it does not finish"),
])
def test_a_witness_that_does_not_reproduce_lowers_the_finding_to_a_note(
        tmp_path: Path, script: str, reproduced: bool, shown: str) -> None:
    step = Step("print(seen)", "stdout", "[]", line=4)
    plan = Plan(script, len(script.splitlines()), "step", "[]", {"status": "mismatch", "error": ""},
                claim=step.to_json())
    witness = replay(plan, ExampleContext("builtins", (str(tmp_path),), timeout_s=2, root=str(tmp_path)))
    assert (witness.reproduced, witness.shown) == (reproduced, shown)
    found = DocFinding(Finding(Check.EXAMPLE_MISMATCH, "example `print(seen)` prints [1], the doc says []", "[]",
                               "[1]", line=4), 5)
    judged = held(found, witness)
    assert judged.finding.witness is witness
    assert judged.severity is (Severity.CONTRADICTION if reproduced else Severity.NOTE)
    assert judged.reason == ("" if reproduced else "its witness (the doc's lines up to it, run as one script at the "
                             f"project root) does not show it: {shown}")


def test_the_project_root_is_read_only_to_the_witness_and_the_session(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Both runs see the project's files from its root (rich's README opens README.md), cannot write them (the
    audit hook's open, and libc's open through ctypes where the hook cannot see it), and see no hidden entry."""
    attack = block("import ctypes, os\nlibc = ctypes.CDLL(None)\n"
                   "print(libc.open(b'README.md', os.O_WRONLY | os.O_TRUNC) >= 0)  # => True")
    readme = ("# toy\n\n" + block("with open('README.md') as readme:\n    first = readme.readline().strip()\n"
                                  "print(first)  # => # toy")
              + block("import os\nprint(sorted(os.listdir('.')))  # => []") + attack
              + block("open('README.md', 'w').write('gone')"))
    before = project(tmp_path, readme, extra={".git/config": "[http]\n\textraheader = AUTHORIZATION: secret\n"})
    _, doc = verify(before, capsys)
    assert (tmp_path / "README.md").read_text(encoding="utf-8") == readme  # nothing wrote the doc
    found = {f["line"]: f for f in doc["findings"]}
    lines = readme.splitlines()
    at = {name: lines.index(FENCE + "python", lines.index(text.splitlines()[1]) - 1) + 1
          for name, text in (("listing", "x\nimport os"), ("attack", attack))}
    assert 3 not in found  # the doc's first line, read from the root
    listed = found[at["listing"]]["code_fact"]
    assert "'README.md'" in listed and ".git" not in listed and "secret" not in json.dumps(doc)
    refused = found[at["attack"]]
    assert (refused["kind"], refused["code_fact"]) == ("contradiction", "False")  # libc's write was refused
    assert refused["witness"]["shown"] == "False"  # ... in the witness's own process too


def test_where_no_sandbox_can_run_a_witness_the_finding_keeps_its_verdict(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """No bwrap and the guard alone not allowed: nothing runs, so no witness can lower a name the package lacks
    (as with --no-examples, the static verdict stands)."""
    from docbot.sandbox import boundary

    monkeypatch.setattr(boundary, "bwrap_candidates", lambda: [])
    plan = Plan("import toy_pkg\nprint(toy_pkg.gone)\n", 1, "name", "`toy_pkg.gone` exists", {"status": "missing"})
    assert replay(plan, ExampleContext("builtins", (str(tmp_path),), sandbox="os")) is None
    found = DocFinding(Finding(Check.UNRESOLVED_REFERENCE, "the doc names `toy_pkg.gone`", "toy_pkg.gone"), 2)
    assert held(found, None) is found and found.severity is Severity.CONTRADICTION


# cfgv's README documents `cfgv.validate(value, schema)` where the function takes `v` (a real error), beside a
# decorator that attaches a keyword at import time (its __signature__ says so; the source's `def` does not).
SIGNED = CORE + '''import functools
import inspect


def with_retries(f):
    @functools.wraps(f)
    def wrapper(*args, retries=3, **kwargs):
        return f(*args, **kwargs)

    params = [*inspect.signature(f).parameters.values(),
              inspect.Parameter("retries", inspect.Parameter.KEYWORD_ONLY, default=3)]
    wrapper.__signature__ = inspect.signature(f).replace(parameters=params)
    return wrapper


@with_retries
def fetch(url):
    return url


def validate(v, schema):
    return v
'''


@pytest.mark.parametrize("readme, expected", [
    pytest.param("## API\n\n### `toy_pkg.validate(value, schema)`\n\nReturns the value on success.\n",
                 [("contradiction", "invented_parameter", True)], id="cfgv README: a parameter the function lacks"),
    pytest.param("## Fetching\n\n### `toy_pkg.fetch(url, retries=3)`\n\nFetches `url`, `retries` times.\n",
                 [("note", "invented_parameter", False)], id="a keyword a decorator attaches at import time"),
    pytest.param("## API\n\n### `toy_pkg.validate(v, schema={})`\n\nReturns the value on success.\n",
                 [("contradiction", "wrong_default", True)], id="a default the live signature does not have"),
])
def test_a_signature_is_held_to_the_live_one(tmp_path: Path, capsys: pytest.CaptureFixture[str], readme: str,
                                             expected: list[tuple[str, str, bool]]) -> None:
    _, doc = verify(project(tmp_path, readme, SIGNED), capsys)
    found = [(f["kind"], f["check"], f["witness"]["reproduced"]) for f in doc["findings"]
             if f["check"] in ("invented_parameter", "wrong_default")]
    assert found == expected


@pytest.mark.parametrize("codes, expected", [
    pytest.param(["from toy_pkg import fields\n\nclass UserSchema:\n    name = fields.Str(validate=lambda n: n)\n"],
                 "from toy_pkg import fields\nprint(fields.Select)\n",
                 id="marshmallow docs: a module name an import binds needs that import alone"),
    pytest.param(["import toy_pkg as tp\nschema = tp.Schema()\n"], "import toy_pkg as tp\nprint(tp.fields.Select)\n",
                 id="an alias"),
    pytest.param(["from toy_pkg import fields\n", "fields = make_fields()\n"],
                 "import toy_pkg.fields\nprint(toy_pkg.fields.Select)\n",
                 id="a doc variable rebinding the name afterwards: no longer the package's, so its module's"),
    pytest.param([], "import toy_pkg.fields\nprint(toy_pkg.fields.Select)\n", id="nothing binds it: the module"),
])
def test_a_name_witness_is_the_smallest_script(codes: list[str], expected: str) -> None:
    from docbot.verify.checks.examples import Session
    from docbot.verify.checks.witness_plans import for_name

    steps = [Step(code, "none", line=i) for i, code in enumerate(codes)]
    session = Session(results={i: {"index": i, "status": "ok"} for i in range(len(steps))})
    spelled = "tp.fields.Select" if "tp" in "".join(codes) else "fields.Select" if codes else "toy_pkg.fields.Select"
    plan = for_name("toy_pkg.fields.Select", len(steps) + 5, "code", steps, session, "toy_pkg",
                    ["toy_pkg", "toy_pkg.fields"], spelled)
    assert plan.code == expected


def test_a_name_witness_whose_module_does_not_import_here_keeps_the_static_verdict(tmp_path: Path) -> None:
    """gcsfs's docs: the package needs aiohttp, not installed here; `import gcsfs` fails, so the live object cannot
    be asked, and the source's verdict stands (a note would hide a removed name on every machine without it)."""
    (tmp_path / "needy").mkdir()
    (tmp_path / "needy" / "__init__.py").write_text("import aiohttp_not_installed_here\n")
    plan = Plan("import needy\nprint(needy.loop)\n", 2, "name", "`needy.loop` exists", {"status": "missing"})
    assert replay(plan, ExampleContext("builtins", (str(tmp_path),), root=str(tmp_path))) is None
    plan = Plan("import json\nprint(json.gone)\n", 2, "name", "`json.gone` exists", {"status": "missing"})
    witness = replay(plan, ExampleContext("builtins", (str(tmp_path),), root=str(tmp_path)))
    assert witness is not None and witness.reproduced  # the control: a module that imports is asked


def _set_order(seed: str) -> list[str]:
    code = "print('\\n'.join({'amber', 'birch', 'cedar', 'dune', 'ember', 'fjord'}))"
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": seed},
                          capture_output=True, text=True, check=True)
    return done.stdout.split()


@pytest.mark.parametrize("iterated, order_is_the_seeds", [
    pytest.param("{'amber', 'birch', 'cedar', 'dune', 'ember', 'fjord'}", True,
                 id="beartype eli5: a set of strings, its order the hash seed's"),
    pytest.param("['amber', 'birch', 'cedar', 'dune', 'ember', 'fjord']", False,
                 id="a list: its order is the code's, and the doc states it wrongly"),
])
def test_an_order_the_hash_seed_chose_is_no_contradiction(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         iterated: str, order_is_the_seeds: bool) -> None:
    session = _set_order("0") if order_is_the_seeds else eval(iterated)  # noqa: S307 - the test's own literal
    stated = list(reversed(session))  # another order of the same lines than the session prints
    assert any(_set_order(seed) != session for seed in ("1", "2", "3")) or not order_is_the_seeds
    readme = "# toy\n\n" + block(f"for word in {iterated}:\n    print(word)") + "```text\n" + "\n".join(stated) + \
        "\n```\n"
    code, doc = verify(project(tmp_path, readme), capsys)
    [found] = [f for f in doc["findings"] if f["check"] == "example_mismatch"]
    assert (found["kind"], code) == (("note", 0) if order_is_the_seeds else ("contradiction", 1))
    assert ("another hash seed" in found["reason"]) is order_is_the_seeds


STATEFUL = "_backend = ['default']\n\n\ndef use(name):\n    _backend[0] = name\n\n\ndef where():\n" \
           "    return 'from ' + _backend[0]\n"


@pytest.mark.parametrize("second, kind", [
    pytest.param("from toy_pkg import where\nprint(where())  # => from default", "note",
                 id="keyring's README: alternative blocks, each right where a reader starts"),
    pytest.param("from toy_pkg import where\nprint(where())  # => from elsewhere", "contradiction",
                 id="... a block wrong alone too"),
    pytest.param("print(label)  # => from default", "contradiction",
                 id="... a block that needs a value the one before made (alone it cannot run): the session holds"),
])
def test_a_block_right_where_a_reader_starts_is_an_alternative(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               second: str, kind: str) -> None:
    readme = "# toy\n\n" + block("from toy_pkg import use, where\nuse('test')\nlabel = where()\n"
                                   "print(where())  # => from test") + \
        "Or, with the default backend:\n\n" + block(second)
    code, doc = verify(project(tmp_path, readme, STATEFUL), capsys)
    [found] = [f for f in doc["findings"] if f["check"] == "example_mismatch"]
    assert (found["kind"], code) == (kind, 1 if kind == "contradiction" else 0)
    assert ("run alone" in found["reason"]) is (kind == "note")
