"""The reader's rules: what a finding on a person's doc means for the person who reads the report (``docbot
verify`` in project mode).

A check says "example `x` raises SyntaxError"; the reader needs to know whether the doc is false for the current
code (a contradiction: the only kind that fails) or whether the doc is right but cannot be run as printed, holds
only on another Python, depends on today's date, or leaves out setup it states in prose. Those are told apart
here from the finding, the example's code and the prose just before it; each rule lowers the finding through
``docbot.verify.findings.lower`` with its reason, so each is reported under its own severity (``--json`` names
them), and one block that does not parse is one finding, not one per line.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Sequence

from docbot.sandbox.compare import output_matches
from docbot.sandbox.step import Step
from docbot.verify.checks.environment import bound_names
from docbot.verify.findings import DocFinding, Finding, Severity, lower


_LIMITS = ("example_timeout", "example_flood", "example_crashed")
_SYNTAX = ("SyntaxError", "IndentationError", "TabError")
_UNDEFINED = re.compile(r"NameError: name '(\w+)' is not defined")
_CLOCK = re.compile(r"\b(?:datetime|date\.today|time\.time|now\(\)|today\(\)|utcnow|localtime|monotonic|arrow|"
                    r"pendulum|random|uuid[14]|secrets)\b")
_PY_VERSION = re.compile(r"\bPython\s*(3\.\d+)\s*(?:\+|and (?:later|above|newer)|or (?:later|newer|above)|only)",
                         re.IGNORECASE)
# "# Python 2 only", "Python 2:" above or atop a block (future's compatible idioms); not "Python 2 and 3"
_PY2_ONLY = re.compile(r"\bPython\s*2(?:\.\d+)?\s*(?:only\b|:)", re.IGNORECASE)
_EXTRA = re.compile(r"pip install\s+['\"]?[\w.-]+\[([\w,.-]+)\]")
_PYTHON2 = re.compile(r"Did you mean \"print\(|Missing parentheses in call to '(?:print|exec)'|"
                      r"unsupported operand type\(s\) for >>: 'builtin_function_or_method'|"
                      r"multiple exception types must be parenthesized|leading zeros in decimal integer literals|"
                      r"NameError: name '(?:unicode|xrange|basestring|raw_input|unichr|execfile)' is not defined|"
                      r"'dict' object has no attribute '(?:iteritems|itervalues|iterkeys|has_key)'")
# What Python 2 printed where Python 3 prints otherwise: u'' strings, 10L longs, <type '...'>.
_PY2_OUTPUT = ((re.compile(r"(?<![\w'\"])u(?=['\"])"), ""), (re.compile(r"\b(\d+)L\b"), r"\1"),
               (re.compile(r"<type '"), "<class '"))
_TIMESTAMP = re.compile(r"\b\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?|"
                        r"\b\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\b")
_INTERACTIVE = re.compile(r"\b(?:input|prompt|confirm|getpass|pause)\s*\(")
# A value a sketch leaves for the reader, quoted back by the error: PROXYSERVER:PROXYPORT, YOUR_API_KEY, <token>
_PLACEHOLDER = re.compile(r"(?<![\w.])(?:[A-Z][A-Z0-9]{3,}(?:[_:][A-Z0-9]+)+|<[a-z][\w -]*>|(?i:your[_-][a-z_]+))"
                          r"(?![\w.])")
_DID_YOU_MEAN = re.compile(r"\.?\s*Did you mean:? .*\?$")


def classify(finding: Finding, steps: Sequence[Step], lines: list[str], defined: set[str],
             line_of: dict[int, int]) -> DocFinding | None:
    """The finding as the doc's reader meets it (lowered by the first rule that applies), or None when a
    console would show what the doc shows."""
    line = line_of.get(finding.line, finding.line + 1) if finding.line is not None else None
    if finding.severity is Severity.GAP:
        return DocFinding(finding, line)
    code = next((s.code for s in steps if s.line == finding.line), finding.doc_text)
    if finding.severity is Severity.NONDETERMINISTIC:
        return _lowered(finding, line, Severity.TIME_DEPENDENT if _CLOCK.search(code) else Severity.NOTE,
                        "the output differs between two runs")
    if finding.severity is not Severity.CONTRADICTION:
        return DocFinding(finding, line)  # a note stays one
    if _console_shows_it(finding):
        return None
    if finding.check in _LIMITS or finding.code_fact.startswith("MemoryError"):
        return _lowered(finding, line, Severity.NOTE, "the example needs more time or memory than the sandbox "
                        "gives (or a service it waits for); nothing it states was shown false")
    if _first_line_of_message(finding):
        return _lowered(finding, line, Severity.NOTE, "the doc quotes the first line of a longer message")
    before = " ".join(lines[max(0, (finding.line or 0) - 4) : (finding.line or 0) + 1])
    opening = " ".join(lines[(finding.line or 0) + 1 : (finding.line or 0) + 3])  # the block's first lines
    if _PY2_ONLY.search(before + " " + opening):
        return _lowered(finding, line, Severity.VERSION_DEPENDENT, "the doc marks it as Python 2 code")
    marked = _PY_VERSION.search(before)
    if marked and tuple(int(p) for p in marked.group(1).split(".")) > sys.version_info[:2]:
        return _lowered(finding, line, Severity.VERSION_DEPENDENT,
                        f"the doc marks it for Python {marked.group(1)}; this is {sys.version_info[0]}."
                        f"{sys.version_info[1]}")
    if extra := _EXTRA.search(before):
        return _lowered(finding, line, Severity.VERSION_DEPENDENT,
                        f"the doc marks it for the optional extra [{extra.group(1)}]")
    above = {name for s in steps if finding.line is not None and s.line < finding.line for name in bound_names(s.code)}
    return _by_error(finding, code, defined, line, above)


def _by_error(finding: Finding, code: str, defined: set[str], line: int | None,
              before: set[str]) -> DocFinding:
    """``before``: the names the doc's blocks above this one bind."""
    error = finding.code_fact
    if _PYTHON2.search(error):
        return _lowered(finding, line, Severity.VERSION_DEPENDENT, "Python 2 code: it runs only there")
    if error.startswith("SystemExit"):
        return _lowered(finding, line, Severity.NOT_RUNNABLE,
                        "a program run from the shell (it exits); a session cannot run it as printed")
    if error.startswith(_SYNTAX) or (finding.check == "example_raises" and "SyntaxError" in finding.message):
        return _lowered(finding, line, Severity.NOT_RUNNABLE,
                        "the block does not parse as printed; a reader must join or fix its lines")
    if "'ellipsis'" in error and _placeholder_argument(code):
        return _lowered(finding, line, Severity.NOT_RUNNABLE,
                        "the block is a sketch: `...` stands for an argument the reader fills in")
    undefined = _UNDEFINED.search(error)
    if undefined and undefined.group(1) not in defined:
        return _lowered(finding, line, Severity.SETUP_ELIDED,
                        f"`{undefined.group(1)}` is never defined in the doc: setup it leaves to the reader "
                        "(declare it with the docs_setup setting)")
    if undefined and undefined.group(1) not in before:
        return _lowered(finding, line, Severity.NOT_RUNNABLE,
                        f"it uses `{undefined.group(1)}` before the doc defines it: a reader who runs the doc in "
                        "order gets a NameError")
    if error.startswith(("EOFError", "click.exceptions.Abort", "Abort")) or (
            _INTERACTIVE.search(code) and "Abort" in error.split(":", 1)[0]):
        return _lowered(finding, line, Severity.NOTE, "it waits for what a reader types (a prompt); the sandbox "
                        "has no one at the keyboard")
    if (placeholder := _PLACEHOLDER.search(error)) is not None and re.search(
            rf"['\"][^'\"\n]*{re.escape(placeholder.group(0))}[^'\"\n]*['\"]", code):  # a value the doc quotes
        return _lowered(finding, line, Severity.NOT_RUNNABLE, f"the block is a sketch: `{placeholder.group(0)}` "
                        "stands for a value the reader fills in")
    if error.startswith("IndexError") and "sys.argv" in code:
        return _lowered(finding, line, Severity.NOT_RUNNABLE,
                        "a program run from the shell with arguments (it reads sys.argv); a session cannot run it "
                        "as printed")
    if finding.check == "example_mismatch" and _CLOCK.search(code):
        return _lowered(finding, line, Severity.TIME_DEPENDENT,
                        "the example reads the clock or randomness; its stated output was true when written")
    if finding.check == "example_mismatch":
        return _by_output(finding, line)
    return DocFinding(finding, line)


def _by_output(finding: Finding, line: int | None) -> DocFinding:
    """A stated output that differs only in what the day or Python 2 printed."""
    stated, got = finding.doc_text, finding.code_fact
    if _TIMESTAMP.search(stated) and output_matches(_TIMESTAMP.sub("<time>", stated), _TIMESTAMP.sub("<time>", got)):
        return _lowered(finding, line, Severity.TIME_DEPENDENT,
                        "the output differs only in its timestamps (a log line holds the time it was run at)")
    python3 = stated
    for pattern, replacement in _PY2_OUTPUT:
        python3 = pattern.sub(replacement, python3)
    if python3 != stated and output_matches(python3, got):
        return _lowered(finding, line, Severity.VERSION_DEPENDENT,
                        "the doc shows what Python 2 printed (u'' strings, 10L, <type ...>); the same under Python 3")
    return DocFinding(finding, line)


def _lowered(finding: Finding, line: int | None, to: Severity, reason: str) -> DocFinding:
    return DocFinding(lower(finding, to, reason), line)


def _placeholder_argument(code: str) -> bool:
    """Whether a call in the block passes ``...`` (``iter(...)``): a sketch's placeholder, which only the error
    naming ``'ellipsis'`` shows to be what failed (a real TypeError elsewhere names its own types)."""
    try:
        tree = compile(code, "<example>", "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
    except SyntaxError:
        return False
    return any(isinstance(node, ast.Call) and any(isinstance(a, ast.Constant) and a.value is Ellipsis
                                                  for a in [*node.args, *(k.value for k in node.keywords)])
               for node in ast.walk(tree))


def _console_shows_it(finding: Finding) -> bool:
    """The doc pasted a console's traceback: Python's printer adds "Did you mean: 'x'?" that ``str(exc)`` lacks.
    The same exception, type and message, once that is taken off; another type is still a wrong exception."""
    if "Did you mean" not in finding.doc_text:
        return False
    stated = _DID_YOU_MEAN.sub("", finding.doc_text.strip().splitlines()[-1].strip())
    actual = _traceback_tail(finding.code_fact)
    return bool(stated) and (actual == stated or actual.endswith("." + stated))


def _traceback_tail(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


def _first_line_of_message(finding: Finding) -> bool:
    """A console prints an exception's whole message; a doc that quotes its first line elides, it does not lie."""
    if finding.check not in ("example_wrong_exception", "example_raises") or not finding.doc_text.strip():
        return False
    stated = _traceback_tail(finding.doc_text)
    first = finding.code_fact.strip().splitlines()[0] if finding.code_fact.strip() else ""
    if finding.check == "example_raises" and stated == _traceback_tail(finding.code_fact):
        return True  # a doc showing a traceback's last line without its header: the same exception
    return bool(stated) and (first == stated or first.endswith("." + stated)) and "\n" in finding.code_fact.strip()


def one_per_block(found: list[DocFinding]) -> list[DocFinding]:
    """A block that does not run as printed is one finding: the first failure of each block is kept."""
    seen: set[int | None] = set()
    kept = []
    for item in found:
        if item.severity is Severity.NOT_RUNNABLE:
            if item.line in seen:
                continue
            seen.add(item.line)
        kept.append(item)
    return kept


def defined_names(steps: Sequence[Step]) -> set[str]:
    """Every name the doc's code binds anywhere (assignment, import, def, class, for, with)."""
    return {name for step in steps for name in bound_names(step.code)}
