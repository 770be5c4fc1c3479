"""The values every truth check speaks in: a Finding (with its kind), and how to run a doc's examples."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

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


@dataclass(frozen=True)
class Finding:
    """One thing the checks found about a doc, with its evidence."""

    kind: str  # which check: "invented_parameter", "missing_exception", "example_mismatch", ...
    message: str  # one line a human and the reviser can act on
    doc_text: str = ""  # the doc text it points at
    code_fact: str = ""  # the fact from the code it contradicts or the doc leaves out
    severity: FindingKind = FindingKind.CONTRADICTION
    line: int | None = None  # for example findings: the doc line (0-based) of the example

    @property
    def fatal(self) -> bool:
        return self.severity is FindingKind.CONTRADICTION

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "severity": self.severity.value, "fatal": self.fatal,
                "message": self.message, "doc_text": self.doc_text, "code_fact": self.code_fact}


def gap(kind: str, message: str, code_fact: str = "") -> Finding:
    return Finding(kind, message, "", code_fact, FindingKind.GAP)


def note(kind: str, message: str, doc_text: str = "", code_fact: str = "") -> Finding:
    return Finding(kind, message, doc_text, code_fact, FindingKind.NOTE)


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
