"""The command-line front: ``docbot`` (run, targets, check, verify, demo) and ``reflexion``.

Fronts parse, call, print, and map errors to exit codes. Nothing else lives here.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Sequence

from docbot import events
from docbot.errors import ConfigError
from docbot.fronts.common import guarded, loaded_from, read_doc, read_source, settings_from, write_output
from docbot.fronts.console import ConsoleSink
from docbot.settings import BACKEND_NAMES

DEMO_INPUT = "input/compound_interest.py"


def _model_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", help="config file (default: config.json at the repo root, if present)")
    parser.add_argument("--backend", choices=BACKEND_NAMES)
    parser.add_argument("--base-url", help="model server URL (default: OLLAMA_HOST or http://127.0.0.1:11434)")
    parser.add_argument("--record", metavar="FILE", help="write every model exchange to FILE (JSON lines)")
    parser.add_argument("--replay", metavar="FILE", help="answer every model call from FILE (no server)")
    parser.add_argument("--no-examples", action="store_true", help="do not execute the docs' examples")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def _diff_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--staged", action="store_true", help="staged changes (what pre-commit sees)")
    group.add_argument("--base", metavar="REV", help="changes in BASE...HEAD (what CI sees)")
    group.add_argument("--all", action="store_true", help="every public function in the tree")
    parser.add_argument("--head", metavar="REV", help="with --base: the head revision (default HEAD)")
    parser.add_argument("paths", nargs="*", metavar="PATH", help="only files under these paths")


def sink_for(args: argparse.Namespace) -> events.EventSink:
    return events.JsonLinesSink(sys.stderr) if getattr(args, "json", False) else ConsoleSink()


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

    return Path(open_repo(start).working_tree_dir or start)


def cmd_run(args: argparse.Namespace) -> int:
    from docbot.run import run_docs

    root = repo_root_of(Path.cwd())
    settings = settings_from(args, root, {"time_budget_s": args.time_budget})
    report = run_docs(settings, root, diff_spec(args), args.paths, sink_for(args))
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        for error in report.scan_errors:
            print(f"skipped file: {error}", file=sys.stderr)
        print(report.summary_line())
    return 1 if report.count("failed") else 0


def cmd_targets(args: argparse.Namespace) -> int:
    from docbot.repo import scan

    root = repo_root_of(Path.cwd())
    settings = settings_from(args, root)
    result = scan(root, diff_spec(args), args.paths, include_dunder=settings.include_dunder,
                  exclude=settings.exclude)
    for error in result.errors:
        print(f"skipped file: {error}", file=sys.stderr)
    if args.json:
        fields = ("module", "qualname", "path", "lineno", "end_lineno", "kind")
        print(json.dumps([{f: getattr(t, f) for f in fields} for t in result.targets], indent=2))
    else:
        for t in result.targets:
            print(f"{t.kind:9} {t.path}:{t.lineno}-{t.end_lineno} {t.module}.{t.qualname}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from docbot.check import check_docs

    root = repo_root_of(Path.cwd())
    settings = settings_from(args, root)
    stale = check_docs(settings, root, diff_spec(args, default_all=True), args.paths,
                       emit=ConsoleSink(verbose=False))
    if args.json:
        print(json.dumps([entry.to_json() for entry in stale], indent=2))
    else:
        for entry in stale:
            print(entry.describe())
    if stale:
        print(f"docbot check: {len(stale)} function(s) need docs; run `docbot run` and commit "
              f"{settings.docs_dir}.", file=sys.stderr)
        return 1
    print("docbot check: all docs are current.", file=sys.stderr)
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
        print(json.dumps([{"qualname": c.qualname, "section_found": c.section_found,
                           "findings": [f.to_json() for f in c.findings]} for c in checked], indent=2))
    else:
        for item in checked:
            state = "no section found in the doc" if not item.section_found else f"{len(item.findings)} finding(s)"
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
    parser = argparse.ArgumentParser(prog="reflexion", description="Document one Python file with the loop.")
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
        print(f"wrote {target}", file=sys.stderr)
        all_results += results
    if args.json:
        print(json.dumps([r.to_json() for r in all_results], indent=2))
    return 1 if any(r.status == "failed" for r in all_results) else 0


def main_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="docbot", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="document changed public functions into docs/api")
    _diff_options(run)
    _model_options(run)
    run.add_argument("--time-budget", type=float, metavar="SECONDS", help="stop starting functions after this")
    run.set_defaults(func=cmd_run)
    targets = sub.add_parser("targets", help="list the public functions docbot would document")
    _diff_options(targets)
    targets.add_argument("--config")
    targets.add_argument("--json", action="store_true")
    targets.set_defaults(func=cmd_targets)
    check = sub.add_parser("check", help="exit 1 if any doc section is missing or stale (no model)")
    _diff_options(check)
    check.add_argument("--config")
    check.add_argument("--json", action="store_true")
    check.set_defaults(func=cmd_check)
    verify = sub.add_parser("verify", help="check an existing Markdown doc against its source")
    verify.add_argument("source")
    verify.add_argument("doc")
    verify.add_argument("--function", metavar="NAME", action="append",
                        help="check only these functions (repeat, or comma-separated); others need no section")
    verify.add_argument("--strict", action="store_true", help="exit 1 on gaps too (what the doc leaves out)")
    verify.add_argument("--json", action="store_true")
    verify.add_argument("--no-examples", action="store_true")
    verify.set_defaults(func=cmd_verify)
    config = sub.add_parser("config", help="print the configuration's JSON schema, or the effective settings")
    shown = config.add_mutually_exclusive_group(required=True)
    shown.add_argument("--schema", action="store_true", help="the JSON schema of config.json and [tool.docbot]")
    shown.add_argument("--show", action="store_true", help="each setting, its value and where it came from")
    _model_options(config)
    config.set_defaults(func=cmd_config)
    demo = sub.add_parser("demo", help="document a sample with the embedded model (no server needed)")
    demo.add_argument("-o", "--output", default="output/demo.md")
    demo.set_defaults(func=cmd_demo)
    return parser


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
