"""The two values every truth check speaks in: a Finding, and how to run a doc's examples."""

from __future__ import annotations

from dataclasses import dataclass

from docbot.settings import ExampleSandbox


@dataclass(frozen=True)
class Finding:
    """One contradiction between a doc and the code, with its evidence."""

    kind: str  # e.g. "invented_parameter", "wrong_exception_type", "example_mismatch"
    message: str  # one line a human and the reviser can act on
    doc_text: str = ""  # the doc text it points at
    code_fact: str = ""  # the fact from the code it contradicts
    fatal: bool = True


@dataclass(frozen=True)
class ExampleContext:
    """How to import the documented function when running a doc's examples.

    The examples get ``from <module> import <top-level name>`` for free (the class, for a method) and
    run in one sandboxed subprocess per doc with ``sys_path`` in front of ``sys.path``; ``sandbox`` says
    whether they may run under the in-process guard alone where no OS boundary can be made.
    """

    module: str
    sys_path: tuple[str, ...]
    timeout_s: float = 10.0
    memory_mb: int = 512
    sandbox: ExampleSandbox = "os"
