"""How long GitHub asks us to wait before trying again: pure, from a response's status and headers.

GitHub's documented rules: a 429 or 403 with ``Retry-After`` means wait that many seconds; a 403/429
with ``x-ratelimit-remaining: 0`` means wait until ``x-ratelimit-reset`` (epoch seconds). The wait is
bounded: a reset an hour away is not worth a CI job sleeping for, so past ``cap`` it is not retried.
"""

from __future__ import annotations

from collections.abc import Mapping

MAX_WAIT_S = 60.0
RATE_LIMITED = (403, 429)


def rate_limit_wait(status: int, headers: Mapping[str, str], now: float, cap: float = MAX_WAIT_S) -> float | None:
    """Seconds to wait before retrying, or None: not a rate limit, or a wait longer than ``cap``.

    ``headers`` must look names up case-insensitively (httpx's do); ``now`` is epoch seconds.
    """
    if status not in RATE_LIMITED:
        return None
    wait = _seconds(headers.get("retry-after"))
    if wait is None and headers.get("x-ratelimit-remaining") == "0":
        reset = _seconds(headers.get("x-ratelimit-reset"))
        wait = None if reset is None else max(reset - now, 0.0) + 1.0  # +1: the reset is whole seconds
    if wait is None:
        return None
    return wait if wait <= cap else None


def _seconds(value: str | None) -> float | None:
    """A non-negative whole number of seconds (the form GitHub sends); anything else is ignored."""
    if value is None or not value.strip().isdigit():
        return None
    return float(value.strip())
