"""The published-docs benchmark: its list pins what it fetches, and its scoring counts what issue 23 asks."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bench.published.corpus import LIST, listed
from bench.published.run import FILES, KINDS, Outcome, key, summarise
from bench.truth.wild.sdists import listed as wild_listed

EXCLUDED = {"humanize", "tabulate", "xmltodict", "attrs", "tqdm", "python-dateutil", "pyparsing", "more-itertools"}


def _entry(name: str, docs: list[str]) -> Any:
    from bench.published.corpus import Entry

    return Entry(name, "1", f"{name}-1.tar.gz", "0" * 64, f"{name}-1", docs, 1)


def _finding(kind: str, line: int, message: str = "m", doc: str = "README.md") -> dict[str, Any]:
    return {"kind": kind, "check": "example_mismatch", "line": line, "message": message, "doc": doc}


def test_a_contradiction_without_a_verdict_is_listed_and_verdicts_give_precision() -> None:
    outcomes = [Outcome(_entry("a", ["README.md"]), 1, 1.0, [_finding("contradiction", 3),
                                                             _finding("contradiction", 9)]),
                Outcome(_entry("b", ["README.md", "docs/x.md"]), 1, 2.0, [_finding("contradiction", 4)]),
                Outcome(_entry("c", ["README.md"]), 0, 1.0, [_finding("note", 1)])]
    verdicts = {key("a", _finding("contradiction", 3)): {"verdict": "real", "evidence": "e"},
                key("b", _finding("contradiction", 4)): {"verdict": "false", "evidence": "e"}}
    summary = summarise(outcomes, verdicts)
    assert summary["unjudged"] == [key("a", _finding("contradiction", 9))]
    assert summary["precision"] == 0.5 and summary["judged"] == {"real": 1, "false": 1}
    assert (summary["docs"], summary["correct_docs"], summary["false_docs"]) == (4, 3, ["b/README.md"])
    assert summary["wrong_exit"] == [] and summary["real_errors"][0].endswith("— e")


@pytest.mark.parametrize("exit_code, kinds, wrong", [
    (1, ["note"], True),  # exit 1 with no contradiction
    (0, ["contradiction"], True),  # a contradiction that does not fail
    (1, ["contradiction"], False),
    (0, ["gap", "note"], False),
])
def test_exit_1_must_mean_a_contradiction(exit_code: int, kinds: list[str], wrong: bool) -> None:
    outcome = Outcome(_entry("a", ["README.md"]), exit_code, 1.0, [_finding(k, i) for i, k in enumerate(kinds)])
    verdicts = {key("a", f): {"verdict": "real", "evidence": "e"} for f in outcome.findings}
    assert bool(summarise([outcome], verdicts)["wrong_exit"]) is wrong


def test_the_key_masks_what_differs_between_runs() -> None:
    one = _finding("contradiction", 3, "object at 0x7f00aa in /tmp/abc/x.py line 3")
    two = _finding("contradiction", 3, "object at 0x7f11bb in /tmp/def/x.py line 9")
    assert key("a", one) == key("a", two)
    assert key("a", one) != key("a", _finding("contradiction", 4, one["message"]))


def test_the_list_pins_sdists_and_leaves_out_the_libraries_other_measurements_use() -> None:
    entries = listed(LIST)
    names = {e.name for e in entries}
    assert len(names) == len(entries) and not names & EXCLUDED and not names & {s.name for s in wild_listed()}
    assert all(len(e.sha256) == 64 and e.docs and e.docs[0].startswith("README") for e in entries)


@pytest.mark.parametrize("name", sorted(FILES))
def test_every_verdict_is_a_known_kind_with_evidence(name: str) -> None:
    verdicts = json.loads(FILES[name].verdicts.read_text(encoding="utf-8"))
    assert verdicts and all(v["verdict"] in KINDS and v["evidence"].strip() for v in verdicts.values())
