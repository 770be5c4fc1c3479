"""``docbot config --show``: every setting's effective value and the source that set it.

A secret is never printed: ``api_key`` shows as ``"***"`` when set, so the output can be pasted in an issue.
"""

from __future__ import annotations

import json
from typing import Any

from docbot.config.sources import Loaded

SECRETS = frozenset({"api_key"})
MASK = "***"


def effective(loaded: Loaded) -> dict[str, Any]:
    """Each setting's value as JSON would hold it, secrets masked."""
    values = loaded.settings.model_dump(mode="json")
    return {key: (MASK if key in SECRETS and value else value) for key, value in values.items()}


def show_lines(loaded: Loaded) -> list[str]:
    """``key = value  (source)``, one line per setting, in the settings' order."""
    values = effective(loaded)
    width = max(len(key) for key in values)
    return [f"{key:<{width}} = {json.dumps(value)}  ({loaded.origins[key]})" for key, value in values.items()]


def show_json(loaded: Loaded) -> dict[str, dict[str, Any]]:
    """``{key: {"value": ..., "source": ...}}`` for ``--json``."""
    return {key: {"value": value, "source": loaded.origins[key]} for key, value in effective(loaded).items()}
