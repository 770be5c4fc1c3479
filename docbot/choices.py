"""The closed sets of values a setting or a flag chooses from, importable without pydantic.

The fronts build their argument parsers from these before anything is validated, and a hook run that
finds nothing to do never loads ``docbot.settings`` at all (docs/design.md#lazy-imports).
"""

from __future__ import annotations

from typing import Literal, get_args

# The backends' names; docbot/models/registry.py maps each to its builder and preflight check.
Backend = Literal["ollama", "openai", "embedded", "replay"]
BACKEND_NAMES: tuple[Backend, ...] = get_args(Backend)
