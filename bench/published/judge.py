"""Helpers for judging the default run's contradictions by class (issue 28).

    python -m bench.published.judge classes --set dev [--all]     # group (unjudged) contradictions by class
    python -m bench.published.judge show --set dev REGEX          # every detail of the matching contradictions
    python -m bench.published.judge set --set dev REGEX VERDICT CLASS "EVIDENCE" [--force]

A class is one check and one error shape: the message with what it quotes, names and counts masked, so
``example `x = f(1)` raises NameError: name 'g' is not defined`` and the same on another line fall together.
``set`` writes a verdict for each matching key (only unjudged ones unless ``--force``); a class shares one
evidence line only after each of its members was checked (``bench.published.replay`` runs the doc's code).
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from typing import Any

from bench.published.project_run import KINDS, SETS, contradictions, files, load, stored

_MASKS = ((re.compile(r"`[^`]*`"), "`…`"), (re.compile(r"'[^']*'"), "'…'"), (re.compile(r'"[^"]*"'), '"…"'),
          (re.compile(r"\d+"), "N"))


def shape(finding: dict[str, Any]) -> str:
    text = finding["message"]
    for pattern, mask in _MASKS:
        text = pattern.sub(mask, text)
    return f"{finding['check']}: {text[:140]}"


def everything(which: str) -> list[tuple[str, dict[str, Any]]]:
    outcomes, _ = stored(which)
    return [pair for outcome in outcomes for pair in contradictions(outcome)]


def classes(which: str, every: bool) -> None:
    verdicts = load(files(which)["verdicts"], {})
    groups: dict[str, list[str]] = defaultdict(list)
    for item, finding in everything(which):
        if every or item not in verdicts:
            groups[shape(finding)].append(item)
    for name, items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print(f"{len(items):4d}  {name}")
        for item in items[:3]:
            print(f"        {item[:150]}")


def show(which: str, pattern: str) -> None:
    verdicts = load(files(which)["verdicts"], {})
    for item, finding in everything(which):
        if re.search(pattern, item):
            print(f"== {item}\n   message: {finding['message'][:700]}\n   code: {str(finding.get('code_fact'))[:300]}"
                  f"\n   verdict: {verdicts.get(item)}")


def record(which: str, pattern: str, verdict: str, kind: str, evidence: str, force: bool) -> None:
    if verdict not in KINDS:
        raise SystemExit(f"verdict must be one of {KINDS}")
    path = files(which)["verdicts"]
    verdicts = load(path, {})
    count = 0
    for item, _ in everything(which):
        if re.search(pattern, item) and (force or item not in verdicts):
            verdicts[item] = {"verdict": verdict, "class": kind, "evidence": evidence}
            count += 1
    path.write_text(json.dumps(dict(sorted(verdicts.items())), indent=1, ensure_ascii=False) + "\n",
                    encoding="utf-8")
    print(f"{count} verdicts written")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("classes", "show", "set"):
        sub = commands.add_parser(name)
        sub.add_argument("--set", choices=SETS, required=True, dest="which")
        if name == "classes":
            sub.add_argument("--all", action="store_true")
        else:
            sub.add_argument("pattern")
        if name == "set":
            sub.add_argument("verdict")
            sub.add_argument("kind")
            sub.add_argument("evidence")
            sub.add_argument("--force", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "classes":
        classes(args.which, args.all)
    elif args.command == "show":
        show(args.which, args.pattern)
    else:
        record(args.which, args.pattern, args.verdict, args.kind, args.evidence, args.force)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
