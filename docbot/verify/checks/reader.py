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

from docbot.sandbox.judge import same_message
from docbot.sandbox.step import Step
from docbot.verify.checks.environment import bound_names, surely_bound
from docbot.verify.checks.reader_output import by_output
from docbot.verify.checks.sketch import passes_ellipsis
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
# What only Python 2's messages say (future's bytes_object.rst: "TypeError: argument can't be unicode string")
_PY2_MESSAGE = re.compile(r"<type '|\bunicode (?:string|object|argument)|\bunorderable types\b|, found unicode\b")
_EXTRA = re.compile(r"pip install\s+['\"]?[\w.-]+\[([\w,.-]+)\]")
_PYTHON2 = re.compile(r"Did you mean \"print\(|Missing parentheses in call to '(?:print|exec)'|"
                      r"unsupported operand type\(s\) for >>: 'builtin_function_or_method'|"
                      r"multiple exception types must be parenthesized|leading zeros in decimal integer literals|"
                      r"NameError: name '(?:unicode|xrange|basestring|raw_input|unichr|execfile)' is not defined|"
                      r"'dict' object has no attribute '(?:iteritems|itervalues|iterkeys|has_key)'")
# An error that says the code runs outside what it is meant for: flask's "Working outside of application context."
# beartype's claw hook: "Top-level script ... resides outside package structure" (it is meant for a package's
# __init__)
_CONTEXT = re.compile(r"\boutside (?:of )?(?:an? |the )?[\w-]+ context\b|\bno (?:running|current) event loop\b|"
                      r"\boutside (?:of )?(?:an? |the )?package(?: structure)?\b", re.IGNORECASE)
_INTERACTIVE = re.compile(r"\b(?:input|prompt|confirm|getpass|pause)\s*\(")
# A value a sketch leaves for the reader, quoted back by the error: PROXYSERVER:PROXYPORT, YOUR_API_KEY, <token>
_PLACEHOLDER = re.compile(r"(?<![\w.])(?:[A-Z][A-Z0-9]{3,}(?:[_:][A-Z0-9]+)+|<[a-z][\w -]*>|(?i:your[_-][a-z_]+))"
                          r"(?![\w.])")
_NOT_AWAITABLE = re.compile(r"^TypeError: object [\w.]+ can't be used in 'await' expression")
_AWAITED = re.compile(r"\bawait\s+([A-Za-z_]\w*)\.")
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
    return _by_error(finding, code, steps, defined, line)


def _by_error(finding: Finding, code: str, steps: Sequence[Step], defined: set[str], line: int | None) -> DocFinding:
    error = finding.code_fact
    if _PYTHON2.search(error):
        return _lowered(finding, line, Severity.VERSION_DEPENDENT, "Python 2 code: it runs only there")
    if finding.check == "example_wrong_exception" and _PY2_MESSAGE.search(finding.doc_text):
        return _lowered(finding, line, Severity.VERSION_DEPENDENT, "the doc shows Python 2's message (a `<type "
                        "...>`, a unicode string, unorderable types); Python 3 words it otherwise")
    if error.startswith("SystemExit"):
        return _lowered(finding, line, Severity.NOT_RUNNABLE,
                        "a program run from the shell (it exits); a session cannot run it as printed")
    if error.startswith(_SYNTAX) or (finding.check == "example_raises" and "SyntaxError" in finding.message):
        return _lowered(finding, line, Severity.NOT_RUNNABLE,
                        "the block does not parse as printed; a reader must join or fix its lines")
    if "'ellipsis'" in error and _placeholder_argument(code):
        return _lowered(finding, line, Severity.NOT_RUNNABLE,
                        "the block is a sketch: `...` stands for an argument the reader fills in")
    if (undefined := _UNDEFINED.search(error)) is not None:
        return _undefined(finding, undefined.group(1), steps, defined, line)
    if _CONTEXT.search(error):
        return _lowered(finding, line, Severity.SETUP_ELIDED, "it needs a context the doc leaves to the reader (an "
                        "application's, a request's, a running event loop, a package's): the code is meant to run "
                        "inside it")
    if error.startswith(("EOFError", "click.exceptions.Abort", "Abort")) or (
            _INTERACTIVE.search(code) and "Abort" in error.split(":", 1)[0]):
        return _lowered(finding, line, Severity.NOTE, "it waits for what a reader types (a prompt); the sandbox "
                        "has no one at the keyboard")
    if (placeholder := _PLACEHOLDER.search(error)) is not None and re.search(
            rf"['\"][^'\"\n]*{re.escape(placeholder.group(0))}[^'\"\n]*['\"]", code):  # a value the doc quotes
        return _lowered(finding, line, Severity.NOT_RUNNABLE, f"the block is a sketch: `{placeholder.group(0)}` "
                        "stands for a value the reader fills in")
    if _NOT_AWAITABLE.match(error) and (other := _made_elsewhere(finding, steps)) is not None:
        return _lowered(finding, line, Severity.SETUP_ELIDED, f"it awaits methods of `{other}`, which only an "
                        "earlier block makes, and not as an asynchronous object: this block is written for one it "
                        "leaves to the reader")
    if error.startswith("IndexError") and "sys.argv" in code:
        return _lowered(finding, line, Severity.NOT_RUNNABLE,
                        "a program run from the shell with arguments (it reads sys.argv); a session cannot run it "
                        "as printed")
    if finding.check == "example_mismatch" and _CLOCK.search(code):
        return _lowered(finding, line, Severity.TIME_DEPENDENT,
                        "the example reads the clock or randomness; its stated output was true when written")
    if finding.check == "example_mismatch":
        return by_output(finding, line)
    return DocFinding(finding, line)


def _undefined(finding: Finding, name: str, steps: Sequence[Step], defined: set[str],
               line: int | None) -> DocFinding:
    """A NameError: setup the doc leaves out, a name used before it is bound, or a fragment of code the doc shows
    inside a function, a loop or a branch (flask's ``db``, bound in ``get_db()``; wsproto's ``event``, bound by
    ``for event in ws.events():``), which a reader reads as a piece of that code, not as a script."""
    if name not in defined:
        return _lowered(finding, line, Severity.SETUP_ELIDED, f"`{name}` is never defined in the doc: setup it "
                        "leaves to the reader (declare it with the docs_setup setting)")
    if name not in {bound for step in steps for bound in surely_bound(step.code)}:
        return _lowered(finding, line, Severity.SETUP_ELIDED, f"`{name}` is bound only inside a function, a loop "
                        "or a branch the doc shows: this block is a fragment of that code")
    if name not in {bound for s in steps if finding.line is not None and s.line < finding.line
                    for bound in bound_names(s.code)}:
        return _lowered(finding, line, Severity.NOT_RUNNABLE, f"it uses `{name}` before the doc defines it: a "
                        "reader who runs the doc in order gets a NameError")
    return DocFinding(finding, line)


def _made_elsewhere(finding: Finding, steps: Sequence[Step]) -> str | None:
    """The object a block awaits methods of without making it (redis's README: "The async client mirrors this
    exactly:" over ``await r.himport_prepare(...)``, its ``r`` the synchronous client of an earlier block)."""
    own = {name for step in steps if step.line == finding.line for name in bound_names(step.code)}
    return next((name for name in _AWAITED.findall(finding.doc_text) if name not in own), None)


def _lowered(finding: Finding, line: int | None, to: Severity, reason: str) -> DocFinding:
    return DocFinding(lower(finding, to, reason), line)


def _placeholder_argument(code: str) -> bool:
    """Whether a call in the block passes ``...`` (``iter(...)``): a sketch's placeholder, which only the error
    naming ``'ellipsis'`` shows to be what failed (a real TypeError elsewhere names its own types)."""
    try:
        tree = compile(code, "<example>", "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
    except SyntaxError:
        return False
    return any(isinstance(node, ast.Call) and passes_ellipsis(node) for node in ast.walk(tree))


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
    if finding.check == "example_raises" and _same_line(stated, _traceback_tail(finding.code_fact)):
        return True  # a doc showing a traceback's last line without its header: the same exception
    return bool(stated) and (first == stated or first.endswith("." + stated)) and "\n" in finding.code_fact.strip()


def _same_line(stated: str, actual: str) -> bool:
    """One exception's line, its type maybe qualified, its message as a person writes it: a KeyError prints its
    key's repr (python-docx's ``KeyError: no latent style with name 'List Bullet'`` is the same error)."""
    kind, _, message = actual.partition(": ")
    stated_kind, _, stated_message = stated.partition(": ")
    return stated == actual or (bool(message) and (kind == stated_kind or kind.endswith("." + stated_kind))
                                and same_message(stated_message, message))


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
