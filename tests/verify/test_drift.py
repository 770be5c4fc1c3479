"""The drift gate's rules: which docs mention a changed function, what is new against the base, and
``docbot check --base`` on a real git repository (docs/design.md#drift-gate)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from docbot.fronts.cli import main
from docbot.verify.project.drift import split_by_base
from docbot.verify.project.mentions import PackageNames, scan_doc
from docbot.verify.project.reach import Reach
from docbot.verify.project.report import StaleLine
from docbot.verify.project.api_index import ApiIndex
from tests.support.git_repo import GitRepo

CORE = "def add(a, b=2):\n    return a + b\n\n\ndef shout(s):\n    return s.upper()\n\n\n" \
       "class Box:\n    def open(self):\n        return 1\n"


INIT = "from toy.core import add, shout, Box\n"


def _index() -> ApiIndex:
    index = ApiIndex("toy")
    index.add_module("toy", INIT, is_package=True)
    index.add_module("toy.core", CORE)
    return index


def _reaches(doc: str, changed: set[str], is_rst: bool = False) -> bool:
    graph = Reach({"toy": True, "toy.core": False}, {"toy": INIT, "toy.core": CORE}.__getitem__)
    return graph.reaches(PackageNames("toy", _index()).uses(scan_doc(doc, is_rst)), changed)


@pytest.mark.parametrize("doc, changed, expected", [
    ("```python\nfrom toy import add\nadd(1)\n```\n", {"toy.core.add"}, True),  # imported, re-exported
    ("```python\nfrom toy import add\nadd(1)\n```\n", {"toy.core.shout"}, False),  # another function
    ("```python\nimport toy as t\nt.shout('a')\n```\n", {"toy.core.shout"}, True),  # through an alias
    ("Call `toy.shout()` to shout.\n", {"toy.core.shout"}, True),  # prose names it as code
    ("Call toy.shout to shout.\n", {"toy.core.shout"}, False),  # not marked as code: not a reference
    ("Use `toy.Box`.\n", {"toy.core.Box.open"}, True),  # a class covers its methods
    ("Use `toy.core`.\n", {"toy.core.add"}, False),  # a module does not cover its functions
    ("```python\nfrom toy import add\n```\n", {"toy.core.addition"}, False),  # a prefix is not the name
])
def test_a_doc_mentions_a_changed_function_by_the_names_it_uses(doc: str, changed: set[str], expected: bool) -> None:
    assert _reaches(doc, changed) is expected


def _stale(path: str, check: str, doc_text: str, line: int = 3, message: str = "m", block: str = "") -> StaleLine:
    return StaleLine(path, line, check, message, doc_text, block)


@pytest.mark.parametrize("now, before, introduced", [
    ([_stale("README.md", "example_mismatch", "3")], [], 1),
    ([_stale("README.md", "example_mismatch", "3")], [_stale("README.md", "example_mismatch", "3", line=9)], 0),
    ([_stale("README.md", "example_mismatch", "3")], [_stale("README.md", "example_mismatch", "4")], 1),
    ([_stale("README.md", "example_mismatch", "3")], [_stale("docs/a.md", "example_mismatch", "3")], 1),
    # whatever kind the base gave it: a setup_elided note there, a contradiction now, on one example and text
    ([_stale("README.md", "example_mismatch", "3")], [_stale("README.md", "example_raises", "3")], 0),
    ([_stale("README.md", "example_raises", "", message="a")], [_stale("README.md", "example_raises", "",
                                                                          message="b")], 1),
    # the same stated text under another example is another claim
    ([_stale("README.md", "example_mismatch", "3", block="add(1)")],
     [_stale("README.md", "example_mismatch", "3", block="add(2)")], 1),
    ([_stale("README.md", "example_mismatch", "3", block="add(1)")],
     [_stale("README.md", "setup_elided", "3", block="add(1)", line=40)], 0),
    ([_stale("README.md", "example_raises", "", message="a", block="f()")],
     [_stale("README.md", "example_raises", "", message="b", block="f()")], 0),
])
def test_a_contradiction_is_new_unless_the_base_has_a_finding_on_the_same_claim(
        now: list[StaleLine], before: list[StaleLine], introduced: int) -> None:
    new, old = split_by_base(now, {s.claim for s in before})
    assert (len(new), len(old)) == (introduced, len(now) - introduced)


PYPROJECT = '[project]\nname = "toy"\nversion = "1"\n'
README = ("# toy\n\n```pycon\n>>> from toy import add\n>>> add(1)\n3\n```\n\n"
          "Shouting:\n\n```pycon\n>>> from toy import shout\n>>> shout('a')\n'B'\n```\n")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GitRepo:
    """add's example is true on the base; shout's is false there already (pre-existing)."""
    repo = GitRepo(tmp_path / "p")
    repo.write("pyproject.toml", PYPROJECT).write("toy/__init__.py", "from toy.core import add, shout, Box\n")
    repo.write("toy/core.py", CORE).write("README.md", README)
    repo.write("config.json", json.dumps({"example_sandbox": "allow-guard"})).commit("base")
    repo.git("checkout", "-q", "-b", "feature")
    monkeypatch.chdir(repo.root)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    return repo


def _check(capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, list[dict[str, object]]]]:
    code = main(["check", "--base", "main", "--drift-only", "--json"])
    return code, json.loads(capsys.readouterr().out)["drift"]


@pytest.mark.parametrize("old, new, code, introduced, pre_existing, fixes", [
    pytest.param("return a + b\n", "return a + b + 1\n", 1, [("README.md", 6, "example_mismatch")], 1,
                 [("README.md", 6, ["4\n"])], id="add changed: its README example is now false"),
    pytest.param("return 1\n", "return 2\n", 0, [], 0, [], id="Box.open changed: no doc mentions it"),
    pytest.param("return s.upper()\n", "return s.upper() + ''\n", 0, [], 1, [],
                 id="shout changed: its example was false already, and is not this diff's to fix"),
])
def test_check_base_reports_only_what_the_diff_made_false(
        project: GitRepo, capsys: pytest.CaptureFixture[str], old: str, new: str, code: int,
        introduced: list[tuple[str, int, str]], pre_existing: int, fixes: list[tuple[str, int, list[str]]]) -> None:
    project.write("toy/core.py", CORE.replace(old, new)).commit("change")
    got, drift = _check(capsys)
    assert got == code
    assert [(s["path"], s["line"], s["check"]) for s in drift["introduced"]] == introduced
    assert len(drift["pre_existing"]) == pre_existing
    assert [(f["path"], f["start"], f["new"]) for f in drift["fixes"]] == fixes


def test_check_base_verifies_a_doc_the_diff_edited_whatever_it_mentions(
        project: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    project.write("docs/guide.md", "```pycon\n>>> 1 + 1\n3\n```\n").commit("a wrong guide")
    got, drift = _check(capsys)
    assert (got, drift["docs"], [s["path"] for s in drift["introduced"]]) == (1, ["docs/guide.md"],
                                                                              ["docs/guide.md"])


def test_check_base_prints_new_and_pre_existing_apart(project: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    project.write("toy/core.py", CORE.replace("a + b", "a + b + 1").replace("s.upper()", "s.upper() + ''"))
    project.commit("change both")
    assert main(["check", "--base", "main", "--drift-only"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("README.md:6: CONTRADICTION [example_mismatch] example `add(1)` returns 4")
    assert out[0].endswith("(new in this diff)")
    assert out[1].startswith("README.md:14: pre-existing [example_mismatch]") and "not a failure" in out[1]


@pytest.mark.parametrize("argv, code, said", [
    (["check", "--drift-only"], 2, "--drift-only needs --base"),
    (["check", "--drift-only", "--base", "nope"], 4, "Unknown revision 'nope'"),
    (["check", "--drift-only", "--base=--output=x"], 4, "Unknown revision '--output=x'"),
])
def test_drift_only_needs_a_known_base(project: GitRepo, capsys: pytest.CaptureFixture[str], argv: list[str],
                                       code: int, said: str) -> None:
    assert main(argv) == code
    assert said in capsys.readouterr().err


@pytest.mark.parametrize("is_rst, expected", [(True, {"toy.core.add"}), (False, set())])
def test_an_rst_doc_is_read_as_rst(is_rst: bool, expected: set[str]) -> None:
    doc = "Usage\n=====\n\n.. code-block:: python\n\n   from toy import add\n   add(1)\n"
    # as Markdown, a 3-space indented block is no code
    assert PackageNames("toy", _index()).uses(scan_doc(doc, is_rst)) == expected
