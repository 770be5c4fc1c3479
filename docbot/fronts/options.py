"""What the command-line fronts share: option groups, the event sink, the diff scope, the repo root.

Shared by ``docbot.fronts.cli`` and ``docbot.fronts.reflexion`` so neither front imports the other
(docs/design.md#fronts).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from docbot.errors import ConfigError
from docbot.config.choices import BACKEND_NAMES
from docbot.fronts.common import EXIT_CODES, raw_help_formatter

if TYPE_CHECKING:  # the event types are loaded by the commands that emit events, not by verify or config
    from docbot import events


def output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", help="config file (default: config.json at the repo root, if present)")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout (see the README), "
                        "events as JSON lines on stderr")
    loudness = parser.add_mutually_exclusive_group()
    loudness.add_argument("-q", "--quiet", action="store_true", help="only warnings, failures and the result")
    loudness.add_argument("-v", "--verbose", action="store_true", help="also what the code checks found per draft")


def model_options(parser: argparse.ArgumentParser) -> None:
    output_options(parser)
    parser.add_argument("--backend", choices=BACKEND_NAMES, help="model server kind (default: ollama)")
    parser.add_argument("--base-url", help="model server URL, or several separated by commas "
                        "(default: OLLAMA_HOST or http://127.0.0.1:11434)")
    parser.add_argument("--record", metavar="FILE", help="write every model exchange to FILE (JSON lines)")
    parser.add_argument("--replay", metavar="FILE", help="answer every model call from FILE (no server)")
    parser.add_argument("--no-examples", action="store_true", help="do not execute the docs' examples")


def diff_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--staged", action="store_true", help="staged changes (what pre-commit sees)")
    group.add_argument("--base", metavar="REV", help="changes in BASE...HEAD (what CI sees)")
    group.add_argument("--all", action="store_true", help="every public function in the tree")
    parser.add_argument("--head", metavar="REV", help="with --base: the head revision (default HEAD)")
    parser.add_argument("paths", nargs="*", metavar="PATH", help="only files under these paths")


def sink_for(args: argparse.Namespace) -> events.EventSink:
    if getattr(args, "json", False):
        from docbot.events import JsonLinesSink

        return JsonLinesSink(sys.stderr)
    return console_sink(verbose=getattr(args, "verbose", False), quiet=getattr(args, "quiet", False))


def console_sink(*, verbose: bool, quiet: bool, stream: TextIO | None = None) -> events.EventSink:
    """A console made at the first event: rich is imported only when there is something to show.
    ``stream`` defaults to stderr (the hook writes to stdout, which pre-commit shows)."""
    made: list[events.EventSink] = []

    def emit(event: events.Event) -> None:
        if not made:
            from docbot.fronts.console import ConsoleSink

            made.append(ConsoleSink(stream, verbose=verbose, quiet=quiet))
        made[0](event)

    return emit


def say(args: argparse.Namespace, line: str) -> None:
    """An informational line on stderr, which ``-q`` silences."""
    if not getattr(args, "quiet", False):
        print(line, file=sys.stderr)


def diff_spec(args: argparse.Namespace, *, default_all: bool = False) -> Any:
    """What to look at; without a flag: the staged changes, or everything when paths are named
    (``check`` always defaults to everything: it is the CI gate)."""
    from docbot.scan.repo import DiffSpec

    if args.head and not args.base:
        raise ConfigError("--head needs --base REV.")
    if not (args.staged or args.base or args.all):
        return DiffSpec(all=True) if (args.paths or default_all) else DiffSpec(staged=True)
    return DiffSpec(staged=args.staged, base=args.base, head=args.head, all=args.all)


def repo_root_of(start: Path) -> Path:
    from docbot.scan.repo import open_repo

    return open_repo(start).top


def command(sub: Any, name: str, summary: str, description: str) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=summary, description=f"{summary}.\n\n{description}", epilog=EXIT_CODES,
        formatter_class=raw_help_formatter)
    return parser
