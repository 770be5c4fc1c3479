"""Every hint docbot prints is a command that, run as printed, fixes what was reported.

The hint is taken from the output, split as a shell would, and run; then the failing command runs again
and passes. Where an older hint was a dead end, the test first shows that it was."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from docbot.check import StaleEntry, run_command
from docbot.scan.repo import DiffSpec
from tests.fronts.test_cli_docs import AREA, PERIMETER, SCALE, make_repo
from tests.support.fakes import critique
from tests.support.git_repo import GitRepo
from tests.support.recording import record_answers

DOCBOT = [sys.executable, "-m", "docbot.fronts.cli"]


def docbot(repo: GitRepo, argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*DOCBOT, *argv], cwd=repo.root, capture_output=True, text=True, timeout=300)


def hinted(stderr: str) -> list[str]:
    """The command inside the hint's backticks, as the shell would split it, without the program name."""
    match = re.search(r"run `(docbot [^`]+)`", stderr)
    assert match, stderr
    return shlex.split(match.group(1))[1:]


def test_the_check_hint_documents_what_check_reported(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    recording = tmp_path / "answers.jsonl"
    record_answers(repo.root, DiffSpec(all=True), recording, [AREA, PERIMETER, SCALE], [critique(97, 97)] * 3,
                   [AREA, PERIMETER, SCALE])
    reported = docbot(repo, ["check"])
    assert reported.returncode == 1 and "3 functions need docs" in reported.stderr

    # The old hint, a bare `docbot run`, looks at the staged changes: nothing is staged, nothing is written.
    bare = docbot(repo, ["run", "--replay", str(recording)])
    assert bare.returncode == 0 and not (repo.root / "docs").exists()
    assert docbot(repo, ["check"]).returncode == 1

    command = hinted(reported.stderr)
    assert command == ["run", "geo/shapes.py"]
    fixed = docbot(repo, [*command, "--replay", str(recording)])
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    again = docbot(repo, ["check"])
    assert again.returncode == 0, again.stdout + again.stderr


def entry(path: str, status: str = "stale") -> StaleEntry:
    return StaleEntry("m", "f", path, 3 if path else 0, status, "docs/api/m.md")  # type: ignore[arg-type]


@pytest.mark.parametrize("stale, command", [
    ([entry("pkg/a.py"), entry("pkg/a.py")], "docbot run pkg/a.py"),  # one file named once
    ([entry("pkg/b.py"), entry("pkg/a.py")], "docbot run pkg/a.py pkg/b.py"),
    ([entry("my pkg/a.py")], "docbot run 'my pkg/a.py'"),  # quoted as a shell reads it
    ([entry("pkg/a.py"), entry("pkg/gone.py", "orphaned")], "docbot run --all"),  # the file may be gone
    ([entry("")], "docbot run --all"),
])
def test_the_run_command_names_the_reported_files(stale: list[StaleEntry], command: str) -> None:
    assert run_command(stale) == command


def test_demo_outside_the_checkout_names_a_command_that_exists(monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from docbot.fronts import cli, single
    from docbot.fronts.single import reflexion_parser

    monkeypatch.setattr(single, "demo_input", lambda: tmp_path / "gone.py")  # a wheel install: no sample
    assert cli.main(["demo"]) == 2
    said = capsys.readouterr().err
    assert "Pass --input" not in said  # demo has no --input
    match = re.search(r"`(reflexion [^`]+)`", said)
    assert match, said
    source = tmp_path / "mine.py"
    argv = [a.replace("FILE.py", str(source)) for a in shlex.split(match.group(1))[1:]]
    parsed = reflexion_parser().parse_args(argv)  # every option of the hint exists (the old one did not)
    assert (parsed.input, parsed.backend) == (str(source), "embedded")


def test_the_check_hint_for_a_gone_function_drops_its_section(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    recording = tmp_path / "answers.jsonl"
    record_answers(repo.root, DiffSpec(all=True), recording, [AREA, PERIMETER, SCALE], [critique(97, 97)] * 3,
                   [AREA, PERIMETER, SCALE])
    assert docbot(repo, ["run", "--all", "--replay", str(recording)]).returncode == 0
    source = repo.read("geo/shapes.py")
    repo.write("geo/shapes.py", source[:source.index("\n\ndef perimeter")] + "\n").commit("perimeter goes")
    reported = docbot(repo, ["check"])
    assert reported.returncode == 1 and "no longer exists" in reported.stdout, reported.stdout
    command = hinted(reported.stderr)
    assert command == ["run", "--all"]
    fixed = docbot(repo, [*command, "--replay", str(recording)])
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    again = docbot(repo, ["check"])
    assert again.returncode == 0, again.stdout + again.stderr


@pytest.mark.parametrize(("spec", "paths", "command"), [
    (DiffSpec(base="v1.0"), (), "docbot run --base v1.0"),  # not every function of the changed files
    (DiffSpec(base="v1.0", head="topic"), (), "docbot run --base v1.0 --head topic"),
    (DiffSpec(base="v1.0"), ("pkg",), "docbot run --base v1.0 pkg"),
    (DiffSpec(staged=True), (), "docbot run --staged"),
    (DiffSpec(all=True), (), "docbot run pkg/a.py"),  # a whole check: the files, as above
])
def test_a_check_of_a_diff_hints_a_run_of_the_same_diff(spec: DiffSpec, paths: tuple[str, ...], command: str) -> None:
    assert run_command([entry("pkg/a.py")], spec, paths) == command


def test_the_check_base_hint_documents_only_what_the_diff_changed(tmp_path: Path) -> None:
    """`check --base REV` with one changed function of three: its hint, run as printed, documents that one
    (the old hint, `docbot run FILE`, sent every function of the file to the models), and the check passes."""
    repo = make_repo(tmp_path)
    first = tmp_path / "first.jsonl"
    record_answers(repo.root, DiffSpec(all=True), first, [AREA, PERIMETER, SCALE], [critique(97, 97)] * 3,
                   [AREA, PERIMETER, SCALE])
    assert docbot(repo, ["run", "--all", "--replay", str(first)]).returncode == 0
    base = repo.commit("docs").sha()
    repo.write("geo/shapes.py", repo.read("geo/shapes.py").replace("width * height", "height * width")).commit("area")
    reported = docbot(repo, ["check", "--base", base])
    assert reported.returncode == 1 and "1 function needs docs" in reported.stderr, reported.stderr
    command = hinted(reported.stderr)
    assert command == ["run", "--base", base]
    recording = tmp_path / "answers.jsonl"  # answers for the one function the diff changed, and no other
    results = record_answers(repo.root, DiffSpec(base=base), recording, [AREA], [critique(97, 97)], [AREA])
    assert [r.qualname for r in results] == ["area"]
    fixed = docbot(repo, [*command, "--replay", str(recording)])
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr  # a replay miss would fail: nothing else was sent
    repo.commit("docs again")
    again = docbot(repo, ["check", "--base", base])
    assert again.returncode == 0, again.stdout + again.stderr


@pytest.mark.parametrize(("spec", "command"), [
    (DiffSpec(base="main"), "docbot run --base main"),  # was `--base main --head None`: no such revision
    (DiffSpec(base="main", head="topic"), "docbot run --base main --head topic"),
    (DiffSpec(staged=True), "docbot run --staged"),
    (DiffSpec(), "docbot run --staged"),
    (DiffSpec(all=True), "docbot run --all"),
])
def test_the_hook_check_hint_gives_its_own_diff_back(spec: DiffSpec, command: str) -> None:
    from docbot.fronts.hook import _run_command

    assert _run_command(spec) == command


@pytest.mark.parametrize(("spec", "paths", "words"), [
    (DiffSpec(staged=True), (), "in the staged changes"),
    (DiffSpec(base="v1"), (), "changed in v1...HEAD"),
    (DiffSpec(base="v1", head="topic"), ("pkg",), "changed in v1...topic under pkg"),
    (DiffSpec(all=True), (), "in the whole tree"),
    (DiffSpec(all=True), ("pkg", "lib"), "under pkg, lib"),
    (DiffSpec(), (), "changed in the working tree"),
])
def test_scope_words(spec: DiffSpec, paths: tuple[str, ...], words: str) -> None:
    from docbot.fronts.cli import scope_words

    assert scope_words(spec, paths) == words


def test_targets_with_nothing_staged_says_its_scope_and_the_way_to_every_function(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    nothing = docbot(repo, ["targets"])
    assert nothing.returncode == 0
    assert "0 functions in the staged changes" in nothing.stderr, nothing.stderr
    command = hinted(nothing.stderr)
    assert command == ["targets", "--all"]
    listed = docbot(repo, command)
    assert listed.returncode == 0 and "geo.shapes.area" in listed.stdout and "3 functions in the whole tree" \
        in listed.stderr, listed.stdout + listed.stderr


def test_the_no_server_message_says_docbot_once(tmp_path: Path) -> None:
    from tests.support.smol import free_port

    repo = make_repo(tmp_path)
    done = docbot(repo, ["run", "--all", "--backend", "ollama", "--base-url", f"http://127.0.0.1:{free_port()}"])
    assert done.returncode == 3, done.stderr
    assert done.stderr.startswith("docbot: cannot start; nothing was sent to a model:"), done.stderr
    assert "docbot: docbot" not in done.stderr
