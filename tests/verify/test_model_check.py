"""Exact truth checks on a DocModel: contradictions (fatal) and gaps (never fatal), no Markdown."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from docbot.docmodel import DocModel, Example, ParameterDoc, RaisesDoc
from docbot.facts.function import Facts
from docbot.verify.checks.model import (
    ExampleOutcome,
    ExampleVerdict,
    Severity,
    Finding,
    check_model,
    conflicting_site,
)
from tests.support.docmodel_samples import FakeRunner, deposit, good_deposit, interest, log


def _contradictions(model: DocModel, facts: Facts) -> list[Finding]:
    return [f for f in check_model(model, facts, FakeRunner()) if f.severity is Severity.CONTRADICTION]


def _gaps(model: DocModel, facts: Facts) -> list[Finding]:
    return [f for f in check_model(model, facts, FakeRunner()) if f.severity is Severity.GAP]


def test_a_complete_true_doc_has_no_finding() -> None:
    assert check_model(good_deposit(), deposit(), FakeRunner()) == []


@pytest.mark.parametrize(("name", "facts", "invented"), [
    ("colour", interest, True),  # not in the signature, no **kwargs to carry it
    ("principal", interest, False),
    ("*principal", interest, False),  # stars a model adds do not make a new name
    ("`rate`", interest, False),
    ("rate: float", interest, False),
    ("Rate", interest, True),  # names are case-sensitive
    ("colour", deposit, False),  # a keyword **tags carries, documented by name
    ("", deposit, True),  # no name at all: invented even where **kwargs could carry anything
    ("123", deposit, True),
    ("self", deposit, False),  # in the signature; documenting it is odd, not false
])
def test_invented_parameter_is_a_contradiction(name: str, facts: object, invented: bool) -> None:
    model = DocModel(summary="s", parameters=(ParameterDoc(name="principal"), ParameterDoc(name=name)))
    found = [f for f in _contradictions(model, facts()) if f.where.startswith("parameters")]  # type: ignore[operator]
    assert [f.where for f in found] == (["parameters[1]"] if invented else [])
    if invented:
        assert "signature" in found[0].evidence and found[0].fatal


# (type, message, condition) of one raises entry in a doc of `deposit`; whether it contradicts the code.
RAISES_TABLE = [
    (("ValueError", "amount must be positive", "amount <= 0"), None),
    (("ValueError", "", ""), None),  # states no message: nothing to contradict
    (("ValueError", '"amount must be positive"', ""), None),  # quotes around it are not part of it
    (("ValueError", "ValueError: amount must be positive", ""), None),
    (("builtins.ValueError", "amount must be positive", ""), None),
    (("ValueError", "amount must be > 0", ""), "ValueError"),  # wrong message
    (("ValueError", "Amount must be positive", ""), "ValueError"),  # exact means exact
    (("ValueError", "'amount must be positive\"", ""), "ValueError"),  # mismatched quotes are part of it
    (("TypeError", "amount must be positive", ""), "ValueError"),  # wrong type, found by its message
    (("TypeError", "", "amount <= 0"), "ValueError"),  # wrong type, found by its condition
    (("TypeError", "", "when amount  <=  0"), "ValueError"),
    (("TypeError", "", "amount is not positive"), None),  # a condition in other words: not provable
    (("KeyError", "missing", "the key is missing"), None),  # no such raise site: may come from a callee
    (("MemoError", "memo too long: 93 characters", ""), None),  # fits the f-string's template
    (("errors.MemoError", "memo too long: {len(memo)} characters", ""), None),
    (("MemoError", "memo is too long", ""), "errors.MemoError"),
    (("AccountFrozen", "anything at all", ""), None),  # the code's message is not a literal
    (("TypeError", "anything at all", "self.frozen"), "AccountFrozen"),
]


@pytest.mark.parametrize(("entry", "site_type"), RAISES_TABLE)
def test_raises_entry_contradiction(entry: tuple[str, str, str], site_type: str | None) -> None:
    raises = RaisesDoc(type=entry[0], message=entry[1], condition=entry[2])
    site = conflicting_site(raises, deposit())
    assert (site.exception if site else None) == site_type
    model = good_deposit().model_copy(update={"raises": (*good_deposit().raises, raises)})
    found = [f for f in _contradictions(model, deposit()) if f.where.startswith("raises")]
    assert [f.where for f in found] == ([] if site_type is None else ["raises[3]"])
    if site_type:
        assert site_type in found[0].evidence


def test_wrong_message_is_matched_to_the_site_it_is_closest_to() -> None:
    days = conflicting_site(RaisesDoc(type="ValueError", message="days must not be 0"), interest())
    rate = conflicting_site(RaisesDoc(type="ValueError", message="rate must be non-negative"), interest())
    by_condition = conflicting_site(RaisesDoc(type="ValueError", message="no", condition="days == 0"), interest())
    assert days and days.message == "days must not be zero"
    assert rate and rate.message == "rate must not be negative"
    assert by_condition and by_condition.message == "days must not be zero"


@pytest.mark.parametrize(("documented", "missing"), [
    ((), ["amount", "memo", "**tags"]),  # self is never required
    (("amount", "memo"), ["**tags"]),
    (("amount", "memo", "colour"), []),  # the keywords **tags carries stand for it
    (("colour",), ["amount", "memo"]),  # ... and only for it
    (("amount", "memo", "**tags"), []),
    (("*amount", "memo", "tags"), []),
])
def test_missing_parameters_are_gaps(documented: tuple[str, ...], missing: list[str]) -> None:
    model = good_deposit().model_copy(update={"parameters": tuple(ParameterDoc(name=n) for n in documented)})
    gaps = [f for f in _gaps(model, deposit()) if f.where == "parameters"]
    assert [g.message.split()[1] for g in gaps] == missing
    assert not any(g.fatal for g in gaps)


def test_missing_returns_is_a_gap_only_when_the_code_returns_a_value() -> None:
    assert [f.where for f in _gaps(good_deposit().model_copy(update={"returns": " "}), deposit())] == ["returns"]
    assert [f.where for f in _gaps(DocModel(summary="s", parameters=(ParameterDoc(name="message"),)), log())] == []


def test_missing_raise_sites_are_gaps_and_reraises_are_not() -> None:
    model = good_deposit().model_copy(update={"raises": (RaisesDoc(type="ValueError"),)})
    gaps = [f for f in _gaps(model, deposit()) if f.where == "raises"]
    assert [g.message for g in gaps] == ["MemoError is not documented", "AccountFrozen is not documented"]
    assert "memo and len(memo) > 80" in gaps[0].evidence
    assert not any(g.fatal for g in gaps)


@pytest.mark.parametrize(("codes", "failing"), [
    (("print(1)",), []),
    (("boom()",), [0]),
    (("print(1)", "boom()", "flaky()", "boom(2)"), [1, 3]),  # nondeterministic output is never a contradiction
])
def test_failing_examples_are_contradictions(codes: tuple[str, ...], failing: list[int]) -> None:
    runner = FakeRunner()
    model = good_deposit().model_copy(update={"examples": tuple(Example(code=c) for c in codes)})
    found = [f for f in check_model(model, deposit(), runner) if f.where.startswith("examples")]
    assert [f.where for f in found] == [f"examples[{i}]" for i in failing]
    assert all(f.fatal and "raised RuntimeError" in f.evidence for f in found)
    assert runner.calls == [list(model.examples)]  # all examples, in order, in one session


def test_runner_answering_for_fewer_examples_leaves_the_rest_not_run() -> None:
    def short(examples: Sequence[Example]) -> list[ExampleOutcome]:
        return [ExampleOutcome(ExampleVerdict.PASSED)]

    model = good_deposit().model_copy(update={"examples": (Example(code="a"), Example(code="boom"))})
    assert check_model(model, deposit(), short) == []


def test_runner_answering_for_more_examples_than_asked_is_cut_to_the_examples() -> None:
    def long(examples: Sequence[Example]) -> list[ExampleOutcome]:
        return [ExampleOutcome(ExampleVerdict.FAILED, "x")] * (len(examples) + 2)

    model = good_deposit().model_copy(update={"examples": (Example(code="a"),)})
    assert [f.where for f in check_model(model, deposit(), long)] == ["examples[0]"]


def test_no_examples_no_run() -> None:
    runner = FakeRunner()
    check_model(good_deposit().model_copy(update={"examples": ()}), deposit(), runner)
    assert runner.calls == []


def test_not_run_examples_are_no_finding() -> None:
    def off(examples: Sequence[Example]) -> list[ExampleOutcome]:
        return [ExampleOutcome(ExampleVerdict.NOT_RUN) for _ in examples]

    model = good_deposit().model_copy(update={"examples": (Example(code="boom"),)})
    assert check_model(model, deposit(), off) == []
