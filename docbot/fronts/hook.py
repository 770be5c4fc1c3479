"""The pre-commit front: document the staged changes, or only check them.

pre-commit convention: a hook that modified files exits non-zero so the user reviews and stages
them; the next commit attempt then passes. A commit that touches no public function finishes fast
and never contacts a model server (``run_docs`` builds the models only when a doc must be written).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Sequence

from docbot.fronts.common import guarded, settings_from
from docbot.fronts.console import ConsoleSink
from docbot.settings import BACKEND_NAMES


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="docbot-hook", description=__doc__)
    parser.add_argument("--config", help="config file (default: config.json at the repo root, if present)")
    parser.add_argument("--time-budget", type=float, metavar="SECONDS",
                        help="stop starting new functions after this; the rest are left to CI")
    parser.add_argument("--check", action="store_true", help="only check that docs are current (no model)")
    parser.add_argument("--replay", metavar="FILE", help="answer model calls from a recording")
    parser.add_argument("--backend", choices=BACKEND_NAMES)
    parser.add_argument("--base-url")
    parser.add_argument("filenames", nargs="*", help="ignored: docbot reads the staged diff itself")
    return parser


def _check(args: argparse.Namespace, root: Path) -> int:
    from docbot.check import check_docs
    from docbot.repo import DiffSpec

    stale = check_docs(settings_from(args, root), root, DiffSpec(staged=True),
                       emit=ConsoleSink(sys.stdout, verbose=False))
    for entry in stale:
        print(entry.describe())
    if stale:
        print("docbot: run the `docbot` hook or `docbot run --staged`, then stage docs/api.")
    return 1 if stale else 0


def _document(args: argparse.Namespace, root: Path) -> int:
    from docbot.repo import DiffSpec
    from docbot.run import run_docs

    settings = settings_from(args, root, {"time_budget_s": args.time_budget})
    report = run_docs(settings, root, DiffSpec(staged=True), (), ConsoleSink(sys.stdout, verbose=False))
    for error in report.scan_errors:
        print(f"docbot: skipped {error}")
    skipped = [r for r in report.results if r.status == "skipped"]
    if skipped:
        print(f"docbot: {len(skipped)} function(s) left to CI: " + ", ".join(r.key for r in skipped))
    if report.written:
        print("docbot wrote or changed these docs; review them, then `git add` them and commit again:")
        for path in report.written:
            print(f"  {path}")
    if report.results:
        print(report.summary_line())
    return 1 if report.written or report.count("failed") else 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    root = Path(os.getcwd())  # pre-commit runs hooks from the repository root
    return guarded(lambda: _check(args, root) if args.check else _document(args, root))


if __name__ == "__main__":
    sys.exit(main())
