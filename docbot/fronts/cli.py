"""The command-line front: ``docbot`` (run, targets, check, verify, config, demo) and ``reflexion``.

Fronts parse, call, print, and map errors to exit codes. Nothing else lives here. ``--help`` shows
``DESCRIPTION`` and the exit codes, not this docstring.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from docbot import __version__
from docbot.errors import ConfigError, ExitCode
from docbot.fronts.common import (EXIT_CODES, guarded, has_config_file, json_document, loaded_from, plain_settings_from,
                                  raw_help_formatter, settings_from)
from docbot.fronts.options import (command, console_sink, diff_options, diff_spec, model_options, output_options,
                                   repo_root_of, say, sink_for)
from docbot.fronts.cli_files import add_merge, add_verify, drift_gate
from docbot.results import plural

if TYPE_CHECKING:
    from docbot.scan.repo import DiffSpec


DESCRIPTION = ("Write the API docs of a Python code base into docs/api with a loop of local models, and keep "
               "them true to the code.")
SCOPE_NOTE = ("Scope: the staged changes by default (what a commit brings), or every function under the PATHs "
              "given; --base REV for a branch, --all for the whole tree.")


def cmd_run(args: argparse.Namespace) -> int:
    from docbot.run.shards import parse_shard
    from docbot.run.with_docstrings import run_with_docstrings

    root = repo_root_of(Path.cwd())
    settings = settings_from(args, root, {"time_budget_s": args.time_budget, "jobs": args.jobs,
                                          "write_docstrings": args.write_docstrings or None})
    shard = parse_shard(args.shard) if args.shard else None
    done = run_with_docstrings(settings, root, diff_spec(args), args.paths, sink_for(args), shard=shard)
    report, sources = done.report, done.docstrings
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


def _nothing_public(args: argparse.Namespace, root: Path, spec: Any, diff: Any = None) -> bool:
    """A diff that gives no target whatever the settings, in a checkout without a config file to
    validate: the command is done before loading the settings (docs/design.md#lazy-imports)."""
    from docbot.scan.repo import touches_nothing_public

    return not has_config_file(args, root) and bool(touches_nothing_public(root, spec, args.paths, diff=diff))


def _diff_of(root: Path, spec: Any) -> Any:
    """git's reading of ``spec``'s diff, once per command: the screen and the scan share it (docs/design.md#speed);
    None for a whole-tree spec."""
    from docbot.scan.repo import read_diff

    return None if spec.all else read_diff(root, spec)


def _pages_edited(args: argparse.Namespace, root: Path, diff: Any) -> bool:
    """``check --base`` on a diff that edits docs/api (the default folder: no config file names another): the
    verdicts it wrote are re-derived, so the check must run (docbot.apidocs.trust)."""
    if not args.base:
        return False
    from docbot.apidocs.trust import sources_of_changed_pages
    from docbot.plan import PLAN_DEFAULTS

    return bool(sources_of_changed_pages(root, args.base, getattr(args, "head", None), PLAN_DEFAULTS.docs_dir,
                                         diff=diff))


def cmd_targets(args: argparse.Namespace) -> int:
    from docbot.scan.repo import Scan, scan

    root = repo_root_of(Path.cwd())
    spec = diff_spec(args)
    diff = _diff_of(root, spec)
    if _nothing_public(args, root, spec, diff):
        result = Scan(base="", head="")
    else:
        settings = plain_settings_from(args, root)
        result = scan(root, spec, args.paths, include_dunder=settings.include_dunder, exclude=settings.exclude,
                      cache=settings.cache, diff=diff, outside_package=settings.scan_outside_package)
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
    say(args, f"docbot targets: {plural(len(result.targets), 'function')} {scope_words(spec, args.paths)}"
              + ("; run `docbot targets --all` to list every public function." if not result.targets and not spec.all
                 else "."))
    return 0


def scope_words(spec: DiffSpec, paths: Sequence[str]) -> str:
    """Where a scan looked, in a reader's words: "in the staged changes", "changed in v1.0...HEAD"."""
    if spec.all:
        return f"under {', '.join(paths)}" if paths else "in the whole tree"
    if spec.base is not None:
        where = f"changed in {spec.base}...{spec.head or 'HEAD'}"
    elif spec.staged:
        where = "in the staged changes"
    else:
        where = "changed in the working tree"
    return where + (f" under {', '.join(paths)}" if paths else "")


def cmd_check(args: argparse.Namespace) -> int:
    """The docs/api gate and, with ``--base``, the drift gate on the hand-written docs (docs/design.md#drift-gate)."""
    root = repo_root_of(Path.cwd())
    if args.drift_only and not args.base:
        raise ConfigError("--drift-only needs --base REV: the drift gate judges what a diff made false.")
    spec = diff_spec(args, default_all=True)
    diff = _diff_of(root, spec)  # read once: the drift gate judges the same base...HEAD
    drift = drift_gate(args, root, args.base, None if args.head else diff) if args.base else None
    if args.drift_only:
        if args.json:
            print(json_document("check", drift=drift.to_json() if drift else None))
        return drift.exit_code() if drift else ExitCode.OK
    code = _check_api_docs(args, root, spec, diff, drift)
    return drift.exit_code(code) if drift else code


def _check_api_docs(args: argparse.Namespace, root: Path, spec: Any, diff: Any, drift: Any) -> int:
    extra = {"drift": drift.to_json()} if drift is not None else {}
    if _nothing_public(args, root, spec, diff) and not _pages_edited(args, root, diff):  # no settings: nothing stale
        if args.json:
            print(json_document("check", stale=[], unapproved=[], index=None, strict=args.strict, **extra))
        say(args, "docbot check: all docs are current.")
        return 0
    from docbot.check import check_report, run_command

    settings = plain_settings_from(args, root)
    docs_dir = settings.docs_dir
    found = check_report(settings, root, spec, args.paths, emit=console_sink(verbose=False, quiet=args.quiet),
                         diff=diff, trusted_base=args.base or None)
    if args.json:
        print(json_document("check", **found.to_json(), strict=args.strict, **extra))
    else:
        lines = [e.describe() for e in found.stale] + [e.describe() for e in found.unapproved]
        for line in lines + ([found.index.describe()] if found.index else []):
            print(line)
    needs_run = [e for e in found.stale if e.status in ("missing", "stale", "orphaned")]
    if needs_run:
        verb = "needs" if len(needs_run) == 1 else "need"
        print(f"docbot check: {plural(len(needs_run), 'function')} {verb} docs; "
              f"run `{run_command(needs_run, spec, args.paths)}` and commit {docs_dir}.", file=sys.stderr)
    if len(needs_run) < len(found.stale):  # a person's section, or two of one: docbot writes over neither
        print(f"docbot check: {plural(len(found.stale) - len(needs_run), 'section')} to fix by hand in {docs_dir} "
              "(docbot keeps a person's words, and cannot tell which of two sections is its own).", file=sys.stderr)
    if found.unapproved:
        print(f"docbot check: {plural(len(found.unapproved), 'section')} unapproved"
              + ("." if args.strict else " (not a failure without --strict)."), file=sys.stderr)
    if not found.failed(args.strict):
        say(args, "docbot check: all docs are current.")
    return found.exit_code(args.strict)


def main_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="docbot", description=DESCRIPTION, epilog=EXIT_CODES,
                                     formatter_class=raw_help_formatter)
    parser.add_argument("--version", action="version", version=f"docbot {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    run = command(sub, "run", "document changed public functions into docs/api",
                   SCOPE_NOTE + " Exits 1 when a function failed, 6 when none failed but a section was "
                   "written unapproved, 0 when every function is approved or current.")
    diff_options(run)
    model_options(run)
    run.add_argument("--jobs", type=int, metavar="N", help="document N functions at once (default 1)")
    run.add_argument("--shard", metavar="I/N", help="only shard I of N (whole modules; CI matrix jobs)")
    run.add_argument("--time-budget", type=float, metavar="SECONDS",
                     help="a deadline: past it the function in flight stops and the rest are skipped")
    run.add_argument("--write-docstrings", action="store_true",
                     help="also write each updated function's docstring into its source, in the file's style")
    run.set_defaults(func=cmd_run)
    targets = command(sub, "targets", "list the public functions docbot would document", SCOPE_NOTE)
    diff_options(targets)
    output_options(targets)
    targets.set_defaults(func=cmd_targets)
    check = command(sub, "check", "exit 1 if any doc section is missing or stale (no model)",
                     "Scope: every function by default, unlike run and targets: check is the gate CI runs, "
                     "and a doc can go stale without its function being in the diff. --staged or --base "
                     "REV narrow it. Unapproved sections are listed; --strict fails on them. A stale "
                     "docs/api/index.md fails too. With --base, the hand-written docs (docs_globs) that "
                     "mention a changed function are verified too: a contradiction the diff introduced fails, "
                     "one the base had too is listed as pre-existing.")
    diff_options(check)
    output_options(check)
    check.add_argument("--strict", action="store_true", help="exit 1 on unapproved sections too")
    check.add_argument("--drift-only", action="store_true",
                       help="with --base: only the drift gate (the hand-written docs the diff made false), for a "
                       "project that keeps no docs/api")
    check.set_defaults(func=cmd_check)
    add_verify(sub)
    add_merge(sub)
    _config_parser(sub)
    pages = command(sub, "pages", "write reference pages from the code alone (no model), with objects.inv",
                     "One page per public module path (re-exports followed, types from annotations or .pyi "
                     "stubs), classes with their attributes and methods, source links pinned to HEAD, links "
                     "between pages, an index.md and a Sphinx objects.inv.")
    pages.add_argument("--package", help="the import name (default: pyproject.toml's project name)")
    pages.add_argument("--out", help="the folder (default: <docs_dir>/reference)")
    pages.add_argument("--config", help="config file (default: config.json at the repo root, if present)")
    pages.add_argument("--mkdocs", action="store_true",
                       help="also write mkdocs.docbot.yml, an mkdocs site of docs_dir alone (kept if present)")
    pages.set_defaults(func=cmd_pages)
    demo = command(sub, "demo", "document a sample with the embedded model (no server needed)",
                    "Runs a 135M model in-process on the bundled sample; takes a couple of minutes on a CPU.")
    demo.add_argument("-o", "--output", default="output/demo.md", help="where to write (default: output/demo.md)")
    demo.add_argument("--json", action="store_true", help="one JSON object on stdout, events as JSON lines on stderr")
    loudness = demo.add_mutually_exclusive_group()
    loudness.add_argument("-q", "--quiet", action="store_true", help="only warnings, failures and the result")
    loudness.add_argument("-v", "--verbose", action="store_true", help="also what the code checks found per draft")
    demo.set_defaults(func=cmd_demo)
    return parser


def _config_parser(sub: Any) -> None:
    config = command(sub, "config", "print the configuration's JSON schema, or the effective settings",
                      "Settings come from defaults < [tool.docbot] in pyproject.toml < config.json < environment "
                      "< flags; --show says which one set each value.")
    shown = config.add_mutually_exclusive_group(required=True)
    shown.add_argument("--schema", action="store_true", help="the JSON schema of config.json and [tool.docbot]")
    shown.add_argument("--show", action="store_true", help="each setting, its value and where it came from")
    model_options(config)
    config.set_defaults(func=cmd_config)


def cmd_config(args: argparse.Namespace) -> int:
    import json

    from docbot.config.show import show_lines, show_json
    from docbot.config.settings import settings_schema

    if args.schema:
        print(json.dumps(settings_schema(), indent=2))
        return 0
    loaded = loaded_from(args, repo_root_of(Path.cwd()))
    for note in loaded.notes:
        print(f"docbot: {note.level}: {note.text}", file=sys.stderr)
    print(json.dumps(show_json(loaded), indent=2) if args.json else "\n".join(show_lines(loaded)))
    return 0


def cmd_pages(args: argparse.Namespace) -> int:
    from docbot.apidocs.publish import pages
    from docbot.git.repo import head_sha, open_repo

    root = repo_root_of(Path.cwd())
    settings = plain_settings_from(args, root)
    done = pages(root, settings.docs_dir, package=args.package or "", out=args.out or "",
                 repo_url=settings.repo_url or "", commit=head_sha(open_repo(root)) or "", mkdocs=args.mkdocs)
    for note in done.notes:
        print(note, file=sys.stderr)
    for path in done.written:
        print(path)
    say(args, done.summary_line())
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from docbot.fronts.single import DEMO_INPUT, demo_input, run_demo

    if not demo_input().is_file():  # installed from a wheel: the sample lives in docbot's checkout only
        raise ConfigError(f"the demo's sample ({DEMO_INPUT}) is not installed with docbot; document a file of "
                          "your own with the same model: `reflexion --backend embedded --input FILE.py`.")
    flags = ("--json",) * args.json + ("-q",) * args.quiet + ("-v",) * args.verbose
    return run_demo(args.output, flags)


def main(argv: Sequence[str] | None = None) -> int:
    args = main_parser().parse_args(argv)
    return guarded(lambda: args.func(args))


def reflexion_main(argv: Sequence[str] | None = None) -> int:
    from docbot.fronts.single import reflexion, reflexion_parser

    args = reflexion_parser().parse_args(argv)
    return guarded(lambda: reflexion(args))


if __name__ == "__main__":
    sys.exit(main())
