"""Money arithmetic for the truth-check benchmark (plain functions, defaults, keyword-only)."""

from __future__ import annotations

DEFAULT_CURRENCY = "EUR"


def compound_interest(principal: float, rate: float, years: int = 1, periods: int = 12) -> float:
    if principal < 0:
        raise ValueError("principal must be non-negative")
    if periods <= 0:
        raise ValueError(f"periods must be positive, got {periods}")
    return round(principal * (1 + rate / periods) ** (periods * years), 2)


def monthly_payment(amount: float, annual_rate: float, months: int) -> float:
    if months < 1:
        raise ValueError("months must be at least 1")
    if annual_rate == 0:
        return round(amount / months, 2)
    r = annual_rate / 12
    return round(amount * r / (1 - (1 + r) ** -months), 2)


def apply_discount(price: float, *, percent: float = 10.0, floor: float = 0.0) -> float:
    if not 0 <= percent <= 100:
        raise ValueError(f"percent must be between 0 and 100, got {percent}")
    return max(floor, round(price * (1 - percent / 100), 2))


def split_bill(total: float, *shares: float, tip: float = 0.0) -> list[float]:
    if not shares:
        raise TypeError("split_bill() needs at least one share")
    weight = sum(shares)
    if weight <= 0:
        raise ValueError("shares must add up to a positive number")
    grand = total * (1 + tip)
    return [round(grand * s / weight, 2) for s in shares]


def percent_change(old: float, new: float) -> float:
    if old == 0:
        raise ZeroDivisionError("old value is zero; percent change is undefined")
    return round((new - old) / abs(old) * 100, 1)


def format_money(amount: float, currency: str = DEFAULT_CURRENCY, decimals: int = 2) -> str:
    symbols = {"EUR": "€", "USD": "$", "GBP": "£"}
    if currency not in symbols:
        raise KeyError(f"unknown currency {currency!r}")
    return f"{symbols[currency]}{amount:,.{decimals}f}"


def net_present_value(rate: float, cash_flows: list[float]) -> float:
    if rate <= -1:
        raise ValueError("rate must be greater than -1")
    return round(sum(cf / (1 + rate) ** t for t, cf in enumerate(cash_flows)), 2)


def ensure_positive(value: float, name: str = "value") -> None:
    if value <= 0:
        raise ValueError(f"{name} must be positive, got {value}")
