"""parse_git_diff: table tests on output shaped exactly like git's, then the same parser on real git."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.git.diff import DIFF_FLAGS, DiffShapeError, FileChange, parse_git_diff, to_ranges
from tests.support.git_repo import GitRepo

LONG = "".join(f"v{i} = {i}\n" for i in range(10))  # ten lines, so renames and copies are recognised


def record(letter: str, *paths: str, modes: str = "100644 100644") -> str:
    """One ``--raw -z`` record, as git prints it: ``:modes shas status``, NUL, each path, NUL."""
    return f":{modes} 1111111 2222222 {letter}\0" + "".join(f"{path}\0" for path in paths)


def added(path: str) -> str:
    return record("A", path, modes="000000 100644")


def deleted(path: str) -> str:
    return record("D", path, modes="100644 000000")


def diff(records: str | list[str], *lines: str) -> bytes:
    """``git diff --raw -z --patch`` output: the records, an empty record, then the patch text."""
    raw = "".join([records] if isinstance(records, str) else records)
    return (raw + "\0" + "".join(f"{line}\n" for line in lines)).encode("utf-8", "surrogateescape")


CASES = [
    pytest.param(
        diff(record("M", "m.py"), "diff --git a/m.py b/m.py", "index 1111111..2222222 100644", "--- a/m.py",
             "+++ b/m.py", "@@ -2 +2 @@ def f():", "-    return 1", "+    return 2",
             "@@ -10,0 +11,2 @@", "+def g():", "+    pass",
             "@@ -20,3 +21,0 @@", "-a", "-b", "-c"),
        [FileChange("m.py", "m.py", "modified", [(2, 2), (20, 22)], [(2, 2), (11, 12)])],
        id="replace-insert-and-pure-deletion",
    ),
    pytest.param(  # the deleted tail of one function maps to the old side only, never onto the next line
        diff(record("M", "m.py"), "diff --git a/m.py b/m.py", "--- a/m.py", "+++ b/m.py", "@@ -4,2 +3,0 @@",
             "-    y = 2", "-    z = 3"),
        [FileChange("m.py", "m.py", "modified", [(4, 5)], [])],
        id="delete-only-hunk",
    ),
    pytest.param(  # appending to a file without a final newline: line 3 only gained its newline
        diff(record("M", "m.py"), "diff --git a/m.py b/m.py", "--- a/m.py", "+++ b/m.py", "@@ -3 +3,2 @@",
             "-x = 1", "\\ No newline at end of file", "+x = 1", "+y = 2", "\\ No newline at end of file"),
        [FileChange("m.py", "m.py", "modified", [], [(4, 4)])],
        id="no-newline-at-end-appended",
    ),
    pytest.param(
        diff(record("M", "m.py"), "diff --git a/m.py b/m.py", "--- a/m.py", "+++ b/m.py", "@@ -3 +3,2 @@",
             "-x = 1", "\\ No newline at end of file", "+x = 2", "+y = 2"),
        [FileChange("m.py", "m.py", "modified", [(3, 3)], [(3, 4)])],
        id="no-newline-at-end-last-line-changed",
    ),
    pytest.param(
        diff(record("M", "m.py"), "diff --git a/m.py b/m.py", "--- a/m.py", "+++ b/m.py", "@@ -5 +5 @@",
             "-    return 1", "+    return 1", "\\ No newline at end of file"),
        [FileChange("m.py", "m.py", "modified", [], [])],
        id="final-newline-dropped",
    ),
    pytest.param(  # context lines (a -U3 diff) are not changes; "-- x" removed reads "--- x"
        diff([record("M", "m.py"), record("M", "n.py")], "diff --git a/m.py b/m.py", "--- a/m.py",
             "+++ b/m.py", "@@ -1,5 +1,5 @@", " a", "--- x", "+++ y", " b", "", " c",
             "diff --git a/n.py b/n.py", "--- a/n.py", "+++ b/n.py", "@@ -1 +0,0 @@", "-gone"),
        [FileChange("m.py", "m.py", "modified", [(2, 2)], [(2, 2)]),
         FileChange("n.py", "n.py", "modified", [(1, 1)], [])],
        id="context-lines-and-dash-content",
    ),
    pytest.param(
        diff(added("new.py"), "diff --git a/new.py b/new.py", "new file mode 100644", "index 0000000..3333333",
             "--- /dev/null", "+++ b/new.py", "@@ -0,0 +1,3 @@", "+a", "+b", "+c"),
        [FileChange(None, "new.py", "added", [], [(1, 3)])],
        id="added-file",
    ),
    pytest.param(
        diff(deleted("old.py"), "diff --git a/old.py b/old.py", "deleted file mode 100644", "index 3333333..0000000",
             "--- a/old.py", "+++ /dev/null", "@@ -1,2 +0,0 @@", "-a", "-b"),
        [FileChange("old.py", None, "deleted", [(1, 2)], [])],
        id="deleted-file",
    ),
    pytest.param(
        diff(added("empty one.py"), "diff --git a/empty one.py b/empty one.py", "new file mode 100644",
             "index 0000000..e69de29"),
        [FileChange(None, "empty one.py", "added")],
        id="empty-added-file-with-space",
    ),
    pytest.param(
        diff(record("R100", "pkg/a.py", "pkg/b.py"), "diff --git a/pkg/a.py b/pkg/b.py", "similarity index 100%",
             "rename from pkg/a.py", "rename to pkg/b.py"),
        [FileChange("pkg/a.py", "pkg/b.py", "renamed")],
        id="pure-rename",
    ),
    pytest.param(
        diff(record("R080", "a.py", "sub/b.py"), "diff --git a/a.py b/sub/b.py", "similarity index 80%",
             "rename from a.py", "rename to sub/b.py", "index 1..2 100644", "--- a/a.py", "+++ b/sub/b.py",
             "@@ -7 +7 @@", "-x", "+y"),
        [FileChange("a.py", "sub/b.py", "renamed", [(7, 7)], [(7, 7)])],
        id="rename-with-edit",
    ),
    pytest.param(
        diff([record("M", "héllo.py"), record("M", "sp ace.py"), added("tab\there.py")],
             'diff --git "a/h\\303\\251llo.py" "b/h\\303\\251llo.py"', "index 1..2 100644",
             '--- "a/h\\303\\251llo.py"', '+++ "b/h\\303\\251llo.py"', "@@ -1 +1 @@", "-a", "+b",
             "diff --git a/sp ace.py b/sp ace.py", "--- a/sp ace.py\t", "+++ b/sp ace.py\t",
             "@@ -2 +2 @@", "-b", "+c",
             'diff --git "a/tab\\there.py" "b/tab\\there.py"', "new file mode 100644",
             "index 0000000..e69de29"),
        [FileChange("héllo.py", "héllo.py", "modified", [(1, 1)], [(1, 1)]),
         FileChange("sp ace.py", "sp ace.py", "modified", [(2, 2)], [(2, 2)]),
         FileChange(None, "tab\there.py", "added")],
        id="quoted-paths",
    ),
    pytest.param(
        diff(record("R100", "old name.py", '"q".py'), "diff --git a/old name.py b/\"q\".py",
             "similarity index 100%", "rename from old name.py", 'rename to "\\"q\\".py"'),
        [FileChange("old name.py", '"q".py', "renamed")],
        id="rename-with-quoted-target",
    ),
    pytest.param(
        diff(record("M", "blob.py"), "diff --git a/blob.py b/blob.py", "index 1..2 100644",
             "Binary files a/blob.py and b/blob.py differ"),
        [FileChange("blob.py", "blob.py", "modified", binary=True)],
        id="binary",
    ),
    pytest.param(  # CRLF content: the \r stays on the content line, counts do not change
        diff(record("M", "w.py"), "diff --git a/w.py b/w.py", "--- a/w.py", "+++ b/w.py", "@@ -2,0 +3 @@",
             "+x = 1\r"),
        [FileChange("w.py", "w.py", "modified", [], [(3, 3)])],
        id="crlf-content",
    ),
    pytest.param(  # an unmerged path is skipped; the next file is still read
        diff([record("U", "c.py", modes="000000 000000"), record("M", "d.py")], "* Unmerged path c.py",
             "diff --git a/d.py b/d.py", "--- a/d.py", "+++ b/d.py", "@@ -1 +1 @@", "-a", "+b"),
        [FileChange("d.py", "d.py", "modified", [(1, 1)], [(1, 1)])],
        id="unmerged-skipped",
    ),
    pytest.param(  # a type change prints two sections; the symlink side counts as absent
        diff([record("T", "t.py", modes="100644 120000"), record("M", "u.py")],
             "diff --git a/t.py b/t.py", "deleted file mode 100644", "--- a/t.py", "+++ /dev/null",
             "@@ -1,2 +0,0 @@", "-a", "-b", "diff --git a/t.py b/t.py", "new file mode 120000", "--- /dev/null",
             "+++ b/t.py", "@@ -0,0 +1 @@", "+target.py", "\\ No newline at end of file",
             "diff --git a/u.py b/u.py", "--- a/u.py", "+++ b/u.py", "@@ -3 +3 @@", "-a", "+b"),
        [FileChange("t.py", None, "deleted", [(1, 2)], []),
         FileChange("u.py", "u.py", "modified", [(3, 3)], [(3, 3)])],
        id="type-change-to-symlink",
    ),
    pytest.param(
        diff([record("A", "link.py", modes="000000 120000"), record("M", "sub.py", modes="160000 160000")],
             "diff --git a/link.py b/link.py", "new file mode 120000", "--- /dev/null", "+++ b/link.py",
             "@@ -0,0 +1 @@", "+/etc/passwd", "\\ No newline at end of file", "diff --git a/sub.py b/sub.py",
             "--- a/sub.py", "+++ b/sub.py", "@@ -1 +1 @@", "-Subproject commit 1", "+Subproject commit 2"),
        [],
        id="symlinks-and-submodules-are-not-read",
    ),
    pytest.param(  # a copy is a new file; its hunks are against the copy's source
        diff(record("C075", "a.py", "b.py"), "diff --git a/a.py b/b.py", "similarity index 75%",
             "copy from a.py", "copy to b.py", "--- a/a.py", "+++ b/b.py", "@@ -2 +2 @@", "-x", "+y"),
        [FileChange(None, "b.py", "added", [], [(2, 2)])],
        id="copy",
    ),
    pytest.param(  # -z paths are bytes; a name that is not UTF-8 survives the round trip
        diff(record("M", "caf\udce9.py"), 'diff --git "a/caf\\351.py" "b/caf\\351.py"',
             "@@ -1 +1 @@", "-a", "+b"),
        [FileChange("caf\udce9.py", "caf\udce9.py", "modified", [(1, 1)], [(1, 1)])],
        id="non-utf8-name",
    ),
    pytest.param(b"", [], id="empty"),
]


@pytest.mark.parametrize(("output", "expected"), CASES)
def test_parse_git_diff(output: bytes, expected: list[FileChange]) -> None:
    assert parse_git_diff(output) == expected


def test_header_counts_decide_where_a_hunk_ends() -> None:
    # Without the trailing newline of the last line, the parser must still stop cleanly.
    output = (record("M", "m.py") + "\0diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1,2 +1 @@\n"
              "-a\n-b\n+c").encode()
    assert parse_git_diff(output) == [FileChange("m.py", "m.py", "modified", [(1, 2)], [(1, 1)])]


@pytest.mark.parametrize(("output", "complaint"), [
    (diff([record("M", "a.py"), record("M", "b.py")], "diff --git a/a.py b/a.py"), "2 files but 1 patch sections"),
    (diff(record("T", "a.py"), "diff --git a/a.py b/a.py"), "expected 2"),
    (diff(record("M", "a.py")), "expected 1"),
    (b"M\0a.py\0\0", "not a git diff --raw record"),
    (b":100644 100644 1 2\0a.py\0\0", "not a git diff --raw record"),
    (b":100644 100644 1 2 M", "not a git diff --raw record"),
])
def test_an_unexpected_shape_is_refused_not_guessed(output: bytes, complaint: str) -> None:
    with pytest.raises(DiffShapeError, match=complaint):
        parse_git_diff(output)


TRICKY_NAMES = ["sp ace.py", "héllo.py", 'q"uote.py', "new\nline.py", "tab\t.py", "back\\slash.py",
                "diff --git a b.py"]


def real_diff(repo: GitRepo, *args: str) -> list[FileChange]:
    return parse_git_diff(repo.git_bytes("diff", *args, *DIFF_FLAGS))


def test_real_git_tricky_names_renames_and_binary(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path)
    for name in TRICKY_NAMES:
        repo.write(name, "a = 1\nb = 2\n")
    repo.write("crlf.py", "x = 1\n", newline="\r\n").write_bytes("blob.py", b"\0\1")
    repo.write("gone.py", "g = 1\n").write("mode.py", "m = 1\n").write("old.py", LONG).commit("base")
    for name in TRICKY_NAMES:
        repo.write(name, "a = 1\nb = 3\n")
    repo.write("crlf.py", "x = 1\ny = 2\n", newline="\r\n").write_bytes("blob.py", b"\0\2").delete("gone.py")
    repo.write("empty.py", "").move("old.py", "renamed now.py").write("renamed now.py", LONG + "z = 0\n")
    (tmp_path / "mode.py").chmod(0o755)
    repo.stage()
    changes = {change.path: change for change in real_diff(repo, "--cached", "HEAD")}

    assert {name: changes[name] for name in TRICKY_NAMES} == {
        name: FileChange(name, name, "modified", [(2, 2)], [(2, 2)]) for name in TRICKY_NAMES}
    assert changes["crlf.py"] == FileChange("crlf.py", "crlf.py", "modified", [], [(2, 2)])
    assert changes["blob.py"] == FileChange("blob.py", "blob.py", "modified", binary=True)
    assert changes["gone.py"] == FileChange("gone.py", None, "deleted", [(1, 1)], [])
    assert changes["empty.py"] == FileChange(None, "empty.py", "added")
    assert changes["mode.py"] == FileChange("mode.py", "mode.py", "modified")
    assert changes["renamed now.py"] == FileChange("old.py", "renamed now.py", "renamed", [], [(11, 11)])
    assert len(changes) == len(TRICKY_NAMES) + 6


def test_real_git_copies_symlinks_and_a_missing_final_newline(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path).write("src.py", LONG).write("tail.py", "t = 1").write("was_file.py", "w = 1\n")
    repo.commit("base")
    repo.write("copy.py", LONG.replace("v5", "w5")).write("tail.py", "t = 1\nu = 2").delete("was_file.py")
    (tmp_path / "was_file.py").symlink_to("src.py")
    (tmp_path / "link.py").symlink_to("src.py")
    changes = real_diff(repo.stage(), "--cached", "HEAD", "-C", "--find-copies-harder")

    assert changes == [FileChange(None, "copy.py", "added", [], [(6, 6)]),
                       FileChange("tail.py", "tail.py", "modified", [], [(2, 2)]),
                       FileChange("was_file.py", None, "deleted", [(1, 1)], [])]


def test_real_git_user_config_does_not_change_the_shape(tmp_path: Path) -> None:
    inner = GitRepo(tmp_path / "inner").write("i.txt", "1\n").commit("one")
    repo = GitRepo(tmp_path / "outer").write("a.py", LONG).write("b.py", LONG)
    repo.git("-c", "protocol.file.allow=always", "submodule", "-q", "add", str(inner.root), "sub.py")
    repo.commit("base")
    inner.write("i.txt", "2\n").commit("two")
    repo.git("-C", "sub.py", "-c", "protocol.file.allow=always", "pull", "-q")  # a submodule named *.py moves
    for key, value in [("diff.noprefix", "true"), ("color.ui", "always"), ("core.quotePath", "true"),
                       ("diff.submodule", "log"), ("diff.interHunkContext", "9"), ("diff.renames", "false"),
                       ("diff.suppressBlankEmpty", "true"), ("diff.mnemonicPrefix", "true"), ("diff.context", "5")]:
        repo.config(key, value)
    repo.write("a.py", LONG.replace("v2", "w2").replace("v6", "w6")).move("b.py", "c d.py")
    assert real_diff(repo.stage(), "--cached", "HEAD") == [
        FileChange("a.py", "a.py", "modified", [(3, 3), (7, 7)], [(3, 3), (7, 7)]),
        FileChange("b.py", "c d.py", "renamed")]


@pytest.mark.parametrize(("lines", "ranges"), [
    ([], []),
    ([5], [(5, 5)]),
    ([3, 4, 5, 9], [(3, 5), (9, 9)]),
    ([9, 3, 4, 4], [(3, 4), (9, 9)]),
])
def test_to_ranges(lines: list[int], ranges: list[tuple[int, int]]) -> None:
    assert to_ranges(lines) == ranges


def test_path_is_the_new_path_unless_deleted() -> None:
    assert FileChange("a.py", "b.py", "renamed").path == "b.py"
    assert FileChange("a.py", None, "deleted").path == "a.py"
