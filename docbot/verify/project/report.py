"""Every report ``docbot verify`` and its drift gate give: what they hold, their text for the console and the
Action's summary, their ``--json`` shape, and their exit code (docs/design.md#exit-codes).

The fronts print what a report renders and return what it computes; none of them decides a code. A finding
fails a report by its severity alone (``Severity.fails``): a contradiction always, a gap, an unrunnable block or
an elided setup with ``--strict``; coverage (public API no doc names) fails only with ``--strict``.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from docbot.errors import ExitCode, outcome_code
from docbot.verify.findings import DocFinding, Severity
from docbot.verify.project.api_index import ApiName
from docbot.verify.project.suggest import OutputFix, stated_line

if TYPE_CHECKING:  # annotations only: the checks are not imported to read or print a report (issue 32)
    from docbot.verify.checks.examples import Unverified
    from docbot.verify.checks.source_doc import FunctionFindings

_SHOWN = 20  # undocumented names the console lists before "…"
_SHOWN_CLAIMS = 5  # unverified claims the console names per doc
_WITNESS_LINES = 12  # lines of a witness script the console shows (the whole script is in --json)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "es" if word.endswith("s") else "s")


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
    # the doc's examples by the (0-based) line of their block: (code, stated text) of each step; what "the same
    # block" means to the drift gate (docs/design.md#drift-gate)
    blocks: Mapping[int, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    # stated outputs no run compared (a block that ended its session, a line they need that failed, examples off):
    # the drift gate must not read "no contradiction" as "nothing false" (docs/design.md#no-blinding)
    unverified: list[Unverified] = field(default_factory=list)

    def of(self, severity: Severity) -> list[DocFinding]:
        return [f for f in self.findings if f.severity is severity]

    def to_json(self) -> dict[str, object]:
        return {"path": self.path, "references": self.references, "findings": [f.to_json() for f in self.findings],
                "unverified": [{"line": u.line, "example": u.shown, "why": u.why} for u in self.unverified]}

    def block(self, found: DocFinding) -> str:
        """The example a finding is about: the step stating its text (or, for a step that raised, the step
        itself), else its whole block ("" for a passage's claim)."""
        steps = self.blocks.get(found.finding.line if found.finding.line is not None else -1, ())
        text = found.finding.doc_text
        stating = [code for code, want in steps if want == text] or [code for code, _ in steps if code == text]
        return stating[0] if len(stating) == 1 else "\n".join(code for code, _ in steps)

    def unverified_lines(self) -> list[str]:
        """The console's line for the claims left unverified, or none."""
        if not self.unverified:
            return []
        named = "; ".join(f"line {u.line or '?'} `{u.shown}` ({u.why})" for u in self.unverified[:_SHOWN_CLAIMS])
        more = " …" if len(self.unverified) > _SHOWN_CLAIMS else ""
        return [f"  {self.path}: {_plural(len(self.unverified), 'stated output')} not verified: {named}{more}"]


@dataclass(frozen=True)
class ProjectReport:
    """Project mode: every doc's findings, and the public names no doc names (coverage)."""

    package: str
    docs: list[DocReport]
    undocumented: list[ApiName]

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
            kinds = Counter(a.kind for a in self.undocumented)
            counted = ", ".join(_plural(n, kind) for kind, n in sorted(kinds.items(),
                                                                        key=lambda item: (-item[1], item[0])))
            out.append(f"coverage: {_plural(len(self.undocumented), 'public name')} no doc names ({counted}): "
                       f"{', '.join(a.path for a in self.undocumented[:_SHOWN])}{more}")
        return out

    @property
    def unverified(self) -> int:
        """Stated outputs no run compared, over every doc (each doc names its own)."""
        return sum(len(d.unverified) for d in self.docs)

    def to_json(self) -> dict[str, object]:
        return {"package": self.package, "docs": [d.to_json() for d in self.docs],
                "undocumented": [a.path for a in self.undocumented],
                "undocumented_kinds": {a.path: a.kind for a in self.undocumented},
                "counts": {severity.value: self.count(severity) for severity in _PROJECT_SEVERITIES},
                "unverified": self.unverified}


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
    """One contradiction in a doc: where, which check, what the doc states, and the example stating it."""

    path: str
    line: int | None  # 1-based
    check: str
    message: str
    doc_text: str
    block: str = ""  # the example's code ("" for a passage's claim)

    @classmethod
    def of(cls, path: str, found: DocFinding, lines: list[str], block: str = "",
           blocks: Mapping[int, Sequence[tuple[str, str]]] | None = None) -> StaleLine:
        """Placed on the line that states what is false (a stated output), else on the finding's block;
        ``lines``: the doc as git counts its lines."""
        return cls(path, stated_line(found, lines, block if blocks else ""), str(found.check), found.finding.message,
                   found.finding.doc_text, block)

    @property
    def claim(self) -> tuple[str, str, str]:
        """What a finding is about, whatever line it moved to, whatever kind it is and whatever the code now
        gives: the doc, the example, the stated text (for a claim with none, what the finding says)."""
        return self.path, self.block.strip(), self.doc_text.strip() or (self.message if not self.block else "")

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

    changed: tuple[str, ...]  # the changed definitions, `module.qualname`
    docs: tuple[str, ...]  # the docs verified: those reaching a changed definition, and docs the diff edited
    introduced: tuple[StaleLine, ...]  # false now, not on the base side: these fail
    pre_existing: tuple[StaleLine, ...] = ()  # the base had a finding on the same claim: reported, never failing
    fixes: tuple[OutputFix, ...] = ()  # suggested fixes of the introduced stale outputs (docbot.verify.project.suggest)
    reports: tuple[DocReport, ...] = ()  # the new side's full reports (notes and gaps, for printing)
    unverified: tuple[tuple[str, int], ...] = ()  # (doc, claims) a doc reaching the change left unverified: fail
    ran_examples: bool = True  # False: a fork's PR, only the checks that run nothing
    error: str = ""  # why the gate could not judge (the Action's check mode): a failure, never a skip

    @property
    def failed(self) -> bool:
        return bool(self.introduced or self.unverified or self.error)

    def exit_code(self, others: int = ExitCode.OK) -> int:
        """1 when the diff made a doc false (or the gate could not vouch for one), else the code of what ran
        beside the gate (``check``'s docs/api)."""
        return ExitCode.FINDINGS if self.failed else others

    def lines(self, base: str) -> list[str]:
        """The console's report: why the gate could not judge, the new contradictions, the docs left
        unverified, then the contradictions the base had too."""
        out = [f"docbot: the drift gate could not judge this diff: {self.error}"] if self.error else []
        out += [f"{s.path}:{s.line or '?'}: CONTRADICTION [{s.check}] {s.message} (new in this diff)"
                for s in self.introduced]
        out += [f"{path}: UNVERIFIED {_plural(count, 'claim')} the examples' run could not check (a block timed out "
                "or ended the session); the doc uses the changed code, so the gate cannot pass it"
                for path, count in self.unverified]
        out += [f"{s.path}:{s.line or '?'}: pre-existing [{s.check}] {s.message} (not verified on {base} either; "
                "not a failure)" for s in self.pre_existing]
        return out

    def summary_line(self) -> str:
        how = "" if self.ran_examples else " (examples not run: only the checks that run nothing)"
        return (f"docbot check: drift gate: {_plural(len(self.docs), 'hand-written doc')} verified{how} (each uses "
                f"the changed code or was edited); {_plural(len(self.introduced), 'contradiction')} new in this "
                "diff" + (f", {_plural(len(self.unverified), 'doc')} left unverified." if self.unverified else "."))

    def markdown(self) -> str:
        """The Action's job-summary section: every stale line, the new ones first; "" when there is none."""
        rows = [f"- ❌ the drift gate could not judge this PR: {html.escape(self.error)}"] if self.error else []
        rows += [f"- ❌ <code>{html.escape(s.path)}:{s.line or '?'}</code>: {html.escape(s.message)}"
                 for s in self.introduced]
        rows += [f"- ❌ <code>{html.escape(path)}</code>: {_plural(count, 'claim')} left unverified (a block timed "
                 "out or ended the session)" for path, count in self.unverified]
        rows += [f"- ⚠️ <code>{html.escape(s.path)}:{s.line or '?'}</code>: {html.escape(s.message)} (not verified "
                 "on the base either: not this PR's)" for s in self.pre_existing]
        if not self.ran_examples and (rows or self.docs):
            rows.append("- ℹ️ a fork's PR: the docs' examples were not run; parameters, defaults, raises and names "
                        "were checked")
        return "## docbot: hand-written docs this PR made false\n\n" + "\n".join(rows) + "\n" if rows else ""

    def to_json(self) -> dict[str, object]:
        return {"changed": list(self.changed), "docs": list(self.docs),
                "introduced": [s.to_json() for s in self.introduced],
                "pre_existing": [s.to_json() for s in self.pre_existing], "fixes": [f.to_json() for f in self.fixes],
                "unverified": [{"path": p, "claims": n} for p, n in self.unverified],
                "ran_examples": self.ran_examples, "error": self.error}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DriftReport:
        """Back from ``to_json`` (the Action's run step writes it, its publish step reads it)."""
        fixes = tuple(OutputFix(str(f["path"]), int(f["start"]), int(f["end"]), tuple(str(n) for n in f["new"]),
                                str(f.get("message", ""))) for f in data.get("fixes") or ())
        return cls(tuple(data.get("changed") or ()), tuple(data.get("docs") or ()),
                   tuple(StaleLine.from_json(i) for i in data.get("introduced") or ()),
                   tuple(StaleLine.from_json(i) for i in data.get("pre_existing") or ()), fixes,
                   unverified=tuple((str(u["path"]), int(u["claims"])) for u in data.get("unverified") or ()),
                   ran_examples=bool(data.get("ran_examples", True)), error=str(data.get("error") or ""))
