"""The pre-commit front of the drift gate: hook id ``docbot-verify`` (docs/design.md#drift-gate).

pre-commit passes the staged docs and Python files (``types_or: [python, markdown, rst]``). The hook judges
the commit as ``docbot check --base`` judges a branch, with ``HEAD`` as the base: the staged docs that the
``docs_globs`` setting names are verified, and so is every doc whose names can reach a definition the
staged Python changes (a private helper or a constant included). Only a contradiction the commit makes
fails it (exit 1), named by its doc line; one ``HEAD`` already had is listed as pre-existing and passes, as
do notes and gaps. A commit that stages no doc and no Python file, or Python in a checkout with no doc for
the default globs and no config file, ends before the settings load (docs/design.md#lazy-imports).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from docbot import __version__
from docbot.errors import ExitCode
from docbot.fronts.common import guarded, settings_from
from docbot.fronts.options import repo_root_of

if TYPE_CHECKING:
    from docbot.scan.diff_read import DiffRead
    from docbot.scan.repo import DiffSpec
    from docbot.verify.project.report import DriftReport


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="docbot-verify-hook", description=__doc__)
    parser.add_argument("--version", action="version", version=f"docbot-verify-hook {__version__}")
    parser.add_argument("--config", help="config file (default: config.json at the repo root, if present)")
    parser.add_argument("filenames", nargs="*", help="the files pre-commit passes")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    return guarded(lambda: _verify(args))


def _spec() -> DiffSpec:
    """The staged changes; pre-commit's refs on a pre-push run (``--from-ref/--to-ref``)."""
    from docbot.scan.repo import DiffSpec

    from_ref, to_ref = os.environ.get("PRE_COMMIT_FROM_REF"), os.environ.get("PRE_COMMIT_TO_REF")
    return DiffSpec(base=from_ref, head=to_ref) if from_ref and to_ref else DiffSpec(staged=True)


def _verify(args: argparse.Namespace) -> int:
    root = repo_root_of(Path.cwd())
    sources = [name for name in args.filenames if name.endswith(".py")]
    named = [name for name in args.filenames if not name.endswith(".py")]
    if not named and (not sources or _no_docs(args, root)):
        return ExitCode.OK
    from docbot.scan.diff_read import read_diff
    from docbot.verify.project.doc_files import DocsOptions
    from docbot.verify.project.drift import judge

    settings = settings_from(args, root)
    spec = _spec()
    drift = judge(root, _only(read_diff(root, spec), sources), DocsOptions.of(settings), cache=settings.cache,
                  edited_docs={Path(name).as_posix() for name in named})
    return _print(root, drift, "HEAD" if spec.staged else str(spec.base))


def _no_docs(args: argparse.Namespace, root: Path) -> bool:
    """No config file could name other docs, and no doc matches the default globs outside docs/api."""
    from docbot.config.choices import DEFAULT_DOCS_GLOBS
    from docbot.fronts.common import has_config_file

    if has_config_file(args, root):
        return False
    generated = root / "docs" / "api"
    return not any(p.is_file() and not p.is_relative_to(generated) for g in DEFAULT_DOCS_GLOBS for p in root.glob(g))


def _only(diff: DiffRead, sources: Sequence[str]) -> DiffRead:
    """The diff restricted to the Python files pre-commit passed (a hook's ``files:`` narrows what it judges)."""
    from dataclasses import replace

    given = {Path(s).as_posix() for s in sources}
    return replace(diff, changes=[c for c in diff.changes if {c.old_path, c.new_path} & given])


def _print(root: Path, drift: DriftReport, base: str) -> int:
    from docbot.fronts.common import skip_command
    from docbot.verify.findings import Severity
    from docbot.verify.project.doc_files import read_doc
    from docbot.verify.project.report import finding_line
    from docbot.verify.project.suggest import stated_line

    for line in drift.lines(base):
        print(line)
    for doc in drift.reports:  # notes and gaps, for the person committing, on the line stating them; they pass
        lines = read_doc(root, root / doc.path).split("\n")
        for found in doc.findings:
            if found.severity is not Severity.CONTRADICTION:
                print(finding_line(doc.path, stated_line(found, lines, doc.block(found)), found))
    names = ", ".join(drift.docs) or "no doc uses the staged change"
    if drift.failed:
        print(f"docbot verify: {len(drift.introduced)} contradiction(s) this commit makes in {names}"
              + (f", {len(drift.unverified)} doc(s) left unverified" if drift.unverified else "")
              + ". Fix the doc, or the code if the doc is right (`docbot verify --suggest` prints a patch for stale "
              f"outputs); to commit anyway: `{skip_command(root, 'docbot-verify')}`.", file=sys.stderr)
        return ExitCode.FINDINGS
    print(f"docbot verify: {names}: no contradiction this commit makes.")
    return ExitCode.OK


if __name__ == "__main__":
    sys.exit(main())
