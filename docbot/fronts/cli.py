"""The command-line front: ``docbot`` (run, targets, check, verify, config, demo) and ``reflexion``.

Fronts parse, call, print, and map errors to exit codes. Nothing else lives here. ``--help`` shows
``DESCRIPTION`` and the exit codes, not this docstring.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Sequence

from docbot import __version__, events
from docbot.choices import BACKEND_NAMES, DEFAULT_EXAMPLE_SANDBOX
from docbot.errors import ConfigError
from docbot.fronts.common import (EXIT_CODES, guarded, has_config_file, json_document, loaded_from, read_doc,
                                  read_source, settings_from, write_output)
from docbot.results import plural

DEMO_INPUT = "input/compound_interest.py"
DESCRIPTION = ("Write the API docs of a Python code base into docs/api with a loop of local models, and keep "
               "them true to the code.")
SCOPE_NOTE = ("Scope: the staged changes by default (what a commit brings), or every function under the PATHs "
              "given; --base REV for a branch, --all for the whole tree.")


def _output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", help="config file (default: config.json at the repo root, if present)")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout (see the README), "
                        "events as JSON lines on stderr")
    loudness = parser.add_mutually_exclusive_group()
    loudness.add_argument("-q", "--quiet", action="store_true", help="only warnings, failures and the result")
    loudness.add_argument("-v", "--verbose", action="store_true", help="also what the code checks found per draft")


def _model_options(parser: argparse.ArgumentParser) -> None:
    _output_options(parser)
    parser.add_argument("--backend", choices=BACKEND_NAMES, help="model server kind (default: ollama)")
    parser.add_argument("--base-url", help="model server URL (default: OLLAMA_HOST or http://127.0.0.1:11434)")
    parser.add_argument("--record", metavar="FILE", help="write every model exchange to FILE (JSON lines)")
    parser.add_argument("--replay", metavar="FILE", help="answer every model call from FILE (no server)")
    parser.add_argument("--no-examples", action="store_true", help="do not execute the docs' examples")


def _diff_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--staged", action="store_true", help="staged changes (what pre-commit sees)")
    group.add_argument("--base", metavar="REV", help="changes in BASE...HEAD (what CI sees)")
    group.add_argument("--all", action="store_true", help="every public function in the tree")
    parser.add_argument("--head", metavar="REV", help="with --base: the head revision (default HEAD)")
    parser.add_argument("paths", nargs="*", metavar="PATH", help="only files under these paths")


def sink_for(args: argparse.Namespace) -> events.EventSink:
    if getattr(args, "json", False):
        return events.JsonLinesSink(sys.stderr)
    return console_sink(verbose=getattr(args, "verbose", False), quiet=getattr(args, "quiet", False))


def console_sink(*, verbose: bool, quiet: bool) -> events.EventSink:
    """A console made at the first event: rich is imported only when there is something to show."""
    made: list[events.EventSink] = []

    def emit(event: events.Event) -> None:
        if not made:
            from docbot.fronts.console import ConsoleSink

            made.append(ConsoleSink(verbose=verbose, quiet=quiet))
        made[0](event)

    return emit


def _say(args: argparse.Namespace, line: str) -> None:
    """An informational line on stderr, which ``-q`` silences."""
    if not getattr(args, "quiet", False):
        print(line, file=sys.stderr)


def diff_spec(args: argparse.Namespace, *, default_all: bool = False) -> Any:
    """What to look at; without a flag: the staged changes, or everything when paths are named
    (``check`` always defaults to everything: it is the CI gate)."""
    from docbot.repo import DiffSpec

    if args.head and not args.base:
        raise ConfigError("--head needs --base REV.")
    if not (args.staged or args.base or args.all):
        return DiffSpec(all=True) if (args.paths or default_all) else DiffSpec(staged=True)
    return DiffSpec(staged=args.staged, base=args.base, head=args.head, all=args.all)


def repo_root_of(start: Path) -> Path:
    from docbot.repo import open_repo

    return open_repo(start).top


def cmd_run(args: argparse.Namespace) -> int:
    from docbot.run import run_docs
    from docbot.shards import parse_shard

    root = repo_root_of(Path.cwd())
    settings = settings_from(args, root, {"time_budget_s": args.time_budget, "jobs": args.jobs})
    shard = parse_shard(args.shard) if args.shard else None
    report = run_docs(settings, root, diff_spec(args), args.paths, sink_for(args), shard=shard)
    if args.json:
        print(json_document("run", **report.to_json()))
    else:
        for error in report.scan_errors:
            print(f"skipped file: {error}", file=sys.stderr)
        print(report.summary_line())
    return 1 if report.count("failed") else 0


def _nothing_public(args: argparse.Namespace, root: Path, spec: Any) -> bool:
    """A diff that gives no target whatever the settings, in a checkout without a config file to
    validate: the command is done before loading the settings (docs/design.md#lazy-imports)."""
    from docbot.repo import touches_nothing_public

    return not has_config_file(args, root) and bool(touches_nothing_public(root, spec, args.paths))


def cmd_targets(args: argparse.Namespace) -> int:
    from docbot.repo import Scan, scan

    root = repo_root_of(Path.cwd())
    spec = diff_spec(args)
    if _nothing_public(args, root, spec):
        result = Scan(base="", head="")
    else:
        settings = settings_from(args, root)
        result = scan(root, spec, args.paths, include_dunder=settings.include_dunder, exclude=settings.exclude,
                      cache=settings.cache)
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
    _say(args, f"docbot targets: {plural(len(result.targets), 'function')}.")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    root = repo_root_of(Path.cwd())
    spec = diff_spec(args, default_all=True)
    stale: list[Any] = []
    docs_dir = ""
    if not _nothing_public(args, root, spec):
        from docbot.check import check_docs

        settings = settings_from(args, root)
        docs_dir = settings.docs_dir
        stale = check_docs(settings, root, spec, args.paths, emit=console_sink(verbose=False, quiet=args.quiet))
    if args.json:
        print(json_document("check", stale=[entry.to_json() for entry in stale]))
    else:
        for entry in stale:
            print(entry.describe())
    if stale:
        verb = "needs" if len(stale) == 1 else "need"
        print(f"docbot check: {plural(len(stale), 'function')} {verb} docs; run `docbot run` and commit "
              f"{docs_dir}.", file=sys.stderr)
        return 1
    _say(args, "docbot check: all docs are current.")
    return 0


def cmd_merge(args: argparse.Namespace) -> int:
    from docbot.shards import merge_reports

    reports = []
    for name in args.reports:
        try:
            reports.append(json.loads(read_doc(Path(name))))
        except json.JSONDecodeError as err:
            raise ConfigError(f"{name}: not JSON ({err.msg}); pass the output of `docbot run --json`.") from err
    merged = merge_reports(reports)
    print(json_document("run", **{k: v for k, v in merged.items() if k not in ("schema_version", "command")}))
    print(merged["summary"], file=sys.stderr)
    return 1 if any(r["status"] == "failed" for r in merged["results"]) else 0


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


_LABELS = {"contradiction": "CONTRADICTION", "gap": "gap", "note": "note", "nondeterministic": "nondeterministic"}


def verify_exit_code(checked: Sequence[Any], strict: bool) -> int:
    """1 on a contradiction or a function without a section; gaps count only with ``--strict``."""
    missing = any(not c.section_found for c in checked)
    contradictions = any(c.fatal for c in checked)
    gaps = strict and any(c.gaps for c in checked)
    return 1 if missing or contradictions or gaps else 0


def reflexion_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="reflexion", description="Document Python files with the loop, "
                                     "one Markdown file each.", epilog=EXIT_CODES,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"reflexion (docbot) {__version__}")
    parser.add_argument("-i", "--input", default="input", help="source file or folder (default: input/)")
    parser.add_argument("-o", "--output", default="output", help="Markdown file or folder (default: output/)")
    _model_options(parser)
    return parser


def output_for(source: Path, output: Path, many: bool) -> Path:
    if output.suffix.lower() in (".md", ".markdown") and not many:
        return output
    return output / f"{source.stem}.md"


def reflexion(args: argparse.Namespace, extra: dict[str, Any] | None = None) -> int:
    from docbot.loop.runner import make_documenter
    from docbot.single_file import document_file

    given = Path(args.input)
    sources = sorted(given.glob("*.py")) if given.is_dir() else [given]
    if not given.exists() or not sources:
        raise ConfigError(f"{given}: no such input file (or no .py files in it). Pass --input FILE.py.")
    texts = [read_source(source, parse=True) for source in sources]  # every input, before any model call
    settings = settings_from(args, Path.cwd(), extra)
    emit = sink_for(args)
    document = make_documenter(settings, sources[0].parent.resolve(), emit)
    all_results = []
    for source, text in zip(sources, texts, strict=True):
        markdown, results = document_file(text, str(source), source.stem, document, emit)
        target = output_for(source, Path(args.output), len(sources) > 1)
        write_output(target, markdown)
        _say(args, f"wrote {target}")
        all_results += results
    if args.json:
        print(json_document("reflexion", results=[r.to_json() for r in all_results]))
    return 1 if any(r.status == "failed" for r in all_results) else 0


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
                   SCOPE_NOTE + " Exits 1 when a function failed.")
    _diff_options(run)
    _model_options(run)
    run.add_argument("--time-budget", type=float, metavar="SECONDS",
                     help="a deadline: past it the function in flight stops and the rest are skipped")
    run.add_argument("--jobs", type=int, metavar="N", help="document N functions at once (default 1)")
    run.add_argument("--shard", metavar="I/N", help="only shard I of N (whole modules; CI matrix jobs)")
    run.set_defaults(func=cmd_run)
    targets = _command(sub, "targets", "list the public functions docbot would document", SCOPE_NOTE)
    _diff_options(targets)
    _output_options(targets)
    targets.set_defaults(func=cmd_targets)
    check = _command(sub, "check", "exit 1 if any doc section is missing or stale (no model)",
                     "Scope: every function by default, unlike run and targets: check is the gate CI runs, "
                     "and a doc can go stale without its function being in the diff. --staged or --base "
                     "REV narrow it.")
    _diff_options(check)
    _output_options(check)
    check.set_defaults(func=cmd_check)
    _verify_parser(sub)
    _config_parser(sub)
    merge = _command(sub, "merge", "merge the --json reports of `run --shard` jobs into one report",
                     "Prints one `run` JSON report: every shard's results, files and notices.")
    merge.add_argument("reports", nargs="+", metavar="REPORT", help="a shard's `docbot run --json` output")
    merge.set_defaults(func=cmd_merge)
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
    _output_options(verify)
    verify.set_defaults(func=cmd_verify)


def _config_parser(sub: Any) -> None:
    config = _command(sub, "config", "print the configuration's JSON schema, or the effective settings",
                      "Settings come from defaults < [tool.docbot] in pyproject.toml < config.json < environment "
                      "< flags; --show says which one set each value.")
    shown = config.add_mutually_exclusive_group(required=True)
    shown.add_argument("--schema", action="store_true", help="the JSON schema of config.json and [tool.docbot]")
    shown.add_argument("--show", action="store_true", help="each setting, its value and where it came from")
    _model_options(config)
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


def demo_input() -> Path:
    """The sample in the current checkout, else the one beside this (editable) installation."""
    here = Path(DEMO_INPUT)
    return here if here.is_file() else Path(__file__).resolve().parents[2] / DEMO_INPUT


def cmd_demo(args: argparse.Namespace) -> int:
    demo_args = reflexion_parser().parse_args(["--input", str(demo_input()), "--output", args.output,
                                               "--backend", "embedded"])
    # A 135M model on a laptop CPU: fewer, shorter rounds keep the demo to a couple of minutes.
    return reflexion(demo_args, {"max_attempts": 2, "max_tokens": 512})


def main(argv: Sequence[str] | None = None) -> int:
    args = main_parser().parse_args(argv)
    return guarded(lambda: args.func(args))


def reflexion_main(argv: Sequence[str] | None = None) -> int:
    args = reflexion_parser().parse_args(argv)
    return guarded(lambda: reflexion(args))


if __name__ == "__main__":
    sys.exit(main())
