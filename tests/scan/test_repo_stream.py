"""A whole-tree scan keeps no file's text, and the nothing-to-do screen stops at the first file that
answers it (docs/design.md#speed). Real git repositories in tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.scan import repo as repo_module
from docbot.plan import CodeNow
from docbot.scan.repo import DiffSpec, WorktreeTexts, scan, touches_nothing_public
from docbot.scan.targets import changed_targets
from tests.support.git_repo import GitRepo


def test_a_whole_tree_scan_reads_texts_on_demand_and_keeps_none(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path).write("pkg/a.py", "def f():\n    pass\n").write("pkg/b.py", "x = (\n")
    repo.write("pkg/c.py", "X = 1\n").commit("files")
    found = scan(tmp_path, DiffSpec(all=True))
    assert isinstance(found.sources, WorktreeTexts)
    # b.py decodes but does not parse: its text is still the file's, so its module is not "gone".
    assert dict(found.sources) == {"pkg/a.py": "def f():\n    pass\n", "pkg/b.py": "x = (\n", "pkg/c.py": "X = 1\n"}
    repo.write("pkg/c.py", "def g():\n    pass\n")
    assert found.sources["pkg/c.py"] == "def g():\n    pass\n"  # read now, not held since the scan
    repo.delete("pkg/c.py")
    assert found.sources["pkg/c.py"] == ""  # gone since: "" as for a deleted file
    with pytest.raises(KeyError):
        found.sources["pkg/untracked.py"]


def test_a_file_that_does_not_decode_has_no_text_in_a_whole_tree_scan(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path).write("a.py", "def f():\n    pass\n")
    repo.write_bytes("bad.py", b"# -*- coding: nonexistent -*-\ndef g():\n    pass\n").commit("files")
    found = scan(tmp_path, DiffSpec(all=True))
    assert list(found.sources) == ["a.py"] and [e.path for e in found.errors] == ["bad.py"]


@pytest.mark.parametrize("texts, expected", [
    ({"pkg/m.py": "def a():\n    pass\n"}, ("pkg/m.py", "def a():\n    pass\n")),
    ({"pkg/m.py": "", "src/pkg/m.py": "def b():\n    pass\n"}, ("src/pkg/m.py", "def b():\n    pass\n")),
    ({"pkg/m.py": "def a():\n    pass\n", "src/pkg/m.py": ""}, ("pkg/m.py", "def a():\n    pass\n")),
    ({"pkg/m.py": "def a():\n    pass\n", "src/pkg/m.py": "def b():\n    pass\n"},
     ("src/pkg/m.py", "def b():\n    pass\n")),  # two live paths: the last, as the scan listed them
    ({"pkg/m.py": "", "src/pkg/m.py": ""}, ("pkg/m.py", "")),
])
def test_code_now_takes_the_live_path_of_a_module(texts: dict[str, str], expected: tuple[str, str]) -> None:
    code = CodeNow.from_scan(repo_module.Scan("b", "h", sources=texts), include_dunder=False, every=False)
    assert code._source("pkg.m") == expected
    assert code.functions("pkg.m", []) == ([] if not expected[1] else [expected[1][4]])


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []

    def counted(*args: object, **kwargs: object) -> object:
        seen.append(str(args[4]))
        return changed_targets(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(repo_module, "changed_targets", counted)
    return seen


def test_the_screen_stops_at_the_first_file_with_a_public_target(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    repo = GitRepo(tmp_path)
    for name in ("a", "b", "c"):
        repo.write(f"{name}.py", "def f():\n    return 1\n")
    repo.commit("first")
    for name in ("a", "b", "c"):
        repo.write(f"{name}.py", "def f():\n    return 2\n").stage(f"{name}.py")
    seen = _counting(monkeypatch)
    assert touches_nothing_public(tmp_path, DiffSpec(staged=True)) is False
    assert seen == ["a.py"]
    assert len(scan(tmp_path, DiffSpec(staged=True)).targets) == 3  # the scan itself reads every file


def test_the_screen_goes_past_a_private_module_and_past_nothing_public(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # _tool.py's target is not API (a private top-level module), m.py's edit touches no def: neither
    # answers the question, so zed.py is read and decides it.
    repo = GitRepo(tmp_path).write("_tool.py", "def f():\n    return 1\n")
    repo.write("m.py", "def g():\n    pass\n\nX = 1\n")
    repo.write("zed.py", "def h():\n    return 1\n").commit("first")
    repo.write("_tool.py", "def f():\n    return 2\n").write("m.py", "def g():\n    pass\n\nX = 2\n")
    repo.write("zed.py", "def h():\n    return 2\n").stage("_tool.py", "m.py", "zed.py")
    seen = _counting(monkeypatch)
    assert touches_nothing_public(tmp_path, DiffSpec(staged=True)) is False
    assert seen == ["_tool.py", "m.py", "zed.py"]
    repo.write("zed.py", "def h():\n    return 1\n").stage("zed.py")
    assert touches_nothing_public(tmp_path, DiffSpec(staged=True)) is True


def test_the_largest_files_are_parsed_first_and_the_results_keep_path_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def defs(prefix: str, count: int) -> str:
        return "".join(f"def {prefix}{i}():\n    pass\n\n\n" for i in range(count))

    repo = GitRepo(tmp_path).write("a.py", defs("a", 1)).write("b.py", "x = (\n" + defs("b", 9))
    repo.write("c.py", defs("c", 5)).write("d.py", defs("d", 3)).write("e.py", "y = (\n").commit("files")
    parsed: list[str] = []
    located = repo_module._located

    def recorded(text: str, path: str, *args: object) -> object:
        parsed.append(path)
        return located(text, path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(repo_module, "_located", recorded)
    found = scan(tmp_path, DiffSpec(all=True))
    assert parsed == ["b.py", "c.py", "d.py", "a.py", "e.py"]
    assert [t.qualname for t in found.targets] == ["a0", "c0", "c1", "c2", "c3", "c4", "d0", "d1", "d2"]
    assert [e.path for e in found.errors] == ["b.py", "e.py"]
    assert list(found.sources) == ["a.py", "b.py", "c.py", "d.py", "e.py"]
