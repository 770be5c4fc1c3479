"""The model layer: the three role models as LangChain chat models, whatever serves them.

The loop only sees ``RoleModels``; which backend answers (Ollama, an OpenAI-compatible server, an
in-process llama.cpp, or a recording) is decided here from the settings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the preflight imports this package, and must not wait for LangChain (issue 32)
    from langchain_core.language_models import BaseChatModel


@dataclass(frozen=True)
class RoleModels:
    """One chat model per role. Different models per role is the point (docs/design.md#roles)."""

    generator: BaseChatModel
    critic: BaseChatModel
    adjudicator: BaseChatModel
