"""TEST SUPPORT: the settings and names real-model tests use with SmolLM2 (see fixtures.py for the servers)."""

from __future__ import annotations

import socket
from typing import Any, Literal

from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel

from docbot.config.sources import load_settings
from docbot.config.settings import Settings

# The real loop's prompts (a critique of compound_interest: ~1,200 tokens by the bound) and a 1,024-token answer.
N_CTX = 4096
MAX_TOKENS = 64  # short answers keep the suite fast; enough for a small JSON object
# Distinct names per role (as a real setup would have), all served by the one SmolLM2 file.
SMOL_MODELS = {"GENERATOR": "smollm2-writer:135m", "CRITIC": "smollm2-critic:135m",
               "ADJUDICATOR": "smollm2-editor:135m"}
OPENAI_ALIAS = "smollm2"  # llama-cpp-python's server serves one model, under this name
INSTALL = "pip install -e '.[dev,embedded,server]'"


def smol_settings(backend: str, base_url: str | None = None, **overrides: Any) -> Settings:
    """Settings for SmolLM2 on a test server: small context and answers, one model name per role."""
    models = dict(SMOL_MODELS) if backend == "ollama" else {role: OPENAI_ALIAS for role in SMOL_MODELS}
    values: dict[str, Any] = {"backend": backend, "base_url": base_url, "num_ctx": N_CTX,
                              "max_tokens": MAX_TOKENS, "model_registry": models,
                              "request_timeout_s": 120.0, **overrides}
    return load_settings(None, overrides=values)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])

# A tiny prompt and schema the real-model protocol tests share.
MESSAGES = [SystemMessage("You document Python functions. Be brief."),
            HumanMessage("Document this function:\n\ndef add(a: int, b: int) -> int:\n    return a + b\n")]


class Verdict(BaseModel):
    score: int
    verdict: Literal["approve", "revise"]
