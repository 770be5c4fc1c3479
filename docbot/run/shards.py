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
    files written, notices; scan errors once (every shard scans every file); the exit code the merged
    results imply. ConfigError when the reports are not ``docbot run --shard I/N --json`` documents of
    one base and head, or are not every shard exactly once (docs/design.md#shards)."""
    if not reports:
        raise ConfigError("merge: no report given; pass the --json files of every shard.")
    for report in reports:
        if report.get("command") != "run" or not isinstance(report.get("results"), list):
            raise ConfigError("merge: every file must be the output of `docbot run --json`.")
    sides = {(report.get("base"), report.get("head")) for report in reports}
    if len(sides) != 1:
        raise ConfigError("merge: the reports compare different revisions (base/head); merge one run's shards.")
    _check_shards([_shard_of(report) for report in reports])
    per_report = [[_result(entry) for entry in report["results"]] for report in reports]
    _check_disjoint(per_report)
    results = sorted((r for part in per_report for r in part), key=lambda r: r.module)  # stable: plan order kept
    base, head = sides.pop()
    merged = RunReport(results=results, written=sorted({p for r in reports for p in r.get("written", [])}),
                       base=str(base or ""), head=str(head or ""))
    return {**merged.to_json(),
            "scan_errors": list(dict.fromkeys(e for r in reports for e in r.get("scan_errors", []))),
            "notices": [n for r in reports for n in r.get("notices", [])],
            "exit_code": int(merged.exit_code())}


def _shard_of(report: dict[str, Any]) -> Shard:
    """The ``shard`` key ``run --shard I/N --json`` records; a report without it cannot show which
    shards are missing, so it is refused rather than merged blind."""
    found = report.get("shard")
    try:
        return Shard(int(found["index"]), int(found["count"]))  # type: ignore[index]
    except (TypeError, KeyError, ValueError):
        raise ConfigError("merge: a report has no `shard` key; merge only the reports of "
                          "`docbot run --shard I/N --json`, one per shard.") from None


def _check_shards(shards: list[Shard]) -> None:
    counts = sorted({s.count for s in shards})
    if len(counts) != 1:
        raise ConfigError(f"merge: the reports split the run differently (N = {', '.join(map(str, counts))}); "
                          "merge the shards of one `--shard I/N` matrix.")
    seen: dict[int, int] = {}
    for shard in shards:
        seen[shard.index] = seen.get(shard.index, 0) + 1
    twice = sorted(index for index, times in seen.items() if times > 1)
    if twice:
        raise ConfigError(f"merge: shard {', '.join(f'{i}/{counts[0]}' for i in twice)} given more than once; "
                          "pass each shard's report once.")
    missing = [index for index in range(1, counts[0] + 1) if index not in seen]
    if missing:
        raise ConfigError(f"merge: shard {', '.join(f'{i}/{counts[0]}' for i in missing)} missing; pass the "
                          "report of every shard (a missing one would hide its functions).")


def _check_disjoint(parts: list[list[FunctionResult]]) -> None:
    """Each module belongs to one shard: one in two reports means they are not one run's shards."""
    owner: dict[str, int] = {}
    for number, part in enumerate(parts, 1):
        for module in sorted({r.module for r in part}):
            if owner.setdefault(module, number) != number:
                raise ConfigError(f"merge: module {module} is in reports {owner[module]} and {number}; "
                                  "each module belongs to one shard, so merge one run's shards only.")


def _result(entry: dict[str, Any]) -> FunctionResult:
    from docbot.run.cache import decode  # the generic reader of FunctionResult's fields

    # A report written before ``outcome`` was a key said "removed" in ``reason`` alone.
    removed = entry.get("reason") == "removed" and entry.get("status") == "updated" and "outcome" not in entry
    try:
        result: FunctionResult = decode(FunctionResult, {**entry, **({"outcome": "removed"} if removed else {})})
    except (TypeError, ValueError, KeyError) as err:
        raise ConfigError(f"merge: a result that is not docbot's ({err}).") from None
    return result
