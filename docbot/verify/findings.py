"""What every truth check reports, and the one place a finding's severity is decided (docs/design.md#severity).

Each check has a name (``Check``, the string ``--json`` prints) and one row in ``CHECKS``: the family it belongs
to and its default ``Severity``, as pydoclint keeps one table of violation codes. A finding's severity *is* its
check's default, unless a rule lowered it through ``lower``, the one documented function that may, which records
the rule's reason for the reader. Nothing else sets a severity, so "why is this a note?" has one answer: the
``reason`` that ``lower`` was given.

The loop's exact checks on a doc model (docbot.verify.checks.model), ``docbot verify`` on a page
(docbot.verify.checks.page) and on a whole project (docbot.verify.project.docs) report this one type.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum, StrEnum
from types import MappingProxyType


class Severity(Enum):
    """How much a finding weighs. Only a contradiction is fatal: the doc states what the code or a run shows
    false. The others are for a reader of the report; ``fails`` says which an exit code counts."""

    CONTRADICTION = "contradiction"  # the doc is false for the current code: blocks approval, fails verify
    NOT_RUNNABLE = "not_runnable_as_printed"  # the reader must fix the block before it runs (one per block)
    SETUP_ELIDED = "setup_elided"  # uses a name the doc never defines: setup stated in prose or left out
    GAP = "gap"  # the code has it, the doc does not say it: goes to the reviser, never blocks
    VERSION_DEPENDENT = "version_dependent"  # marked for another Python, an optional extra, or Python 2
    TIME_DEPENDENT = "time_dependent"  # the stated output held on the day it was written (clock, randomness)
    NONDETERMINISTIC = "nondeterministic"  # an output that differs between two runs of the same example
    NOTE = "note"  # worth a look, not proven either way (e.g. the examples could not run here)

    @property
    def fatal(self) -> bool:
        return self is Severity.CONTRADICTION

    @property
    def weight(self) -> int:
        """2: fails always; 1: fails with ``--strict``; 0: never fails."""
        return 2 if self is Severity.CONTRADICTION else 1 if self in _STRICT else 0

    def fails(self, strict: bool) -> bool:
        """Whether a report holding this finding exits 1: a contradiction always, the weight-1 kinds with --strict."""
        return self.weight == 2 or (strict and self.weight == 1)


_STRICT = frozenset({Severity.NOT_RUNNABLE, Severity.SETUP_ELIDED, Severity.GAP})


class Family(Enum):
    """What part of a doc a check holds to the code."""

    SOURCE = "source"
    PARAMETERS = "parameters"
    RETURNS = "returns"
    RAISES = "raises"
    EXAMPLES = "examples"
    TEXT = "text"  # text that is not documentation (docbot.verify.checks.text_rules)
    NAMES = "names"  # the API names a doc uses (project mode)


class Check(StrEnum):
    """Which check found it. A ``StrEnum``: the value is what ``--json`` prints and what a test compares."""

    SOURCE_UNREADABLE = "source_unreadable"
    INVENTED_PARAMETER = "invented_parameter"
    MISSING_PARAMETER = "missing_parameter"
    WRONG_DEFAULT = "wrong_default"
    WRONG_PARAMETER_TYPE = "wrong_parameter_type"  # a type the annotation rules out (docbot.verify.checks.claims)
    INVENTED_RETURN = "invented_return"
    WRONG_RETURN = "wrong_return"
    MISSING_RETURN = "missing_return"
    WRONG_RETURN_TYPE = "wrong_return_type"
    WRONG_RETURN_VALUE = "wrong_return_value"  # a stated value no return can give (docbot.verify.checks.claims)
    WRONG_EXCEPTION_TYPE = "wrong_exception_type"
    INVENTED_EXCEPTION = "invented_exception"
    NOT_AN_EXCEPTION = "not_an_exception"
    MISSING_EXCEPTION = "missing_exception"
    MISQUOTED_MESSAGE = "misquoted_message"
    MESSAGE_NOT_QUOTED = "message_not_quoted"
    EXAMPLE_FAILS = "example_fails"  # a doc model's example, run by the loop's runner
    EXAMPLE_MISMATCH = "example_mismatch"
    EXAMPLE_NO_EXCEPTION = "example_no_exception"
    EXAMPLE_WRONG_EXCEPTION = "example_wrong_exception"
    EXAMPLE_RAISES = "example_raises"
    EXAMPLE_ASSERT_FAILED = "example_assert_failed"
    EXAMPLE_SHOWS_FAILURE = "example_shows_failure"
    EXAMPLE_TIMEOUT = "example_timeout"
    EXAMPLE_FLOOD = "example_flood"
    EXAMPLE_CRASHED = "example_crashed"
    EXAMPLE_REBINDS = "example_rebinds"
    EXAMPLE_UNTRUSTED = "example_untrusted"
    EXAMPLE_NONDETERMINISTIC = "example_nondeterministic"
    EXAMPLES_NOT_RUN = "examples_not_run"
    ECHOED_PROMPT = "echoed_prompt"
    TEMPLATE_PLACEHOLDER = "template_placeholder"
    EMPTY_FIELD = "empty_field"
    UNRESOLVED_REFERENCE = "unresolved_reference"


@dataclass(frozen=True)
class Rule:
    family: Family
    severity: Severity  # the default; a rule may only lower it (``lower``)


def _rows(family: Family, severity: Severity, *checks: Check) -> dict[Check, Rule]:
    return {check: Rule(family, severity) for check in checks}


_C, _GAP, _NOTE = Severity.CONTRADICTION, Severity.GAP, Severity.NOTE
CHECKS: Mapping[Check, Rule] = MappingProxyType({
    **_rows(Family.SOURCE, _NOTE, Check.SOURCE_UNREADABLE),
    **_rows(Family.PARAMETERS, _C, Check.INVENTED_PARAMETER, Check.WRONG_DEFAULT, Check.WRONG_PARAMETER_TYPE),
    **_rows(Family.PARAMETERS, _GAP, Check.MISSING_PARAMETER),
    **_rows(Family.RETURNS, _C, Check.INVENTED_RETURN, Check.WRONG_RETURN, Check.WRONG_RETURN_TYPE,
            Check.WRONG_RETURN_VALUE),
    **_rows(Family.RETURNS, _GAP, Check.MISSING_RETURN),
    **_rows(Family.RAISES, _C, Check.WRONG_EXCEPTION_TYPE, Check.INVENTED_EXCEPTION, Check.NOT_AN_EXCEPTION,
            Check.MISQUOTED_MESSAGE),
    **_rows(Family.RAISES, _GAP, Check.MISSING_EXCEPTION, Check.MESSAGE_NOT_QUOTED),
    **_rows(Family.EXAMPLES, _C, Check.EXAMPLE_FAILS, Check.EXAMPLE_MISMATCH, Check.EXAMPLE_NO_EXCEPTION,
            Check.EXAMPLE_WRONG_EXCEPTION, Check.EXAMPLE_RAISES, Check.EXAMPLE_ASSERT_FAILED, Check.EXAMPLE_TIMEOUT,
            Check.EXAMPLE_FLOOD, Check.EXAMPLE_CRASHED, Check.EXAMPLE_REBINDS, Check.EXAMPLE_UNTRUSTED),
    **_rows(Family.EXAMPLES, _NOTE, Check.EXAMPLE_SHOWS_FAILURE, Check.EXAMPLES_NOT_RUN),
    **_rows(Family.EXAMPLES, Severity.NONDETERMINISTIC, Check.EXAMPLE_NONDETERMINISTIC),
    **_rows(Family.TEXT, _C, Check.ECHOED_PROMPT, Check.TEMPLATE_PLACEHOLDER, Check.EMPTY_FIELD),
    **_rows(Family.NAMES, _C, Check.UNRESOLVED_REFERENCE),
})


@dataclass(frozen=True)
class Witness:
    """The smallest run a reader can repeat to see a contradiction (docs/design.md#witness): ``script`` run as
    ``python witness.py`` at the project's root with the package importable, what the doc states, what that run
    showed, and whether it showed the contradiction again (when it did not, the finding is only a note)."""

    script: str
    stated: str
    shown: str
    reproduced: bool
    claim_line: int = 1  # the script's 1-based line where the claim starts (the lines before it are the doc's setup)

    def to_json(self) -> dict[str, object]:
        return {"script": self.script, "claim_line": self.claim_line, "stated": self.stated, "shown": self.shown,
                "reproduced": self.reproduced}


@dataclass(frozen=True)
class Finding:
    """One thing a check found about a doc, with its evidence. Its severity is the table's, or what ``lower``
    set with a reason; there is no other way to give it one."""

    check: Check
    message: str  # one line a human and the reviser can act on
    doc_text: str = ""  # the doc text it points at
    code_fact: str = ""  # the fact from the code (or a run) it contradicts or the doc leaves out
    line: int | None = None  # 0-based line of the checked text (an example's block, a passage's heading)
    where: str = ""  # for a doc model: the field, e.g. "parameters[2]", "raises[0]", "examples[1]", "returns"
    reason: str = ""  # why it weighs less than its check's default (set by ``lower``)
    lowered: Severity | None = None  # set by ``lower`` only
    witness: Witness | None = None  # project mode: the run a reader repeats (docbot.verify.checks.witness)

    @property
    def severity(self) -> Severity:
        return self.lowered if self.lowered is not None else CHECKS[self.check].severity

    @property
    def family(self) -> Family:
        return CHECKS[self.check].family

    @property
    def fatal(self) -> bool:
        return self.severity.fatal

    @property
    def evidence(self) -> str:
        """The fact that decides it (the code's, or the run's)."""
        return self.code_fact

    def to_json(self) -> dict[str, object]:
        found: dict[str, object] = {"kind": self.check.value, "severity": self.severity.value, "fatal": self.fatal,
                                    "message": self.message, "doc_text": self.doc_text, "code_fact": self.code_fact}
        return {**found, "witness": self.witness.to_json()} if self.witness is not None else found


def lower(finding: Finding, to: Severity, reason: str) -> Finding:
    """The one way a rule makes a finding weigh less than its check's default, with the reason the reader is shown.

    Every rule that turns a would-be contradiction into something else calls this (the sandbox's refusals, a
    callee that may raise, a block a reader must fix first, a doc marked for a later Python...), so a rule that
    lowers is found by searching for its callers. It can never raise a finding: nothing becomes a contradiction
    that its check does not make one, and a finding already lowered further keeps its lower weight.
    """
    if to.weight > finding.severity.weight:
        raise ValueError(f"{finding.check}: {finding.severity.value} cannot be raised to {to.value}")
    return replace(finding, lowered=to, reason=reason or finding.reason)


@dataclass(frozen=True)
class DocFinding:
    """A finding placed in a doc file: the 1-based line a person sees (an RST doc's own line, not the Markdown
    docbot read it as)."""

    finding: Finding
    line: int | None

    @property
    def severity(self) -> Severity:
        return self.finding.severity

    @property
    def check(self) -> Check:
        return self.finding.check

    @property
    def reason(self) -> str:
        return self.finding.reason

    def to_json(self) -> dict[str, object]:
        found: dict[str, object] = {
            "kind": self.severity.value, "check": self.check, "line": self.line, "reason": self.reason,
            "message": self.finding.message, "doc_text": self.finding.doc_text,
            "code_fact": self.finding.code_fact, "fails": self.severity.fatal}
        witness = self.finding.witness
        return {**found, "witness": witness.to_json()} if witness is not None else found
