"""parse_unified_diff: table tests on diff texts shaped exactly like git's output."""

from __future__ import annotations

import pytest

from docbot.git_diff import FileChange, parse_unified_diff, to_ranges


def diff(*lines: str) -> str:
    return "\n".join(lines) + "\n"


CASES = [
    pytest.param(
        diff("diff --git a/m.py b/m.py", "index 1111111..2222222 100644", "--- a/m.py", "+++ b/m.py",
             "@@ -2 +2 @@ def f():", "-    return 1", "+    return 2",
             "@@ -10,0 +11,2 @@", "+def g():", "+    pass",
             "@@ -20,3 +21,0 @@", "-a", "-b", "-c"),
        [FileChange("m.py", "m.py", "modified", [(2, 2), (20, 22)], [(2, 2), (11, 12)])],
        id="replace-insert-and-pure-deletion",
    ),
    pytest.param(  # the deleted tail of one function maps to the old side only, never onto the next line
        diff("diff --git a/m.py b/m.py", "--- a/m.py", "+++ b/m.py", "@@ -4,2 +3,0 @@", "-    y = 2",
             "-    z = 3"),
        [FileChange("m.py", "m.py", "modified", [(4, 5)], [])],
        id="delete-only-hunk",
    ),
    pytest.param(  # appending to a file without a final newline: line 3 only gained its newline
        diff("diff --git a/m.py b/m.py", "--- a/m.py", "+++ b/m.py", "@@ -3 +3,2 @@", "-x = 1",
             "\\ No newline at end of file", "+x = 1", "+y = 2", "\\ No newline at end of file"),
        [FileChange("m.py", "m.py", "modified", [], [(4, 4)])],
        id="no-newline-at-end-appended",
    ),
    pytest.param(
        diff("diff --git a/m.py b/m.py", "--- a/m.py", "+++ b/m.py", "@@ -3 +3,2 @@", "-x = 1",
             "\\ No newline at end of file", "+x = 2", "+y = 2"),
        [FileChange("m.py", "m.py", "modified", [(3, 3)], [(3, 4)])],
        id="no-newline-at-end-last-line-changed",
    ),
    pytest.param(
        diff("diff --git a/m.py b/m.py", "--- a/m.py", "+++ b/m.py", "@@ -5 +5 @@", "-    return 1",
             "+    return 1", "\\ No newline at end of file"),
        [FileChange("m.py", "m.py", "modified", [], [])],
        id="final-newline-dropped",
    ),
    pytest.param(  # context lines (a -U3 diff) are not changes; "-- x" removed reads "--- x"
        diff("diff --git a/m.py b/m.py", "--- a/m.py", "+++ b/m.py", "@@ -1,5 +1,5 @@", " a", "--- x",
             "+++ y", " b", "", " c", "diff --git a/n.py b/n.py", "--- a/n.py", "+++ b/n.py",
             "@@ -1 +0,0 @@", "-gone"),
        [FileChange("m.py", "m.py", "modified", [(2, 2)], [(2, 2)]),
         FileChange("n.py", "n.py", "modified", [(1, 1)], [])],
        id="context-lines-and-dash-content",
    ),
    pytest.param(
        diff("diff --git a/new.py b/new.py", "new file mode 100644", "index 0000000..3333333",
             "--- /dev/null", "+++ b/new.py", "@@ -0,0 +1,3 @@", "+a", "+b", "+c"),
        [FileChange(None, "new.py", "added", [], [(1, 3)])],
        id="added-file",
    ),
    pytest.param(
        diff("diff --git a/old.py b/old.py", "deleted file mode 100644", "index 3333333..0000000",
             "--- a/old.py", "+++ /dev/null", "@@ -1,2 +0,0 @@", "-a", "-b"),
        [FileChange("old.py", None, "deleted", [(1, 2)], [])],
        id="deleted-file",
    ),
    pytest.param(
        diff("diff --git a/empty one.py b/empty one.py", "new file mode 100644", "index 0000000..e69de29"),
        [FileChange(None, "empty one.py", "added")],
        id="empty-added-file-with-space",
    ),
    pytest.param(
        diff("diff --git a/pkg/a.py b/pkg/b.py", "similarity index 100%", "rename from pkg/a.py",
             "rename to pkg/b.py"),
        [FileChange("pkg/a.py", "pkg/b.py", "renamed")],
        id="pure-rename",
    ),
    pytest.param(
        diff("diff --git a/a.py b/sub/b.py", "similarity index 80%", "rename from a.py", "rename to sub/b.py",
             "index 1..2 100644", "--- a/a.py", "+++ b/sub/b.py", "@@ -7 +7 @@", "-x", "+y"),
        [FileChange("a.py", "sub/b.py", "renamed", [(7, 7)], [(7, 7)])],
        id="rename-with-edit",
    ),
    pytest.param(
        diff('diff --git "a/h\\303\\251llo.py" "b/h\\303\\251llo.py"', "index 1..2 100644",
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
        diff("diff --git a/old name.py b/\"q\".py", "similarity index 100%", "rename from old name.py",
             'rename to "\\"q\\".py"'),
        [FileChange("old name.py", '"q".py', "renamed")],
        id="rename-with-quoted-target",
    ),
    pytest.param(
        diff("diff --git a/blob.py b/blob.py", "index 1..2 100644", "Binary files a/blob.py and b/blob.py differ"),
        [FileChange("blob.py", "blob.py", "modified", binary=True)],
        id="binary",
    ),
    pytest.param(  # CRLF content: the \r stays on the content line, counts do not change
        diff("diff --git a/w.py b/w.py", "--- a/w.py", "+++ b/w.py", "@@ -2,0 +3 @@", "+x = 1\r"),
        [FileChange("w.py", "w.py", "modified", [], [(3, 3)])],
        id="crlf-content",
    ),
    pytest.param(  # an unmerged path in combined format is skipped; the next file is still read
        diff("diff --cc c.py", "index 1,2..3", "--- a/c.py", "+++ b/c.py", "@@@ -1,1 -1,1 +1,5 @@@",
             "++<<<<<<< HEAD", "diff --git a/d.py b/d.py", "--- a/d.py", "+++ b/d.py", "@@ -1 +1 @@",
             "-a", "+b"),
        [FileChange("d.py", "d.py", "modified", [(1, 1)], [(1, 1)])],
        id="combined-diff-skipped",
    ),
    pytest.param("", [], id="empty"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_parse_unified_diff(text: str, expected: list[FileChange]) -> None:
    assert parse_unified_diff(text) == expected


def test_header_counts_decide_where_a_hunk_ends() -> None:
    # Without the trailing newline of the last line, the parser must still stop cleanly.
    text = "diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1,2 +1 @@\n-a\n-b\n+c"
    assert parse_unified_diff(text) == [FileChange("m.py", "m.py", "modified", [(1, 2)], [(1, 1)])]


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
