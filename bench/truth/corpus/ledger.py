"""A small account ledger for the truth-check benchmark (methods, properties, class/static methods)."""

from __future__ import annotations


class InsufficientFunds(Exception):
    """Raised when a withdrawal exceeds the balance."""


class LedgerError(Exception):
    """Raised when a ledger line cannot be read."""


class Account:
    currencies = ("EUR", "USD")

    def __init__(self, owner: str, balance: float = 0.0, currency: str = "EUR") -> None:
        if currency not in self.currencies:
            raise ValueError(f"unsupported currency: {currency}")
        self.owner = owner
        self._balance = balance
        self.currency = currency
        self.history: list[float] = []

    @property
    def balance(self) -> float:
        return round(self._balance, 2)

    def deposit(self, amount: float) -> None:
        if amount <= 0:
            raise ValueError("deposit amount must be positive")
        self._balance += amount
        self.history.append(amount)

    def withdraw(self, amount: float) -> float:
        if amount <= 0:
            raise ValueError("withdrawal amount must be positive")
        if amount > self._balance:
            raise InsufficientFunds(f"cannot withdraw {amount}: balance is {self._balance}")
        self._balance -= amount
        self.history.append(-amount)
        return self.balance

    def transfer(self, other: Account, amount: float) -> None:
        if other.currency != self.currency:
            raise ValueError("accounts must share a currency")
        self.withdraw(amount)
        other.deposit(amount)

    @classmethod
    def from_line(cls, line: str) -> Account:
        try:
            owner, amount, currency = line.split(";")
            return cls(owner.strip(), float(amount), currency.strip())
        except ValueError as error:
            raise LedgerError(f"bad ledger line: {line!r}") from error

    @staticmethod
    def is_valid_owner(name: str) -> bool:
        return bool(name.strip()) and name.strip()[0].isupper()

    def statement(self, limit: int = 5) -> list[float]:
        return self.history[-limit:]

    def close(self) -> None:
        if self._balance:
            raise RuntimeError("close the account only when its balance is zero")
        self.history.clear()
