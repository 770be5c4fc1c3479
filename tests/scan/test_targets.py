"""targets: module names, which functions are public, and which ones a change touched (pure)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from docbot.git.diff import FileChange
from docbot.scan.targets import Parser, SourceParseError, changed_targets, module_name, public_functions


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


@pytest.mark.parametrize(("path", "module"), [
    ("pkg/mod.py", "pkg.mod"),
    ("src/pkg/sub/mod.py", "pkg.sub.mod"),
    ("pkg/__init__.py", "pkg"),
    ("src/pkg/__init__.py", "pkg"),
    ("setup.py", "setup"),
    ("./tools/src/x.py", "tools.src.x"),  # only a *leading* src/ is a layout folder
    ("pkg\\win.py", "pkg.win"),
])
def test_module_name(path: str, module: str) -> None:
    assert module_name(path) == module


PUBLIC_CASES = [
    pytest.param("def f(): pass\ndef _g(): pass\nasync def h(): pass\n", {}, ["f", "h"], id="underscore"),
    pytest.param(
        """
        class Public:
            def m(self): pass
            def _p(self): pass
            def __init__(self): pass
            def __repr__(self): return ""
            def __mangled(self): pass
        class _Private:
            def m(self): pass
        """, {}, ["Public.m", "Public.__init__"], id="methods-and-dunders"),
    pytest.param(
        """
        class C:
            def __init__(self): pass
            def __eq__(self, other): return True
        """, {"include_dunder": True}, ["C.__init__", "C.__eq__"], id="include-dunder"),
    pytest.param(
        """
        __all__ = ["shown", "Cls", "_forced"]
        __all__ += ["added"]
        __all__.append("appended")
        def shown(): pass
        def hidden(): pass
        def _forced(): pass
        def added(): pass
        def appended(): pass
        class Cls:
            def m(self): pass
        class Other:
            def m(self): pass
        """, {}, ["shown", "_forced", "added", "appended", "Cls.m"], id="dunder-all-decides"),
    pytest.param(  # a computed __all__ cannot be read: fall back to the underscore rule
        """
        __all__ = [n for n in dir() if n]
        def f(): pass
        def _g(): pass
        """, {}, ["f"], id="computed-all"),
    pytest.param(
        """
        def outer():
            def inner(): pass
            class Local:
                def m(self): pass
        class A:
            class B:
                def deep(self): pass
            class _C:
                def hidden(self): pass
        """, {}, ["outer", "A.B.deep"], id="nested"),
    pytest.param(
        """
        import typing
        class C:
            @property
            def p(self): return 1
            @p.setter
            def p(self, v): pass
            @staticmethod
            def s(): pass
            @classmethod
            def k(cls): pass
            @typing.overload
            def o(self, a: int) -> int: ...
            @typing.overload
            def o(self, a: str) -> str: ...
            def o(self, a): return a
        """, {}, ["C.p", "C.s", "C.k", "C.o"], id="property-static-class-overload"),
    pytest.param(
        """
        import sys
        if sys.version_info >= (3, 12):
            def f(): return 1
        else:
            def f(): return 2
        try:
            def g(): pass
        except ImportError:
            pass
        """, {}, ["f", "g"], id="conditional-definitions"),
    pytest.param(  # TYPE_CHECKING blocks, import fallbacks and with/for/while/match blocks stay API
        """
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            def typed(): pass
        try:
            from fast import speedy
        except ImportError:
            def speedy(): pass
        else:
            def other(): pass
        finally:
            def last(): pass
        with ctx():
            def inside_with(): pass
        for _ in ():
            def inside_for(): pass
        while False:
            def inside_while(): pass
        match x:
            case 1:
                def inside_match(): pass
        """, {}, ["typed", "speedy", "other", "last", "inside_with", "inside_for", "inside_while",
                  "inside_match"], id="module-level-blocks-stay-api"),
    pytest.param(
        """
        def api(): pass
        if __name__ == "__main__":
            def bar(): pass
            class Tool:
                def run(self): pass
        else:
            def imported(): pass
        if "__main__" == __name__:
            def error(): pass
        if __name__ != "__main__":
            def not_main(): pass
        if __name__ == "other":
            def other(): pass
        class C:
            if __name__ == "__main__":
                def script(self): pass
            def m(self): pass
        """, {}, ["api", "imported", "not_main", "other", "C.m"], id="main-guard-is-script-code"),
    pytest.param(
        """
        __all__ = ["a"] + ["b"]
        def a(): pass
        def _c(): pass
        """, {}, ["a"], id="all-as-expression-is-computed"),
    pytest.param(
        """
        __all__ = ["a" "b", "c"]
        def ab(): pass
        def c(): pass
        """, {}, ["ab", "c"], id="all-with-concatenated-literal-is-not-read"),
    pytest.param(
        """
        __all__: list[str] = ["a"]
        __all__.extend(["b"])
        __all__ += ("c",)
        __all__.append(d)
        def a(): pass
        def b(): pass
        def c(): pass
        def d(): pass
        """, {}, ["a", "b", "c"], id="all-annotated-extend-tuple-and-unreadable-append"),
    pytest.param(
        """
        __all__ = ["a"]
        __all__ = [name for name in dir()]
        def a(): pass
        def b(): pass
        """, {}, ["a", "b"], id="all-reassigned-to-computed-falls-back"),
]


@pytest.mark.parametrize("parser", list(Parser))
@pytest.mark.parametrize(("code", "options", "qualnames"), PUBLIC_CASES)
def test_public_functions(code: str, options: dict[str, bool], qualnames: list[str], parser: Parser) -> None:
    found = public_functions(src(code), "pkg.m", "pkg/m.py", parser=parser, **options)
    assert [t.qualname for t in found] == qualnames
    assert {t.kind for t in found} <= {"unchanged"}
    assert {(t.module, t.path) for t in found} <= {("pkg.m", "pkg/m.py")}


SPAN_CASES = [
    pytest.param("@dec\ndef f():\n    pass\n", (1, 3), id="decorator"),
    pytest.param("# lead\n@dec  # x @\n# mid\n@dec2\n\ndef f():\n    pass  # tail\n    # footer\n\n", (2, 7),
                 id="comments-around"),
    pytest.param("x = 1\n@(\n  # a comment with @\n  dec)\ndef f():\n    pass\n", (2, 6), id="at-before-paren"),
    pytest.param("x = 1\n@\\\ndec\ndef f():\n    pass\n", (2, 5), id="at-before-backslash"),
    pytest.param("def f(): x = 1; return 2;\n", (1, 1), id="one-line"),
    pytest.param('def f():\n    """doc\n    more"""\n\n\n', (1, 3), id="ends-in-string"),
    pytest.param("def f():\n    return 1 + \\\n        2\n", (1, 3), id="ends-in-continuation"),
    pytest.param("async def f():\n    if x:\n        pass\n    else:\n        return 2\n# after\n", (1, 5),
                 id="ends-in-else"),
    pytest.param("x = 1\rdef f():\r    return 1\r", (2, 3), id="lone-cr-ends-a-line-as-python-reads-it"),
]


@pytest.mark.parametrize("parser", list(Parser))
@pytest.mark.parametrize(("code", "span"), SPAN_CASES)
def test_spans(code: str, span: tuple[int, int], parser: Parser) -> None:
    (target,) = public_functions(code, "m", "m.py", parser=parser)
    assert (target.lineno, target.end_lineno) == span


def test_target_spans_decorators_and_dedents_methods() -> None:
    code = src('''
        class C:
            @decorator(
                1)
            def m(self):
                """Doc.
        flush-left continuation
                """
                return 1

        x = 1
        ''')
    (target,) = public_functions(code, "m", "m.py")
    assert (target.lineno, target.end_lineno) == (2, 8)
    assert target.source == ('@decorator(\n    1)\ndef m(self):\n    """Doc.\nflush-left continuation\n'
                             '    """\n    return 1\n')


def test_overloads_and_property_pieces_make_one_target() -> None:
    code = src("""
        from typing import overload
        @overload
        def f(a: int) -> int: ...
        @overload
        def f(a: str) -> str: ...
        def f(a):
            return a
        """)
    (target,) = public_functions(code, "m", "m.py")
    assert (target.lineno, target.end_lineno) == (2, 7)
    assert target.source.count("def f(") == 3


@pytest.mark.parametrize("prefix", ["\ufeff", ""])
def test_crlf_and_bom_keep_git_line_numbers(prefix: str) -> None:
    code = prefix + "import os\r\n\r\ndef f():\r\n    return 1\r\n"
    (target,) = public_functions(code, "m", "m.py")
    assert (target.lineno, target.end_lineno) == (3, 4)
    assert target.source == "def f():\n    return 1\n"


def test_form_feed_is_not_a_line_break() -> None:
    code = "x = 1\n\x0c\ndef f():\n    return '\x1c'\n"
    (target,) = public_functions(code, "m", "m.py")
    assert (target.lineno, target.end_lineno) == (3, 4)


def test_syntax_error_names_file_and_line() -> None:
    with pytest.raises(SourceParseError) as caught:
        public_functions("x = 1\ndef broken(:\n    pass\n", "m", "pkg/bad.py")
    err = caught.value
    assert isinstance(err, ValueError)
    assert err.path == "pkg/bad.py" and err.line >= 2
    assert str(err).startswith(f"pkg/bad.py: cannot parse (line {err.line}): ")
    assert "parser error" not in err.message


# --- changed_targets: old text, new text and the line ranges git reported -----------------------

OLD = src("""
    def a():
        x = 1
        y = 2
        return x

    def b():
        return 2

    class _Hidden:
        def m(self):
            return 3
    """)


def kinds(targets: list) -> set[tuple[str, str]]:
    return {(t.kind, t.qualname) for t in targets}


def change(old: list[tuple[int, int]], new: list[tuple[int, int]], status: str = "modified") -> FileChange:
    paths = {"added": (None, "m.py"), "deleted": ("m.py", None)}.get(status, ("m.py", "m.py"))
    return FileChange(paths[0], paths[1], status, old, new)  # type: ignore[arg-type]


CHANGED_CASES = [
    # deleting "y = 2" and "return x" (old 3-4): the tail of a(), which must not mark b()
    pytest.param(OLD.replace("    y = 2\n    return x\n", ""), change([(3, 4)], []), {("modified", "a")},
                 id="tail-deletion-marks-only-its-function"),
    pytest.param(OLD.replace("return 2", "return 22"), change([(7, 7)], [(7, 7)]), {("modified", "b")},
                 id="body-change"),
    pytest.param(OLD + "\ndef c():\n    pass\n", change([], [(13, 15)]), {("added", "c")}, id="added"),
    pytest.param(OLD.replace("def b():\n    return 2\n\n", ""), change([(6, 8)], []), {("deleted", "b")},
                 id="deleted"),
    pytest.param(OLD.replace("def b(", "def b2("), change([(6, 6)], [(6, 6)]),
                 {("deleted", "b"), ("added", "b2")}, id="renamed-function"),
    pytest.param(OLD.replace("return 3", "return 33"), change([(11, 11)], [(11, 11)]), set(),
                 id="private-class-method"),
    pytest.param(OLD, change([], [(5, 5)]), set(), id="blank-line-between-functions"),
    pytest.param('__all__ = ["a"]\n' + OLD, change([], [(1, 1)]), {("deleted", "b")},
                 id="all-hides-a-function"),
]


@pytest.mark.parametrize(("new", "file_change", "expected"), CHANGED_CASES)
def test_changed_targets(new: str, file_change: FileChange, expected: set[tuple[str, str]]) -> None:
    assert kinds(changed_targets(OLD, new, file_change, "m", "m.py")) == expected


def test_deleted_function_comes_from_the_old_blob() -> None:
    new = OLD.replace("def b():\n    return 2\n\n", "")
    (target,) = changed_targets(OLD, new, change([(6, 8)], []), "m", "m.py")
    assert (target.kind, target.lineno, target.end_lineno) == ("deleted", 6, 7)
    assert target.source == "def b():\n    return 2\n"


def test_added_and_deleted_files() -> None:
    assert kinds(changed_targets(None, OLD, change([], [(1, 11)], "added"), "m", "m.py")) == {
        ("added", "a"), ("added", "b")}
    gone = changed_targets(OLD, None, change([(1, 11)], [], "deleted"), "m", "m.py")
    assert kinds(gone) == {("deleted", "a"), ("deleted", "b")}
    assert gone[0].source.startswith("def a():")


def test_renamed_file_moves_its_functions_to_the_new_module() -> None:
    moved = FileChange("pkg/old.py", "pkg/new.py", "renamed")
    found = changed_targets(OLD, OLD, moved, "pkg.new", "pkg/new.py")
    assert {(t.kind, t.module, t.path, t.qualname) for t in found} == {
        ("added", "pkg.new", "pkg/new.py", "a"), ("added", "pkg.new", "pkg/new.py", "b"),
        ("deleted", "pkg.old", "pkg/old.py", "a"), ("deleted", "pkg.old", "pkg/old.py", "b")}
    # Moving out of src/ keeps the module name, so only real edits count.
    same_module = FileChange("src/pkg/m.py", "pkg/m.py", "renamed", [(7, 7)], [(7, 7)])
    edited = OLD.replace("return 2", "return 22")
    assert kinds(changed_targets(OLD, edited, same_module, "pkg.m", "pkg/m.py")) == {("modified", "b")}


def test_broken_old_blob_counts_as_empty_but_broken_new_blob_raises() -> None:
    fixed = changed_targets("def a(:\n", OLD, change([(1, 1)], [(1, 1)]), "m", "m.py")
    assert kinds(fixed) == {("added", "a"), ("added", "b")}
    with pytest.raises(SourceParseError):
        changed_targets(OLD, "def a(:\n", change([(1, 1)], [(1, 1)]), "m", "m.py")


def test_binary_change_marks_every_function() -> None:
    binary = FileChange("m.py", "m.py", "modified", binary=True)
    assert kinds(changed_targets(OLD, OLD, binary, "m", "m.py")) == {("modified", "a"), ("modified", "b")}


def test_a_huge_file_is_reported_not_parsed() -> None:
    from docbot.scan.targets import MAX_SOURCE_CHARS

    huge = "def f():\n    return 1\n" + "x = 1\n" * (MAX_SOURCE_CHARS // 6 + 1)
    with pytest.raises(SourceParseError, match="skipped as generated code"):
        public_functions(huge, "gen", "gen.py")


# --- what cannot be parsed is reported, never crashes the process ------------------------------

DEEP = "x = " + "(" * 2000 + "1" + ")" * 2000 + "\n"  # libcst's native parser dies of SIGSEGV on this


def _in_child(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter: a native crash must fail the test, not end the test run."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("source", [
    pytest.param(DEEP, id="2000-parentheses"),
    pytest.param("def f(): pass\nx = " + "-" * 20000 + "1\n", id="20000-unary-minus"),
    pytest.param("type T = int\n" + DEEP, id="newer-grammar-and-deep"),  # ast fails early: the fallback guards
])
@pytest.mark.parametrize("parser", list(Parser))
def test_deep_nesting_is_reported_not_a_crash(source: str, parser: Parser) -> None:
    code = (f"from docbot.scan.targets import Parser, SourceParseError, public_functions\n"
            f"try:\n    public_functions({source!r}, 'm', 'pkg/deep.py', parser=Parser.{parser.name})\n"
            f"except SourceParseError as err:\n    print(err.skipped)\n")
    done = _in_child(code)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert done.stdout.startswith("pkg/deep.py: cannot parse (line ")
    assert "nesting too deep to parse" in done.stdout


def test_grammar_the_running_ast_rejects_falls_back_to_libcst(monkeypatch: pytest.MonkeyPatch) -> None:
    def newer_grammar(text: str) -> None:
        raise SyntaxError("invalid syntax", ("m.py", 1, 1, text, 1, 2))

    monkeypatch.setattr("docbot.scan.targets.ast.parse", newer_grammar)
    (target,) = public_functions("@dec\ndef f():\n    return 1\ndef _g(): pass\n", "m", "m.py")
    assert (target.qualname, target.lineno, target.end_lineno) == ("f", 1, 3)


def test_newer_grammar_than_the_running_ast_is_read_by_libcst() -> None:
    code = "type Pair = tuple[int, int]\ndef first[T](pair: tuple[T, T]) -> T:\n    return pair[0]\n"
    (target,) = public_functions(code, "m", "m.py")
    assert (target.qualname, target.lineno, target.end_lineno) == ("first", 2, 3)


@pytest.mark.parametrize(("source", "message"), [
    pytest.param("x = 1\ndef broken(:\n    pass\n", "invalid syntax", id="neither-parser"),
    pytest.param('def f():\n    print "python 2"\n', "Missing parentheses", id="python-2"),
])
def test_unparsable_file_is_a_skipped_file(source: str, message: str) -> None:
    with pytest.raises(SourceParseError) as caught:
        public_functions(source, "m", "pkg/bad.py")
    skipped = caught.value.skipped
    assert skipped.path == "pkg/bad.py"
    assert str(skipped) == str(caught.value)
    assert message in skipped.message


def test_the_fast_path_never_imports_libcst() -> None:
    code = ("import sys\nfrom docbot.git.diff import FileChange\n"
            "from docbot.scan.targets import changed_targets, public_functions\n"
            "old = 'def f():\\n    return 1\\n\\nx = 1\\n'\n"
            "assert [t.qualname for t in public_functions(old, 'm', 'm.py')] == ['f']\n"
            "change = FileChange('m.py', 'm.py', 'modified', [(4, 4)], [(4, 4)])\n"
            "assert changed_targets(old, old.replace('x = 1', 'x = 2'), change, 'm', 'm.py') == []\n"
            "print('libcst' in sys.modules)\n")
    done = _in_child(code)
    assert (done.returncode, done.stdout) == (0, "False\n"), done.stderr


def test_a_diff_that_touches_a_public_def_is_read_by_ast_alone() -> None:
    # ast is the authority for a diff too (docs/design.md#scanner): a touched public def gets its target
    # without libcst being imported; the equivalence test is what lets ast decide alone.
    code = ("import sys\nfrom docbot.git.diff import FileChange\n"
            "from docbot.scan.targets import changed_targets\n"
            "old = 'def f():\\n    return 1\\n'\n"
            "change = FileChange('m.py', 'm.py', 'modified', [(2, 2)], [(2, 2)])\n"
            "found = changed_targets(old, old.replace('1', '2'), change, 'm', 'm.py')\n"
            "print([(t.kind, t.qualname) for t in found], 'libcst' in sys.modules)\n")
    done = _in_child(code)
    assert (done.returncode, done.stdout) == (0, "[('modified', 'f')] False\n"), done.stderr
