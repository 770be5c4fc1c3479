"""TEST SUPPORT: a scripted documenter that answers as the wired loop does (docs/design.md#gate).

Each result carries a DocModel built from the function's facts, the section rendered from it by
``docbot.apidocs.render.render_section``, and the approval the script names for that qualname (approved by
default), so the fronts around the loop are tested against the contract, not against a model.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from docbot.docmodel import DocModel, ParameterDoc
from docbot.facts.function import extract_facts
from docbot.apidocs.render import render_section
from docbot.results import FunctionResult, SectionStatus, Target


def model_for(target: Target) -> DocModel:
    facts = extract_facts(target.source, target.qualname)
    return DocModel(summary=f"Compute {facts.name} for the caller.",
                    description=f"Part of `{target.module}`.",
                    parameters=tuple(ParameterDoc(name=p.name, description=f"The {p.name} value.")
                                     for p in facts.documentable_parameters),
                    returns="The result." if facts.returns_value else "")


class Scripted:
    """Documents every target; ``unapproved`` maps a qualname to its final score (else approved, 97)."""

    def __init__(self, unapproved: Mapping[str, int] | None = None, failing: tuple[str, ...] = (),
                 only: Collection[str] | None = None) -> None:
        self.unapproved = dict(unapproved or {})
        self.failing = failing
        self.only = only  # when given, every other function is skipped (a big real file, a few functions)
        self.calls: list[str] = []
        self.currents: dict[str, str] = {}  # qualname -> the section the documenter was given

    def factory(self) -> Callable[[Target, str], FunctionResult]:
        return self.document

    def document(self, target: Target, current: str = "") -> FunctionResult:
        self.calls.append(target.qualname)
        self.currents[target.qualname] = current
        if self.only is not None and target.qualname not in self.only:
            return FunctionResult(target.module, target.qualname, "skipped", reason="not in this script")
        if target.qualname in self.failing:
            return FunctionResult(target.module, target.qualname, "failed", reason="scripted failure")
        model = model_for(target)
        facts = extract_facts(target.source, target.qualname)
        score = self.unapproved.get(target.qualname, 97)
        approval = SectionStatus.UNAPPROVED if target.qualname in self.unapproved else SectionStatus.APPROVED
        return FunctionResult(target.module, target.qualname, "updated", markdown=render_section(model, facts,
                                                                                                   target.module),
                              scores=[score], rounds=1,
                              exit_reason="approved" if approval is SectionStatus.APPROVED else "attempts",
                              approval=approval, doc_model=model,
                              repairs=() if approval is SectionStatus.APPROVED else ("removed a failing example",))
