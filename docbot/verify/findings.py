"""The values every truth check speaks in: one ``Finding`` type, its name and its kind, and how to run a
doc's examples.

The loop's exact checks on a doc model (docbot.verify.model_check) and ``docbot verify`` on a page
(docbot.verify.check) report the same type with the same names, so a rule reads the same wherever it
fires (docs/design.md#truth-checks). The names' values are the strings of ``--json`` output.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum

from docbot.config.choices import ExampleSandbox


class FindingKind(Enum):
    """How much a finding weighs (docs/design.md, truth checks).

    Only a contradiction is fatal: the doc states something the code or an execution shows false.
    A gap is something the code has and the doc does not say; it goes to the reviser and lowers the
    completeness, but an omission is never false, so it never blocks approval.
    """

    CONTRADICTION = "contradiction"  # fatal
    GAP = "gap"  # the code has it, the doc does not say it
    NOTE = "note"  # worth a look, not proven either way (e.g. the examples could not run here)
    NONDETERMINISTIC = "nondeterministic"  # an output that differs between two runs of the same example


class FindingName(StrEnum):
    """Which check found it. A ``StrEnum``: the value is what ``--json`` prints and what a test compares."""

    SOURCE_UNREADABLE = "source_unreadable"
    # parameters and defaults
    INVENTED_PARAMETER = "invented_parameter"
    MISSING_PARAMETER = "missing_parameter"
    WRONG_DEFAULT = "wrong_default"
    # the return value
    INVENTED_RETURN = "invented_return"
    WRONG_RETURN = "wrong_return"
    MISSING_RETURN = "missing_return"
    WRONG_RETURN_TYPE = "wrong_return_type"
    # exceptions
    WRONG_EXCEPTION_TYPE = "wrong_exception_type"
    INVENTED_EXCEPTION = "invented_exception"
    NOT_AN_EXCEPTION = "not_an_exception"
    MISSING_EXCEPTION = "missing_exception"
    MISQUOTED_MESSAGE = "misquoted_message"
    MESSAGE_NOT_QUOTED = "message_not_quoted"
    # examples
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
    # text that is not documentation (docbot.verify.text_rules)
    ECHOED_PROMPT = "echoed_prompt"
    TEMPLATE_PLACEHOLDER = "template_placeholder"
    EMPTY_FIELD = "empty_field"
    # project mode (docbot.verify.project)
    UNRESOLVED_REFERENCE = "unresolved_reference"


@dataclass(frozen=True)
class Finding:
    """One thing the checks found about a doc, with its evidence."""

    kind: FindingName  # which check
    message: str  # one line a human and the reviser can act on
    doc_text: str = ""  # the doc text it points at
    code_fact: str = ""  # the fact from the code (or a run) it contradicts or the doc leaves out
    severity: FindingKind = FindingKind.CONTRADICTION
    line: int | None = None  # for example findings: the doc line (0-based) of the example
    where: str = ""  # for a doc model: the field, e.g. "parameters[2]", "raises[0]", "examples[1]", "returns"
    reason: str = ""  # for a note: why it is not a contradiction (e.g. what the sandbox refused)

    @property
    def fatal(self) -> bool:
        return self.severity is FindingKind.CONTRADICTION

    @property
    def evidence(self) -> str:
        """The fact that decides it (the code's, or the run's)."""
        return self.code_fact

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind.value, "severity": self.severity.value, "fatal": self.fatal,
                "message": self.message, "doc_text": self.doc_text, "code_fact": self.code_fact}


def gap(kind: FindingName, message: str, code_fact: str = "") -> Finding:
    return Finding(kind, message, "", code_fact, FindingKind.GAP)


def note(kind: FindingName, message: str, doc_text: str = "", code_fact: str = "") -> Finding:
    return Finding(kind, message, doc_text, code_fact, FindingKind.NOTE)


def model_finding(kind: FindingName, severity: FindingKind, message: str, evidence: str, where: str) -> Finding:
    """A finding about one field of a doc model: no doc text, the field in ``where``."""
    return Finding(kind, message, "", evidence, severity, where=where)


@dataclass(frozen=True)
class ExampleContext:
    """How to import the documented module when running a doc's examples.

    The examples run in a copy of the module's namespace, with the module bound to its own name and
    its package importable, in one sandboxed subprocess per doc with ``sys_path`` in front of
    ``sys.path``; ``sandbox`` says whether they may run under the in-process guard alone where no OS
    boundary can be made.
    """

    module: str
    sys_path: tuple[str, ...]
    timeout_s: float = 10.0
    memory_mb: int = 512
    sandbox: ExampleSandbox = "os"
