"""What the sandbox itself did to a step, seen from inside the child (docs/design.md#sandbox).

An example that fails because the sandbox refused it something, or because this machine lacks a library or a file
the doc presumes, is not a false doc. The child cannot tell that from the exception alone: a package may catch the
guard's PermissionError and raise its own RuntimeError, or catch an ImportError and later say "install a parser".
So the child keeps a witness: the guard records each refusal, a finder placed last on ``sys.meta_path`` records each
import no installed module answered, and a failed step's error is checked for a path the example itself passes
that does not exist here. Each step's result line carries what was seen during that step; ``docbot.verify
.example_check`` turns a failure that follows one into a note with the reason. Stdlib only, like the child.
"""

from __future__ import annotations

import ast
import os
import re
import sys

TYPE_CHECKING = False  # as in docbot.sandbox.child: no typing import in every child
if TYPE_CHECKING:
    from typing import Any

_KEPT = 8  # entries per list per step: enough to name the cause, small enough for a result line
_FILE_NAME = re.compile(r"^[\w.-]+\.(?:txt|csv|tsv|json|ya?ml|toml|ini|cfg|conf|py|md|rst|html?|xml|log|dat|db|"
                        r"sqlite3?|png|jpe?g|gif|svg|pdf|zip|gz|bz2|xz|tar|pkl|pickle|parquet|xlsx?|docx?|pptx?|od[tsp]|epub|wav|mp3|"
                        r"mp4|pem|crt|key)$")


class Witness:
    """What the sandbox refused and which imports found nothing, since the last ``start_step``."""

    def __init__(self) -> None:
        self.refused: list[str] = []
        self.missing: list[str] = []

    def start_step(self) -> None:
        self.refused, self.missing = [], []

    def refusal(self, what: str, message: str) -> PermissionError:
        """The guard's error for ``what``, recorded first: the example may catch it and raise its own."""
        _keep(self.refused, what)
        return PermissionError(message)

    def seen(self) -> dict[str, list[str]]:
        """The result line's share: only the lists that have something."""
        return {key: value for key, value in (("refused", self.refused), ("missing", self.missing)) if value}


class _MissingFinder:
    """Last on ``sys.meta_path``: asked only when no finder before it knows the module, i.e. it is not installed."""

    def __init__(self, witness: Witness) -> None:
        self._witness = witness

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        _keep(self._witness.missing, fullname)
        return None  # the import goes on to fail as it would anywhere


def install(witness: Witness) -> None:
    sys.meta_path.append(_MissingFinder(witness))


def missing_paths(code: str, error: BaseException) -> list[str]:
    """Path literals the example itself passes that the error is about and that do not exist here.

    Only a literal written in the example counts (a path the package computed is the package's business), only
    when the error names it, and only when nothing is at that path in the sandbox.
    """
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and _looks_like_path(node.value):
            if _names_path(error, node.value) and not os.path.lexists(os.path.expanduser(node.value)):
                _keep(found, node.value)
    return found


def _names_path(error: BaseException, path: str) -> bool:
    """The error is about ``path`` itself: its ``filename``, or the whole path in its message (not a part of a
    longer path the package computed, as ``/nope`` is of ``/etc/nope``)."""
    if getattr(error, "filename", None) == path:
        return True
    return re.search(rf"(?<![\w/.~-]){re.escape(path)}(?![\w/-])", str(error)) is not None


def _looks_like_path(text: str) -> bool:
    if not text or len(text) > 300 or "\n" in text or " " in text.strip():
        return False
    return "/" in text or "\\" in text or bool(_FILE_NAME.match(text))


def _keep(items: list[str], item: str) -> None:
    if item not in items and len(items) < _KEPT:
        items.append(item)
