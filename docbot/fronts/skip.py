"""The way past docbot's pre-commit hooks for one commit, as the hooks print it (issue 33).

pre-commit runs each hook on its own, so no hook knows which of the others failed on this commit; a printed
``SKIP=docbot,docbot-check`` that leaves out ``docbot-verify`` does not get the commit through. So the way out
names every docbot hook the repository's ``.pre-commit-config.yaml`` configures (read as text: a false yes only
names a hook that was not needed), the printing hook always among them.
"""

from __future__ import annotations

import re
from pathlib import Path

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
