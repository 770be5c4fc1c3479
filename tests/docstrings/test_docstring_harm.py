"""Do no harm (docs/design.md#docstrings): a person's docstring is replaced only by an approved doc, its
directives survive a rewrite, every docstring is written in the project's one style, and the current
docstring is the writer's input. Tables of cases through the real ``docbot run --write-docstrings``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from docbot.docmodel import DocModel
from docbot.docstrings import record
from docbot.docstrings.existing import directives, existing_docstring, seed_model
from docbot.config.pyproject import parse_pyproject
from docbot.docstrings.style import declared_style, majority_style, project_style
from docbot.docstrings.text import DocstringStyle
from docbot.fronts.cli import main
from docbot.loop import prompts
from docbot.results import SectionStatus
from docbot.run import pipeline as run_module
from tests.docstrings.test_docstring_apply import PATH, REAL, _chosen, _real
from tests.support.git_repo import GitRepo
from tests.support.scripted import Scripted

HAND = {  # a person's docstring in each style, with a directive
    DocstringStyle.REST: '''    """Join two values.

    :param a: the first value
    :param b: the second value
    :returns: both, joined

    .. versionadded:: 20.1.0
    """''',
    DocstringStyle.NUMPY: '''    """Join two values.

    Parameters
    ----------
    a : str
        the first value
    b : str
        the second value

    .. deprecated:: 2.0
       Use ``concat``.
    """''',
    DocstringStyle.GOOGLE: '''    """Join two values.

    Args:
        a: the first value
        b: the second value

    .. seealso:: ``concat``
    """''',
}
STYLE_MARK = {DocstringStyle.REST: ":param a:", DocstringStyle.NUMPY: "Parameters\n    ----------",
              DocstringStyle.GOOGLE: "Args:\n"}


def _module(style: DocstringStyle) -> str:
    return (f"def join(a, b):\n{HAND[style]}\n    return a + b\n\n\n"
            "def bare(a, b):\n    return a - b\n")


def _run(repo: GitRepo, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
         unapproved: dict[str, int], *extra: str) -> dict[str, object]:
    monkeypatch.chdir(repo.root)
    monkeypatch.setattr(run_module, "_default_factory", lambda *args: Scripted(unapproved=unapproved).factory)
    main(["run", "--all", "--json", "--write-docstrings", *extra])
    return json.loads(capsys.readouterr().out)["docstrings"]  # type: ignore[no-any-return]


def _project(tmp_path: Path, style: DocstringStyle) -> GitRepo:
    return GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/m.py", _module(style)).commit("m")


@dataclass(frozen=True)
class Case:
    name: str
    unapproved: tuple[str, ...]  # functions whose doc the scripted loop leaves unapproved
    recorded: bool  # docbot's record names the docstring join has now (docbot wrote it)
    join_kept: bool  # join's docstring is byte-identical afterwards
    suggested: tuple[str, ...]  # functions whose docstring is only suggested


CASES = [
    Case("a person's docstring, unapproved doc", ("join", "bare"), False, True, ("join",)),
    Case("a person's docstring, approved doc", (), False, False, ()),
    Case("docbot's own docstring, unapproved doc", ("join", "bare"), True, False, ()),
]


@pytest.mark.parametrize("style", list(DocstringStyle), ids=lambda s: s.value)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_whose_docstring_decides_the_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str], case: Case,
                                           style: DocstringStyle) -> None:
    repo = _project(tmp_path, style)
    if case.recorded:
        doc = existing_docstring(_module(style).split("\n\n\n")[0])
        assert doc is not None
        repo.write("docs/api/.docstrings.json", record.render_record({"pkg.m.join": record.digest(doc)}) or "")
    report = _run(repo, monkeypatch, capsys, dict.fromkeys(case.unapproved, 60))
    new = repo.read("pkg/m.py")
    assert (HAND[style] in new) is case.join_kept
    assert [s["qualname"] for s in report["suggested"]] == list(case.suggested)  # type: ignore[index]
    bare = new.split("def bare(a, b):\n")[1]
    assert bare.startswith('    """Compute bare for the caller.') and STYLE_MARK[style] in bare  # no doc: written
    if not case.join_kept:
        kept = directives(existing_docstring(HAND[style].join(["def join(a, b):\n", "\n    return 1\n"])))
        now = existing_docstring(new.split("\n\n\ndef bare")[0])
        assert kept and now is not None and now.endswith(kept[0])  # the directive survives the rewrite
    written = json.loads(repo.read("docs/api/.docstrings.json"))
    # a person's docstring kept is recorded as a decision ("kept:"), never as docbot's own digest
    docbots = {k for k, v in written.items() if not v.startswith("kept:")}
    assert ("pkg.m.join" in docbots) is (not case.join_kept or case.recorded)
    assert "pkg.m.bare" in written


def test_a_docstring_docbot_wrote_and_a_person_edited_is_theirs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write(
        "pkg/m.py", "def bare(a, b):\n    return a - b\n").commit("m")
    _run(repo, monkeypatch, capsys, {"bare": 60})
    written = repo.read("pkg/m.py")
    assert '"""Compute bare for the caller.' in written  # no docstring before: the unapproved one goes in
    edited = written.replace("Compute bare for the caller.", "Subtract b from a (a person's words).")
    repo.write("pkg/m.py", edited.replace("return a - b", "return a - b - 0"))
    report = _run(repo, monkeypatch, capsys, {"bare": 60})
    assert repo.read("pkg/m.py") == edited.replace("return a - b", "return a - b - 0")  # byte for byte
    assert [s["qualname"] for s in report["suggested"]] == ["bare"]  # type: ignore[index]


@pytest.mark.parametrize(("module", "style"), REAL, ids=[m for m, _ in REAL])
def test_real_files_keep_every_hand_written_docstring_when_nothing_is_approved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], module: str,
        style: DocstringStyle) -> None:
    original = _real(module)
    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write_bytes(PATH, original).commit("real")
    names = _chosen(original.decode())
    monkeypatch.chdir(repo.root)
    monkeypatch.setattr(run_module, "_default_factory",
                        lambda *args: Scripted(unapproved=dict.fromkeys(names, 40), only=names).factory)
    main(["run", "--all", "--json", "--write-docstrings"])
    report = json.loads(capsys.readouterr().out)["docstrings"]
    from docbot.scan.targets import public_functions

    before = {t.qualname: t.source for t in public_functions(original.decode(), "pkg.real", PATH)}
    after = {t.qualname: t.source for t in public_functions(repo.read(PATH), "pkg.real", PATH)}
    had = [n for n in names if existing_docstring(before[n]) is not None]
    assert had and all(after[n] == before[n] for n in had)  # every hand-written docstring: byte-identical
    assert sorted(s["qualname"] for s in report["suggested"]) == sorted(had)
    assert all(existing_docstring(after[n]) for n in names)  # the bare ones got theirs


def test_the_style_is_the_projects_never_one_files(tmp_path: Path) -> None:
    rest = 'def g(a):\n    """G.\n\n    :param a: an a\n    :returns: a\n    """\n    return a\n'
    repo = GitRepo(tmp_path / "repo").write("pkg/a.py", rest).write("pkg/b.py", rest.replace("g(", "h("))
    repo.write("pkg/new.py", "def f(a):\n    return a\n")  # this file shows no style: the project's holds
    assert project_style(repo.root, "auto") is DocstringStyle.REST
    assert project_style(repo.root, "numpy") is DocstringStyle.NUMPY  # the setting wins
    repo.write("pyproject.toml", '[tool.ruff.lint.pydocstyle]\nconvention = "google"\n')
    assert project_style(repo.root, "auto") is DocstringStyle.GOOGLE  # the declared convention beats the count


@pytest.mark.parametrize(("pyproject", "style"), [
    ('[tool.ruff.lint.pydocstyle]\nconvention = "numpy"\n', DocstringStyle.NUMPY),
    ('[tool.ruff.pydocstyle]\nconvention = "google"\n', DocstringStyle.GOOGLE),
    ('[tool.pydoclint]\nstyle = "sphinx"\n', DocstringStyle.REST),
    ('[tool.ruff.lint.pydocstyle]\nconvention = "pep257"\n[tool.pydoclint]\nstyle = "numpy"\n', DocstringStyle.NUMPY),
    ('[tool.ruff.lint.pydocstyle]\nconvention = "pep257"\n', None),
    ("[tool.pydoclint\n", None),
    ("", None),
])
def test_declared_style(pyproject: str, style: DocstringStyle | None) -> None:
    assert declared_style(parse_pyproject(pyproject)) is style


def test_majority_counts_the_whole_project() -> None:
    google = 'def f(a):\n    """F.\n\n    Args:\n        a: x\n    """\n'
    numpy = 'def f(a):\n    """F.\n\n    Parameters\n    ----------\n    a : int\n        x\n    """\n'
    assert majority_style([google, numpy, numpy]) is DocstringStyle.NUMPY
    assert majority_style(["def f():\n    pass\n"]) is DocstringStyle.GOOGLE


SEEDS = [
    (HAND[DocstringStyle.REST], DocModel.model_validate(
        {"summary": "Join two values.", "parameters": [{"name": "a", "description": "the first value"},
                                                       {"name": "b", "description": "the second value"}],
         "returns": "both, joined"})),
    (HAND[DocstringStyle.NUMPY], DocModel.model_validate(
        {"summary": "Join two values.", "parameters": [{"name": "a", "description": "the first value"},
                                                       {"name": "b", "description": "the second value"}]})),
    ('    """Parse it.\n\n    Raises:\n        ValueError: when empty\n\n    Examples:\n        >>> f(1)\n'
     '        2\n    """', DocModel.model_validate(
         {"summary": "Parse it.", "raises": [{"type": "ValueError", "condition": "when empty"}],
          "examples": [{"code": "f(1)", "output": "2"}]})),
]


@pytest.mark.parametrize(("docstring", "expected"), SEEDS, ids=["rest", "numpy", "google"])
def test_the_current_docstring_seeds_the_doc_model(docstring: str, expected: DocModel) -> None:
    source = f"def f(a, b):\n{docstring}\n    return a\n"
    assert seed_model(existing_docstring(source)) == expected
    block = prompts.current_block("", source)
    assert "Keep every" in block and expected.summary in block
    seed, _, kept = block.partition("docbot keeps these directives")
    assert "versionadded" not in seed  # a directive is no part of the doc model the writer fills
    assert ("versionadded" in kept) is ("versionadded" in docstring)  # it is told the directive stays as it is


def test_no_docstring_no_seed() -> None:
    assert seed_model(existing_docstring("def f():\n    return 1\n")) is None
    assert prompts.current_block("", "def f():\n    return 1\n") == ""


def test_directives_are_cut_whole() -> None:
    doc = "Do.\n\n.. versionadded:: 1.0\n.. deprecated:: 2.0\n   Use g.\n\n   Really.\nAfter."
    assert directives(doc) == (".. versionadded:: 1.0", ".. deprecated:: 2.0\n   Use g.\n\n   Really.")
    assert seed_model(doc) == DocModel(summary="Do.", description="After.")


def test_an_approved_doc_keeps_the_directives_of_the_one_it_replaces(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    repo = _project(tmp_path, DocstringStyle.REST)
    _run(repo, monkeypatch, capsys, {})
    new = repo.read("pkg/m.py")
    assert '"""Compute join for the caller.' in new and "\n    .. versionadded:: 20.1.0\n" in new
    assert SectionStatus.APPROVED.value  # the scripted default: approved


@pytest.mark.parametrize(("text", "entries"), [
    (None, {}), ("", {}), ("not json", {}), ("[1, 2]", {}), ('{"a": 1, "b": "x"}', {"b": "x"}),
    (record.render_record({"b": "2", "a": "1"}), {"a": "1", "b": "2"}),
])
def test_the_record_reads_only_what_it_wrote(text: str | None, entries: dict[str, str]) -> None:
    assert record.parse_record(text) == entries


def test_the_digest_ignores_indentation_not_words() -> None:
    assert record.digest("Doc.\n\nMore.") == record.digest("Doc.\n\nMore.\n")
    assert record.digest("Doc.") != record.digest("Doc!")
    assert record.is_docbots({"m.f": record.digest("Doc.")}, "m.f", "Doc.")
    assert not record.is_docbots({"m.f": record.digest("Doc.")}, "m.g", "Doc.")
    assert not record.is_docbots({}, "m.f", None)


def test_every_front_calls_the_one_run_then_docstrings_step() -> None:
    root = Path(__file__).parents[2] / "docbot" / "fronts"
    for front in ("cli.py", "hook.py"):
        text = (root / front).read_text(encoding="utf-8")
        assert "run_with_docstrings(" in text and "apply_docstrings" not in text, front
