"""The pre-commit front of the drift gate: hook id ``docbot-verify`` (docs/design.md#drift-gate).

pre-commit passes the staged docs and Python files (``types_or: [python, markdown, rst]``). The staged docs
that the ``docs_globs`` setting names are verified as project mode verifies them; when a staged Python file
changes a public function, every doc that mentions that function is verified too. Only a contradiction fails
the commit (exit 1), named by its doc line; notes and gaps are printed and pass. A commit that stages no doc
and changes no public function ends before the settings load (docs/design.md#lazy-imports).
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
    from docbot.scan.repo import DiffSpec
    from docbot.verify.project.report import ProjectReport


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
    from docbot.scan.repo import touches_nothing_public

    root = repo_root_of(Path.cwd())
    sources = [name for name in args.filenames if name.endswith(".py")]
    named = [name for name in args.filenames if not name.endswith(".py")]
    spec = _spec()
    if not named and (not sources or touches_nothing_public(root, spec, sources)):
        return ExitCode.OK
    from docbot.scan.repo import scan
    from docbot.verify.project.docs import DocsOptions
    from docbot.verify.project.drift import docs_mentioning, project_docs, verify_docs
    from docbot.verify.project.package import find_package

    options = DocsOptions.of(settings := settings_from(args, root))
    docs = project_docs(root, options)
    chosen = [p for p in docs if p.relative_to(root).as_posix() in named]
    if not chosen and not sources:  # a CHANGELOG.md, or a doc outside docs_globs: nothing to verify
        return ExitCode.OK
    package = find_package(root)
    if sources:
        changed = {t.key for t in scan(root, spec, sources, include_dunder=settings.include_dunder).targets}
        chosen += [p for p in docs_mentioning(root, docs, package, changed) if p not in chosen]
    if not chosen:
        return ExitCode.OK
    report = verify_docs(root, sorted(chosen), options, package)
    return _print(root, report)


def _print(root: Path, report: ProjectReport) -> int:
    lines, last, code = report.staged_lines({d.path: (root / d.path).read_text(encoding="utf-8-sig")
                                             for d in report.docs})
    for line in lines:
        print(line)
    print(last, file=sys.stderr if code else sys.stdout)
    return code


if __name__ == "__main__":
    sys.exit(main())
