"""A doc's examples run as its reader runs them, in project mode: the session, each contradiction held to its
witness, and the claims no run could compare (docs/design.md#witness, docs/design.md#no-blinding).

The session (docbot.verify.checks.examples.run_session) goes on past a block that sleeps past the time limit or
ends the interpreter; each of its findings is read as the doc's reader meets it (docbot.verify.checks.reader);
each contradiction it leaves, and each name the package's source lacks, is run again as its witness
(docbot.verify.checks.witness) and lowered to a note when the witness does not show it. A claim no run compared
(its block ended early, an earlier line it needs failed, the examples did not run) is named in the doc's report, so
the drift gate can tell "nothing false" from "nothing checked".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from docbot.sandbox.step import Step
from docbot.verify.checks.environment import bound_names
from docbot.verify.checks.examples import ExampleContext, Session, Unverified, run_session
from docbot.verify.checks.reader import classify
from docbot.verify.checks.sketch import sketched_by
from docbot.verify.checks.witness import held, needs_witness, replay
from docbot.verify.checks.witness_plans import Plan, for_name, for_signature, for_step
from docbot.verify.findings import Check, DocFinding, Finding, Severity, lower
from docbot.verify.read.references import Reference


_UNDEFINED = re.compile(r"NameError: name '(\w+)' is not defined")
_NO_ATTRIBUTE = re.compile(r"AttributeError: '(?:function|builtin_function_or_method|module)' object has no attribute")


@dataclass(frozen=True)
class DocRun:
    """What running one doc's examples found, and what it left unverified."""

    findings: list[DocFinding] = field(default_factory=list)
    unverified: list[Unverified] = field(default_factory=list)
    session: Session = field(default_factory=Session)
    ran: list[Step] = field(default_factory=list)  # the steps the session ran (with an import the doc left out)
    witnesses: int = 0  # witness processes started


@dataclass(frozen=True)
class DocText:
    """The doc as the rules read it: its lines, the names it binds, and where each of its lines is in the file."""

    lines: list[str]
    defined: set[str]
    line_of: dict[int, int]


def run_doc(ran: Sequence[Step], steps: Sequence[Step], context: ExampleContext, text: DocText,
            own_import: Callable[[str], str | None] = lambda name: None, name: str = "__build_class__") -> DocRun:
    """Run ``ran`` (the doc's ``steps`` after its ``docs_setup`` step, if any) and judge each finding.

    A block that uses one of the package's own public names the doc never imports (``own_import`` gives the
    import line, or None for a name that is not the package's) is not runnable as printed: a reader who pastes it
    gets a NameError. It is reported so, with the import, and the doc runs again with that import first, so that
    what it states is still compared (no blinding).
    """
    session = run_session(list(ran), name, context)
    left_out = _left_out(ran, session, own_import)
    advice = {line.split()[-1]: _not_imported(ran[i], line, text.line_of) for i, line in left_out.items()}
    if left_out:
        first = Step("\n".join(dict.fromkeys(left_out.values())), "none", fatal=False,
                     shown="the package's own import, which the doc leaves out", line=ran[0].line)
        ran = [first, *ran]
        session = run_session(list(ran), name, context)
    judged: dict[int, DocFinding] = {}
    found: list[DocFinding] = []
    witnesses, wrong = 0, set[str]()  # the names whose added import failed: no advice to add it
    for index, finding in session.judged:
        item = classify(finding, steps, text.lines, text.defined, text.line_of)
        if item is None:
            continue
        if advice and index is not None and (guess := _guess_failed(item, ran[index], set(advice))) is not None:
            item, wrong = guess[0], wrong | {guess[1]}
        if index is not None:
            item = _sketched(item, ran, index, session)
        plan = for_step(ran, session, index) if index is not None and needs_witness(item) else None
        if plan is not None:
            item, witnesses = held(item, replay(plan, context)), witnesses + 1
        found.append(item)
        if index is not None:
            judged[index] = item
    found = [item for name, item in advice.items() if name not in wrong] + found
    return DocRun(found, unverified(ran, session, judged, text.line_of), session, list(ran), witnesses)


def _sketched(item: DocFinding, ran: Sequence[Step], index: int, session: Session) -> DocFinding:
    """A contradiction that depends on a ``...`` the doc leaves to the reader is a sketch's (docbot.verify.checks.
    sketch): not runnable as printed."""
    result = session.results.get(index, {})
    if item.severity is not Severity.CONTRADICTION or (
            source := sketched_by(ran, index, result.get("line"), item.finding.code_fact)) is None:
        return item
    return DocFinding(lower(item.finding, Severity.NOT_RUNNABLE, f"the block is a sketch: `...` in `{source}` "
                            "stands for an argument the reader fills in"), item.line)


def _left_out(ran: Sequence[Step], session: Session, own_import: Callable[[str], str | None]) -> dict[int, str]:
    """The first step to use each package name no step before it binds (the doc may import it further down, as
    tenacity's README imports `stop_after_attempt` after using it) -> the import a reader must add."""
    first: dict[str, int] = {}
    for index in sorted(session.results):
        found = _UNDEFINED.match(session.results[index].get("error", ""))
        if found is None or found.group(1) in first:
            continue
        if not any(found.group(1) in bound_names(step.code) for step in ran[:index]):
            first[found.group(1)] = index
    return {index: line for name, index in first.items() if (line := own_import(name)) is not None}


def _guess_failed(item: DocFinding, step: Step, guessed: set[str]) -> tuple[DocFinding, str] | None:
    """A doc whose ``command.main(...)`` fails on click's function ``command`` uses an object of its own named so
    (made on another page): the import docbot added for the name was a guess, and the failure is the guess's (so
    is the advice to add that import). The finding lowered and the name; None when the failure is not the guess's."""
    if item.severity is not Severity.CONTRADICTION or not _NO_ATTRIBUTE.match(item.finding.code_fact):
        return None
    name = next((n for n in sorted(guessed) if re.search(rf"(?<![\w.]){re.escape(n)}\.\w", step.code)), None)
    if name is None:
        return None
    return DocFinding(lower(item.finding, Severity.SETUP_ELIDED, f"`{name}` is an object the doc made elsewhere, "
                            f"named like the package's `{name}`: the import added for it was a guess"), item.line), name


def _not_imported(step: Step, line: str, line_of: dict[int, int]) -> DocFinding:
    name = line.split()[-1]
    finding = Finding(Check.EXAMPLE_RAISES, f"example `{_shown(step)}` uses `{name}`, which the doc has not "
                      f"imported by then: a reader who pastes it gets NameError", step.code,
                      f"NameError: name '{name}' is not defined", line=step.line)
    return DocFinding(lower(finding, Severity.NOT_RUNNABLE, f"not runnable as printed: add `{line}`"),
                      line_of.get(step.line, step.line + 1))


def name_witnesses(found: Sequence[DocFinding], references: Sequence[Reference], run: DocRun,
                   context: ExampleContext, package: str, modules: Sequence[str], lines: list[str],
                   locate: Callable[[str], str | None] = lambda qualname: None) -> list[DocFinding]:
    """Each unresolved name held to the live object it names, and each parameter or default a passage states held
    to the live signature (``locate``: the module that defines a qualname), with its witness; the others as they
    are."""
    by_name: dict[str, Reference] = {}
    for ref in references:
        by_name.setdefault(ref.dotted, ref)  # the first use, as the finding reports it
    out = []
    for item in found:
        plan = None
        if not needs_witness(item):
            pass
        elif item.check is Check.UNRESOLVED_REFERENCE and item.finding.doc_text in by_name:
            plan = _name_plan(by_name[item.finding.doc_text], run.ran, run.session, package, modules, lines)
        elif (module := locate(item.finding.message.partition(": ")[0])) is not None:
            plan = for_signature(item.finding.message, module)
        out.append(held(item, replay(plan, context)) if plan is not None else item)
    return out


def _name_plan(ref: Reference, ran: Sequence[Step], session: Session, package: str, modules: Sequence[str],
               lines: list[str]) -> Plan:
    where = [step.code for step in ran if step.line == ref.line] if ref.how == "code" else []
    text = "\n".join(where) or (lines[ref.line] if 0 <= ref.line < len(lines) else ref.dotted)
    return for_name(ref.dotted, ref.line, ref.how, ran, session, package, modules, text)


def unverified(ran: Sequence[Step], session: Session, judged: dict[int, DocFinding],
               line_of: dict[int, int]) -> list[Unverified]:
    """The doc's stated outputs no run compared with what the code does, and why (at the doc file's 1-based line)."""
    left = []
    for index, step in enumerate(ran):
        if not _claims(step):
            continue
        why = session.not_reached.get(index)
        result = session.results.get(index, {})
        item = judged.get(index)
        if why is None and result.get("status") == "raised" and (item is None or
                                                                  item.severity is not Severity.CONTRADICTION):
            why = f"it raised {result.get('error', '')} before its output could be compared"
        if why is not None:
            left.append(Unverified(line_of.get(step.line, step.line + 1), _shown(step), why))
    return left


def not_run(steps: Sequence[Step], line_of: dict[int, int]) -> list[Unverified]:
    """Every stated output of a doc whose examples did not run (``--no-examples``)."""
    return [Unverified(line_of.get(step.line, step.line + 1), _shown(step), "the examples were not run")
            for step in steps if _claims(step)]


def _shown(step: Step) -> str:
    return step.shown or next(iter(step.code.strip().splitlines()), "")


def _claims(step: Step) -> bool:
    """A step that states an output, a value or an exception (a block that only runs states nothing to compare)."""
    return step.expect == "raises" or (step.expect != "none" and bool(step.want.strip()))
