"""Suggested fixes: a stale stated output in a doc replaced with what the example really gives, as a patch a
person applies (``git apply``) or a GitHub suggestion they commit (docs/design.md#drift-gate).

Never applied by docbot: when an example's output changed, the code may be what is wrong. A fix is offered only
where it is safe to offer: a contradiction (not a note, not a time-dependent output) of a stated output
(``example_mismatch``, which the example check runs twice and keeps only when both runs agree,
docbot.verify.checks.examples), whose real output looks like no clock, address or id, and whose stated text is
found in the doc after the example's own code (never on a code line that happens to read the same). The patch
keeps the doc's line ends and indentation, and counts lines as git does: only ``\n`` ends one (a form feed or
U+2028 in a doc does not move a suggestion or an annotation).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from docbot.verify.findings import Check, DocFinding, Severity

# Outputs that hold only on the run that printed them: dates, times, memory addresses, UUIDs, long hex ids.
_UNSTABLE = re.compile(r"\d{4}-\d{2}-\d{2}|\b\d{1,2}:\d{2}:\d{2}\b|0x[0-9a-fA-F]{6,}|"
                       r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{12,}\b")
_WINDOW = 60  # lines after the example's own line where its stated output may be (an output block follows it)


@dataclass(frozen=True)
class OutputFix:
    """Replace lines ``start..end`` (1-based, inclusive) of ``path`` with ``new`` (each with its line end)."""

    path: str
    start: int
    end: int
    new: tuple[str, ...]
    message: str  # the contradiction it answers

    @property
    def text(self) -> str:
        """The new lines without their ends: a GitHub suggestion block's body."""
        return "\n".join(line.rstrip("\r\n") for line in self.new)

    def to_json(self) -> dict[str, object]:
        return {"path": self.path, "start": self.start, "end": self.end, "new": list(self.new),
                "message": self.message}


def suggestable(found: DocFinding) -> bool:
    """A stated output the code now contradicts, deterministic and free of clock- or id-looking text."""
    finding = found.finding
    if found.severity is not Severity.CONTRADICTION or finding.check != Check.EXAMPLE_MISMATCH:
        return False
    got, want = finding.code_fact, finding.doc_text
    if not got.strip() or not want.strip() or "\n\n" in got.strip("\n"):
        return False  # nothing printed, or a blank line a doctest would need as <BLANKLINE>
    return not (_UNSTABLE.search(got) or _UNSTABLE.search(want))


def git_lines(text: str) -> list[str]:
    """``text`` split as git counts lines (at ``\n`` only), each with its end."""
    lines = text.split("\n")
    return [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])


def fixes_for(path: str, findings: Sequence[DocFinding], text: str,
              blocks: Mapping[int, Sequence[tuple[str, str]]] | None = None) -> list[OutputFix]:
    """The fixes for one doc's findings (``text``: the doc as on disk; ``blocks``: its examples by block, as
    ``DocReport.blocks`` holds them), at most one per line, in line order."""
    lines = git_lines(text)
    fixes: list[OutputFix] = []
    taken: set[int] = set()
    for found in findings:
        if not suggestable(found) or found.line is None:
            continue
        fix = _locate(path, lines, found, _code_of(found, blocks))
        if fix is not None and not taken & set(range(fix.start, fix.end + 1)):
            taken |= set(range(fix.start, fix.end + 1))
            fixes.append(fix)
    return sorted(fixes, key=lambda f: f.start)


def stated_line(found: DocFinding, lines: list[str], code: str = "") -> int | None:
    """The 1-based line of the doc that states an example's output (what a person edits), or the finding's own
    line (its block) when the stated text is not found after it. ``lines``: the doc split as git counts lines
    (``git_lines``); ``code``: the example's code, which the stated text follows."""
    if found.finding.check != Check.EXAMPLE_MISMATCH or not found.finding.doc_text.strip() or not found.line:
        return found.line
    fix = _locate("", lines, found, code)
    return found.line if fix is None else fix.start


def _code_of(found: DocFinding, blocks: Mapping[int, Sequence[tuple[str, str]]] | None) -> str:
    steps = (blocks or {}).get(found.finding.line if found.finding.line is not None else -1, ())
    stating = [code for code, want in steps if want == found.finding.doc_text]
    return stating[0] if len(stating) == 1 else ""


def _after_code(lines: list[str], first: int, code: str) -> int:
    """The first line after the example's code (its last line found at or after ``first``), else ``first``:
    the stated output follows the code, and a code line equal to it is not it."""
    last = next((_unprompted(line) for line in reversed(code.strip("\n").split("\n")) if line.strip()), "")
    if not last:
        return first
    for i in range(first, min(len(lines), first + _WINDOW)):
        if _unprompted(lines[i]) == last:
            return i + 1
    return first


def _unprompted(line: str) -> str:
    text = line.strip()
    return text[4:].strip() if text.startswith((">>> ", "... ")) else text.strip()


def _stated_block(lines: list[str], first: int, want: list[str]) -> int | None:
    for i in range(first, min(len(lines), first + _WINDOW) - len(want) + 1):
        if lines[i].lstrip().startswith((">>>", "...")):
            continue  # a prompt line is code, never the stated output
        if all(lines[i + k].strip() == w.strip() for k, w in enumerate(want)):
            return i
    return None


def _locate(path: str, lines: list[str], found: DocFinding, code: str = "") -> OutputFix | None:
    want = found.finding.doc_text.strip("\n").split("\n")
    got = found.finding.code_fact.strip("\n").split("\n")
    start = max(0, (found.line or 1) - 1)
    i = _stated_block(lines, _after_code(lines, start, code), want)
    if i is not None:
        indent = _indent(lines[i])[: max(0, len(_indent(lines[i])) - len(_indent(want[0])))]
        ends = [_end(lines[i + min(k, len(want) - 1)]) for k in range(len(got))]
        return OutputFix(path, i + 1, i + len(want), tuple(indent + g + e for g, e in zip(got, ends)),
                         found.finding.message)
    if len(want) == 1 and len(got) == 1:  # a comment claim on the example's own line: `f(1)  # -> 3`
        for i in range(start, min(len(lines), start + _WINDOW)):
            at = lines[i].rfind(want[0].strip())
            if at > 0 and "#" in lines[i][:at]:
                body = lines[i].rstrip("\r\n")
                new = body[:at] + got[0] + body[at + len(want[0].strip()):] + _end(lines[i])
                return OutputFix(path, i + 1, i + 1, (new,), found.finding.message)
    return None


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _end(line: str) -> str:
    return line[len(line.rstrip("\r\n")):]


def patch(path: str, text: str, fixes: Sequence[OutputFix]) -> str:
    """A unified diff (``a/PATH``, ``b/PATH``) that makes the fixes; "" when there are none."""
    old = git_lines(text)
    new = list(old)
    for fix in sorted(fixes, key=lambda f: f.start, reverse=True):
        new[fix.start - 1 : fix.end] = list(fix.new)
    if new == old:
        return ""
    out = []
    for line in difflib.unified_diff(old, new, f"a/{path}", f"b/{path}"):
        # difflib leaves a last line without its end as it is; git wants its marker on the next line
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)
