"""The reader's rules for a stated output that differs from the run (``docbot verify`` in project mode): what a
person's doc shows differently from the console without stating anything false.

Each rule was met on published docs, beside real stale outputs of the same shape that stay contradictions
(tests/verify/test_reader_output.py): the day's timestamps, Python 2's printing, a value the doc spaces or wraps
otherwise (a tab, a pretty-printed dict), a class shown by its name, a remark after the value. A rule only ever
lowers, through ``docbot.verify.findings.lower``.
"""

from __future__ import annotations

import ast
import re
from collections import Counter

from docbot.sandbox.compare import output_matches
from docbot.verify.findings import DocFinding, Finding, Severity, lower
from docbot.verify.read.genre import python2_alone

_TIMESTAMP = re.compile(r"\b\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?|"
                        r"\b\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\b")
# What Python 2 printed where Python 3 prints otherwise: u'' strings, 10L longs, <type '...'>.
_PY2_OUTPUT = ((re.compile(r"(?<![\w'\"])u(?=['\"])"), ""), (re.compile(r"\b(\d+)L\b"), r"\1"),
               (re.compile(r"<type '"), "<class '"))
# Python 3's views and bytes where Python 2 printed a list and a str (werkzeug 3.1's quickstart: keys() -> a list)
_VIEW = re.compile(r"^dict_(?:keys|values|items)\((.*)\)$", re.DOTALL)
# A remark after the value: two spaces then ``#`` (beartype's ``UnionTypeHint  # <-- what madness is this?``)
_REMARK = re.compile(r"\s{2,}#.*$", re.MULTILINE)
_CLASS = re.compile(r"<class '([\w.]+)'>")


def by_output(finding: Finding, line: int | None) -> DocFinding:
    """The mismatch as the reader meets it: lowered by the first rule that applies, else a contradiction."""
    stated, got = finding.doc_text, finding.code_fact
    if _TIMESTAMP.search(stated) and output_matches(_TIMESTAMP.sub("<time>", stated), _TIMESTAMP.sub("<time>", got)):
        return _lowered(finding, line, Severity.TIME_DEPENDENT,
                        "the output differs only in its timestamps (a log line holds the time it was run at)")
    if _python2_output(stated, got) or python2_alone(stated):
        return _lowered(finding, line, Severity.VERSION_DEPENDENT,
                        "the doc shows what Python 2 printed (u'' strings, 10L, <type ...>, a list for a dict "
                        "view, a str for bytes); the same under Python 3")
    if _spacing_only(stated, got):
        return _lowered(finding, line, Severity.NOTE, "the doc shows the same text spaced or wrapped otherwise "
                        "(a tab, a long line wrapped, a value pretty-printed)")
    if _by_name(stated, got):
        return _lowered(finding, line, Severity.NOTE, "the doc shows the same value by its name (a class as "
                        "`pkg.Name`, not `<class 'pkg.Name'>`) or with a remark after it")
    return DocFinding(finding, line)


def _lowered(finding: Finding, line: int | None, to: Severity, reason: str) -> DocFinding:
    return DocFinding(lower(finding, to, reason), line)


def _python2_output(stated: str, got: str) -> bool:
    python3 = stated
    for pattern, replacement in _PY2_OUTPUT:
        python3 = pattern.sub(replacement, python3)
    if python3 != stated and output_matches(python3, got):
        return True
    view = _VIEW.match(got.strip())
    if view is not None:  # Python 2's dict methods gave lists, in the dict's arbitrary order
        return _same_items(stated.strip(), view.group(1))
    return got.strip().startswith(("b'", 'b"')) and output_matches(stated, got.strip()[1:])


def _same_items(stated: str, got: str) -> bool:
    try:
        want, have = ast.literal_eval(stated), ast.literal_eval(got)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return isinstance(want, list) and isinstance(have, list) and Counter(map(repr, want)) == Counter(map(repr, have))


def _spacing_only(stated: str, got: str) -> bool:
    """The same characters once every run of whitespace is taken out, and some text to compare."""
    squeezed = "".join(stated.split())
    return len(squeezed) > 3 and squeezed == "".join(got.split())


def _by_name(stated: str, got: str) -> bool:
    """``<class 'pkg.Name'>`` shown as ``pkg.Name`` (or ``Name``), and remarks after a value taken off."""
    plain = _REMARK.sub("", stated)
    named = _CLASS.sub(lambda m: m.group(1), got)
    short = _CLASS.sub(lambda m: m.group(1).rsplit(".", 1)[-1], got)
    return (plain != stated or named != got) and any(output_matches(plain, shown) for shown in (named, short, got))
