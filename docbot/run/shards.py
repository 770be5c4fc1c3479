"""Splitting a run over CI matrix jobs (``--shard I/N``) and merging their reports (docs/design.md#shards).

Whole modules go to a shard, never single functions, so each doc file is written by exactly one job
and the jobs' docs/api changes never overlap. A module's shard comes from a digest of its dotted name:
stable across runs, machines and Python versions (``hash()`` is salted per process), and a module
keeps its shard when others are added or removed.

``merge_reports`` combines the ``--json`` reports of the shards into one report of the same shape.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from docbot.errors import ConfigError
from docbot.results import FunctionResult, RunReport

_SPEC = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` (1-based) of ``count``."""

    index: int
    count: int

    def holds(self, module: str) -> bool:
        digest = hashlib.sha256(module.encode("utf-8", "surrogateescape")).digest()
        return int.from_bytes(digest[:8], "big") % self.count == self.index - 1


def parse_shard(text: str) -> Shard:
    """``"2/4"`` -> ``Shard(2, 4)``; ConfigError for anything but 1 <= I <= N."""
    found = _SPEC.match(text)
    if found is None or not 1 <= int(found[1]) <= int(found[2]):
        raise ConfigError(f"--shard {text!r}: expected I/N with 1 <= I <= N, e.g. --shard 2/4.")
    return Shard(int(found[1]), int(found[2]))


def merge_reports(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """One ``run`` report from the shards' reports: results by module (each module is in one shard),
    files written, notices; scan errors once (every shard scans every file). ConfigError when the
    reports are not ``docbot run --json`` documents of one base and head."""
    if not reports:
        raise ConfigError("merge: no report given; pass the --json files of every shard.")
    for report in reports:
        if report.get("command") != "run" or not isinstance(report.get("results"), list):
            raise ConfigError("merge: every file must be the output of `docbot run --json`.")
    sides = {(report.get("base"), report.get("head")) for report in reports}
    if len(sides) != 1:
        raise ConfigError("merge: the reports compare different revisions (base/head); merge one run's shards.")
    results: list[FunctionResult] = []
    for report in reports:
        results += [_result(entry) for entry in report["results"]]
    results.sort(key=lambda r: r.module)  # stable: each module keeps its plan order
    base, head = sides.pop()
    merged = RunReport(results=results, written=sorted({p for r in reports for p in r.get("written", [])}),
                       base=str(base or ""), head=str(head or ""))
    return {**merged.to_json(),
            "scan_errors": list(dict.fromkeys(e for r in reports for e in r.get("scan_errors", []))),
            "notices": [n for r in reports for n in r.get("notices", [])]}


def _result(entry: dict[str, Any]) -> FunctionResult:
    from docbot.run.cache import decode  # the generic reader of FunctionResult's fields

    try:
        result: FunctionResult = decode(FunctionResult, {**entry, "removed": entry.get("reason") == "removed"})
    except (TypeError, ValueError, KeyError) as err:
        raise ConfigError(f"merge: a result that is not docbot's ({err}).") from None
    return result
