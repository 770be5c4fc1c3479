"""Where the model servers are and how long to wait for them: one policy for every networked backend.

The URL of a role's server (or the list of its servers) is its own ``base_url``, else the global one
(which already holds ``OLLAMA_HOST`` when that is set), else Ollama on this machine. The OpenAI-compatible backend uses
the same server URL with ``/v1``; with no URL at all, Ollama's own /v1 endpoint is the best guess.
"""

from __future__ import annotations

import httpx

from docbot.config.settings import Settings

DEFAULT_OLLAMA_URL = "http://127.0.0.1:11434"


def role_servers(settings: Settings, role: str) -> tuple[str, ...]:
    """The servers of a role, as listed (several share its calls: ``docbot.models.pool``).
    ``settings.base_url`` already holds OLLAMA_HOST when it was set."""
    return tuple(url.rstrip("/") for url in settings.base_urls_for(role)) or (DEFAULT_OLLAMA_URL,)


def openai_url(server: str) -> str:
    """``http://host:8080`` -> ``http://host:8080/v1``; a URL already ending in /v1 is kept."""
    server = server.rstrip("/")
    return server if server.endswith("/v1") else f"{server}/v1"


def request_timeout(settings: Settings) -> httpx.Timeout:
    """Short connect (a dead server fails fast), long read (a 9B model on CPU is slow)."""
    return httpx.Timeout(settings.request_timeout_s, connect=settings.connect_timeout_s)
