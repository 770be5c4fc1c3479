"""Exact truth checks of a ``DocModel`` against the code's ``Facts``, the page's own rules where a field is prose.

A *contradiction* is something the model states that the code or a run shows false: a parameter the
signature lacks, a raises entry whose type or message differs from the code's raise site for that condition,
an example that fails, a raises type that names no exception class, a return claim the code disproves (the
page's rule, docbot.verify.checks.parameters, field by field), a field that repeats the prompt, holds a template
placeholder or is empty where the schema needs text (docbot.verify.checks.text_rules). A *gap* is something the
code has that the model does not say: a parameter, the return value, a raise site. Gaps never block
approval.

Examples are run by a callable the caller passes in (the sandbox), so this module stays pure.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from docbot.docmodel import DocModel, Example, RaisesDoc, param_key
from docbot.facts.function import Facts, Raise
from docbot.verify.checks.returns import check_returns
from docbot.verify.findings import Check, Finding, Severity
from docbot.verify.checks.text_rules import ModuleNames, echoes, placeholder, resolves_to_exception

__all__ = [
    "ExampleOutcome", "ExampleRunner", "ExampleVerdict", "Finding", "Severity", "Check",
    "agreeing_site", "check_model", "conflicting_site", "extra_parameter_allowed", "invented_parameters",
]


def _field(check: Check, message: str, evidence: str, where: str) -> Finding:
    """A finding about one field of a doc model: no doc text, the field in ``where``."""
    return Finding(check, message, "", evidence, where=where)


class ExampleVerdict(Enum):
    PASSED = "passed"
    FAILED = "failed"  # raised, or printed something other than the stated output
    NONDETERMINISTIC = "nondeterministic"  # two runs disagree: a note, never a contradiction
    NOT_RUN = "not_run"  # execution off (fork PR), or the runner gave no answer for it


@dataclass(frozen=True)
class ExampleOutcome:
    verdict: ExampleVerdict
    evidence: str = ""  # e.g. "prints 0.5, the doc says 0.6"


# Runs the examples in order (one session) and returns one outcome per example.
ExampleRunner = Callable[[Sequence[Example]], Sequence[ExampleOutcome]]


def check_model(model: DocModel, facts: Facts, run_examples: ExampleRunner,
                names: ModuleNames | None = None, prompts: Sequence[re.Pattern[str]] = ()) -> list[Finding]:
    """Every contradiction and gap of ``model`` against ``facts`` and a run of its examples.

    ``names``: what the function's module binds (docbot.verify.checks.text_rules.module_names), None when unknown;
    ``prompts``: the prompt sentences a field must not repeat (docbot.verify.checks.text_rules.prompt_sentences).
    """
    findings = text_findings(model, prompts, facts) + _parameter_findings(model, facts) + _raises_findings(model, facts)
    findings += not_exceptions(model, facts, names) + invented_return(model, facts)
    if facts.returns_value and not model.returns.strip():
        word = "yields" if facts.is_generator else "returns"
        findings.append(_field(Check.MISSING_RETURN, f"what {facts.name} {word} is not documented",
                               f"the code {word} a value", "returns"))
    outcomes = example_outcomes(model, run_examples)
    for index, outcome in enumerate(outcomes):
        if outcome.verdict is ExampleVerdict.FAILED:
            findings.append(_field(Check.EXAMPLE_FAILS, f"example {index + 1} fails when run", outcome.evidence,
                                   f"examples[{index}]"))
    return findings


def text_fields(model: DocModel) -> list[tuple[str, str]]:
    """(where, text) for every prose field of the model, in page order."""
    fields = [("summary", model.summary), ("description", model.description)]
    fields += [(f"parameters[{i}]", p.description) for i, p in enumerate(model.parameters)]
    fields += [("returns", model.returns)]
    fields += [(f"raises[{i}]", f"{r.message}\n{r.condition}") for i, r in enumerate(model.raises)]
    fields += [(f"examples[{i}]", e.output) for i, e in enumerate(model.examples)]
    return fields + [("notes", model.notes)]


def text_findings(model: DocModel, prompts: Sequence[re.Pattern[str]] = (),
                  facts: Facts | None = None) -> list[Finding]:
    """Fields that are not documentation: a prompt repeated, a template placeholder, a required field empty.

    With ``facts``, a raises message that is the code's own (a template ``f"n must be > 0: {n}"`` copied as the
    facts show it) is the code's text, not a placeholder left unfilled."""
    found: list[Finding] = []
    for where, text in _own_messages_out(text_fields(model), model, facts):
        echoed, hole = echoes(text, prompts), placeholder(text)
        if echoed is not None:
            found.append(_field(Check.ECHOED_PROMPT, f"the {where} repeats the prompt", echoed, where))
        elif hole is not None and not where.startswith("examples"):
            found.append(_field(Check.TEMPLATE_PLACEHOLDER, f"the {where} holds a template placeholder {hole}", hole,
                                where))
    empty = [("summary", model.summary)] + [(f"raises[{i}]", r.type) for i, r in enumerate(model.raises)]
    empty += [(f"examples[{i}]", e.code) for i, e in enumerate(model.examples)]
    return found + [_field(Check.EMPTY_FIELD, f"the {where} is empty", "the schema needs text here", where)
                    for where, text in empty if not text.strip()]


def _own_messages_out(fields: list[tuple[str, str]], model: DocModel,
                      facts: Facts | None) -> list[tuple[str, str]]:
    """The fields, each raises entry without its message where that message is the code's own (a template's
    braces are no placeholder, a message's "must return bytes" no return claim)."""
    if facts is None:
        return fields
    kept = dict(fields)
    for index, entry in enumerate(model.raises):
        site = agreeing_site(entry, facts)
        if site is not None and site.message is not None and entry.message.strip():
            kept[f"raises[{index}]"] = entry.condition
    return list(kept.items())


def not_exceptions(model: DocModel, facts: Facts, names: ModuleNames | None) -> list[Finding]:
    """Raises entries whose type names no exception class (``error``, ``json``, ``list``)."""
    return [_field(Check.NOT_AN_EXCEPTION, f"raises type {entry.type!r} is not an exception class",
                   "not a builtin exception, a type the code raises, or a name its module binds", f"raises[{index}]")
            for index, entry in enumerate(model.raises)
            if entry.type.strip() and not resolves_to_exception(entry.type, facts, names)]


def invented_return(model: DocModel, facts: Facts) -> list[Finding]:
    """What the page would say comes back, against the code: the Markdown rule on each prose field.

    ``docbot verify`` reads a return claim anywhere on the page ("Returns the new balance." in the
    description, a returns text for a function that returns None, "returns nothing" for one that
    returns a value), so the model is checked field by field with that same rule, and ``where`` names
    the field that makes the claim.
    """
    found: list[Finding] = []
    for where, text in _own_messages_out(text_fields(model), model, facts):
        if not text.strip() or where.startswith("examples"):
            continue  # an example's output is code on the page, not a claim
        shown = f"**Returns**\n\n{text}" if where == "returns" else text
        found += [replace(f, where=where) for f in check_returns(shown, facts) if f.fatal]
    return found


def example_outcomes(model: DocModel, run_examples: ExampleRunner) -> list[ExampleOutcome]:
    """One outcome per example; a runner that answers for fewer examples leaves the rest not run."""
    if not model.examples:
        return []
    outcomes = list(run_examples(list(model.examples)))[: len(model.examples)]
    return outcomes + [ExampleOutcome(ExampleVerdict.NOT_RUN)] * (len(model.examples) - len(outcomes))


def extra_parameter_allowed(facts: Facts) -> bool:
    """A ``**kwargs`` function may document the keywords it carries under their own names."""
    return any(p.kind == "var-keyword" for p in facts.parameters)


def invented_parameters(model: DocModel, facts: Facts) -> list[int]:
    """Indexes of model parameters the signature does not have."""
    names = {p.name for p in facts.parameters}
    loose = extra_parameter_allowed(facts)
    return [index for index, param in enumerate(model.parameters)
            if not param_key(param.name) or (param_key(param.name) not in names and not loose)]


def _parameter_findings(model: DocModel, facts: Facts) -> list[Finding]:
    findings = [
        _field(Check.INVENTED_PARAMETER, f"parameter {model.parameters[i].name!r} is not in the signature",
               f"signature: {facts.signature()}", f"parameters[{i}]")
        for i in invented_parameters(model, facts)
    ]
    documented = {param_key(p.name) for p in model.parameters}
    carried = bool(documented - {p.name for p in facts.parameters})
    for param in facts.documentable_parameters:
        if param.name in documented or (param.kind == "var-keyword" and carried):
            continue
        findings.append(_field(Check.MISSING_PARAMETER, f"parameter {param.starred_name} is not documented",
                               f"signature: {facts.signature()}", "parameters"))
    return findings


def _raises_findings(model: DocModel, facts: Facts) -> list[Finding]:
    findings: list[Finding] = []
    for index, entry in enumerate(model.raises):
        site = conflicting_site(entry, facts)
        if site is not None:
            name = (Check.MISQUOTED_MESSAGE if site.type_name == _type_name(entry.type)
                    else Check.WRONG_EXCEPTION_TYPE)
            findings.append(_field(name, f"raises entry {entry.type}({entry.message!r}) differs from the code",
                                   f"the code raises {site.describe()}", f"raises[{index}]"))
    documented = {_type_name(entry.type) for entry in model.raises}
    for site in _sites(facts):
        if site.type_name not in documented:
            findings.append(_field(Check.MISSING_EXCEPTION, f"{site.type_name} is not documented",
                                   f"the code raises {site.describe()}", "raises"))
    return findings


def _sites(facts: Facts) -> tuple[Raise, ...]:
    return tuple(r for r in facts.propagated_raises if r.exception)


def _type_name(text: str) -> str:
    return text.strip().strip("`'\"").rsplit(".", 1)[-1]


def _message_forms(entry: RaisesDoc) -> list[str]:
    """The message as written, and without the quotes or ``Type:`` prefix models wrap it in."""
    bare = entry.message.strip()
    bare = re.sub(rf"^{re.escape(_type_name(entry.type))}\s*:\s*", "", bare) if entry.type.strip() else bare
    if len(bare) >= 2 and bare[0] == bare[-1] and bare[0] in "'\"`":
        bare = bare[1:-1]
    return [entry.message, bare]


def _message_agrees(entry: RaisesDoc, site: Raise) -> bool:
    if not entry.message.strip() or site.message is None:
        return True  # nothing stated, or nothing knowable: no claim to contradict
    return any(form == site.message or site.matches_message(form) for form in _message_forms(entry))


def agreeing_site(entry: RaisesDoc, facts: Facts) -> Raise | None:
    """The code raise site this entry states correctly (same type, message matches or unstated); a site whose
    message the entry matches comes before one whose message is unknown (``raise ValueError(msg)``)."""
    agreeing = [site for site in _sites(facts)
                if site.type_name == _type_name(entry.type) and _message_agrees(entry, site)]
    return next((site for site in agreeing if site.message is not None), agreeing[0] if agreeing else None)


def _same_condition(code: str, stated: str) -> bool:
    squash = re.sub(r"\s+|^(?:when|if|raised when)\b", "", stated.strip().lower())
    return squash == re.sub(r"\s+", "", code.lower())


def _likeness(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b).ratio()


def conflicting_site(entry: RaisesDoc, facts: Facts) -> Raise | None:
    """The code raise site ``entry`` is about but misstates, or None.

    The entry is about a site when it names the same type (then its message is wrong), or when its
    message or its condition is the site's own (then its type is wrong). An entry about no site of
    this function is not a contradiction: the exception may come from a callee.
    """
    if agreeing_site(entry, facts) is not None:
        return None
    sites = _sites(facts)
    same_type = [site for site in sites if site.type_name == _type_name(entry.type)]
    if same_type:  # the site with the stated condition, else the one whose message is closest
        return max(same_type, key=lambda s: (bool(s.condition and _same_condition(s.condition, entry.condition)),
                                             _likeness(s.message or "", entry.message)))
    for site in sites:
        message_is_sites = site.message is not None and entry.message.strip() and _message_agrees(entry, site)
        if message_is_sites or (site.condition and _same_condition(site.condition, entry.condition)):
            return site
    return None
