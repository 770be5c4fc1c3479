"""The command-line front: ``docbot`` (run, targets, check, verify, config, demo) and ``reflexion``.

Fronts parse, call, print, and map errors to exit codes. Nothing else lives here. ``--help`` shows
``DESCRIPTION`` and the exit codes, not this docstring.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from docbot import __version__
from docbot.errors import ConfigError
from docbot.fronts.common import EXIT_CODES, guarded, json_document, loaded_from, read_doc, read_source, settings_from
from docbot.fronts.console import ConsoleSink
from docbot.fronts.options import diff_options, diff_spec, model_options, output_options, repo_root_of, say, sink_for
from docbot.fronts.single import reflexion, reflexion_parser, run_demo
from docbot.results import plural

if TYPE_CHECKING:
    from docbot.docstring_apply import DocstringReport
    from docbot.results import RunReport
    from docbot.settings import Settings

DESCRIPTION = ("Write the API docs of a Python code base into docs/api with a loop of local models, and keep "
               "them true to the code.")
SCOPE_NOTE = ("Scope: the staged changes by default (what a commit brings), or every function under the PATHs "
              "given; --base REV for a branch, --all for the whole tree.")


def cmd_run(args: argparse.Namespace) -> int:
    from docbot.run import run_docs

    root = repo_root_of(Path.cwd())
    settings = settings_from(args, root, {"time_budget_s": args.time_budget,
                                          "write_docstrings": args.write_docstrings or None})
    report = run_docs(settings, root, diff_spec(args), args.paths, sink_for(args))
    sources = _write_docstrings(settings, root, report) if settings.write_docstrings else None
    if args.json:
        extra = {} if sources is None else {"docstrings": sources.to_json()}
        print(json_document("run", **report.to_json(), exit_code=report.exit_code(), **extra))
    else:
        for error in report.scan_errors:
            print(f"skipped file: {error}", file=sys.stderr)
        if report.unapproved:
            print(f"unapproved (written, but the critic never passed them; see docs/api): "
                  f"{', '.join(r.key for r in report.unapproved)}", file=sys.stderr)
        for line in sources.lines() if sources is not None else ():
            print(line, file=sys.stderr)
        print(report.summary_line())
    return report.exit_code()


def _write_docstrings(settings: Settings, root: Path, report: RunReport) -> DocstringReport:
    from docbot.docstring_apply import apply_docstrings  # libcst: only when asked for

    return apply_docstrings(root, settings.docs_dir, report.results)


def cmd_targets(args: argparse.Namespace) -> int:
    from docbot.repo import scan

    root = repo_root_of(Path.cwd())
    settings = settings_from(args, root)
    spec = diff_spec(args)
    result = scan(root, spec, args.paths, include_dunder=settings.include_dunder, exclude=settings.exclude)
    for error in result.errors:
        print(f"skipped file: {error}", file=sys.stderr)
    # With --all nothing is compared, so a target's kind ("unchanged") would mislead: show the scope.
    label = (lambda t: "all") if spec.all else (lambda t: str(t.kind))
    if args.json:
        fields = ("module", "qualname", "path", "lineno", "end_lineno")
        print(json_document("targets", scope="all" if spec.all else "diff",
                            targets=[{**{f: getattr(t, f) for f in fields}, "kind": label(t)}
                                     for t in result.targets]))
    else:
        for t in result.targets:
            print(f"{label(t):9} {t.path}:{t.lineno}-{t.end_lineno} {t.module}.{t.qualname}")
    say(args, f"docbot targets: {plural(len(result.targets), 'function')}.")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from docbot.check import check_report

    root = repo_root_of(Path.cwd())
    settings = settings_from(args, root)
    found = check_report(settings, root, diff_spec(args, default_all=True), args.paths,
                         emit=ConsoleSink(verbose=False, quiet=args.quiet))
    if args.json:
        print(json_document("check", **found.to_json(), strict=args.strict))
    else:
        lines = [e.describe() for e in found.stale] + [e.describe() for e in found.unapproved]
        for line in lines + ([found.index.describe()] if found.index else []):
            print(line)
    if found.stale:
        verb = "needs" if len(found.stale) == 1 else "need"
        print(f"docbot check: {plural(len(found.stale), 'function')} {verb} docs; run `docbot run` and commit "
              f"{settings.docs_dir}.", file=sys.stderr)
    if found.unapproved:
        print(f"docbot check: {plural(len(found.unapproved), 'section')} unapproved"
              + ("." if args.strict else " (not a failure without --strict)."), file=sys.stderr)
    if found.failed(args.strict):
        return 1
    say(args, "docbot check: all docs are current.")
    return 0


def importable_as(source: Path) -> tuple[str, tuple[str, ...]]:
    """The dotted module and import path for a file: from its package root, so relative imports work."""
    from docbot.targets import module_name

    root = source.parent
    while (root / "__init__.py").exists():
        root = root.parent
    if (root / "src").is_dir() and root.name != "src" and source.is_relative_to(root / "src"):
        root = root / "src"
    return module_name(source.relative_to(root).as_posix()), (str(root),)


def cmd_verify(args: argparse.Namespace) -> int:
    from docbot.verify import verify_source_doc

    source_path, doc_path = Path(args.source), Path(args.doc)
    for path in (source_path, doc_path):
        if not path.is_file():
            raise ConfigError(f"{path}: no such file.")
    module, sys_path = importable_as(source_path.resolve())
    sandbox = settings_from(args, Path.cwd()).example_sandbox  # config.json may allow the guard alone
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


_LABELS = {"contradiction": "CONTRADICTION", "gap": "gap", "note": "note", "nondeterministic": "nondeterministic"}


def verify_exit_code(checked: Sequence[Any], strict: bool) -> int:
    """1 on a contradiction or a function without a section; gaps count only with ``--strict``."""
    missing = any(not c.section_found for c in checked)
    contradictions = any(c.fatal for c in checked)
    gaps = strict and any(c.gaps for c in checked)
    return 1 if missing or contradictions or gaps else 0


def _command(sub: Any, name: str, summary: str, description: str) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=summary, description=f"{summary}.\n\n{description}", epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    return parser


def main_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="docbot", description=DESCRIPTION, epilog=EXIT_CODES,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"docbot {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    run = _command(sub, "run", "document changed public functions into docs/api",
                   SCOPE_NOTE + " Exits 1 when a function failed, 6 when none failed but a section was "
                   "written unapproved, 0 when every function is approved or current.")
    diff_options(run)
    model_options(run)
    run.add_argument("--time-budget", type=float, metavar="SECONDS",
                     help="a deadline: past it the function in flight stops and the rest are skipped")
    run.add_argument("--write-docstrings", action="store_true",
                     help="also write each updated function's docstring into its source, in the file's style")
    run.set_defaults(func=cmd_run)
    targets = _command(sub, "targets", "list the public functions docbot would document", SCOPE_NOTE)
    diff_options(targets)
    output_options(targets)
    targets.set_defaults(func=cmd_targets)
    check = _command(sub, "check", "exit 1 if any doc section is missing or stale (no model)",
                     "Scope: every function by default, unlike run and targets: check is the gate CI runs, "
                     "and a doc can go stale without its function being in the diff. --staged or --base "
                     "REV narrow it. Unapproved sections are listed; --strict fails on them. A stale "
                     "docs/api/index.md fails too.")
    diff_options(check)
    output_options(check)
    check.add_argument("--strict", action="store_true", help="exit 1 on unapproved sections too")
    check.set_defaults(func=cmd_check)
    _verify_parser(sub)
    _config_parser(sub)
    demo = _command(sub, "demo", "document a sample with the embedded model (no server needed)",
                    "Runs a 135M model in-process on the bundled sample; takes a couple of minutes on a CPU.")
    demo.add_argument("-o", "--output", default="output/demo.md", help="where to write (default: output/demo.md)")
    demo.set_defaults(func=cmd_demo)
    return parser


def _verify_parser(sub: Any) -> None:
    verify = _command(sub, "verify", "check an existing Markdown doc against its source",
                      "Runs the truth checks (parameters, exceptions, examples) on a doc you wrote; no model.")
    verify.add_argument("source", help="the Python file")
    verify.add_argument("doc", help="its Markdown doc")
    verify.add_argument("--function", metavar="NAME", action="append",
                        help="check only these functions (repeat, or comma-separated); others need no section")
    verify.add_argument("--strict", action="store_true", help="exit 1 on gaps too (what the doc leaves out)")
    verify.add_argument("--no-examples", action="store_true", help="do not execute the doc's examples")
    output_options(verify)
    verify.set_defaults(func=cmd_verify)


def _config_parser(sub: Any) -> None:
    config = _command(sub, "config", "print the configuration's JSON schema, or the effective settings",
                      "Settings come from defaults < [tool.docbot] in pyproject.toml < config.json < environment "
                      "< flags; --show says which one set each value.")
    shown = config.add_mutually_exclusive_group(required=True)
    shown.add_argument("--schema", action="store_true", help="the JSON schema of config.json and [tool.docbot]")
    shown.add_argument("--show", action="store_true", help="each setting, its value and where it came from")
    model_options(config)
    config.set_defaults(func=cmd_config)


def cmd_config(args: argparse.Namespace) -> int:
    from docbot.config_show import show_lines, show_json
    from docbot.settings import settings_schema

    if args.schema:
        print(json.dumps(settings_schema(), indent=2))
        return 0
    loaded = loaded_from(args, repo_root_of(Path.cwd()))
    for note in loaded.notes:
        print(f"docbot: {note.level}: {note.text}", file=sys.stderr)
    print(json.dumps(show_json(loaded), indent=2) if args.json else "\n".join(show_lines(loaded)))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    return run_demo(args.output)


def main(argv: Sequence[str] | None = None) -> int:
    args = main_parser().parse_args(argv)
    return guarded(lambda: args.func(args))


def reflexion_main(argv: Sequence[str] | None = None) -> int:
    args = reflexion_parser().parse_args(argv)
    return guarded(lambda: reflexion(args))


if __name__ == "__main__":
    sys.exit(main())
