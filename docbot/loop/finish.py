"""The gate at the end of the loop: which model ships, approved or not, and what repair changed.

docbot never ships a contradiction its checks found (docs/design.md#gate):

- the adjudicated model ships unless it is empty or introduces a contradiction the base did not
  have; then the base ships (the best clean draft, else the best-scoring draft of any round, so a last
  round that did not parse never throws the earlier drafts away);
- the section is approved only when the loop exited ``approved`` and nothing fatal stands: no
  contradiction in the shipped model, no quoted critic claim against the last draft. This is the only
  place approval is decided: the result's ``outcome`` (docbot.loop.runner) carries it, and every
  reader (report, console, comment, annotations, index, exit code) reads it;
- anything else ships unapproved, after deterministic repair (docbot.loop.repair) of every contradiction,
  checked again (a repair can break what it keeps: an example that needed a removed one),
  with the changes listed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from docbot.docmodel import DocModel
from docbot.facts.function import Facts
from docbot.loop.state import LoopState, ModelData
from docbot.loop.repair import repair_checked
from docbot.results import ExitReason, SectionStatus
from docbot.verify.checks.model import Finding

NO_MODEL = "the writer never returned a usable doc model"


@dataclass(frozen=True)
class Final:
    model: DocModel | None  # None: there is nothing to ship
    fatal: list[str]  # still standing (the critic's quoted claims; repair removed the code checks' ones)
    approval: SectionStatus
    repairs: list[str]
    warning: str = ""  # why the adjudicated model was not shipped, "" when it was or none was asked


def finding_text(finding: Finding) -> str:
    """A finding as one line for the reviser and the report: what is wrong, and the evidence."""
    return f"{finding.message}: {finding.evidence}" if finding.evidence else finding.message


def contradictions(findings: Sequence[Finding]) -> list[str]:
    return [finding_text(f) for f in findings if f.fatal]


def unique(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))


def usable(data: dict[str, object] | None) -> DocModel | None:
    """The adjudicator's model, unless it says nothing (an empty answer must not replace a draft)."""
    if data is None:
        return None
    model = DocModel.model_validate(data)
    return model if model.summary.strip() else None


def _choose(state: LoopState, base: DocModel, base_fatal: list[str],
            check: Callable[[DocModel], list[Finding]]) -> tuple[DocModel, list[Finding] | None, str]:
    """The model to ship, its findings when they are known, and a warning when the base won."""
    if state.get("route") == "finish":
        return base, None, ""  # the adjudicator was not asked
    adjudicated = usable(state["adjudicated"])
    if adjudicated is None:
        return base, None, "the adjudicator returned no usable doc model; shipping the best draft instead"
    found = check(adjudicated)
    introduced = [text for text in contradictions(found) if text not in base_fatal]
    if not introduced:
        return adjudicated, found, ""
    return base, None, (f"the adjudicator introduced {len(introduced)} contradiction(s) ({introduced[0]}); "
                        "shipping the best draft instead")


def base_model(state: LoopState) -> ModelData | None:
    """What the adjudicator edits and the finish falls back to: the best clean draft, else the best of any round."""
    fallback = state["best_any"]
    return state["best_model"] or (fallback["model"] if fallback is not None else None)


def final_of(state: LoopState, facts: Facts, check: Callable[[DocModel], list[Finding]]) -> Final:
    """Decide what ships; ``check`` runs the exact checks (examples included) on a model."""
    best, fallback = state["best_model"], state["best_any"]
    base_data = base_model(state)
    if base_data is None:
        return Final(None, [NO_MODEL], SectionStatus.UNAPPROVED, [])
    base = DocModel.model_validate(base_data)
    # The best draft is clean by construction; any other draft's issues were kept with it.
    base_fatal = [] if best or fallback is None else list(fallback["truth_issues"])
    critic_fatal = [] if best or fallback is None else [f for f in fallback["fatal_issues"] if f not in base_fatal]
    chosen, findings, warning = _choose(state, base, base_fatal, check)
    if findings is None:
        findings = [] if best and chosen is base else check(chosen)
    fatal = unique(contradictions(findings) + critic_fatal)
    if state["exit_reason"] == ExitReason.APPROVED and not fatal:  # the one place approval is decided
        return Final(chosen, [], SectionStatus.APPROVED, [], warning)
    repaired, left = repair_checked(chosen, facts, findings, check)  # what repair ships is checked again
    still = [finding_text(f) for f in left if f.fatal]
    return Final(repaired.model, unique(critic_fatal + still), SectionStatus.UNAPPROVED, repaired.describe(), warning)
