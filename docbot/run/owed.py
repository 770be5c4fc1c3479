"""Docstrings docbot owes: what a killed ``--write-docstrings`` run left, and what a documented repository that
turns ``write_docstrings`` on has never had (docs/design.md#docstrings).

docs/api is written before the docstrings, so a run killed in its docstring phase leaves every section current
and the sources without their docstrings: the rerun found every function unchanged, made no call and wrote
nothing, and ``check --strict`` called it done (issue 30). So:

- before the docstring phase writes anything, the results it will apply are kept in a journal
  (``.docbot/cache/docstrings-owed.json``, under the cache's trust rules: a tracked or symlinked ``.docbot`` is
  never read) and the journal is removed when the phase ends; a rerun applies what a journal still holds.
  Each entry is checked again as any result is: its section must still carry the function's source hash.
- a function whose section is current but whose docstring docbot never decided (no entry in the record) is
  owed one: its doc model comes from the result cache, held to the exact checks again (``checked``), with no
  model call. Without a cached doc model it is said so, never silently skipped.
"""

from __future__ import annotations

import json
from dataclasses import replace
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from docbot.errors import ConfigError
from docbot.paths import write_atomic
from docbot.results import FunctionResult, Target

if TYPE_CHECKING:
    from docbot.config.settings import Settings

JOURNAL = "docstrings-owed.json"


def journal_path(root: Path) -> Path | None:
    from docbot.scan.cache import cache_folder

    try:
        return cache_folder(root) / JOURNAL
    except (ConfigError, OSError):
        return None


def save_journal(root: Path, results: Sequence[FunctionResult]) -> None:
    """Remember the results the docstring phase is about to apply (nothing to remember: no journal)."""
    from docbot.run.cache import encode

    path = journal_path(root)
    if path is None:
        return
    try:
        if results:
            write_atomic(path, json.dumps([encode(r) for r in results]))
        else:
            path.unlink(missing_ok=True)
    except OSError:
        pass  # an unwritable cache folder: the phase runs unjournalled, as before


def load_journal(root: Path) -> list[FunctionResult]:
    """What a killed docstring phase left to apply; [] when none, or when the journal does not read back."""
    from docbot.run.cache import decode

    path = journal_path(root)
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path is not None and path.is_file() else []
        return [decode(FunctionResult, item) for item in data] if isinstance(data, list) else []
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return []


def clear_journal(root: Path) -> None:
    path = journal_path(root)
    if path is not None:
        path.unlink(missing_ok=True)


def from_cache(root: Path, settings: Settings, unchanged: Sequence[FunctionResult], decided: Callable[[str], bool],
               warn: Callable[[str], None]) -> list[FunctionResult]:
    """The cached doc models of the ``unchanged`` functions whose docstring docbot never decided, checked again;
    the ones with no usable cached model are named through ``warn`` (once, together)."""
    from docbot.run.cache import cache_key, checked, facts_of, open_results

    owed = [r for r in unchanged if r.path and not decided(r.key)]
    cache = open_results(root, None, warn) if owed and settings.cache else None
    found, missing = [], []
    for result in owed:
        target = _target(root, result)
        key = cache_key(target, settings, facts_of(target)) if target is not None else None
        hit = cache.get(key, target) if cache is not None and key and target is not None else None
        shipped = checked(hit, target, settings, root) if hit is not None and target is not None else None
        if shipped is not None:
            found.append(replace(shipped, status="updated", doc_path=result.doc_path))
        else:
            missing.append(result.key)
    if missing:
        warn(f"{len(missing)} function(s) are owed a docstring (documented before write_docstrings was on) and no "
             f"cached doc model is left for them: {', '.join(missing[:5])}{' …' if len(missing) > 5 else ''}; "
             "docbot writes each one's docstring when it next documents the function.")
    return found


def _target(root: Path, result: FunctionResult) -> Target | None:
    from docbot.scan.targets import SourceParseError, public_functions

    try:
        text = (root / result.path).read_text(encoding="utf-8")
        return next((t for t in public_functions(text, result.module, result.path, include_dunder=True)
                     if t.qualname == result.qualname), None)
    except (OSError, UnicodeDecodeError, SourceParseError):
        return None
