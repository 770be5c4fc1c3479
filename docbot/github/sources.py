"""What the publishing step reads from git: files as the PR's head has them, the lines the PR changed,
and where each function sits. Read only, never run: the publish step holds the token
(docs/design.md#trust), so it reads the PR's code as data, through ``git show`` and ``git diff``.

Line numbers are the head's, 1-based: those GitHub's annotations and review comments take.
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

from docbot.git.runner import git_ok
from docbot.git.diff import DIFF_FLAGS, LineRange, parse_git_diff
from docbot.results import Target
from docbot.scan.targets import public_functions

_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(?P<start>\d+)(?:,(?P<count>\d+))? @@", re.M)


@dataclass(frozen=True)
class FunctionSite:
    """Where one function sits in the head's file, and which of its lines the PR changed."""

    target: Target  # its source and span (decorators included), as the head has it
    def_line: int  # the ``def`` line itself
    changed: tuple[LineRange, ...]  # the PR's added/changed lines inside the function

    @property
    def first_changed(self) -> LineRange | None:
        return self.changed[0] if self.changed else None


@dataclass(frozen=True)
class PrSources:
    """The head's files and the PR's diff (``base...head``), read lazily from the checkout at ``root``."""

    root: Path
    base: str
    head: str

    def show(self, path: str, ref: str | None = None) -> str | None:
        """The text of ``path`` at ``ref`` (default the head); None when it has no such file."""
        return _show(self.root, ref or self.head, path)

    def changed_lines(self, path: str) -> tuple[LineRange, ...]:
        """The lines of ``path`` the PR added or changed (no context lines)."""
        output = git_ok(self.root, "diff", f"{self.base}...{self.head}", *DIFF_FLAGS, "--", path)
        if output is None:
            return ()
        return tuple(r for change in parse_git_diff(output) if change.new_path == path for r in change.new_ranges)

    def hunks(self, path: str) -> tuple[LineRange, ...]:
        """The head-side line ranges of the PR's diff hunks as GitHub shows them (3 lines of context):
        a review comment can only sit on one of these lines."""
        output = git_ok(self.root, "diff", f"{self.base}...{self.head}", "--no-color", "--no-ext-diff", "-U3",
                      "--", path)
        ranges = []
        for match in _HUNK.finditer((output or b"").decode("utf-8", "replace")):
            start, count = int(match["start"]), int(match["count"] or 1)
            if count:
                ranges.append((start, start + count - 1))
        return tuple(ranges)

    def site(self, path: str, module: str, qualname: str) -> FunctionSite | None:
        """Where ``qualname`` sits in the head's ``path``; None when the head has no such function."""
        source = self.show(path)
        if source is None:
            return None
        try:
            found = [t for t in public_functions(source, module, path, include_dunder=True) if t.qualname == qualname]
        except ValueError:  # a file the head cannot parse: no lines to point at
            return None
        if not found:
            return None
        target = found[0]
        changed = tuple((max(a, target.lineno), min(b, target.end_lineno)) for a, b in self.changed_lines(path)
                        if a <= target.end_lineno and b >= target.lineno)
        return FunctionSite(target, target.lineno + _def_offset(target.source), changed)


def _def_offset(source: str) -> int:
    """Lines from a function's first line (its decorators) to its ``def`` line."""
    try:
        node = ast.parse(textwrap.dedent(source)).body[0]
    except (SyntaxError, IndexError):
        return 0
    return node.lineno - 1 if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else 0


def within(ranges: tuple[LineRange, ...], first: int, last: int) -> bool:
    """Whether lines ``first..last`` all lie in one of ``ranges``."""
    return any(a <= first and last <= b for a, b in ranges)


def _show(root: Path, ref: str, path: str) -> str | None:
    data = git_ok(root, "show", f"{ref}:{path}")
    return None if data is None else data.decode("utf-8", "replace")

