"""``finish.final_of``'s guards, called directly: the graph never reaches them with these states."""

from __future__ import annotations

from docbot.docmodel import DocModel
from docbot.facts.function import extract_facts
from docbot.loop.finish import NO_MODEL, final_of
from docbot.loop.state import new_state
from docbot.results import SectionStatus
from docbot.verify.findings import Finding

SOURCE = "def f(x):\n    return x\n"


def never_called(model: DocModel) -> list[Finding]:
    raise AssertionError("nothing to check")


def test_no_model_at_all_ships_nothing_unapproved() -> None:
    state = new_state("f", "m", SOURCE, "", None)
    final = final_of({**state, "route": "finish", "exit_reason": "attempts"}, extract_facts(SOURCE, "f"),
                     never_called)
    assert (final.model, final.fatal, final.approval, final.repairs) == (None, [NO_MODEL], SectionStatus.UNAPPROVED,
                                                                         [])


def test_the_best_draft_is_not_checked_again_when_it_ships_as_it_is() -> None:
    best = DocModel(summary="Return x.").model_dump(mode="json")
    state = {**new_state("f", "m", SOURCE, "", None), "best_model": best, "model": best, "route": "finish",
             "exit_reason": "approved"}
    final = final_of(state, extract_facts(SOURCE, "f"), never_called)  # type: ignore[arg-type]
    assert final.approval is SectionStatus.APPROVED and final.model == DocModel(summary="Return x.")
