"""How the wild benchmark calls ``docbot verify`` and reads its JSON: the one place to adjust when the CLI changes.

Today's output (docbot/fronts/cli.py, cmd_verify): a JSON list, one entry per checked function::

    [{"qualname": "parse", "section_found": true,
      "findings": [{"kind": "...", "message": "...", "doc_text": "...", "code_fact": "...", "fatal": true}]}]

Findings have no gap/contradiction marker yet, so an omission is recognised by its kind (OMISSION_KINDS). When
a finding carries ``category``/``severity``/``gap`` (the two kinds of finding planned in issue 10), that wins.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Kinds that say "the code has X, the doc does not say it": gaps, whatever the checker calls them.
OMISSION_KINDS = frozenset({"missing_parameter", "missing_return", "missing_exception"})
GAP_WORDS = frozenset({"gap", "omission", "note"})
DOC_EXAMPLES = "(doc examples)"  # docbot.verify.checks.source_doc.DOC_EXAMPLES: examples outside every section


@dataclass(frozen=True)
class Found:
    qualname: str
    kind: str
    message: str
    fatal: bool
    gap: bool

    def key(self) -> tuple[str, str, str]:
        return (self.qualname, self.kind, self.message)


@dataclass(frozen=True)
class Checked:
    """One ``docbot verify --function`` call: what it found, or why it could not look."""

    qualname: str
    section_found: bool
    findings: tuple[Found, ...]
    exit_code: int
    error: str = ""  # stderr's last line when the CLI printed no JSON


def docbot_command() -> list[str]:
    """The ``docbot`` console script next to this interpreter, else the CLI module run by this interpreter."""
    script = Path(sys.executable).with_name("docbot")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "docbot.fronts.cli"]


def verify(source: Path, doc: Path, function: str, cwd: Path, timeout_s: float = 300.0) -> Checked:
    command = [*docbot_command(), "verify", str(source), str(doc), "--json", "--function", function]
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd, timeout=timeout_s)
    return read_output(function, done.stdout, done.stderr, done.returncode)


def read_output(function: str, stdout: str, stderr: str, exit_code: int) -> Checked:
    """One call's result from what the CLI printed (JSON on stdout, errors on stderr)."""
    try:
        payload = json.loads(stdout) if stdout.strip() else None
    except json.JSONDecodeError:
        payload = None
    if payload is None:
        last = (stderr.strip().splitlines() or [""])[-1]
        return Checked(function, False, (), exit_code, last or f"exit {exit_code}, no output")
    # The function's own entry, and the doc's examples outside every section (a usage guide's).
    entries = [entry for entry in _entries(payload)
               if _names(entry.get("qualname", ""), function) or entry.get("qualname") == DOC_EXAMPLES]
    if not entries:
        return Checked(function, False, (), exit_code)
    findings = tuple(_found(entry.get("qualname", function), f) for entry in entries for f in entry.get("findings", []))
    found = all(entry.get("section_found", True) for entry in entries if entry.get("qualname") != DOC_EXAMPLES)
    return Checked(function, found, findings, exit_code)


def _entries(payload: Any) -> list[dict[str, Any]]:
    if isinstance(payload, dict):  # a future wrapper object: {"functions": [...]} or {"results": [...]}
        payload = payload.get("functions", payload.get("results", [payload]))
    return [entry for entry in payload if isinstance(entry, dict)]


def _names(qualname: str, function: str) -> bool:
    return qualname == function or qualname.endswith("." + function) or function.endswith("." + qualname)


def _found(qualname: str, finding: dict[str, Any]) -> Found:
    kind = str(finding.get("kind", ""))
    marker = finding.get("category", finding.get("severity"))
    if isinstance(finding.get("gap"), bool):
        gap = bool(finding["gap"])
    elif isinstance(marker, str):
        gap = marker.lower() in GAP_WORDS
    else:
        gap = kind in OMISSION_KINDS
    return Found(qualname, kind, str(finding.get("message", "")), bool(finding.get("fatal", True)), gap)
