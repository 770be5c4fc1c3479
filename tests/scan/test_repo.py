"""repo.scan on real git repositories built in tmp_path (no mocks of git)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.errors import ConfigError, RepoError
from docbot.scan.repo import DiffSpec, Scan, open_repo, read_worktree, scan, tracked_python_files
from tests.support.git_repo import GitRepo

BASE = """\
import functools


@functools.lru_cache(maxsize=1)
def cached(x):
    return x


def area(w, h):
    result = w * h
    check = result >= 0
    assert check
    return result


def follower():
    return "next"


def outer():
    def inner():
        return 1
    return inner()


def _private():
    return 0


class Shape:
    def __init__(self, n):
        self.n = n

    def __repr__(self):
        return "Shape"

    def sides(self):
        return self.n


class _Internal:
    def sides(self):
        return 0
"""


PUBLIC = ("cached", "area", "follower", "outer", "Shape.__init__", "Shape.sides")  # BASE's targets


def found(result: Scan) -> set[tuple[str, str]]:
    return {(t.kind, f"{t.module}.{t.qualname}") for t in result.targets}


def two_commits(tmp_path: Path, before: dict[str, str], after: dict[str, str | None]) -> GitRepo:
    """Commit ``before``, then ``after`` (None deletes a file)."""
    repo = GitRepo(tmp_path)
    for path, text in before.items():
        repo.write(path, text)
    repo.commit("before")
    for path, new_text in after.items():
        repo.delete(path) if new_text is None else repo.write(path, new_text)
    return repo.commit("after")


def scan_last_commit(tmp_path: Path, before: dict[str, str], after: dict[str, str | None]) -> Scan:
    two_commits(tmp_path, before, after)
    return scan(tmp_path, DiffSpec(base="HEAD~1"))


SCENARIOS = [
    pytest.param({"m.py": BASE + "\n\ndef added(a):\n    return a\n"}, {("added", "m.added")},
                 id="function-added"),
    pytest.param({"m.py": BASE.replace("w * h", "h * w")}, {("modified", "m.area")}, id="body-changed"),
    pytest.param({"m.py": BASE.replace("maxsize=1", "maxsize=2")}, {("modified", "m.cached")},
                 id="only-decorator-changed"),
    pytest.param({"m.py": BASE.replace("    check = result >= 0\n    assert check\n", "")},
                 {("modified", "m.area")}, id="only-lines-deleted-inside-a-body"),
    pytest.param({"m.py": BASE.replace("    return result\n", "")}, {("modified", "m.area")},
                 id="tail-deleted-does-not-mark-next-function"),
    pytest.param({"m.py": BASE.replace('def follower():\n    return "next"\n\n\n', "")},
                 {("deleted", "m.follower")}, id="function-deleted"),
    pytest.param({"m.py": BASE.replace("def follower(", "def leader(")},
                 {("deleted", "m.follower"), ("added", "m.leader")}, id="function-renamed"),
    pytest.param({"m.py": BASE.replace("return 1", "return 2")}, {("modified", "m.outer")},
                 id="nested-function-marks-enclosing"),
    pytest.param({"m.py": BASE.replace("return self.n", "return -self.n").replace("return 0\n", "return 9\n")},
                 {("modified", "m.Shape.sides")}, id="public-class-method-vs-private-class-method"),
    pytest.param({"m.py": BASE.replace("self.n = n", "self.n = int(n)").replace('"Shape"', '"S"')},
                 {("modified", "m.Shape.__init__")}, id="init-documented-other-dunders-not"),
    pytest.param({"m.py": BASE.replace("return 0\n\n\nclass", "return 1\n\n\nclass")}, set(),
                 id="private-function-changed"),
    pytest.param({"m.py": '__all__ = ["area", "follower"]\n' + BASE.replace("w * h", "h * w")
                  .replace('"next"', '"later"').replace("return inner()", "return inner() + 0")},
                 {("modified", "m.area"), ("modified", "m.follower"), ("deleted", "m.cached"),
                  ("deleted", "m.outer"), ("deleted", "m.Shape.__init__"), ("deleted", "m.Shape.sides")},
                 id="all-excludes-names"),
    pytest.param({"m.py": None}, {("deleted", f"m.{q}") for q in PUBLIC}, id="file-deleted"),
]


@pytest.mark.parametrize(("after", "expected"), SCENARIOS)
def test_scan_between_two_commits(tmp_path: Path, after: dict[str, str | None],
                                  expected: set[tuple[str, str]]) -> None:
    result = scan_last_commit(tmp_path, {"m.py": BASE}, after)
    assert found(result) == expected
    assert result.errors == []


def test_function_sources_and_lines_come_from_the_right_blob(tmp_path: Path) -> None:
    after = BASE.replace('def follower():\n    return "next"\n\n\n', "").replace("w * h", "h * w")
    repo = two_commits(tmp_path, {"pkg/m.py": BASE}, {"pkg/m.py": after})
    result = scan(tmp_path, DiffSpec(base="HEAD~1"))
    by_name = {t.qualname: t for t in result.targets}
    assert by_name["follower"].kind == "deleted"
    assert by_name["follower"].source == 'def follower():\n    return "next"\n'
    assert (by_name["follower"].lineno, by_name["follower"].end_lineno) == (16, 17)
    assert by_name["area"].source.startswith("def area(w, h):\n    result = h * w\n")
    assert (by_name["area"].lineno, by_name["area"].end_lineno) == (9, 13)
    assert result.sources == {"pkg/m.py": after}
    assert (result.base, result.head) == (repo.sha("HEAD~1"), repo.sha("HEAD"))


def test_file_renamed_moves_functions_between_modules(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path).write("pkg/old.py", BASE).commit("before")
    repo.move("pkg/old.py", "pkg/new.py").commit("rename")
    result = scan(tmp_path, DiffSpec(base="HEAD~1"))
    assert {(k, n) for k, n in found(result) if n.endswith(".area")} == {
        ("deleted", "pkg.old.area"), ("added", "pkg.new.area")}
    assert {t.path for t in result.targets if t.kind == "deleted"} == {"pkg/old.py"}
    assert result.sources == {"pkg/new.py": BASE, "pkg/old.py": ""}


def test_deleted_tail_of_a_method_does_not_mark_the_method_right_after_it(tmp_path: Path) -> None:
    # git reports "@@ -4 +3,0 @@"; reading that as new lines 3-4 would hit "def b" (new line 4).
    tight = "class Tight:\n    def a(self):\n        x = 1\n        return x\n    def b(self):\n        return 2\n"
    result = scan_last_commit(tmp_path, {"m.py": tight}, {"m.py": tight.replace("        return x\n", "")})
    assert found(result) == {("modified", "m.Tight.a")}


def test_appending_to_a_file_without_final_newline_marks_only_the_new_function(tmp_path: Path) -> None:
    before = "def last():\n    return 1"  # no newline at the end
    result = scan_last_commit(tmp_path, {"m.py": before}, {"m.py": before + "\n\n\ndef extra():\n    pass"})
    assert found(result) == {("added", "m.extra")}
    edited = scan_last_commit(tmp_path / "again", {"m.py": before}, {"m.py": before.replace("1", "2")})
    assert found(edited) == {("modified", "m.last")}


def test_syntax_error_in_one_file_does_not_hide_the_other(tmp_path: Path) -> None:
    result = scan_last_commit(tmp_path, {"pkg/bad.py": BASE, "pkg/good.py": BASE}, {
        "pkg/bad.py": BASE.replace("def area(w, h):", "def area(w, h:"),
        "pkg/good.py": BASE.replace("w * h", "h * w")})
    assert found(result) == {("modified", "pkg.good.area")}
    assert len(result.errors) == 1
    assert result.errors[0].path == "pkg/bad.py" and result.errors[0].message.startswith("cannot parse (line ")
    assert str(result.errors[0]).startswith("pkg/bad.py: cannot parse (line ")


@pytest.mark.parametrize(("newline", "bom"), [("\r\n", False), ("\n", True), ("\r\n", True)])
def test_crlf_and_bom_files(tmp_path: Path, newline: str, bom: bool) -> None:
    repo = GitRepo(tmp_path).write("w.py", BASE, newline=newline, bom=bom).commit("before")
    repo.write("w.py", BASE.replace("w * h", "h * w"), newline=newline, bom=bom).commit("after")
    result = scan(tmp_path, DiffSpec(base="HEAD~1"))
    (target,) = result.targets
    assert (target.kind, target.qualname, target.lineno, target.end_lineno) == ("modified", "area", 9, 13)
    assert "\r" not in target.source and "\ufeff" not in target.source
    assert not result.sources["w.py"].startswith("\ufeff")


def test_staged_mode_sees_only_the_index(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path).write("a.py", BASE).write("b.py", BASE).commit("before")
    repo.write("a.py", BASE.replace("w * h", "h * w")).stage("a.py")
    repo.write("a.py", BASE.replace("w * h", "h * w * 1"))  # unstaged edit on top of the staged one
    repo.write("b.py", BASE.replace('"next"', '"later"'))  # unstaged only
    staged = scan(tmp_path, DiffSpec(staged=True))
    assert found(staged) == {("modified", "a.area")}
    assert "h * w\n" in staged.targets[0].source  # the index blob, not the working tree
    assert (staged.base, staged.head) == (repo.sha(), "INDEX")
    worktree = scan(tmp_path, DiffSpec())
    assert found(worktree) == {("modified", "a.area"), ("modified", "b.follower")}
    assert worktree.head == "WORKTREE" and "h * w * 1" in worktree.sources["a.py"]


def test_staged_mode_honours_git_index_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # git commit -a points hooks at a temporary index; the default index stays untouched.
    repo = GitRepo(tmp_path).write("a.py", BASE).commit("before")
    repo.write("a.py", BASE.replace("w * h", "h * w"))
    other_index = tmp_path / ".git" / "other-index"
    repo.git("read-tree", "HEAD", env={"GIT_INDEX_FILE": str(other_index)})
    repo.git("add", "a.py", env={"GIT_INDEX_FILE": str(other_index)})
    assert found(scan(tmp_path, DiffSpec(staged=True))) == set()
    monkeypatch.setenv("GIT_INDEX_FILE", str(other_index))
    assert found(scan(tmp_path, DiffSpec(staged=True))) == {("modified", "a.area")}


def test_staged_in_a_repository_without_commits(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path).write("pkg/__init__.py", "def hello():\n    return 1\n").stage()
    result = scan(tmp_path, DiffSpec(staged=True))
    assert found(result) == {("added", "pkg.hello")}
    assert result.base == repo.git("hash-object", "-t", "tree", "/dev/null").strip()


def test_user_diff_config_does_not_change_what_is_parsed(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path)
    names = ["sp ace.py", "héllo.py", 'q"uote.py']
    for name in names:
        repo.write(name, BASE)
    repo.commit("before")
    for key, value in [("diff.noprefix", "true"), ("color.diff", "always"), ("color.ui", "always"),
                       ("diff.mnemonicPrefix", "true"), ("core.quotePath", "false"),
                       ("diff.external", "false"), ("diff.context", "7"), ("diff.relative", "true")]:
        repo.config(key, value)
    for name in names:
        repo.write(name, BASE.replace("w * h", "h * w"))
    repo.commit("after")
    repo.move("sp ace.py", "moved here.py")
    # A name with a space or a quote is no importable module (issue 22): skipped as non-API, and the
    # paths it is skipped under show git's quoting was read right.
    staged = scan(tmp_path, DiffSpec(staged=True))
    assert found(staged) == set() and set(staged.skipped) == {"moved here.py", "sp ace.py"}
    result = scan(tmp_path, DiffSpec(base="HEAD~1"))
    assert found(result) == {("modified", "héllo.area")} and set(result.skipped) == {"sp ace.py", 'q"uote.py'}


def test_base_head_uses_the_merge_base(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path).write("m.py", BASE).commit("base")
    repo.branch("feature").write("m.py", BASE.replace("w * h", "h * w")).commit("feature work")
    repo.switch("main").write("m.py", BASE.replace('"next"', '"later"')).commit("main moved on")
    result = scan(tmp_path, DiffSpec(base="main", head="feature"))
    assert found(result) == {("modified", "m.area")}
    assert (result.base, result.head) == (repo.sha("feature~1"), repo.sha("feature"))


def test_all_lists_every_tracked_file_as_it_is_in_the_working_tree(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path).write("src/pkg/a.py", BASE).write("tools/b.py", "def run():\n    pass\n")
    repo.write("notes.txt", "def not_python(): pass\n").commit("files")
    repo.write("src/pkg/a.py", BASE + "\n\ndef fresh():\n    pass\n")  # edited, not committed
    repo.write("untracked.py", "def stray():\n    pass\n")
    result = scan(tmp_path, DiffSpec(all=True))
    names = [f"{t.module}.{t.qualname}" for t in result.targets]
    assert names == ["pkg.a.cached", "pkg.a.area", "pkg.a.follower", "pkg.a.outer", "pkg.a.Shape.__init__",
                     "pkg.a.Shape.sides", "pkg.a.fresh", "tools.b.run"]
    assert {t.kind for t in result.targets} == {"unchanged"}
    assert (result.base, result.head) == (repo.sha(), "WORKTREE")
    assert set(result.sources) == {"src/pkg/a.py", "tools/b.py"}
    only_tools = scan(tmp_path, DiffSpec(all=True), ["tools"])
    assert [t.qualname for t in only_tools.targets] == ["run"]


def test_paths_filter_a_diff(tmp_path: Path) -> None:
    two_commits(tmp_path, {"pkg/a.py": BASE, "pkg/ab.py": BASE, "other/c.py": BASE}, {
        "pkg/a.py": BASE.replace("w * h", "h * w"), "pkg/ab.py": BASE.replace("w * h", "h * w"),
        "other/c.py": BASE.replace("w * h", "h * w")})
    assert found(scan(tmp_path, DiffSpec(base="HEAD~1"), ["pkg/a.py", str(tmp_path / "other")])) == {
        ("modified", "pkg.a.area"), ("modified", "other.c.area")}
    assert found(scan(tmp_path / "pkg", DiffSpec(base="HEAD~1"), ["ab.py"])) == {("modified", "pkg.ab.area")}
    with pytest.raises(ConfigError):
        scan(tmp_path, DiffSpec(base="HEAD~1"), [str(tmp_path.parent)])


def test_a_symlinked_python_file_in_a_diff_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text("def secret():\n    return 1\n", encoding="utf-8")
    repo = GitRepo(tmp_path / "r").write("a.py", BASE)
    (repo.root / "link.py").symlink_to("a.py")
    repo.commit("a link inside")
    (repo.root / "link.py").unlink()
    (repo.root / "link.py").symlink_to(outside)  # retargeted: the diff shows link.py as modified
    result = scan(repo.root, DiffSpec())
    assert (result.targets, result.errors, result.sources) == ([], [], {})


def test_tracked_python_files_and_read_worktree(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path).write("a.py", "x = 1\n").write("b.txt", "").write("sub/c.py", "")
    repo.write_bytes("latin.py", "# -*- coding: latin-1 -*-\ns = 'é'\n".encode("latin-1"))
    (tmp_path / "link.py").symlink_to("a.py")
    assert tracked_python_files(repo.stage().root) == ["a.py", "latin.py", "sub/c.py"]  # no commits: index
    repo.commit("files")
    assert tracked_python_files(tmp_path) == ["a.py", "latin.py", "sub/c.py"]
    assert read_worktree(tmp_path, "latin.py").endswith("s = 'é'\n")


def test_errors_outside_a_repository_and_on_unknown_revisions(tmp_path: Path) -> None:
    with pytest.raises(RepoError) as outside:
        open_repo(tmp_path)
    assert outside.value.exit_code == 4 and "git init" in str(outside.value)
    GitRepo(tmp_path / "r").write("a.py", BASE).commit("one")
    for spec in (DiffSpec(base="no-such-branch"), DiffSpec(base="HEAD", head="nope"), DiffSpec(base="--all")):
        with pytest.raises(RepoError, match="Unknown revision"):
            scan(tmp_path / "r", spec)


@pytest.mark.parametrize("fields", [{"head": "HEAD"}, {"staged": True, "all": True}, {"staged": True, "base": "x"}])
def test_diffspec_rejects_conflicting_choices(fields: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        DiffSpec(**fields)  # type: ignore[arg-type]


def test_exclude_globs_leave_test_files_out(tmp_path: Path) -> None:
    from docbot.config.settings import DEFAULT_EXCLUDE

    repo = GitRepo(tmp_path / "r")
    repo.write("pkg/m.py", "def f():\n    return 1\n").write("tests/test_m.py", "def test_f():\n    pass\n")
    repo.write("pkg/tests/test_deep.py", "def test_g():\n    pass\n").write("conftest.py", "def fixture():\n    pass\n")
    repo.commit("all")
    every = scan(repo.root, DiffSpec(all=True))
    assert {t.path for t in every.targets} == {"pkg/m.py", "tests/test_m.py", "pkg/tests/test_deep.py",
                                               "conftest.py"}
    kept = scan(repo.root, DiffSpec(all=True), exclude=DEFAULT_EXCLUDE)
    assert [t.key for t in kept.targets] == ["pkg.m.f"]
