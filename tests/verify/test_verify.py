"""``verify_source_doc``: the core of ``docbot verify`` on docs docbot did not write."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from docbot.errors import ConfigError
from docbot.verify.checks.examples import ExampleContext
from docbot.verify.checks.page import check_doc
from docbot.verify.checks.source_doc import verify_source_doc
from docbot.verify.checks.source_doc import public_functions

SOURCE = textwrap.dedent('''
    __all__ = ["compound", "Account"]


    def compound(principal: float, rate: float, periods: int = 1) -> float:
        if principal < 0:
            raise ValueError("principal must be non-negative")
        return round(principal * (1 + rate / periods) ** periods, 2)


    def not_exported(x):
        return x


    def _private(x):
        return x


    class Account:
        def __init__(self, owner: str, balance: float = 0.0) -> None:
            self.owner = owner
            self.balance = balance

        @property
        def label(self) -> str:
            return f"{self.owner}: {self.balance:.2f}"

        def deposit(self, amount: float) -> float:
            if amount <= 0:
                raise ValueError(f"amount must be positive, got {amount}")
            self.balance += amount
            return self.balance

        def _audit(self):
            pass
''')

DOC = textwrap.dedent('''
    # finance — hand-written docs

    ## compound(principal, rate, periods=1)

    Compounds `principal` at `rate`, `periods` times, rounded to cents.

    **Returns** the grown amount. **Raises** `ValueError("principal must be non-negative")`.

    ```python
    >>> compound(100, 0.05, 2)
    110.0
    ```

    ## Account

    ### Account(owner, balance=0.0)

    Opens an account for `owner` with an opening `balance`.

    ```python
    acct = Account("Ada", 10)
    acct.label  # -> 'Ada: 10.00'
    ```

    ### Account.deposit

    Adds `amount` and returns the new balance; raises `ValueError` ("amount must be positive, got 0") for
    `amount <= 0`.

    ```python
    acct = Account("Ada", 10)
    acct.deposit(-5)  # -> 5.0
    ```
''')


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "finance.py").write_text(SOURCE)
    return tmp_path


def test_public_functions_follow_all_and_skip_private_ones() -> None:
    functions = public_functions(SOURCE)
    assert list(functions) == ["compound", "Account.__init__", "Account.label", "Account.deposit"]
    assert functions["Account.label"].startswith("@property\ndef label(self)")


def test_a_wrong_stated_result_and_a_raising_example_are_reported_with_real_values(repo: Path) -> None:
    report = {r.qualname: r for r in verify_source_doc(SOURCE, DOC, "finance", (str(repo),))}
    assert set(report) == {"compound", "Account.__init__", "Account.label", "Account.deposit"}
    assert not report["Account.label"].section_found and report["compound"].section_found
    [wrong] = report["compound"].fatal
    assert wrong.check == "example_mismatch"
    assert wrong.message == "example `compound(100, 0.05, 2)` returns 105.06, the doc says 110.0"
    assert report["Account.__init__"].findings == []
    [raised] = report["Account.deposit"].fatal
    assert raised.check == "example_raises"
    assert "acct.deposit(-5)" in raised.message
    assert "ValueError: amount must be positive, got -5" in raised.message


def test_one_function_and_no_examples(repo: Path) -> None:
    [only] = verify_source_doc(SOURCE, DOC, "finance", (str(repo),), function="deposit", run_examples=False)
    assert (only.qualname, only.findings, only.section_found) == ("Account.deposit", [], True)
    [missing] = verify_source_doc(SOURCE, DOC, "finance", (str(repo),), function="Account.label")
    assert (missing.qualname, missing.section_found) == ("Account.label", False)


@pytest.mark.parametrize(
    "function, message",
    [("nope", "no public function nope"), ("_private", "no public function _private")],
)
def test_unknown_functions_say_what_exists(function: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        verify_source_doc(SOURCE, DOC, "finance", (), function=function)
    assert "compound, Account.__init__, Account.label, Account.deposit" in str(caught.value)


def test_a_source_that_does_not_parse_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="line 1"):
        verify_source_doc("def broken(:\n", DOC, "finance", ())


def test_check_doc_runs_examples_only_when_asked(repo: Path) -> None:
    source = public_functions(SOURCE)["compound"]
    section = "## compound\n\n- `principal`: p\n- `rate`: r\n- `periods`: n\n\nReturns x.\n\n" \
              "Raises `ValueError` (\"principal must be non-negative\").\n\n```python\n>>> compound(1, 1)\n3.0\n```\n"
    assert check_doc(section, source, "compound") == []
    [finding] = check_doc(section, source, "compound", ExampleContext("finance", (str(repo),)))
    assert finding.message == "example `compound(1, 1)` returns 2.0, the doc says 3.0"
