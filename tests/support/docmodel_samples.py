"""TEST SUPPORT: functions with known facts, and a fake example runner, for the doc-model tests."""

from __future__ import annotations

from collections.abc import Sequence

from docbot.docmodel import DocModel, Example, ParameterDoc, RaisesDoc
from docbot.facts.function import Facts, extract_facts
from docbot.verify.checks.model import ExampleOutcome, ExampleVerdict

DEPOSIT_SOURCE = '''
def deposit(self, amount: float, *, memo: str = "", **tags) -> float:
    if amount <= 0:
        raise ValueError("amount must be positive")
    if memo and len(memo) > 80:
        raise errors.MemoError(f"memo too long: {len(memo)} characters")
    try:
        self._post(amount)
    except KeyError:
        raise
    if self.frozen:
        raise AccountFrozen(self.reason)
    return self.balance
'''

INTEREST_SOURCE = '''
def interest(principal: float, rate: float = 0.05, /, *, days: int = 365) -> float:
    if rate < 0:
        raise ValueError("rate must not be negative")
    if days == 0:
        raise ValueError("days must not be zero")
    return principal * rate * days / 365
'''

LOG_SOURCE = '''
def log(message) -> None:
    print(message)
'''


def deposit() -> Facts:
    return extract_facts(DEPOSIT_SOURCE, "Account.deposit")


def interest() -> Facts:
    return extract_facts(INTEREST_SOURCE, "interest")


def log() -> Facts:
    return extract_facts(LOG_SOURCE, "log")


def good_deposit() -> DocModel:
    """A doc of ``deposit`` with no contradiction and no gap."""
    return DocModel(
        summary="Add money to the account.",
        parameters=(ParameterDoc(name="amount", description="how much"),
                    ParameterDoc(name="memo", description="a note"),
                    ParameterDoc(name="**tags", description="labels")),
        returns="the new balance",
        raises=(RaisesDoc(type="ValueError", message="amount must be positive", condition="amount <= 0"),
                RaisesDoc(type="MemoError", message="memo too long: 93 characters"),
                RaisesDoc(type="AccountFrozen", condition="the account is frozen")),
        examples=(Example(code="print(acct.deposit(5))", output="5"),),
    )


class FakeRunner:
    """Fails an example whose code mentions ``boom``; ``flaky`` is nondeterministic. Records its calls."""

    def __init__(self) -> None:
        self.calls: list[list[Example]] = []

    def __call__(self, examples: Sequence[Example]) -> list[ExampleOutcome]:
        self.calls.append(list(examples))
        return [self.outcome(example) for example in examples]

    @staticmethod
    def outcome(example: Example) -> ExampleOutcome:
        if "boom" in example.code:
            return ExampleOutcome(ExampleVerdict.FAILED, f"{example.code} raised RuntimeError: boom")
        if "flaky" in example.code:
            return ExampleOutcome(ExampleVerdict.NONDETERMINISTIC, "two runs printed different values")
        return ExampleOutcome(ExampleVerdict.PASSED)
