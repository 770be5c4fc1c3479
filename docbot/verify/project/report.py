"""Every report ``docbot verify`` and its drift gate give: what they hold, their text for the console and the
Action's summary, their ``--json`` shape, and their exit code (docs/design.md#exit-codes).

The fronts print what a report renders and return what it computes; none of them decides a code. A finding
fails a report by its severity alone (``Severity.fails``): a contradiction always, a gap, an unrunnable block or
an elided setup with ``--strict``; coverage (public API no doc names) fails only with ``--strict``.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from docbot.errors import ExitCode, outcome_code
from docbot.verify.checks.examples import Unverified
from docbot.verify.checks.source_doc import FunctionFindings
from docbot.verify.findings import DocFinding, Severity
from docbot.verify.project.suggest import OutputFix, stated_line

_SHOWN = 20  # undocumented names the console lists before "…"
_SHOWN_CLAIMS = 5  # unverified claims the console names per doc
_WITNESS_LINES = 12  # lines of a witness script the console shows (the whole script is in --json)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def finding_line(path: str, line: int | None, found: DocFinding) -> str:
    """One finding as the console shows it: ``README.md:12: CONTRADICTION [check] message (reason)``."""
    label = "CONTRADICTION" if found.severity is Severity.CONTRADICTION else found.severity.value
    reason = f" ({found.reason})" if found.reason else ""
    return f"{path}:{line or '?'}: {label} [{found.check}] {found.finding.message}{reason}"


def witness_lines(found: DocFinding, indent: str = "    ") -> list[str]:
    """A contradiction's witness under it: the script a reader runs at the project root, the doc's statement
    and what the run showed (a long script is cut in the middle; ``--json`` has all of it)."""
    witness = found.finding.witness
    if witness is None or found.severity is not Severity.CONTRADICTION:
        return []
    script = [("> " if n >= witness.claim_line else "| ") + line
              for n, line in enumerate(witness.script.rstrip("\n").splitlines(), 1)]
    if len(script) > _WITNESS_LINES:
        cut = len(script) - _WITNESS_LINES + 2
        script = [*script[:2], f"| … {cut} more lines (--json has the whole script)", *script[2 + cut :]]
    return [f"{indent}witness (python3 at the project root; > the claim):", *(f"{indent}  {line}" for line in script),
            f"{indent}  the doc states: {_flat(witness.stated)}", f"{indent}  the run shows: {_flat(witness.shown)}"]


def _flat(text: str, limit: int = 200) -> str:
    flat = " / ".join(line.strip() for line in text.strip().splitlines() if line.strip())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


@dataclass(frozen=True)
class DocReport:
    path: str
    findings: list[DocFinding] = field(default_factory=list)
    references: int = 0  # API names the doc uses that the package has
    # stated outputs no run compared (a block that ended its session, a line they need that failed, examples off):
    # the drift gate must not read "no contradiction" as "nothing false" (docs/design.md#no-blinding)
    unverified: list[Unverified] = field(default_factory=list)

    def of(self, severity: Severity) -> list[DocFinding]:
        return [f for f in self.findings if f.severity is severity]

    def to_json(self) -> dict[str, object]:
        return {"path": self.path, "references": self.references, "findings": [f.to_json() for f in self.findings],
                "unverified": [{"line": u.line, "example": u.shown, "why": u.why} for u in self.unverified]}

    def unverified_lines(self) -> list[str]:
        """The console's line for the claims left unverified, or none."""
        if not self.unverified:
            return []
        named = "; ".join(f"line {u.line or '?'} `{u.shown}` ({u.why})" for u in self.unverified[:_SHOWN_CLAIMS])
        more = " …" if len(self.unverified) > _SHOWN_CLAIMS else ""
        return [f"  {self.path}: {_plural(len(self.unverified), 'stated output')} not verified: {named}{more}"]


@dataclass(frozen=True)
class ProjectReport:
    """Project mode: every doc's findings, and the public functions no doc names (coverage)."""

    package: str
    docs: list[DocReport]
    undocumented: list[str]

    def count(self, severity: Severity) -> int:
        return sum(len(d.of(severity)) for d in self.docs)

    @property
    def contradictions(self) -> int:
        return self.count(Severity.CONTRADICTION)

    def exit_code(self, strict: bool) -> ExitCode:
        """1 on a contradiction; with ``strict`` also on gaps, coverage, unrunnable blocks and elided setup."""
        failing = any(f.severity.fails(strict) for d in self.docs for f in d.findings)
        return outcome_code(findings=failing or (strict and bool(self.undocumented)))

    def lines(self) -> list[str]:
        """The console's report: each doc with its findings, then the coverage line."""
        out = []
        for doc in self.docs:
            out.append(f"{doc.path}: {_plural(len(doc.findings), 'finding')}, "
                       f"{_plural(doc.references, 'API name')} checked")
            for item in doc.findings:
                out += [f"  {finding_line(doc.path, item.line, item)}", *witness_lines(item)]
            out += doc.unverified_lines()
        if self.undocumented:
            more = " …" if len(self.undocumented) > _SHOWN else ""
            out.append(f"coverage: {_plural(len(self.undocumented), 'public function')} no doc names: "
                       f"{', '.join(self.undocumented[:_SHOWN])}{more}")
        return out

    @property
    def unverified(self) -> int:
        """Stated outputs no run compared, over every doc (each doc names its own)."""
        return sum(len(d.unverified) for d in self.docs)

    def to_json(self) -> dict[str, object]:
        return {"package": self.package, "docs": [d.to_json() for d in self.docs], "undocumented": self.undocumented,
                "counts": {severity.value: self.count(severity) for severity in _PROJECT_SEVERITIES},
                "unverified": self.unverified}

    def staged_lines(self, texts: Mapping[str, str]) -> tuple[list[str], str, ExitCode]:
        """The ``docbot-verify`` hook's report: each finding on the line that states what is false (``texts``: each
        doc as on disk), a last line, and the exit code (only a contradiction refuses the commit)."""
        out = [finding_line(doc.path, stated_line(item, texts[doc.path].splitlines()), item)
               for doc in self.docs for item in doc.findings]
        names = ", ".join(d.path for d in self.docs)
        if self.contradictions:
            return out, (f"docbot verify: {self.contradictions} contradiction(s) in {names}: the doc is false for "
                         "the staged code. Fix the doc, or the code if the doc is right (`docbot verify --suggest` "
                         "prints a patch for stale outputs)."), ExitCode.FINDINGS
        return out, f"docbot verify: {names}: no contradiction.", ExitCode.OK


# The severities project mode reports (a nondeterministic output is read as time-dependent or a note there).
_PROJECT_SEVERITIES = tuple(s for s in Severity if s is not Severity.NONDETERMINISTIC)


_LABELS = {Severity.CONTRADICTION: "CONTRADICTION"}


@dataclass(frozen=True)
class PairReport:
    """``docbot verify SOURCE DOC``: each public function's findings, in source order."""

    functions: Sequence[FunctionFindings]

    def exit_code(self, strict: bool) -> ExitCode:
        """1 on a contradiction or a function with no section; gaps count only with ``strict``."""
        missing = any(not f.section_found for f in self.functions)
        failing = any(finding.severity.fails(strict) for f in self.functions for finding in f.findings)
        return outcome_code(findings=missing or failing)

    def lines(self) -> list[str]:
        out = []
        for item in self.functions:
            state = "no section found in the doc" if not item.section_found else _plural(len(item.findings),
                                                                                        "finding")
            out.append(f"{item.qualname}: {state}")
            out += [f"  {_LABELS.get(f.severity, f.severity.value)} [{f.check}] {f.message}" for f in item.findings]
        return out

    def to_json(self) -> dict[str, object]:
        return {"functions": [f.to_json() for f in self.functions]}


@dataclass(frozen=True)
class StaleLine:
    """One contradiction in a doc: where, which check, and what the doc states."""

    path: str
    line: int | None  # 1-based
    check: str
    message: str
    doc_text: str

    @classmethod
    def of(cls, path: str, found: DocFinding, lines: list[str]) -> StaleLine:
        """Placed on the line that states what is false (a stated output), else on the finding's block."""
        return cls(path, stated_line(found, lines), str(found.check), found.finding.message,
                   found.finding.doc_text)

    @property
    def claim(self) -> tuple[str, str, str]:
        """What a contradiction is about, whatever line it moved to and whatever the code now gives."""
        return self.path, self.check, self.doc_text.strip() or self.message

    def to_json(self) -> dict[str, object]:
        return {"path": self.path, "line": self.line, "check": self.check, "message": self.message,
                "doc_text": self.doc_text}

    @classmethod
    def from_json(cls, item: Mapping[str, Any]) -> StaleLine:
        return cls(str(item["path"]), item.get("line"), str(item["check"]), str(item["message"]),
                   str(item.get("doc_text", "")))


@dataclass(frozen=True)
class DriftReport:
    """The drift gate's verdict: what the diff made false in the hand-written docs (docs/design.md#drift-gate)."""

    changed: tuple[str, ...]  # the changed functions, `module.qualname`
    docs: tuple[str, ...]  # the docs verified: those mentioning a changed function, and docs the diff edited
    introduced: tuple[StaleLine, ...]  # false now, not on the base side: these fail
    pre_existing: tuple[StaleLine, ...] = ()  # false on both sides: reported, never failing
    fixes: tuple[OutputFix, ...] = ()  # suggested fixes of the introduced stale outputs (docbot.verify.project.suggest)
    reports: tuple[DocReport, ...] = ()  # the new side's full reports (notes and gaps, for printing)

    @property
    def failed(self) -> bool:
        return bool(self.introduced)

    def exit_code(self, others: int = ExitCode.OK) -> int:
        """1 when the diff made a doc false, else the code of what ran beside the gate (``check``'s docs/api)."""
        return ExitCode.FINDINGS if self.failed else others

    def lines(self, base: str) -> list[str]:
        """The console's report: the new contradictions, then those the base had too."""
        out = [f"{s.path}:{s.line or '?'}: CONTRADICTION [{s.check}] {s.message} (new in this diff)"
               for s in self.introduced]
        out += [f"{s.path}:{s.line or '?'}: pre-existing [{s.check}] {s.message} (false on {base} too; not a "
                "failure)" for s in self.pre_existing]
        return out

    def summary_line(self) -> str:
        return (f"docbot check: drift gate: {_plural(len(self.docs), 'hand-written doc')} verified (each mentions a "
                f"changed function or was edited); {_plural(len(self.introduced), 'contradiction')} new in this "
                "diff.")

    def markdown(self) -> str:
        """The Action's job-summary section: every stale line, the new ones first; "" when there is none."""
        if not self.introduced and not self.pre_existing:
            return ""
        rows = [f"- ❌ <code>{html.escape(s.path)}:{s.line or '?'}</code>: {html.escape(s.message)}"
                for s in self.introduced]
        rows += [f"- ⚠️ <code>{html.escape(s.path)}:{s.line or '?'}</code>: {html.escape(s.message)} (false on the "
                 "base too: not this PR's)" for s in self.pre_existing]
        return "## docbot: hand-written docs this PR made false\n\n" + "\n".join(rows) + "\n"

    def to_json(self) -> dict[str, object]:
        return {"changed": list(self.changed), "docs": list(self.docs),
                "introduced": [s.to_json() for s in self.introduced],
                "pre_existing": [s.to_json() for s in self.pre_existing], "fixes": [f.to_json() for f in self.fixes]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DriftReport:
        """Back from ``to_json`` (the Action's run step writes it, its publish step reads it)."""
        fixes = tuple(OutputFix(str(f["path"]), int(f["start"]), int(f["end"]), tuple(str(n) for n in f["new"]),
                                str(f.get("message", ""))) for f in data.get("fixes") or ())
        return cls(tuple(data.get("changed") or ()), tuple(data.get("docs") or ()),
                   tuple(StaleLine.from_json(i) for i in data.get("introduced") or ()),
                   tuple(StaleLine.from_json(i) for i in data.get("pre_existing") or ()), fixes)
