"""Writes that cannot break a file (docs/design.md#docstrings): a table of sources and model answers through
the real ``docbot run --write-docstrings`` (scripted documenter), each checked to compile, with the same
syntax tree outside the docstrings; and each attack first shown to break the file where the defence is
absent."""

from __future__ import annotations

import ast
import json
import os
import signal
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from docbot import paths
from docbot.docmodel import DocModel, ParameterDoc
from docbot.docstrings.safe import decode_source, same_code
from docbot.docstrings.writer import set_docstring
from docbot.fronts.cli import main
from docbot.results import FunctionResult, SectionStatus, Target
from docbot.run import pipeline as run_module
from tests.support.git_repo import GitRepo
from tests.support.scripted import Scripted


class Answering(Scripted):
    """A scripted documenter whose doc model is ``model`` (validated as a model's JSON answer is)."""

    def __init__(self, model: dict[str, object], approval: SectionStatus = SectionStatus.APPROVED) -> None:
        super().__init__()
        self.model, self.approval = DocModel.model_validate(model), approval

    def document(self, target: Target, current: str = "") -> FunctionResult:
        result = super().document(target, current)
        from dataclasses import replace

        from docbot.apidocs.render import render_section
        from docbot.facts.function import extract_facts

        facts = extract_facts(target.source, target.qualname)
        return replace(result, doc_model=self.model, markdown=render_section(self.model, facts, target.module),
                       approval=self.approval,
                       exit_reason="approved" if self.approval is SectionStatus.APPROVED else "attempts")


def _code(data: bytes) -> str:
    """The syntax tree of ``data`` without any docstring (independent of docbot's own check)."""
    tree = ast.parse(data)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(
                    first.value.value, str):
                node.body = node.body[1:]
    return ast.dump(tree)


@dataclass(frozen=True)
class Case:
    name: str
    source: bytes
    model: dict[str, object]
    written: bool  # the docstring goes in (else it is refused with a notice)
    holds: bytes = b""  # bytes the new file must contain
    notice: str = ""  # words of the refusal


SIMPLE = b"def f(x):\n    return x\n"
CASES = [
    Case("nul in a model field", SIMPLE, {"summary": "Bad\x00 byte\x1b[31m here.", "description": "A\x07b."},
         True, holds=b'"""Bad byte[31m here.'),
    Case("coding ascii, ascii text", b"# coding: ascii\n" + SIMPLE, {"summary": "Plain text."}, True,
         holds=b'"""Plain text.'),
    Case("coding ascii, text it cannot hold", b"# coding: ascii\n" + SIMPLE, {"summary": "D\u00e9j\u00e0 vu."},
         False, notice="the file's encoding (ascii) cannot hold"),
    Case("latin-1", b"# -*- coding: latin-1 -*-\n# caf\xe9\n" + SIMPLE, {"summary": "D\u00e9j\u00e0 vu."}, True,
         holds=b'"""D\xe9j\xe0 vu.'),
    Case("latin-1, text it cannot hold", b"# -*- coding: latin-1 -*-\n" + SIMPLE, {"summary": "\u20ac rate."},
         False, notice="encoding (iso-8859-1) cannot hold"),
    Case("CR-only", b"def f(x):\r    return x\r", {"summary": "Doc."}, True, holds=b'    """Doc."""\r    return x\r'),
    Case("form feed before a method", b"class A:\n\x0c    def m(self):\n        return 1\n", {"summary": "Doc."},
         True, holds=b'\x0c    def m(self):\n        """Doc."""\n'),
    Case("BOM", b"\xef\xbb\xbf" + SIMPLE, {"summary": "D\u00e9j\u00e0 vu."}, True,
         holds=b'\xef\xbb\xbfdef f(x):\n    """D\xc3\xa9j\xc3\xa0 vu.'),
    Case("CRLF", SIMPLE.replace(b"\n", b"\r\n"), {"summary": "Doc.", "description": "Two\nlines."}, True,
         holds=b'    """Doc.\r\n\r\n    Two\r\n    lines.\r\n    """\r\n'),
    Case("a flood of text", SIMPLE, {"summary": "Doc.", "description": "word " * 3000}, False,
         notice="over max_docstring_chars (8000)"),
    Case("a parameter named by a flood", SIMPLE,
         {"summary": "Doc.", "parameters": [ParameterDoc(name="x", description="y" * 9000).model_dump()]}, False,
         notice="over max_docstring_chars"),
]


def _run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
         source: bytes, model: dict[str, object], path: str = "pkg/m.py") -> tuple[GitRepo, dict[str, object]]:
    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write_bytes(path, source).commit("m")
    monkeypatch.chdir(repo.root)
    monkeypatch.setattr(run_module, "_default_factory", lambda *args: Answering(model).factory)
    code = main(["run", "--all", "--json", "--write-docstrings"])
    out = json.loads(capsys.readouterr().out)
    assert code == out["exit_code"] == 0
    return repo, out["docstrings"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_every_write_compiles_to_the_same_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str], case: Case) -> None:
    repo, report = _run(tmp_path, monkeypatch, capsys, case.source, case.model)
    new = (repo.root / "pkg/m.py").read_bytes()
    assert _code(new) == _code(case.source)  # compiles (ast.parse honours the cookie), same code
    compile(new, "m.py", "exec", dont_inherit=True)
    if case.written:
        assert report["written"] == ["pkg/m.py"] and report["kept"] == [], report
        assert case.holds in new, new
        decoded = decode_source(new)
        assert not isinstance(decoded, str) and not [c for c in decoded.text if ord(c) < 32 and c not in "\t\n\r\f"]
    else:
        assert report["written"] == [] and new == case.source
        assert len(report["kept"]) == 1 and case.notice in report["kept"][0], report  # type: ignore[arg-type]
    assert not list((repo.root / "pkg").glob("*.tmp")), "no temporary file is left beside the source"


def test_without_the_defences_these_writes_break_the_file() -> None:
    """The attacks work on a naive writer (UTF-8 always, the model's raw text): each one breaks compile
    or changes the file's other bytes."""
    raw = DocModel.model_construct(summary="Bad\x00 byte.")  # what the model sent, unvalidated
    with pytest.raises((SyntaxError, ValueError)):
        compile(set_docstring(SIMPLE.decode(), "f", raw.summary).encode(), "m.py", "exec")
    ascii_file = b"# coding: ascii\n" + SIMPLE
    with pytest.raises(SyntaxError):
        compile(set_docstring(ascii_file.decode(), "f", "D\u00e9j\u00e0 vu.").encode("utf-8"), "m.py", "exec")
    latin = b"# -*- coding: latin-1 -*-\n# caf\xe9\n" + SIMPLE
    naive = set_docstring(latin.decode("utf-8", "replace"), "f", "Doc.").encode("utf-8")
    assert b"caf\xe9" not in naive  # the person's byte became U+FFFD: mojibake outside the docstring
    assert not same_code(SIMPLE, b"def f(x):\n    return y\n")  # the last defence sees a code change


def test_the_validator_strips_controls_from_every_field() -> None:
    model = DocModel.model_validate({"summary": "a\x00b", "parameters": [{"name": "x\x0b", "description": "\x1b"}],
                                     "raises": [{"type": "ValueError\x7f", "message": "m\u2028n"}],
                                     "examples": [{"code": "f(1)\r\n", "output": "1\x85"}]})
    assert (model.summary, model.parameters[0].name, model.parameters[0].description) == ("ab", "x", "")
    assert (model.raises[0].type, model.raises[0].message) == ("ValueError", "mn")
    assert (model.examples[0].code, model.examples[0].output) == ("f(1)\n", "1")


def test_an_undecodable_or_lying_file_is_left_alone() -> None:
    assert isinstance(decode_source(b"# coding: ascii\nx = '\xc3\xa9'\n"), str)
    assert isinstance(decode_source(b"# coding: no-such-codec\nx = 1\n"), str)
    assert isinstance(decode_source(b"x = '\xff'\n"), str)  # not UTF-8, and no cookie says otherwise


_KILLED_WRITE = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from docbot import paths
    if sys.argv[2] == "beside":
        paths.temp_folder = lambda folder: folder  # the defence absent: the temp file beside its target
    os.replace = lambda *a: os.kill(os.getpid(), signal.SIGKILL)  # killed between the write and the rename
    paths.write_atomic(Path(sys.argv[1]), "def f():\\n    return 2\\n")
""")


@pytest.mark.parametrize(("where", "left_in_tree"), [("beside", True), ("docbot", False)])
def test_a_sigkill_mid_write_leaves_nothing_git_add_would_take(tmp_path: Path, where: str,
                                                              left_in_tree: bool) -> None:
    repo = GitRepo(tmp_path / "repo").write("pkg/m.py", "def f():\n    return 1\n").commit("m")
    top = str(Path(__file__).parents[2])
    done = subprocess.run([sys.executable, "-c", _KILLED_WRITE, str(repo.root / "pkg/m.py"), where],
                          cwd=top, env={**os.environ, "PYTHONPATH": top}, check=False)
    assert done.returncode == -signal.SIGKILL
    assert repo.read("pkg/m.py") == "def f():\n    return 1\n"  # the old file, whole
    repo.git("add", "-A")
    staged = repo.git("diff", "--cached", "--name-only").split()
    assert bool(staged) is left_in_tree, staged
    if not left_in_tree:
        assert list((repo.root / ".git" / paths.TEMP_IN_GIT_DIR).glob(".m.py.*.tmp"))  # where it went instead


def test_a_worktree_puts_its_temp_files_in_its_own_git_dir(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo").write("pkg/m.py", "x = 1\n").commit("m")
    repo.git("worktree", "add", "-q", str(tmp_path / "wt"))
    folder = tmp_path / "wt" / "pkg"
    assert (tmp_path / "wt" / ".git").is_file()  # "gitdir: .../.git/worktrees/wt"
    temp = paths.temp_folder(folder)
    assert temp.name == paths.TEMP_IN_GIT_DIR and temp.parent.parent.name == "worktrees"
    assert paths.temp_folder(tmp_path) == tmp_path  # outside any repository: beside the file, as before
    assert paths.write_atomic(folder / "m.py", b"x = 2\n") and (folder / "m.py").read_bytes() == b"x = 2\n"
    assert not list(temp.iterdir())


TROJAN = "\u202e\u2066\u2067\u2068\u2069\u200b\ufeff\u200d\u2060"


@pytest.mark.parametrize("bypass", [False, True], ids=["validated", "constructed unvalidated"])
def test_bidi_and_zero_width_characters_from_a_model_reach_no_source_and_no_page(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], bypass: bool) -> None:
    """Issue 30 item 7: U+202E, U+2066-2069, U+200B and U+FEFF from a model were written into docstrings and
    docs/api, the "Trojan Source" characters. Every field carries them; neither file keeps one. ``bypass``: the
    doc model built without its validator, so the renderers' own cleaning is what is tested."""
    fields = {"summary": f"Add{TROJAN} one.", "description": f"Then{TROJAN} more.",
              "parameters": [{"name": "x", "description": f"the{TROJAN} value"}],
              "returns": f"x{TROJAN} itself", "notes": f"n{TROJAN}b",
              "examples": [{"code": f"f(1){TROJAN}", "output": f"1{TROJAN}"}]}
    if bypass:
        monkeypatch.setattr(DocModel, "model_validate", classmethod(lambda cls, data: cls.model_construct(
            **{**data, "parameters": [ParameterDoc.model_construct(**p) for p in data["parameters"]],
               "examples": [__import__("docbot.docmodel").docmodel.Example.model_construct(**e)
                            for e in data["examples"]]})))
    repo, report = _run(tmp_path, monkeypatch, capsys, SIMPLE, fields)
    source = (repo.root / "pkg/m.py").read_text(encoding="utf-8")
    page = (repo.root / "docs/api/pkg.m.md").read_text(encoding="utf-8")
    assert report["written"] == ["pkg/m.py"] and "Add one." in source and "Add one." in page
    assert [c for c in TROJAN if c in source or c in page] == []
