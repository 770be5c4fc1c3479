"""What every front shares: one guard mapping errors to exit codes, the settings from flags, and the
fronts' own file reads and writes, each failure a ``ConfigError`` naming the file (exit 2).

Python sources are read the way Python reads them (``tokenize.open``: a coding cookie or a BOM decides
the encoding); docs are UTF-8. A file that is not text is refused here, before any check or model.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import sys
import tokenize
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docbot.errors import EXIT_CODE_MEANINGS, ConfigError, DocbotError, ExitCode

if TYPE_CHECKING:  # pydantic is imported only once settings are really loaded (docs/design.md#lazy-imports)
    from docbot.config.plain import PlainSettings
    from docbot.config.sources import Loaded
    from docbot.config.settings import Settings
    from docbot.plan import PlanSettings

INTERRUPTED = ExitCode.INTERRUPTED
JSON_SCHEMA_VERSION = 1  # of every --json document; raised when a key changes meaning or goes away

# --help's table, from the one list of codes in docbot/errors.py.
EXIT_CODES = "exit codes:\n" + "\n".join(f"  {int(code):<4} {text}" for code, text in EXIT_CODE_MEANINGS.items())


def help_formatter(prog: str) -> argparse.HelpFormatter:
    """argparse's formatter at the terminal's width, asked of ``os`` directly. argparse builds a formatter
    for every ``add_argument`` (to check its metavar), and without a width each one imports shutil to ask:
    ~4 ms of every hook run, which prints no help (docs/design.md#speed)."""
    return argparse.HelpFormatter(prog, width=_help_width())


def raw_help_formatter(prog: str) -> argparse.HelpFormatter:
    """``help_formatter``, keeping the description's and the epilog's own lines (paragraphs, exit codes)."""
    return argparse.RawDescriptionHelpFormatter(prog, width=_help_width())


def _help_width() -> int:
    """shutil's rule: ``COLUMNS`` first, then the terminal, else 80 (less argparse's margin of 2)."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns if sys.__stdout__ else 80
        except (AttributeError, ValueError, OSError):
            columns = 80
    return max(columns - 2, 20)


def json_document(command: str, **payload: Any) -> str:
    """What ``--json`` prints: one object per command, ``schema_version`` and ``command`` first."""
    import json  # ~3 ms, and only --json needs it

    return json.dumps({"schema_version": JSON_SCHEMA_VERSION, "command": command, **payload}, indent=2)


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
    """The settings for a front's parsed flags; their notes (a config.json that is not docbot's, an API
    key in a tracked file) go to stderr."""
    loaded = loaded_from(args, root, extra)
    for note in loaded.notes:
        _to_stderr(f"{note.level}: {note.text}")
    return loaded.settings


def plain_settings_from(args: argparse.Namespace, root: Path) -> PlainSettings:
    """What a check, a scan or ``verify`` reads of the settings, from the same sources as ``settings_from`` and
    with the same errors and notes, without pydantic (docbot.config.plain)."""
    from docbot.config.plain import load_plain

    config = Path(args.config) if getattr(args, "config", None) else None
    loaded = load_plain(root, config, _overrides(args, None), os.environ)
    for note in loaded.notes:
        _to_stderr(f"{note.level}: {note.text}")
    return loaded.settings


def plan_settings_from(args: argparse.Namespace, root: Path) -> PlanSettings:
    """What ``docbot check`` reads of the settings: their defaults when neither a file nor a flag could set one
    (the environment sets only model settings), else the plain settings (no pydantic either way)."""
    if has_config_file(args, root) or any(getattr(args, flag, None) for flag in ("backend", "base_url", "replay")):
        return plain_settings_from(args, root)
    from docbot.plan import PLAN_DEFAULTS

    return PLAN_DEFAULTS


def has_config_file(args: argparse.Namespace, root: Path) -> bool:
    """Whether a file could set (or break) a setting: ``--config``, config.json, or a pyproject.toml that
    mentions docbot (a textual test: a false yes only costs loading the settings)."""
    if getattr(args, "config", None) or (root / "config.json").exists():
        return True
    try:
        return "docbot" in (root / "pyproject.toml").read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return False
    except OSError:
        return True  # unreadable: let the real loader say why


def loaded_from(args: argparse.Namespace, root: Path, extra: dict[str, Any] | None = None) -> Loaded:
    """The settings and where each came from: [tool.docbot] of ``root``'s pyproject.toml, ``--config``
    (else config.json at ``root``), the environment, then the flags (``--backend``, ``--replay``...)."""
    from docbot.config.sources import load_local

    config = Path(args.config) if getattr(args, "config", None) else None
    return load_local(root, config, _overrides(args, extra), os.environ)


def _overrides(args: argparse.Namespace, extra: dict[str, Any] | None) -> dict[str, Any]:
    """The settings the flags set (None: not given)."""
    overrides: dict[str, Any] = {"backend": getattr(args, "backend", None),
                                 "base_url": _servers(getattr(args, "base_url", None)),
                                 "record": getattr(args, "record", None), "replay": getattr(args, "replay", None),
                                 **(extra or {})}
    if overrides["replay"] and not overrides["backend"]:
        overrides["backend"] = "replay"
    if getattr(args, "no_examples", False):
        overrides["run_examples"] = False
    return overrides


def _servers(flag: str | None) -> str | list[str] | None:
    from docbot.config.layers import servers_in

    return None if flag is None else servers_in(flag)


def read_source(path: Path, *, parse: bool = False) -> str:
    """A Python source's text; with ``parse``, also refuse one that does not parse."""
    try:
        with tokenize.open(path) as handle:
            text = handle.read()
    except OSError as err:
        raise ConfigError(f"{path}: cannot read it ({err.strerror}).") from err
    except (SyntaxError, UnicodeDecodeError) as err:  # a bad coding cookie, or bytes its encoding rejects
        raise ConfigError(f"{path}: not a Python source in a readable encoding ({_why(err)}); "
                          "save it as UTF-8 or give it a coding cookie.") from err
    if "\0" in text:
        raise ConfigError(f"{path}: a binary file (NUL bytes), not a Python source.")
    if parse:
        try:
            ast.parse(text, filename=str(path))
        except (SyntaxError, ValueError) as err:
            where = f" at line {err.lineno}" if isinstance(err, SyntaxError) and err.lineno else ""
            raise ConfigError(f"{path}: does not parse{where}; fix the syntax error first.") from err
    return text


def read_doc(path: Path) -> str:
    """A Markdown doc's text (UTF-8, a BOM allowed)."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as err:
        raise ConfigError(f"{path}: cannot read it ({err.strerror}).") from err
    except UnicodeDecodeError as err:
        raise ConfigError(f"{path}: not UTF-8 text ({_why(err)}); save the doc as UTF-8.") from err
    if "\0" in text:
        raise ConfigError(f"{path}: a binary file (NUL bytes), not a Markdown doc.")
    return text


def write_output(path: Path, text: str) -> None:
    """Write a result file, creating its folder; a path that cannot be written is the user's to fix."""
    from docbot.paths import write_atomic

    try:
        write_atomic(path, text)
    except OSError as err:
        raise ConfigError(f"{path}: cannot write the output ({err.strerror or err}); "
                          "pass a writable --output.") from err


def _why(err: Exception) -> str:
    if isinstance(err, UnicodeDecodeError):
        return f"{err.encoding} cannot decode byte {err.start}"
    return str(err.args[0]) if err.args else type(err).__name__


# The way past docbot's pre-commit hooks for one commit, as the hooks print it (issue 33). pre-commit runs
# each hook on its own, so no hook knows which of the others failed on this commit; a printed
# `SKIP=docbot,docbot-check` that leaves out `docbot-verify` does not get the commit through. So the way out
# names every docbot hook the repository's .pre-commit-config.yaml configures (read as text: a false yes only
# names a hook that was not needed), the printing hook always among them.
DOCBOT_HOOKS = ("docbot", "docbot-check", "docbot-verify")
_HOOK_ID = re.compile(r"""(?m)^\s*-?\s*id:\s*["']?(docbot(?:-check|-verify)?)["']?\s*(?:#.*)?$""")


def skip_command(root: Path, failed: str) -> str:
    """``SKIP=… git commit`` naming ``failed`` and every other docbot hook the config at ``root`` configures."""
    try:
        configured = set(_HOOK_ID.findall((root / ".pre-commit-config.yaml").read_text(encoding="utf-8",
                                                                                       errors="replace")))
    except OSError:
        configured = set()
    return f"SKIP={','.join(h for h in DOCBOT_HOOKS if h in configured or h == failed)} git commit"
