"""The last resort when the loop ends without a clean draft: repair the final model deterministically.

docbot never ships a contradiction it found. What its own checks show false is taken
out or replaced by the code's facts, and every change is listed so the report can say what went:

- a parameter the signature does not have is dropped;
- a raises entry that misstates a raise site is replaced by that site (type, exact message, condition);
- an example that fails when run is removed, and with it every later example that uses a name only a removed
  one bound (``s = Stack()`` set up what the next ones call);
- a raises entry whose type is no exception class (or is empty) is dropped;
- a returns text for a function that returns None is cleared;
- a field that repeats the prompt or holds a template placeholder is cleared (an example with such
  output, or with no code, is removed); an empty or cleared summary says that there is none;
- what ``verify`` showed false on the rendered page with the source in hand (docbot.loop.source_rules): a
  raises entry or parameter is dropped, a prose field (a return type the code never returns, a misstated
  default) is cleared.

The section is then marked unapproved by the caller. Pure: the example outcomes come in as values.
``repair_checked`` runs the checks again on what repair made (a repair can break what it keeps), and repairs
again what they find, a few times at most; what still stands is the caller's to report.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from docbot.docmodel import DocModel, Example, ParameterDoc, RaisesDoc
from docbot.facts.function import Facts
from docbot.loop.prompts import ECHO_SENTENCES
from docbot.loop.truth import outcomes_of
from docbot.verify.checks.environment import bound_names, loaded_names
from docbot.verify.findings import Finding, Check
from docbot.verify.checks.model import (ExampleOutcome, ExampleVerdict, conflicting_site, invented_parameters,
                                       invented_return, not_exceptions, text_findings)

__all__ = ["ClearedText", "DroppedExample", "DroppedParameter", "DroppedRaise", "RepairChange", "Repaired",
           "ReplacedRaise", "repair"]


@dataclass(frozen=True)
class DroppedParameter:
    parameter: ParameterDoc
    signature: str  # the code's signature, which has no such parameter


@dataclass(frozen=True)
class ReplacedRaise:
    before: RaisesDoc
    after: RaisesDoc  # the code's raise site


@dataclass(frozen=True)
class DroppedRaise:
    entry: RaisesDoc  # a repaired entry that repeated one already listed


@dataclass(frozen=True)
class DroppedExample:
    example: Example
    evidence: str  # what the run showed


@dataclass(frozen=True)
class ClearedText:
    where: str  # the model field, e.g. "summary", "parameters[1]", "returns"
    why: str  # the finding's message


RepairChange = DroppedParameter | ReplacedRaise | DroppedRaise | DroppedExample | ClearedText
NO_SUMMARY = "No summary yet: docbot's drafts of this function did not pass its checks."


@dataclass(frozen=True)
class Repaired:
    model: DocModel
    changes: tuple[RepairChange, ...]

    def describe(self) -> list[str]:
        """One line per change, for the report."""
        return [_describe(change) for change in self.changes]


def repair(model: DocModel, facts: Facts, outcomes: Sequence[ExampleOutcome],
           found: Sequence[Finding] = ()) -> Repaired:
    """``model`` without the contradictions its checks find; ``outcomes`` align with its examples; ``found``:
    the checks' findings, of which those read on the page (they carry its ``doc_text``) and the raises types
    judged against the module's names (repair alone does not know the module) are repaired from here."""
    changes: list[RepairChange] = []
    given = [f for f in found if f.fatal and (f.doc_text or f.check is Check.NOT_AN_EXCEPTION)]
    model, outcomes = _cleared(model, facts, outcomes, changes, given)
    invented = invented_parameters(model, facts)
    parameters = tuple(p for i, p in enumerate(model.parameters) if i not in invented)
    changes += [DroppedParameter(model.parameters[i], facts.signature()) for i in invented]
    raises = _repaired_raises(model.raises, facts, changes)
    examples: list[Example] = []
    gone: set[str] = set()  # names only the removed examples bound
    for index, example in enumerate(model.examples):
        outcome = outcomes[index] if index < len(outcomes) else None
        if outcome is not None and outcome.verdict is ExampleVerdict.FAILED:
            changes.append(DroppedExample(example, outcome.evidence))
            gone |= bound_names(example.code) - {n for kept in examples for n in bound_names(kept.code)}
        elif needed := sorted(loaded_names(example.code) & gone - bound_names(example.code)):
            changes.append(DroppedExample(example, f"it uses {', '.join(needed)}, which a removed example set up"))
            gone |= bound_names(example.code)
        else:
            examples.append(example)
    repaired = model.model_copy(update={"parameters": parameters, "raises": raises, "examples": tuple(examples)})
    return Repaired(repaired, tuple(changes))


def repair_checked(model: DocModel, facts: Facts, found: Sequence[Finding],
                   check: Callable[[DocModel], list[Finding]], rounds: int = 3) -> tuple[Repaired, list[Finding]]:
    """``model`` repaired, checked again, and repaired again while the checks find a contradiction (at most
    ``rounds`` repairs); the repaired model, every change, and the findings of its last check."""
    changes: list[RepairChange] = []
    findings = list(found)
    for _ in range(rounds):
        repaired = repair(model, facts, outcomes_of(model, findings), findings)
        changes += repaired.changes
        model, findings = repaired.model, check(repaired.model)
        if not any(f.fatal for f in findings) or not repaired.changes:
            break
    return Repaired(model, tuple(changes)), findings


def _cleared(model: DocModel, facts: Facts, outcomes: Sequence[ExampleOutcome], changes: list[RepairChange],
             on_page: Sequence[Finding] = ()) -> tuple[DocModel, list[ExampleOutcome]]:
    """The model without the text the text rules reject (and what the page showed false), and the outcomes
    of the examples it keeps."""
    found = text_findings(model, ECHO_SENTENCES, facts) + not_exceptions(model, facts, None)
    found += invented_return(model, facts)
    # an invented parameter's own entry goes; one a sentence elsewhere names (a claim) clears that sentence's field
    gone = {f.where for f in on_page if f.check is Check.INVENTED_PARAMETER and f.where.startswith("parameters[")}
    found += [f for f in on_page if f.where and f.where not in gone]
    bad = {f.where: f.message for f in found}
    changes += [ClearedText(where, why) for where, why in bad.items()]
    changes += [DroppedParameter(model.parameters[int(w[11:-1])], facts.signature()) for w in sorted(gone)]
    update: dict[str, object] = {name: "" for name in ("description", "returns", "notes") if name in bad}
    if "summary" in bad:
        update["summary"] = NO_SUMMARY
    update["parameters"] = tuple(p.model_copy(update={"description": ""}) if f"parameters[{i}]" in bad else p
                                 for i, p in enumerate(model.parameters) if f"parameters[{i}]" not in gone)
    dropped = {f.where for f in found if f.check in (Check.NOT_AN_EXCEPTION, Check.EMPTY_FIELD)}
    dropped |= {f.where for f in on_page if f.where.startswith("raises[")}
    update["raises"] = tuple(r.model_copy(update={"message": "", "condition": ""}) if f"raises[{i}]" in bad else r
                             for i, r in enumerate(model.raises) if f"raises[{i}]" not in dropped)
    kept = [i for i in range(len(model.examples)) if f"examples[{i}]" not in bad]
    update["examples"] = tuple(model.examples[i] for i in kept)
    return model.model_copy(update=update), [outcomes[i] for i in kept if i < len(outcomes)]


def _repaired_raises(entries: Sequence[RaisesDoc], facts: Facts, changes: list[RepairChange]) -> tuple[RaisesDoc, ...]:
    kept: list[RaisesDoc] = []
    for entry in entries:
        site = conflicting_site(entry, facts)
        if site is None:
            kept.append(entry)
            continue
        # the message as the code writes it: a template's `{n}` reading would render a message the code never gives
        after = RaisesDoc(type=site.exception, message=site.shown or "",
                          condition=site.condition or entry.condition)
        changes.append(ReplacedRaise(entry, after))
        if after in kept:
            changes.append(DroppedRaise(after))
        else:
            kept.append(after)
    return tuple(kept)


def _describe(change: RepairChange) -> str:
    if isinstance(change, DroppedParameter):
        return f"dropped parameter {change.parameter.name!r}: not in {change.signature}"
    if isinstance(change, ReplacedRaise):
        before, after = change.before, change.after
        return (f"replaced raises {before.type}({before.message!r}) with the code's "
                f"{after.type}({after.message!r})")
    if isinstance(change, DroppedRaise):
        return f"dropped a repeated raises entry {change.entry.type}({change.entry.message!r})"
    if isinstance(change, ClearedText):
        return f"cleared the {change.where}: {change.why}"
    return f"removed a failing example: {change.evidence or 'it failed when run'}"
