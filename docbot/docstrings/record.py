"""Which docstrings docbot wrote: ``<docs_dir>/.docstrings.json`` (docs/design.md#docstrings).

A docstring docbot did not write is a person's, and only an approved result replaces it. docbot knows
its own by a digest of each docstring it wrote, kept beside the doc files and committed with them
(``{"pkg.mod.func": "<sha256 prefix>"}``, sorted, one per line). A docstring whose digest is recorded is
still docbot's text, whatever else changed in the function; one edited by a person, or written before
docbot, has another digest, or none. No file, or an unreadable one, means no docstring is docbot's:
the mistake that costs nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path

from docbot.apidocs import disk

RECORD_NAME = ".docstrings.json"
# The entry of a docstring docbot decided to keep (a person's, under an unapproved doc): never "docbot's", so
# is_docbots stays false for it, but a decision that stands (docbot.run.owed owes it nothing).
KEPT = "kept:"
_DIGEST = 16


def record_path(docs_dir: str) -> str:
    return f"{docs_dir.rstrip('/')}/{RECORD_NAME}" if docs_dir.strip("/") else RECORD_NAME


def digest(docstring: str) -> str:
    """The digest of a cleaned docstring (``ast.get_docstring``): indentation and line ends do not count."""
    return hashlib.sha256(docstring.strip().encode("utf-8", "surrogatepass")).hexdigest()[:_DIGEST]


def parse_record(text: str | None) -> dict[str, str]:
    """The record's entries; an absent or malformed file holds none."""
    if not text:
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def render_record(entries: Mapping[str, str]) -> str | None:
    """The file's text (None: remove it, nothing is recorded)."""
    return json.dumps(dict(sorted(entries.items())), indent=0) + "\n" if entries else None


def read_record(repo_root: Path, docs_dir: str) -> tuple[str | None, dict[str, str]]:
    """(the file's text as read, its entries)."""
    text = disk.read_text(repo_root, record_path(docs_dir))
    return text, parse_record(text)


def is_docbots(entries: Mapping[str, str], key: str, docstring: str | None) -> bool:
    """``docstring`` (of function ``key``) is the one docbot last wrote there."""
    return docstring is not None and entries.get(key) == digest(docstring)
