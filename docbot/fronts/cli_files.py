"""The CLI's file commands: ``verify`` (a doc you wrote against its source) and ``merge`` (the reports of
``run --shard`` jobs). Kept apart from ``cli.py`` so each front module stays readable in one sitting.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docbot.config.choices import DEFAULT_EXAMPLE_SANDBOX
from docbot.errors import ConfigError
from docbot.fronts.common import has_config_file, json_document, plain_settings_from, read_doc, read_source
from docbot.fronts.options import command, output_options

if TYPE_CHECKING:
    from docbot.verify.project.report import DriftReport


def cmd_verify(args: argparse.Namespace) -> int:
    from docbot.scan.targets import importable_as
    from docbot.verify.checks.source_doc import verify_source_doc
    from docbot.verify.project.report import PairReport

    if not (len(args.paths) == 2 and args.paths[0].endswith(".py")):
        return cmd_verify_project(args)
    if args.suggest:
        raise ConfigError("--suggest works in project mode (doc paths, or none); not with SOURCE.py DOC.")
    source_path, doc_path = Path(args.paths[0]), Path(args.paths[1])
    for path in (source_path, doc_path):
        if not path.is_file():
            raise ConfigError(f"{path}: no such file.")
    module, sys_path = importable_as(source_path.resolve())
    # config.json may allow the guard alone; without a config file the default holds (no pydantic to load)
    sandbox = (plain_settings_from(args, Path.cwd()).example_sandbox if has_config_file(args, Path.cwd())
               else DEFAULT_EXAMPLE_SANDBOX)
    names = [n.strip() for given in args.function or [] for n in given.split(",") if n.strip()]
    report = PairReport(verify_source_doc(read_source(source_path), read_doc(doc_path), module=module,
                                          sys_path=sys_path, function=names, run_examples=not args.no_examples,
                                          sandbox=sandbox, rst=doc_path.suffix == ".rst",
                                          package=package_sources(module, sys_path)))
    print(json_document("verify", **report.to_json()) if args.json else "\n".join(report.lines()))
    return report.exit_code(args.strict)


def package_sources(module: str, sys_path: tuple[str, ...]) -> dict[str, str]:
    """The modules of the package ``module`` belongs to (dotted name -> text), read from ``sys_path``'s first
    folder: pair mode finds there what the source only imports and follows the code beyond the file."""
    from docbot.verify.project.package import Package

    top = Path(sys_path[0]) / module.split(".")[0] if sys_path else None
    if top is None or not (top / "__init__.py").is_file():
        return {}
    package = Package.at(top, Path(sys_path[0]))
    return {name: package.source(name) for name in package.modules}


def cmd_verify_project(args: argparse.Namespace) -> int:
    """Project mode: the docs against the package; exit 1 means a contradiction (with ``--strict``, any gap)."""
    from docbot.verify.project.doc_files import DocsOptions
    from docbot.verify.project.docs import suggested_patch, verify_here

    root = Path.cwd()
    report = verify_here(root, [Path(p) for p in args.paths], DocsOptions.of(plain_settings_from(args, root)),
                         run_examples=not args.no_examples)
    if args.suggest:  # stdout is the patch alone, so `docbot verify --suggest | git apply` works
        print("\n".join(report.lines()), file=sys.stderr)
        print(suggested_patch(root, report), end="")
    elif args.json:
        print(json_document("verify", **report.to_json()))
    else:
        print("\n".join(report.lines()))
    return report.exit_code(args.strict)


def add_verify(sub: Any) -> None:
    verify = command(sub, "verify", "check a project's docs (or one Markdown doc) against the code",
                      "Runs the truth checks (parameters, exceptions, examples, API names) on docs you wrote; no "
                      "model. With no paths: the project's README and docs/ (the docs_globs setting) against its "
                      "package; exit 1 only on a contradiction. With SOURCE.py DOC: one doc against one file.")
    verify.add_argument("paths", nargs="*", metavar="PATH",
                        help="SOURCE.py DOC, or the project's doc files to check (default: the docs_globs setting)")
    verify.add_argument("--function", metavar="NAME", action="append",
                        help="check only these functions (repeat, or comma-separated); others need no section")
    verify.add_argument("--strict", action="store_true",
                        help="exit 1 on gaps too (what the doc leaves out; in project mode also undocumented API "
                        "and examples that do not run as printed)")
    verify.add_argument("--no-examples", action="store_true", help="do not execute the doc's examples")
    verify.add_argument("--suggest", action="store_true",
                        help="project mode: print a patch (for `git apply`) that replaces each stale stated output "
                        "with the real one, where the example is deterministic; the report goes to stderr. "
                        "Nothing is written")
    output_options(verify)
    verify.set_defaults(func=cmd_verify)


def drift_gate(args: argparse.Namespace, root: Path, base: str, diff: Any = None) -> DriftReport:
    """``check --base``'s drift gate: the hand-written docs the diff made false, printed (not with --json);
    ``diff``: git's reading of ``base...HEAD``, when the command has it already."""
    from docbot.verify.project.doc_files import DocsOptions
    from docbot.verify.project.drift import drift_gate as gate

    settings = plain_settings_from(args, root)
    drift = gate(root, base, DocsOptions.of(settings), run_examples=settings.run_examples is not False,
                 cache=settings.cache, diff=diff)
    if not args.json:
        for line in drift.lines(base):
            print(line)
        print(drift.summary_line(), file=sys.stderr)
    return drift


def cmd_merge(args: argparse.Namespace) -> int:
    from docbot.run.shards import merge_reports

    reports = []
    for name in args.reports:
        try:
            reports.append(json.loads(read_doc(Path(name))))
        except json.JSONDecodeError as err:
            raise ConfigError(f"{name}: not JSON ({err.msg}); pass the output of `docbot run --json`.") from err
    merged = merge_reports(reports)
    print(json_document("run", **{k: v for k, v in merged.items() if k not in ("schema_version", "command")}))
    print(merged["summary"], file=sys.stderr)
    return int(merged["exit_code"])  # what the shards' results imply: 1 on a failure, else 6 on unapproved


def add_merge(sub: Any) -> None:
    merge = command(sub, "merge", "merge the --json reports of `run --shard` jobs into one report",
                    "Prints one `run` JSON report: every shard's results, files and notices, and exits as "
                    "`run` would have: 1 when a function failed, else 6 when a section is unapproved. "
                    "Every shard's report must be given once (exit 2 otherwise).")
    merge.add_argument("reports", nargs="+", metavar="REPORT", help="a shard's `docbot run --json` output")
    merge.set_defaults(func=cmd_merge)
