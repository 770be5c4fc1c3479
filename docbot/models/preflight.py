"""Check, before any work, that every role's model can answer; say exactly what to run if not.

One ``ModelServerError`` (exit 3) lists every problem at once (a user should not fix them one run at
a time). Each backend's check (``docbot/models/checks.py``, chosen through the registry) calls only
cheap listing endpoints, with the short connect timeout, so a dead server costs seconds, not a
commit's patience.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

import httpx

from docbot.errors import ModelServerError
from docbot.models.checks import ollama_name
from docbot.models.registry import BACKENDS, backend_of
from docbot.models.servers import role_servers
from docbot.config.settings import ROLES, Backend, Settings


def preflight(settings: Settings) -> list[str]:
    """Warnings to show; raises ModelServerError listing every problem and its fix."""
    if settings.replay or settings.backend == "replay":
        return []  # a recording answers everything; there is no server to ask
    problems: list[str] = []
    timeout = httpx.Timeout(max(10.0, settings.connect_timeout_s), connect=settings.connect_timeout_s)
    with httpx.Client(timeout=timeout) as client:
        for (backend, server), wanted in _roles_by_server(settings).items():
            check = BACKENDS[backend].check
            if check is not None:
                problems += check(client, server, wanted, settings)
    if problems:
        # No "docbot" here: every front prints an error as "docbot: <message>" already.
        raise ModelServerError("cannot start; nothing was sent to a model:\n"
                               + "\n".join(f"  - {p}" for p in problems))
    return same_model_warnings(role_identities(settings))


def _roles_by_server(settings: Settings) -> dict[tuple[Backend, str], dict[str, str]]:
    """(backend, server) -> {role: model}, every URL of a role that lists several. For the embedded
    backend the "server" is the GGUF file."""
    groups: dict[tuple[Backend, str], dict[str, str]] = defaultdict(dict)
    for role, (backend, server, model) in role_identities(settings).items():
        for url in role_servers(settings, role) if BACKENDS[backend].networked else (server,):
            groups[(backend, url)][role] = model
    return groups


def role_identities(settings: Settings) -> dict[str, tuple[Backend, str, str]]:
    """role -> (backend, server, model): two roles with equal identities are the same model."""
    return {role: (settings.backend_for(role), *backend_of(settings, role).identity(settings, role))
            for role in ROLES}


def same_model_warnings(identities: Mapping[str, tuple[Backend, str, str]]) -> list[str]:
    """A warning for each model that plays more than one role: a critic grading its own writer
    (docs/design.md#roles)."""
    roles_of: dict[tuple[Backend, str, str], list[str]] = defaultdict(list)
    for role, (backend, server, model) in identities.items():
        roles_of[(backend, server, ollama_name(model))].append(role)
    warnings = []
    for roles in roles_of.values():
        if len(roles) > 1:
            who = ", ".join(roles[:-1]) + " and " + roles[-1]
            warnings.append(f"{who} use the same model ({identities[roles[0]][2]}): a model grading its own "
                            "writing tends to wave it through; give each role its own model in config.json.")
    return warnings
