"""Repair: each kind of contradiction, and what ships in its place; and no contradiction survives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from docbot.docmodel import DocModel, Example, ParameterDoc, RaisesDoc
from docbot.facts.function import Facts
from docbot.loop.repair import DroppedExample, DroppedParameter, DroppedRaise, Repaired, ReplacedRaise, repair
from docbot.verify.checks.model import Severity, check_model, example_outcomes
from tests.support.docmodel_samples import FakeRunner, deposit, good_deposit, interest, log


def _repair(model: DocModel, facts: Facts) -> Repaired:
    return repair(model, facts, example_outcomes(model, FakeRunner()))


def test_a_clean_model_ships_unchanged() -> None:
    result = _repair(good_deposit(), deposit())
    assert result.model == good_deposit() and result.changes == ()


def test_invented_parameters_are_dropped_and_true_ones_kept_in_order() -> None:
    model = DocModel(summary="s", parameters=(
        ParameterDoc(name="colour", description="x"), ParameterDoc(name="principal", description="p"),
        ParameterDoc(name="", description="?"), ParameterDoc(name="*rate", description="r")))
    result = _repair(model, interest())
    assert [p.name for p in result.model.parameters] == ["principal", "*rate"]
    assert result.changes == (
        DroppedParameter(ParameterDoc(name="colour", description="x"), interest().signature()),
        DroppedParameter(ParameterDoc(name="", description="?"), interest().signature()),
    )
    assert result.describe()[0].startswith("dropped parameter 'colour': not in def interest(")


# What the model said -> what ships in its place (type, message, condition).
REPLACEMENTS = [
    (RaisesDoc(type="ValueError", message="amount must be > 0", condition="amount is zero"),
     RaisesDoc(type="ValueError", message="amount must be positive", condition="amount <= 0")),
    (RaisesDoc(type="TypeError", message="amount must be positive"),
     RaisesDoc(type="ValueError", message="amount must be positive", condition="amount <= 0")),
    (RaisesDoc(type="TypeError", condition="amount <= 0"),
     RaisesDoc(type="ValueError", message="amount must be positive", condition="amount <= 0")),
    (RaisesDoc(type="MemoError", message="memo is too long"),
     # a template as the code writes it (issue 28): its `{len(memo)}` reading is no message the code gives
     RaisesDoc(type="errors.MemoError", message='f"memo too long: {len(memo)} characters"',
               condition="memo and len(memo) > 80")),
    (RaisesDoc(type="RuntimeError", message="x", condition="self.frozen"),  # the code's message is unknown
     RaisesDoc(type="AccountFrozen", message="", condition="self.frozen")),
]


def test_each_contradicting_raises_entry_is_replaced_by_the_code_site() -> None:
    for before, after in REPLACEMENTS:
        model = DocModel(summary="s", raises=(RaisesDoc(type="KeyError", message="kept"), before))
        result = _repair(model, deposit())
        assert result.model.raises == (RaisesDoc(type="KeyError", message="kept"), after), before
        assert result.changes == (ReplacedRaise(before, after),)


def test_a_raises_entry_repeating_a_repaired_one_is_dropped() -> None:
    right = RaisesDoc(type="ValueError", message="amount must be positive", condition="amount <= 0")
    wrong = RaisesDoc(type="TypeError", message="amount must be positive")
    result = _repair(DocModel(summary="s", raises=(right, wrong)), deposit())
    assert result.model.raises == (right,)
    assert result.changes == (ReplacedRaise(wrong, right), DroppedRaise(right))


def test_failing_examples_are_removed_and_the_others_kept_in_order() -> None:
    examples = (Example(code="a()"), Example(code="boom()"), Example(code="flaky()"), Example(code="b()"))
    result = _repair(DocModel(summary="s", examples=examples), log())
    assert result.model.examples == (examples[0], examples[2], examples[3])
    assert result.changes == (DroppedExample(examples[1], "boom() raised RuntimeError: boom"),)
    assert result.describe() == ["removed a failing example: boom() raised RuntimeError: boom"]


def test_examples_without_an_outcome_are_kept() -> None:
    model = DocModel(summary="s", examples=(Example(code="boom()"),))
    assert repair(model, log(), []).model == model


def test_repair_leaves_prose_and_gaps_alone() -> None:
    model = good_deposit().model_copy(update={"description": "d", "notes": "n", "returns": "",
                                              "parameters": (ParameterDoc(name="colour"),)})
    result = _repair(model, interest())
    assert (result.model.summary, result.model.description, result.model.notes, result.model.returns) == (
        model.summary, "d", "n", "")


# --- property: whatever the model says, the repaired model has no contradiction the checks find ---

_NAMES = st.sampled_from(["amount", "memo", "tags", "**tags", "principal", "rate", "days", "colour", "self",
                          "", "1x", "`rate`", "Rate", "rate: float"])
_TYPES = st.sampled_from(["ValueError", "TypeError", "KeyError", "MemoError", "errors.MemoError",
                          "AccountFrozen", "builtins.ValueError", "", "Value Error"])
_MESSAGES = st.sampled_from(["", "amount must be positive", "amount must be > 0", "rate must not be negative",
                             "days must not be zero", "memo too long: 3 characters", "memo is long", '"x"',
                             "ValueError: amount must be positive", "rate must not be negative "])
_CONDITIONS = st.sampled_from(["", "amount <= 0", "rate < 0", "days == 0", "self.frozen", "when rate < 0",
                               "memo and len(memo) > 80", "sometimes"])
_CODES = st.sampled_from(["print(1)", "boom()", "flaky()", "x = 2\nprint(x)", "boom(2)"])
_FACTS = {"deposit": deposit(), "interest": interest(), "log": log()}

_MODELS = st.builds(
    DocModel,
    summary=st.just("s"),
    parameters=st.lists(st.builds(ParameterDoc, name=_NAMES), max_size=5).map(tuple),
    raises=st.lists(st.builds(RaisesDoc, type=_TYPES, message=_MESSAGES, condition=_CONDITIONS),
                    max_size=5).map(tuple),
    examples=st.lists(st.builds(Example, code=_CODES), max_size=4).map(tuple),
)


@settings(max_examples=400, deadline=None, database=None)
@given(model=_MODELS, which=st.sampled_from(sorted(_FACTS)))
def test_repaired_model_has_no_contradiction(model: DocModel, which: str) -> None:
    facts = _FACTS[which]
    result = _repair(model, facts)
    left = [f for f in check_model(result.model, facts, FakeRunner()) if f.severity is Severity.CONTRADICTION]
    assert left == []
    before = [f for f in check_model(model, facts, FakeRunner()) if f.severity is Severity.CONTRADICTION]
    assert bool(before) == bool(result.changes)  # repair changes a model exactly when it had contradictions
    assert _repair(result.model, facts).changes == ()  # idempotent


def test_an_example_that_needs_a_removed_one_goes_with_it() -> None:
    """Issue 29: removing a failing first example that set up `s` shipped examples that raise NameError."""
    from docbot.verify.checks.model import ExampleOutcome, ExampleVerdict

    model = DocModel(summary="s", examples=(Example(code="s = make(1)\nprint(s)", output="2"),
                                            Example(code="print(s.size())", output="1"),
                                            Example(code="t = make(2)\nprint(t)", output="2"),
                                            Example(code="s = make(3)\nprint(s.size())", output="1")))
    failed, passed = ExampleOutcome(ExampleVerdict.FAILED, "prints 1"), ExampleOutcome(ExampleVerdict.PASSED)
    result = repair(model, log(), [failed, passed, passed, passed])
    assert [e.code for e in result.model.examples] == ["t = make(2)\nprint(t)", "s = make(3)\nprint(s.size())"]
    assert [c.evidence for c in result.changes if isinstance(c, DroppedExample)] == [
        "prints 1", "it uses s, which a removed example set up"]


def test_what_repair_ships_is_checked_and_repaired_again() -> None:
    from docbot.loop.repair import repair_checked
    from docbot.verify.findings import Check, Finding

    model = DocModel(summary="s", examples=(Example(code="x = 1", output=""), Example(code="y = 2", output="")))
    runs: list[int] = []

    def check(candidate: DocModel) -> list[Finding]:  # the second example fails only once the first is gone
        runs.append(len(candidate.examples))
        if candidate.examples and candidate.examples[0].code == "y = 2":
            return [Finding(Check.EXAMPLE_FAILS, "example 1 fails when run", "", "NameError", where="examples[0]")]
        return []

    first = [Finding(Check.EXAMPLE_FAILS, "example 1 fails when run", "", "boom", where="examples[0]")]
    repaired, left = repair_checked(model, log(), first, check)
    assert repaired.model.examples == () and left == [] and runs == [1, 0]
    assert len([c for c in repaired.changes if isinstance(c, DroppedExample)]) == 2
