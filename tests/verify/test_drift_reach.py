"""Issue 30's attacks on ``docbot check --base``'s drift gate, each run on a real git repository: what a README
reaches (a private helper, a module constant, a star import, an instance's method) is followed; "new" means the
base had no finding on that example and text, whatever its kind; claims left unverified in a doc that uses the
changed code fail; a doc docbot cannot read is a clean exit 2. And the cheap mention scan's own rules."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from docbot.fronts.cli import main
from docbot.verify.checks.examples import Unverified
from docbot.verify.project import docs as docs_module
from docbot.verify.project.api_index import ApiIndex
from docbot.verify.project.mentions import MentionCache, PackageNames, scan_doc
from docbot.verify.project.reach import Reach
from docbot.verify.project.sides import changed_names
from docbot.verify.project.report import ProjectReport
from tests.support.git_repo import GitRepo
from tests.support.parses import counted_parses

PYPROJECT = '[project]\nname = "toy"\nversion = "1"\n'
CORE = ("STEP = 0\n\n\ndef add(a, b=2):\n    return _plus(a, b)\n\n\ndef _plus(a, b):\n    return a + b + STEP\n\n\n"
        "class Context:\n    def __init__(self):\n        self.obj = None\n\n"
        "    def ensure_object(self, kind):\n        if self.obj is None:\n            self.obj = kind()\n"
        "        return self.obj\n\n\n"
        "def make():\n    return Context()\n")
INIT = "from toy.core import add, make, Context\n"


def _repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, readme: str) -> GitRepo:
    repo = GitRepo(tmp_path / "p")
    repo.write("pyproject.toml", PYPROJECT).write("toy/__init__.py", INIT).write("toy/core.py", CORE)
    repo.write("README.md", readme).write("config.json", json.dumps({"example_sandbox": "allow-guard"}))
    repo.commit("base").git("checkout", "-q", "-b", "feature")
    monkeypatch.chdir(repo.root)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    return repo


def _gate(capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, list[dict[str, object]]]]:
    code = main(["check", "--base", "main", "--drift-only", "--json"])
    return code, json.loads(capsys.readouterr().out)["drift"]


ADD_DOC = "# toy\n\n```pycon\n>>> from toy import add\n>>> add(1)\n3\n```\n"
STAR_DOC = "# toy\n\n```pycon\n>>> from toy import *\n>>> add(1)\n3\n```\n"
INSTANCE_DOC = ("# toy\n\n```pycon\n>>> import toy\n>>> ctx = toy.make()\n>>> ctx.ensure_object(list)\n[]\n```\n")


@pytest.mark.parametrize("readme, old, new", [
    pytest.param(ADD_DOC, "return a + b + STEP", "return a + b + 1 + STEP", id="a private helper add calls"),
    pytest.param(ADD_DOC, "STEP = 0", "STEP = 1", id="a module constant the helper reads"),
    pytest.param(STAR_DOC, "return a + b + STEP", "return a + b + 1 + STEP", id="a name from a star import"),
    pytest.param(INSTANCE_DOC, "self.obj = kind()", "self.obj = kind([0])", id="an instance's method"),
])
def test_a_change_the_doc_reaches_makes_it_false_and_the_gate_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], readme: str, old: str,
        new: str) -> None:
    repo = _repo(tmp_path, monkeypatch, readme)
    repo.write("toy/core.py", CORE.replace(old, new)).commit("change")
    code, drift = _gate(capsys)
    assert (code, drift["docs"], [s["check"] for s in drift["introduced"]]) == (1, ["README.md"],
                                                                                ["example_mismatch"])


def test_a_change_nothing_reaches_verifies_no_doc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    repo = _repo(tmp_path, monkeypatch, ADD_DOC)
    repo.write("toy/core.py", CORE.replace("return Context()", "return Context(); Context()")).commit("make")
    code, drift = _gate(capsys)
    assert (code, drift["changed"], drift["docs"]) == (0, ["toy.core.make"], [])


def test_a_warm_gate_reads_the_changed_module_anew(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """The package's readings are kept by each module's text (package.json): the next commit's gate, whose
    change a doc reaches, fails as a cold one does."""
    repo = _repo(tmp_path, monkeypatch, ADD_DOC)
    repo.write("toy/core.py", CORE.replace("return Context()", "return Context(); Context()")).commit("make")
    assert _gate(capsys)[0] == 0
    kept = json.loads((repo.root / ".docbot/cache/package.json").read_text(encoding="utf-8"))["entries"]
    assert len(kept) == 2  # toy and toy.core
    repo.write("toy/core.py", CORE.replace("STEP = 0", "STEP = 1")).commit("step")
    code, drift = _gate(capsys)
    assert (code, drift["docs"]) == (1, ["README.md"])


def test_the_gate_parses_a_changed_modules_new_side_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """What changed and the package's reading share one parse of the changed module's text (issue 32), on a
    change no doc reaches (the docs a change reaches are verified, which reads the package again)."""
    repo = _repo(tmp_path, monkeypatch, ADD_DOC)
    new = CORE.replace("return Context()", "return Context(); Context()")
    repo.write("toy/core.py", new).commit("make")
    parsed = counted_parses(monkeypatch)
    code, drift = _gate(capsys)
    assert (code, drift["changed"], drift["docs"]) == (0, ["toy.core.make"], [])
    assert parsed.count(new) == 1 and parsed.count(CORE) == 0  # the new side once; of the old side, only
    assert "def make():\n    return Context()\n" in parsed  # the changed function's text (sides.changed_names)


def test_new_means_new_whatever_kind_the_base_gave_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 30's release-diff case: the same example and stated text, not verified on the base (its import
    failed there: a note), a contradiction at head (the package defines the name now, wrongly): pre-existing."""
    readme = "# toy\n\n```pycon\n>>> from toy import add, ANSWER\n>>> add(ANSWER)\n42\n```\n"
    repo = _repo(tmp_path, monkeypatch, readme)
    repo.write("toy/__init__.py", INIT + "\nANSWER = 1\n").commit("ANSWER defined now")
    code, drift = _gate(capsys)
    assert (code, drift["introduced"], [s["doc_text"] for s in drift["pre_existing"]]) == (0, [], ["42\n"])


@pytest.mark.parametrize("edited_only, fails", [(False, True), (True, False)])
def test_claims_left_unverified_in_a_doc_that_uses_the_change_fail_the_gate(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], edited_only: bool,
        fails: bool) -> None:
    """The examples' run counts what a timed-out or crashed block left unchecked (DocReport.unverified); the gate
    refuses to pass a doc that uses the changed code with any of them, and passes an edited doc that does not."""
    repo = _repo(tmp_path, monkeypatch, ADD_DOC if not edited_only else "# toy\n\nNo code here.\n")
    real = docs_module.verify_project  # the gate imports it when a doc is to be verified

    def leaving_one(*args: object, **kwargs: object) -> ProjectReport:
        report = real(*args, **kwargs)  # type: ignore[arg-type]
        left = [Unverified(3, "print(x)", "its block timed out")]
        return replace(report, docs=[replace(d, unverified=left) for d in report.docs])

    monkeypatch.setattr(docs_module, "verify_project", leaving_one)
    if edited_only:
        repo.write("README.md", "# toy\n\nStill no code.\n")
    repo.write("toy/core.py", CORE.replace("STEP = 0", "STEP = 0 * 1")).commit("change")
    code = main(["check", "--base", "main", "--drift-only"])
    out, err = capsys.readouterr()
    assert (code == 1) is fails, out + err
    assert ("README.md: UNVERIFIED 1 claim" in out) is fails


@pytest.mark.parametrize("name, data", [
    ("docs/latin.md", "caf\xe9\n".encode("latin-1")),
    ("docs/wide.md", "# wide\n".encode("utf-16")),
    ("docs/binary.md", bytes(range(256))),
])
@pytest.mark.parametrize("argv", [["verify"], ["check", "--base", "main", "--drift-only"]])
def test_a_doc_that_is_not_utf8_is_a_clean_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str], name: str, data: bytes,
                                                  argv: list[str]) -> None:
    repo = _repo(tmp_path, monkeypatch, ADD_DOC)
    (repo.root / "docs").mkdir()
    (repo.root / name).write_bytes(data)
    repo.write("toy/core.py", CORE.replace("STEP = 0", "STEP = 1")).commit("a doc docbot cannot read")
    assert main(argv) == 2
    assert f"{name}: not UTF-8 text" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["verify"], ["check", "--base", "main", "--drift-only"]])
def test_a_doc_that_is_a_symlink_is_a_clean_exit_2_and_its_target_is_never_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    secret = tmp_path / "outside.md"
    secret.write_text(">>> 1 + 1\n3\n", encoding="utf-8")
    repo = _repo(tmp_path, monkeypatch, ADD_DOC)
    (repo.root / "docs").mkdir()
    os.symlink(secret, repo.root / "docs" / "link.md")
    repo.write("toy/core.py", CORE.replace("STEP = 0", "STEP = 1")).commit("a symlinked doc")
    assert main(argv) == 2
    assert "docs/link.md: the doc is a symlink out of the repository" in capsys.readouterr().err


def test_a_doc_that_links_inside_the_repository_is_read_as_its_target(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """tenacity's README.rst is a link to doc/source/index.rst: exit 2 on a published project, for a file the
    repository holds anyway."""
    repo = _repo(tmp_path, monkeypatch, "# toy\n")
    (repo.root / "doc").mkdir()
    (repo.root / "doc" / "index.md").write_text("```pycon\n>>> 1 + 1\n3\n```\n", encoding="utf-8")
    (repo.root / "README.md").unlink()
    os.symlink("doc/index.md", repo.root / "README.md")
    assert main(["verify", "README.md", "--json"]) == 1
    [doc] = json.loads(capsys.readouterr().out)["docs"]
    assert [f["check"] for f in doc["findings"] if f["kind"] == "contradiction"] == ["example_mismatch"]


def _index(init: str = INIT, core: str = CORE) -> tuple[PackageNames, Reach]:
    index = ApiIndex("toy")
    index.add_module("toy", init, is_package=True)
    index.add_module("toy.core", core)
    return PackageNames("toy", index), Reach({"toy": True, "toy.core": False}, {"toy": init, "toy.core": core}.get)


@pytest.mark.parametrize("doc, is_rst, uses", [
    ("```python\nfrom toy import add\n```\n", False, {"toy.core.add"}),
    ("```python\nfrom toy import (\n    add,\n    make as m,\n)\n```\n", False, {"toy.core.add", "toy.core.make"}),
    ("```python\nimport toy as t\nt.add(1)\n```\n", False, {"toy", "toy.core.add"}),
    (">>> from toy import *\n>>> add(1)\n", False, {"toy.core.add"}),
    (">>> import toy\n>>> c = toy.make()\n>>> c.ensure_object(list)\n", False,
     {"toy", "toy.core.make", "toy.core.Context.ensure_object"}),
    ("Call `toy.add()` to add.\n", False, {"toy.core.add"}),
    ("Call toy.add to add.\n", False, set()),  # not marked as code
    ("See :func:`~toy.add` and ``toy.make``.\n", True, {"toy.core.add", "toy.core.make"}),
    (".. code-block:: python\n\n   from toy import add\n\nAfter.\n", True, {"toy.core.add"}),
    ("```python\nfrom toy import removed\n```\n", False, {"toy.removed"}),  # kept as written: a deletion reaches it
    ("```python\nimport os\nos.path.join('a')\n```\n", False, set()),  # another package's names
])
def test_the_mention_scan_reads_code_and_code_marked_prose_without_a_parser(doc: str, is_rst: bool,
                                                                           uses: set[str]) -> None:
    names, _ = _index()
    assert names.uses(scan_doc(doc, is_rst)) == uses


@pytest.mark.parametrize("uses, changed, reached", [
    ({"toy.core.add"}, {"toy.core._plus"}, True),
    ({"toy.core.add"}, {"toy.core.STEP"}, True),  # through the helper
    ({"toy.core.add"}, {"toy.core.Context.ensure_object"}, False),
    ({"toy.core.make"}, {"toy.core.Context.ensure_object"}, True),  # make returns a Context: its methods
    ({"toy.core.Context"}, {"toy.core.Context.__init__"}, True),
    ({"toy.core.add"}, {"toy.core.<module>"}, True),  # the module's own top-level code runs on import
    ({"toy.core.add"}, {"toy.<data>"}, True),  # a data file of the package: reaches every use
    (set(), {"toy.<data>"}, False),
    ({"toy.core.add"}, set(), False),
])
def test_reach_follows_the_code_to_a_fixed_point(uses: set[str], changed: set[str], reached: bool) -> None:
    _, graph = _index()
    assert graph.reaches(uses, changed) is reached
    # the gate asks for every doc at once: one walk, the same answer
    assert (_index()[1].reaching({"doc": uses, "other": {"toy.core.make"} - uses}, changed) >= {"doc"}) is reached


TWINS = ("def _one():\n    return 1\n\n\ndef _two():\n    return 2\n\n\n"
         "class A:\n    def run(self):\n        return self.step()\n\n    def step(self):\n        return _one()\n\n\n"
         "class B:\n    def run(self):\n        return self.step()\n\n    def step(self):\n        return _two()\n")


@pytest.mark.parametrize("uses, changed, reached", [
    ({"toy.core.A.run"}, {"toy.core._one"}, True),
    ({"toy.core.A.run"}, {"toy.core._two"}, False),  # B's self.step is B's, though A's reads the same
    ({"toy.core.B.run"}, {"toy.core._two"}, True),
    ({"toy.core.B.run"}, {"toy.core._one"}, False),
])
def test_self_is_each_classs_own_though_the_walk_keeps_its_answers(uses: set[str], changed: set[str],
                                                                    reached: bool) -> None:
    _, graph = _index("from toy.core import A, B\n", TWINS)
    graph.reaches({"toy.core.A.run", "toy.core.B.run"}, {"toy.core._one"})  # both classes walked first
    assert graph.reaches(uses, changed) is reached


@pytest.mark.parametrize("old, new, changed", [
    ("STEP = 0\n", "STEP = 1\n", {"toy.core.STEP"}),
    ("def f():\n    return 1\n", "def f():\n    return 1  # note\n", set()),  # a comment changes no code
    ("def f():\n    return 1\n", "def f():\n    return 2\n", {"toy.core.f"}),
    ("class C:\n    X = 1\n    def m(self):\n        return 1\n",
     "class C:\n    X = 2\n    def m(self):\n        return 1\n", {"toy.core.C"}),
    ("class C:\n    def m(self):\n        return 1\n",
     "class C:\n    def m(self):\n        return 2\n", {"toy.core.C.m"}),
    ("from toy.a import f\n", "from toy.b import f\n", {"toy.core.f"}),
    ("print('hi')\n", "print('ho')\n", {"toy.core.<module>"}),
    (None, "def f():\n    return 1\n", {"toy.core.f"}),
    ("def f(:\n", "def f(:\n ", {"toy.core.<module>"}),  # unparsable: the whole module is one definition
    # the lines first, the trees where they differ (issue 32):
    ("def f(a, b):\n    return a\n", "def f(a,\n      b):\n    return a\n", set()),  # a line break only
    ("@cache\ndef f():\n    return 1\n", "@wraps(g)\ndef f():\n    return 1\n", {"toy.core.f"}),  # its decorator
    ("A = 1; B = 2\n", "A = 1; B = 3\n", {"toy.core.B"}),  # one line, two statements
    ("def f():\n    return 1\n", "X = 0\n\n\ndef f():\n    return 1\n", {"toy.core.X"}),  # moved down, same code
    ("class C(A):\n    pass\n", "class C(B):\n    pass\n", {"toy.core.C"}),  # its base
    ("from toy.a import f\n", "from toy.a import (\n    f,\n)\n", set()),  # the same import, laid out again
])
def test_a_change_is_named_at_the_definition_it_changed(old: str | None, new: str, changed: set[str]) -> None:
    assert changed_names(old, new, "toy.core", False) == changed


def test_the_mention_cache_is_keyed_by_the_docs_text(tmp_path: Path) -> None:
    cache = MentionCache(tmp_path / "mentions.json")
    first = cache.mentions("```python\nfrom toy import add\n```\n", False)
    cache.save()
    again = MentionCache(tmp_path / "mentions.json")
    assert again.entries and again.mentions("```python\nfrom toy import add\n```\n", False) == first
    assert again.mentions("```python\nfrom toy import make\n```\n", False) != first
    (tmp_path / "mentions.json").write_text("{not json", encoding="utf-8")
    assert MentionCache(tmp_path / "mentions.json").entries == {}  # unreadable: an empty cache, never an error


def test_a_huge_doc_is_read_up_to_the_bound_and_the_rest_is_counted_unverified(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 30 item 6: a 9.4 MB README cost 142 s and 626 MB. Past MAX_DOC_CHARS the doc is not read: a note
    says which lines were, and the claims after them count as unverified (the gate refuses on them)."""

    monkeypatch.setattr(docs_module, "MAX_DOC_CHARS", 2_000)
    filler = "Some prose about nothing in particular.\n" * 100  # 4,000 characters
    repo = _repo(tmp_path, monkeypatch, ADD_DOC + filler + "```pycon\n>>> add(2)\n5\n```\n")
    assert main(["verify", "--json"]) == 0  # the false `add(2)` is past the bound: not read, so not reported
    [doc] = json.loads(capsys.readouterr().out)["docs"]
    assert len(doc["unverified"]) == 1 and [f["check"] for f in doc["findings"]] == ["examples_not_run"]
    assert "docbot reads its first 1,977 (lines 1-55)" in doc["findings"][0]["message"]
    repo.write("toy/core.py", CORE.replace("STEP = 0", "STEP = 0 * 1")).commit("a change the README reaches")
    assert main(["check", "--base", "main", "--drift-only"]) == 1  # the gate cannot vouch for the rest
    assert "README.md: UNVERIFIED 1 claim" in capsys.readouterr().out


@pytest.mark.parametrize("text, limit, kept, cut", [
    ("a\nb\nc\n", 10, "a\nb\nc\n", 0),
    ("a\nb\nc\n", 4, "a\nb\n", 2),
    ("abcdef", 3, "abc", 3),  # no line end within the bound: cut at the bound
])
def test_bounded_doc_cuts_at_a_line_end(text: str, limit: int, kept: str, cut: int) -> None:
    from docbot.verify.project.docs import bounded_doc

    assert bounded_doc(text, limit) == (kept, cut)
