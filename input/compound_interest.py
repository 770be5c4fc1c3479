"""Sample: compound interest."""


def compound_interest(principal: float, rate: float, years: int, periods_per_year: int = 1) -> float:
    """Return the balance after ``years`` of compounding ``rate`` (0.05 = 5%), rounded to cents."""
    if principal < 0 or rate < 0 or years < 0:
        raise ValueError("principal, rate and years must be non-negative")
    if periods_per_year < 1:
        raise ValueError("periods_per_year must be at least 1")
    balance = principal * (1 + rate / periods_per_year) ** (periods_per_year * years)
    return round(balance, 2)
