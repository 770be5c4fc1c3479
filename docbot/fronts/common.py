"""What every front shares: one guard mapping errors to exit codes, and the settings from flags."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from docbot.errors import DocbotError
from docbot.settings import Settings, load_settings

INTERRUPTED = 130  # what a shell reports for a process stopped by Ctrl-C (128 + SIGINT)


def _to_stderr(message: str) -> None:
    print(f"docbot: {message}", file=sys.stderr)


def guarded(call: Callable[[], int], show: Callable[[str], None] = _to_stderr) -> int:
    """Run a front's work; a ``DocbotError`` becomes its exit code, Ctrl-C becomes 130.

    The message is shown through ``show`` (stderr by default; the Action writes an annotation), so
    every front ends the same way: one line saying what went wrong and what to do next.
    """
    try:
        return int(call())
    except DocbotError as err:
        show(str(err))
        return err.exit_code
    except KeyboardInterrupt:
        show("interrupted")
        return INTERRUPTED


def settings_from(args: argparse.Namespace, root: Path, extra: dict[str, Any] | None = None) -> Settings:
    """The settings for a front's parsed flags: ``--config`` (else config.json at ``root``), the
    environment, then the flags themselves (``--backend``, ``--replay``, ``--no-examples``...)."""
    overrides: dict[str, Any] = {"backend": getattr(args, "backend", None),
                                 "base_url": getattr(args, "base_url", None),
                                 "record": getattr(args, "record", None), "replay": getattr(args, "replay", None),
                                 **(extra or {})}
    if overrides["replay"] and not overrides["backend"]:
        overrides["backend"] = "replay"
    if getattr(args, "no_examples", False):
        overrides["run_examples"] = False
    config = Path(args.config) if getattr(args, "config", None) else root / "config.json"
    return load_settings(config, overrides, os.environ, required=bool(getattr(args, "config", None)))
