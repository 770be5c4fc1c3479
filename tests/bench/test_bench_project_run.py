"""The default-run benchmark (issue 28): its keys, its scoring, its grown list, and its judging helpers."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from typing import Any

import pytest

from bench.published.grow import EXCLUDED, GROWN, TARGET
from bench.published.judge import shape
from bench.published.project_run import KINDS, SETS, Outcome, files, keys, stated, summarise
from bench.published.replay import _RUNNER, blocks


def _finding(kind: str, line: int, text: str = "x = 1", doc: str = "README.md",
             check: str = "example_mismatch") -> dict[str, Any]:
    return {"kind": kind, "check": check, "line": line, "message": f"m {line}", "doc_text": text, "doc": doc}


def _outcome(name: str, code: int, *findings: dict[str, Any], traceback: str = "") -> Outcome:
    return Outcome(name, code, 1.0, list(findings), ["README.md"], traceback)


def _verdicts(outcome: Outcome, *verdicts: str) -> dict[str, dict[str, str]]:
    found = [f for f in outcome.findings if f["kind"] == "contradiction"]
    return {k: {"verdict": v, "class": "c", "evidence": "e"}
            for k, v in zip(keys(outcome.name, found), verdicts, strict=True)}


def test_a_key_is_package_doc_line_check_and_the_stated_text_not_the_message() -> None:
    one, two = _finding("contradiction", 3, "print( 1 )\n"), _finding("contradiction", 3, "print( 1 )")
    two["message"] = "reworded by a later docbot"
    assert keys("a", [one]) == keys("a", [two]) == ["a README.md:3 example_mismatch: print( 1 )"]
    assert keys("a", [one, one]) == [keys("a", [one])[0], keys("a", [one])[0] + " #2"]
    assert keys("a", [one]) != keys("a", [_finding("contradiction", 4, "print( 1 )")])
    assert keys("a", [one]) != keys("b", [one])
    assert stated({"doc_text": "", "message": "said"}) == "said"


def test_precision_counts_noise_against_and_the_other_figure_does_not() -> None:
    outcome = _outcome("a", 1, *(_finding("contradiction", i) for i in range(4)))
    outcome = Outcome("a", 1, 1.0, [{**f, "doc_text": str(f["line"])} for f in outcome.findings], ["README.md"])
    summary = summarise([outcome], _verdicts(outcome, "real", "false", "environment", "real"), [])
    assert summary["precision_all"] == 0.5 and summary["precision_real_false"] == pytest.approx(2 / 3)
    assert summary["contradictions"] == 4 and summary["unjudged"] == [] and len(summary["real_errors"]) == 2
    assert summary["classes"] == {"false: c": 1, "environment: c": 1}


def test_a_contradiction_without_a_verdict_is_listed() -> None:
    outcome = _outcome("a", 1, _finding("contradiction", 3), _finding("contradiction", 5, "y"))
    verdicts = dict(list(_verdicts(outcome, "real", "real").items())[:1])
    summary = summarise([outcome], verdicts, [])
    assert summary["unjudged"] == ["a README.md:5 example_mismatch: y"] and summary["contradictions"] == 2


@pytest.mark.parametrize("code, kinds, traceback, wrong", [
    (1, ["note"], "", True),  # exit 1 with no contradiction
    (0, ["contradiction"], "", True),  # a contradiction that does not fail
    (2, [], "", True),  # exit 2 where a package exists
    (0, ["note"], "Traceback (most recent call last):\nKeyError: 1", True),  # docbot crashed
    (1, ["contradiction"], "", False),
    (0, ["gap", "note"], "", False),
])
def test_exit_codes_must_agree_with_the_findings(code: int, kinds: list[str], traceback: str, wrong: bool) -> None:
    outcome = _outcome("a", code, *(_finding(k, i, str(i)) for i, k in enumerate(kinds)), traceback=traceback)
    summary = summarise([outcome], _verdicts(outcome, *["real"] * kinds.count("contradiction")), [])
    assert bool(summary["wrong_exit"]) is wrong
    assert bool(summary["tracebacks"]) is bool(traceback)


def test_a_real_error_found_before_and_not_found_now_is_lost() -> None:
    stored = [{"key": "k1", "package": "a", "doc": "README.md", "line": 3},
              {"key": "k2", "package": "a", "doc": "README.md", "line": 9}]
    outcome = _outcome("a", 1, _finding("contradiction", 3), _finding("note", 9))
    assert summarise([outcome], _verdicts(outcome, "real"), stored)["lost"] == ["k2"]


def test_a_class_masks_what_it_quotes_names_and_counts() -> None:
    one = {"check": "example_raises", "message": "example `f(1)` raises NameError: name 'g' is not defined at 3"}
    two = {"check": "example_raises", "message": "example `h(22)` raises NameError: name 'k' is not defined at 70"}
    assert shape(one) == shape(two)
    assert shape(one) != shape({**two, "check": "example_mismatch"})
    assert shape(one) != shape({**two, "message": two["message"].replace("NameError", "TypeError")})


def test_blocks_are_found_in_markdown_and_rst_with_their_lines() -> None:
    markdown = "# T\n\n```python\nx = 1\n```\n\n```bash\nls\n```\n\n```\n>>> 1 + 1\n2\n```\n"
    assert blocks(markdown, rst=False) == [(4, "x = 1"), (12, ">>> 1 + 1\n2")]
    rst = "T\n=\n\n.. code-block:: python\n\n    import os\n    os.sep\n\nText::\n\n    print(1)\n\n" \
          ".. code-block:: bash\n\n    ls\n\n>>> 2 * 3\n6\n"
    assert blocks(rst, rst=True) == [(6, "import os\nos.sep"), (11, "print(1)"), (17, ">>> 2 * 3\n6")]


def test_the_replay_runner_reports_what_plain_python_shows() -> None:
    found = [[False, 5], [1, "x = 2"], [3, ">>> x + 1\n3\n>>> x\n5"], [8, "undefined_name"]]
    done = subprocess.run([sys.executable, "-c", _RUNNER], input=json.dumps(found), capture_output=True, text=True,
                          check=True)
    lines = done.stdout.splitlines()
    assert lines[0] == "L1 script ok"
    assert lines[1].startswith("L5 session DIFFERS doc '5\\n' got '2\\n'")
    assert lines[2] == "L3 session 2 examples, 1 differ"
    assert lines[3].startswith("L8 script RAISES \"NameError")


def test_the_grown_list_keeps_out_the_packages_others_measure_and_holds_out_the_first_quarter_of_the_new() -> None:
    data = json.loads(GROWN.read_text(encoding="utf-8"))
    packages = data["packages"]
    norm = {p["name"].lower().replace("_", "-").replace(".", "-") for p in packages}
    assert len(packages) >= TARGET and len(norm) == len(packages) and not norm & EXCLUDED
    new = [p for p in packages if p["origin"] == "continuation"]
    held = [p for p in packages if p["set"] == "held_out"]
    assert held == new[:math.ceil(TARGET / 4)] and [p["rank"] for p in new] == sorted(p["rank"] for p in new)
    assert min(p["rank"] for p in new) > 328 and {"continuation", "packages.json", "holdout.json"} == {
        p["origin"] for p in packages}


@pytest.mark.parametrize("which, after", [("held_out2", 466), ("held_out3", 542)])
def test_the_fresh_held_out_set_continues_the_walk_past_the_grown_list_and_leaves_it_as_it_was(
        which: str, after: int) -> None:
    """Each fresh set is 30 packages in one run of the list, right after the entries it continues (whose last
    rank is ``after``), in rank order, none excluded and none listed before it."""
    packages = json.loads(GROWN.read_text(encoding="utf-8"))["packages"]
    start = next(i for i, p in enumerate(packages) if p["set"] == which)
    fresh, before, later = packages[start:start + 30], packages[:start], packages[start + 30:]
    assert len(fresh) == 30 and all(p["set"] == which for p in fresh)
    assert which not in {p["set"] for p in before + later} and all(p["rank"] > fresh[-1]["rank"] for p in later)
    assert [p["rank"] for p in fresh] == sorted(p["rank"] for p in fresh) and fresh[0]["rank"] > after == max(
        p["rank"] for p in before)
    norm = [p["name"].lower().replace("_", "-").replace(".", "-") for p in packages]
    names = set(norm[start:start + 30])
    assert len(names) == 30 and not names & EXCLUDED and not names & set(norm[:start])


@pytest.mark.parametrize("which", SETS)
def test_every_verdict_is_a_known_kind_with_evidence(which: str) -> None:
    verdicts = json.loads(files(which)["verdicts"].read_text(encoding="utf-8"))
    assert verdicts and all(v["verdict"] in KINDS and v["evidence"].strip() and v.get("class")
                            for v in verdicts.values())


@pytest.mark.parametrize("which", SETS)
def test_the_stored_run_is_judged_whole_and_its_real_errors_are_kept(which: str) -> None:
    """The committed run has a verdict for every contradiction, and every real one is in the stored list."""
    from bench.published.project_run import load, stored

    outcomes, _ = stored(which)
    verdicts = load(files(which)["verdicts"], {})
    summary = summarise(outcomes, verdicts, load(files(which)["real"], []))
    assert outcomes and summary["unjudged"] == [] and summary["lost"] == []
    assert len(load(files(which)["real"], [])) == len(summary["real_errors"])
