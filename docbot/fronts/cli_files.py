"""The CLI's file commands: ``verify`` (a doc you wrote against its source) and ``merge`` (the reports of
``run --shard`` jobs). Kept apart from ``cli.py`` so each front module stays readable in one sitting.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import Any, Sequence

from docbot.config.choices import DEFAULT_EXAMPLE_SANDBOX
from docbot.errors import ConfigError, ExitCode
from docbot.fronts.common import has_config_file, json_document, read_doc, read_source, settings_from
from docbot.fronts.options import command, output_options
from docbot.results import plural


def importable_as(source: Path) -> tuple[str, tuple[str, ...]]:
    """The dotted module and import path for a file: from its package root, so relative imports work."""
    from docbot.scan.targets import module_name

    root = source.parent
    while (root / "__init__.py").exists():
        root = root.parent
    if (root / "src").is_dir() and root.name != "src" and source.is_relative_to(root / "src"):
        root = root / "src"
    return module_name(source.relative_to(root).as_posix()), (str(root),)


def cmd_verify(args: argparse.Namespace) -> int:
    from docbot.verify import verify_source_doc

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
    sandbox = (settings_from(args, Path.cwd()).example_sandbox if has_config_file(args, Path.cwd())
               else DEFAULT_EXAMPLE_SANDBOX)
    names = [n.strip() for given in args.function or [] for n in given.split(",") if n.strip()]
    checked = verify_source_doc(read_source(source_path), read_doc(doc_path),
                                module=module, sys_path=sys_path, function=names,
                                run_examples=not args.no_examples, sandbox=sandbox)
    if args.json:
        print(json_document("verify", functions=[{"qualname": c.qualname, "section_found": c.section_found,
                                                  "findings": [f.to_json() for f in c.findings]}
                                                 for c in checked]))
    else:
        for item in checked:
            state = "no section found in the doc" if not item.section_found else plural(len(item.findings), "finding")
            print(f"{item.qualname}: {state}")
            for finding in item.findings:
                print(f"  {_LABELS[finding.severity.value]} [{finding.kind}] {finding.message}")
    return verify_exit_code(checked, args.strict)


def cmd_verify_project(args: argparse.Namespace) -> int:
    """Project mode: the docs against the package; exit 1 means a contradiction (with ``--strict``, any gap)."""
    from docbot.verify.project import doc_paths, find_package, verify_project
    from docbot.verify.reader import ReaderKind

    root = Path.cwd()
    settings = settings_from(args, root)
    docs = [Path(p) for p in args.paths] or doc_paths(root, settings.docs_globs)
    for path in docs:
        if not path.is_file():
            raise ConfigError(f"{path}: no such file.")
    if not docs:
        raise ConfigError(f"no docs match {', '.join(settings.docs_globs)} under {root}; pass the doc paths, or "
                          "set docs_globs")
    report = verify_project(root, find_package(root), docs, settings.docs_setup, not args.no_examples,
                            settings.example_timeout_s, settings.example_sandbox)
    if args.suggest:  # stdout is the patch alone, so `docbot verify --suggest | git apply` works
        with contextlib.redirect_stdout(sys.stderr):
            _print_project(report)
        print(suggested_patch(root, report), end="")
    elif args.json:
        print(json_document("verify", package=report.package, docs=[
            {"path": d.path, "references": d.references, "findings": [f.to_json() for f in d.findings]}
            for d in report.docs], undocumented=report.undocumented, counts={
            kind.value: report.count(kind) for kind in ReaderKind}))
    else:
        _print_project(report)
    return project_exit_code(report, args.strict)


def suggested_patch(root: Path, report: Any) -> str:
    """The patch that replaces each stale stated output with the real one (docbot.verify.suggest)."""
    from docbot.verify.suggest import fixes_for, patch

    parts = []
    for doc in report.docs:
        text = (root / doc.path).read_bytes().decode("utf-8", "replace")
        parts.append(patch(doc.path, text, fixes_for(doc, text)))
    return "".join(parts)


def _print_project(report: Any) -> None:
    from docbot.verify.reader import ReaderKind

    for doc in report.docs:
        print(f"{doc.path}: {plural(len(doc.findings), 'finding')}, {plural(doc.references, 'API name')} checked")
        for item in doc.findings:
            label = "CONTRADICTION" if item.kind is ReaderKind.CONTRADICTION else item.kind.value
            reason = f" ({item.reason})" if item.reason else ""
            print(f"  {doc.path}:{item.line or '?'}: {label} [{item.finding.kind}] {item.finding.message}{reason}")
    if report.undocumented:
        print(f"coverage: {plural(len(report.undocumented), 'public function')} no doc names: "
              f"{', '.join(report.undocumented[:20])}{' …' if len(report.undocumented) > 20 else ''}")


def project_exit_code(report: Any, strict: bool) -> int:
    """FINDINGS only for a contradiction; with ``--strict`` also for gaps, coverage and unrunnable examples."""
    from docbot.verify.reader import ReaderKind

    if report.count(ReaderKind.CONTRADICTION):
        return ExitCode.FINDINGS
    lenient = (ReaderKind.NOTE, ReaderKind.VERSION_DEPENDENT, ReaderKind.TIME_DEPENDENT)
    if strict and (report.undocumented or any(report.count(k) for k in ReaderKind if k not in lenient)):
        return ExitCode.FINDINGS
    return 0


_LABELS = {"contradiction": "CONTRADICTION", "gap": "gap", "note": "note", "nondeterministic": "nondeterministic"}


def verify_exit_code(checked: Sequence[Any], strict: bool) -> int:
    """1 on a contradiction or a function without a section; gaps count only with ``--strict``."""
    missing = any(not c.section_found for c in checked)
    contradictions = any(c.fatal for c in checked)
    gaps = strict and any(c.gaps for c in checked)
    return ExitCode.FINDINGS if missing or contradictions or gaps else ExitCode.OK


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


def drift_gate(args: argparse.Namespace, root: Path, base: str) -> Any:
    """``check --base``'s drift gate: the hand-written docs the diff made false, printed (not with --json)."""
    from docbot.verify.drift import DocsOptions, changes, drift_since

    settings = settings_from(args, root)
    changed, edited, fork = changes(root, base)
    drift = drift_since(root, fork, changed, edited, DocsOptions(
        tuple(settings.docs_globs), settings.docs_setup, settings.example_timeout_s, settings.example_sandbox,
        settings.docs_dir))
    if not args.json:
        for item in drift.introduced:
            print(f"{item.path}:{item.line or '?'}: CONTRADICTION [{item.check}] {item.message} (new in this diff)")
        for item in drift.pre_existing:
            print(f"{item.path}:{item.line or '?'}: pre-existing [{item.check}] {item.message} (false on "
                  f"{base} too; not a failure)")
        print(f"docbot check: drift gate: {plural(len(drift.docs), 'hand-written doc')} verified (each mentions a "
              f"changed function or was edited); {plural(len(drift.introduced), 'contradiction')} new in this "
              "diff.", file=sys.stderr)
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
