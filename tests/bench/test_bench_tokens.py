"""bench.bench_tokens: the per-function figures come from ``run --json`` as documented (removed sections
do not count as functions; a role that made no call counts 0)."""

from __future__ import annotations

import json

import pytest

from bench.bench_tokens import per_function
from bench.common import Sample


def sample(results: list[dict[str, object]]) -> Sample:
    return Sample(0.0, 0.0, 0, json.dumps({"results": results}))


GEN = {"calls": 2, "in": 300, "out": 100}
CRITIC = {"calls": 1, "in": 500, "out": 20}


@pytest.mark.parametrize("results, expected", [
    ([{"tokens": {"GENERATOR": GEN, "CRITIC": CRITIC}}],
     {"GENERATOR": (2, 300, 100), "CRITIC": (1, 500, 20), "ADJUDICATOR": (0, 0, 0)}),
    ([{"tokens": {"GENERATOR": GEN}}, {"tokens": {}}],  # a cache hit made no call: it halves the mean
     {"GENERATOR": (1, 150, 50), "CRITIC": (0, 0, 0), "ADJUDICATOR": (0, 0, 0)}),
    ([{"tokens": {"GENERATOR": GEN}}, {"reason": "removed", "tokens": {"GENERATOR": GEN}}],  # not a function
     {"GENERATOR": (2, 300, 100), "CRITIC": (0, 0, 0), "ADJUDICATOR": (0, 0, 0)}),
    ([], {"GENERATOR": (0, 0, 0), "CRITIC": (0, 0, 0), "ADJUDICATOR": (0, 0, 0)}),
])
def test_calls_and_tokens_per_function(results: list[dict[str, object]],
                                       expected: dict[str, tuple[float, ...]]) -> None:
    assert per_function(sample(results)) == expected
