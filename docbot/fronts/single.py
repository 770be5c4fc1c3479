"""Single files into Markdown: what ``reflexion`` and ``docbot demo`` share (no git needed).

The seed's original command, kept over the same loop as ``docbot run``. Its entry point stays in
``docbot.fronts.cli``; this module is shared by both commands, so neither front imports the other.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docbot import __version__
from docbot.errors import ConfigError, outcome_code
from docbot.fronts.common import EXIT_CODES, json_document, read_source, settings_from, write_output
from docbot.fronts.options import model_options, say, sink_for
from docbot.results import Outcome

if TYPE_CHECKING:
    from docbot.events import EventSink

DEMO_INPUT = "input/compound_interest.py"


def reflexion_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="reflexion", description="Document Python files with the loop, "
                                     "one Markdown file each.", epilog=EXIT_CODES,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"reflexion (docbot) {__version__}")
    parser.add_argument("-i", "--input", default="input", help="source file or folder (default: input/)")
    parser.add_argument("-o", "--output", default="output", help="Markdown file or folder (default: output/)")
    model_options(parser)
    return parser


def output_for(source: Path, output: Path, many: bool) -> Path:
    if output.suffix.lower() in (".md", ".markdown") and not many:
        return output
    return output / f"{source.stem}.md"


def reflexion(args: argparse.Namespace, extra: dict[str, Any] | None = None,
              emit: EventSink | None = None) -> int:
    from docbot.loop.runner import make_documenter
    from docbot.run.single_file import document_file

    given = Path(args.input)
    sources = sorted(given.glob("*.py")) if given.is_dir() else [given]
    if not given.exists() or not sources:
        raise ConfigError(f"{given}: no such input file (or no .py files in it). Pass --input FILE.py.")
    texts = [read_source(source, parse=True) for source in sources]  # every input, before any model call
    settings = settings_from(args, Path.cwd(), extra)
    emit = emit or sink_for(args)
    document = make_documenter(settings, sources[0].parent.resolve(), emit)
    all_results = []
    for source, text in zip(sources, texts, strict=True):
        markdown, results = document_file(text, str(source), source.stem, document, emit)
        target = output_for(source, Path(args.output), len(sources) > 1)
        write_output(target, markdown)
        say(args, f"wrote {target}")
        all_results += results
    if args.json:
        print(json_document("reflexion", results=[r.to_json() for r in all_results]))
    # Seed-compatible: 1 when a function failed, else 0 (reflexion's output file carries the unapproved note).
    return outcome_code(failed=any(r.outcome is Outcome.FAILED for r in all_results))


def demo_input() -> Path:
    """The sample in the current checkout, else the one beside this (editable) installation."""
    here = Path(DEMO_INPUT)
    return here if here.is_file() else Path(__file__).resolve().parents[2] / DEMO_INPUT


def run_demo(output: str, loudness: tuple[str, ...] = ()) -> int:
    """The quick start; ``loudness`` is the user's ``-q``/``-v``/``--json``, passed on as reflexion takes them."""
    demo_args = reflexion_parser().parse_args(["--input", str(demo_input()), "--output", output,
                                               "--backend", "embedded", *loudness])
    from docbot.fronts.console import for_demo

    # A 135M model on a laptop CPU: fewer, shorter rounds keep the demo to a couple of minutes.
    return reflexion(demo_args, {"max_attempts": 2, "max_tokens": 512}, for_demo(sink_for(demo_args)))
