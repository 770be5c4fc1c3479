"""What the sandbox runs: one example step, and what the doc says should come of it.

``docbot.verify.read.examples`` reads steps out of a doc; the runner sends them to the child as JSON. The
type lives here, with the boundary, so that the sandbox depends on nothing in ``verify``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Step:
    """One thing to run and what the doc says should come of it."""

    code: str
    expect: str  # "none" | "output" (doctest) | "value" | "stdout" | "raises"
    want: str = ""  # the stated output
    exc_type: str = ""  # for "raises"
    exc_message: str | None = None  # for "raises"; None when the doc states no message
    target: str = ""  # for "value" on an assignment: the name whose value is compared
    echo_last: bool = False  # a block followed by an output block: its last expression may be echoed; the
    # last statement's expressions, when it is compound (a stated output after a `try` that prints nothing)
    fatal: bool = True  # when it raises, the doc is wrong (it presented the example as working)
    shown: str = ""  # the example as the doc shows it, for messages
    line: int = 0  # the doc line of the example's block
    loose_space: bool = False  # "# doctest: +NORMALIZE_WHITESPACE": runs of whitespace compare equal

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
