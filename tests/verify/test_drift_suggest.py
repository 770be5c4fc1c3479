"""``docbot verify --suggest``: which stale outputs get a fix, where the fix goes, and that the printed patch
applies with real ``git apply`` (docs/design.md#drift-gate)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from docbot.fronts.cli import main
from docbot.verify.findings import Check, DocFinding, Finding, Severity, lower
from docbot.verify.project.suggest import fixes_for, patch, suggestable
from tests.support.git_repo import GitRepo


def _found(want: str, got: str, line: int = 1, kind: Severity = Severity.CONTRADICTION,
           check: Check = Check.EXAMPLE_MISMATCH) -> DocFinding:
    found = Finding(check, "example gives something else", want, got, line=line - 1)
    return DocFinding(found if kind is Severity.CONTRADICTION else lower(found, kind, "a test's"), line)


@pytest.mark.parametrize("found, expected", [
    (_found("3", "4"), True),
    (_found("3", "123456789012"), True),  # digits alone are a number, not an id
    (_found("3", "4", kind=Severity.NOTE), False),
    (_found("3", "4", kind=Severity.TIME_DEPENDENT), False),
    (_found("3", "4", check=Check.EXAMPLE_WRONG_EXCEPTION), False),
    (_found("3", ""), False),  # prints nothing: no output to state
    (_found("", "4"), False),
    (_found("[1,\n 2]", "[1,\n\n 2]"), False),  # a blank line a doctest cannot show as printed
    (_found("'x'", "'2026-12-01'"), False),
    (_found("'2020-01-01'", "'x'"), False),  # the stated one looks like a date too
    (_found("t", "12:30:05"), False),
    (_found("<A>", "<A object at 0x7f3a2b1c9d00>"), False),
    (_found("'a'", "'1b4e28ba-2fa1-11d2-883f-0016d3cca427'"), False),
    (_found("'a'", "'9f86d081884c7d65'"), False),  # a hex digest
])
def test_only_a_deterministic_stale_output_is_suggested(found: DocFinding, expected: bool) -> None:
    assert suggestable(found) is expected


def _applied(tmp_path: Path, text: bytes, fixes_of: list[DocFinding]) -> bytes | None:
    """The doc after `git apply` of the patch; None when there is no patch."""
    repo = GitRepo(tmp_path / "doc").write_bytes("doc.md", text).commit("doc")
    decoded = text.decode("utf-8")
    printed = patch("doc.md", decoded, fixes_for("doc.md", fixes_of, decoded))
    if not printed:
        return None
    (tmp_path / "p.diff").write_bytes(printed.encode("utf-8"))
    repo.git("apply", "--check", str(tmp_path / "p.diff"))
    repo.git("apply", str(tmp_path / "p.diff"))
    return (repo.root / "doc.md").read_bytes()


@pytest.mark.parametrize("text, found, expected", [
    pytest.param(b"# t\n\n```pycon\n>>> add(1)\n3\n```\n", [_found("3", "4", 3)],
                 b"# t\n\n```pycon\n>>> add(1)\n4\n```\n", id="doctest output"),
    pytest.param(b"Example::\n\n    >>> add(1)\n    3\n\nDone.\n", [_found("3", "4", 3)],
                 b"Example::\n\n    >>> add(1)\n    4\n\nDone.\n", id="indented rst doctest keeps its indent"),
    pytest.param(b"```python\nprint(add(1))  # -> 3\n```\n", [_found("3", "4", 1)],
                 b"```python\nprint(add(1))  # -> 4\n```\n", id="a comment claim on the code line"),
    pytest.param(b"```python\nadd(3)  # 3\n```\n", [_found("3", "4", 1)],
                 b"```python\nadd(3)  # 4\n```\n", id="the claim after the comment, not the argument"),
    pytest.param(b"```pycon\r\n>>> add(1)\r\n3\r\n```\r\n", [_found("3", "4", 1)],
                 b"```pycon\r\n>>> add(1)\r\n4\r\n```\r\n", id="CRLF line ends kept"),
    pytest.param(b">>> add(1)\n3", [_found("3", "4", 1)], b">>> add(1)\n4", id="no newline at the end"),
    pytest.param(b">>> pair()\n[1,\n 2]\n", [_found("[1,\n 2]", "[1,\n 3]", 1)], b">>> pair()\n[1,\n 3]\n",
                 id="a multi-line output"),
    pytest.param(b">>> a()\n3\n>>> b()\n5\n", [_found("3", "4", 1), _found("5", "6", 3)],
                 b">>> a()\n4\n>>> b()\n6\n", id="two fixes in one doc"),
    pytest.param(b"3\n>>> add(1)\n3\n", [_found("3", "4", 2)], b"3\n>>> add(1)\n4\n",
                 id="the stated output after the example, not one before it"),
    pytest.param(b">>> add(1)\n4\n", [_found("3", "4", 1)], None, id="the stated text is not in the doc"),
    pytest.param(b"```python\nadd(3)\n```\n", [_found("3", "4", 1)], None,
                 id="the stated text only in the code, not in a comment"),
    pytest.param(b">>> a()\n3\n", [_found("3", "4", 1), _found("3", "5", 1)], b">>> a()\n4\n",
                 id="one fix per line: the first finding's"),
    pytest.param(b">>> add(1)\n3\n", [_found("3", "4", 1, kind=Severity.NOTE)], None, id="a note: no fix"),
])
def test_the_patch_replaces_the_stated_output_and_applies(tmp_path: Path, text: bytes, found: list[DocFinding],
                                                         expected: bytes | None) -> None:
    assert _applied(tmp_path, text, found) == expected


PYPROJECT = '[project]\nname = "toy"\nversion = "1"\n'
CORE = "import random\n\n\ndef add(a, b=2):\n    return a + b + 1\n\n\ndef roll():\n    return random.random()\n"
README = ("# toy\n\n```pycon\n>>> from toy import add\n>>> add(1)\n3\n>>> add(1, 1)\n3\n```\n\n"
          "```pycon\n>>> from toy import roll\n>>> roll()\n0.5\n```\n")


def test_verify_suggest_prints_a_patch_that_git_applies_and_writes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    repo = GitRepo(tmp_path / "p").write("pyproject.toml", PYPROJECT)
    repo.write("toy/__init__.py", "from toy.core import add, roll\n")
    repo.write("toy/core.py", CORE).write("README.md", README)
    repo.write("config.json", json.dumps({"example_sandbox": "allow-guard"})).commit("base")
    monkeypatch.chdir(repo.root)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    code = main(["verify", "--suggest"])
    printed = capsys.readouterr()
    assert code == 1  # the contradictions still fail: a suggestion is not a fix
    assert repo.read("README.md") == README
    assert "README.md:3: CONTRADICTION" in printed.err and printed.out.startswith("--- a/README.md\n")
    # roll() differs on each run: its stated output is not replaced
    assert [line for line in printed.out.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")] == [
        "-3", "+4"]
    (tmp_path / "fix.diff").write_text(printed.out, encoding="utf-8")
    repo.git("apply", str(tmp_path / "fix.diff"))
    assert repo.read("README.md") == README.replace(">>> add(1)\n3", ">>> add(1)\n4")
    assert main(["verify", "README.md"]) == 0


def test_suggest_is_for_project_mode_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "m.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    (tmp_path / "m.md").write_text("# m\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["verify", "--suggest", "m.py", "m.md"]) == 2
    assert "--suggest works in project mode" in capsys.readouterr().err


def _suggest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
             readme: str) -> tuple[GitRepo, str, str]:
    repo = GitRepo(tmp_path / "p").write("pyproject.toml", PYPROJECT)
    repo.write("toy/__init__.py", "from toy.core import add, roll\n")
    repo.write("toy/core.py", CORE).write("README.md", readme)
    repo.write("config.json", json.dumps({"example_sandbox": "allow-guard"})).commit("base")
    monkeypatch.chdir(repo.root)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    assert main(["verify", "--suggest"]) == 1
    printed = capsys.readouterr()
    return repo, printed.out, printed.err


def test_a_code_line_that_reads_like_the_stated_output_is_not_rewritten(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 30 item 6: the stated text was looked for from the block's first line, so the code line `3` above
    the call was taken for the output and rewritten."""
    readme = "# toy\n\n```python\nfrom toy import add\n3\nprint(add(1))\n```\n\n```text\n3\n```\n"
    repo, out, _ = _suggest(tmp_path, monkeypatch, capsys, readme)
    (tmp_path / "fix.diff").write_text(out, encoding="utf-8")
    repo.git("apply", str(tmp_path / "fix.diff"))
    assert repo.read("README.md") == readme.replace("```text\n3\n", "```text\n4\n")


@pytest.mark.parametrize("separator", ["\u2028", "\x0c", "\u2029", "\x1c"])
def test_lines_are_counted_as_git_counts_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str], separator: str) -> None:
    """A U+2028 or form feed above an example moved suggestions and annotations (str.splitlines splits there,
    git does not): the report names the stated line as git numbers it, and the patch applies."""
    readme = f"# toy{separator}still the title line\n\n```pycon\n>>> from toy import add\n>>> add(1)\n3\n```\n"
    repo, out, err = _suggest(tmp_path, monkeypatch, capsys, readme)
    assert "README.md:3: CONTRADICTION" in err, err  # the block's line, as git and markdown-it count
    assert "\n@@ -3,5 +3,5 @@\n" in out, out  # the hunk around git's line 6, the stated output
    [fix] = fixes_for("README.md", [_found("3\n", "4", 3)], readme)
    assert (fix.start, fix.end) == (6, 6)
    (tmp_path / "fix.diff").write_text(out, encoding="utf-8")
    repo.git("apply", str(tmp_path / "fix.diff"))
    assert repo.read("README.md") == readme.replace(">>> add(1)\n3", ">>> add(1)\n4")
