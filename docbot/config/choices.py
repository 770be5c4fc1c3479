"""The closed sets of values a setting or a flag chooses from, importable without pydantic.

The fronts build their argument parsers from these before anything is validated, and a hook run that
finds nothing to do never loads ``docbot.config.settings`` at all (docs/design.md#lazy-imports).
"""

from __future__ import annotations

from typing import Literal, get_args

# The backends' names; docbot/models/registry.py maps each to its builder and preflight check.
Backend = Literal["ollama", "openai", "embedded", "replay"]
BACKEND_NAMES: tuple[Backend, ...] = get_args(Backend)
# Where examples may run: "os" only behind the OS sandbox (docbot/sandbox/boundary.py); "allow-guard" also
# under the in-process guard alone where no sandbox can be made, except in CI; "allow-guard-in-ci" there too.
ExampleSandbox = Literal["os", "allow-guard", "allow-guard-in-ci"]
DEFAULT_EXAMPLE_SANDBOX: ExampleSandbox = "os"
# What a scan leaves out unless the settings say otherwise: here, not in the settings module, so that a
# hook check in a checkout without a config file needs no pydantic (docbot.plan.PLAN_DEFAULTS).
# Task runners and tooling files are never the project's API (nox, invoke, fabric, doit, tox plugins; a Sphinx
# ``conf.py`` lives under docs/ or doc/); where pyproject.toml declares a package, the scan also stops at its
# folders (docbot/scan/scope.py).
DEFAULT_EXCLUDE: tuple[str, ...] = ("tests/*", "test/*", "*/tests/*", "test_*.py", "*/test_*.py", "*_test.py",
                                    "conftest.py", "*/conftest.py", "setup.py", "docs/*", "doc/*",
                                    "noxfile.py", "tasks.py", "fabfile.py", "dodo.py", "toxfile.py")
# How long and how much memory one doc's examples get in the sandbox (the example_timeout_s and example_memory_mb
# settings); the one default every caller that runs examples without settings falls back to.
DEFAULT_EXAMPLE_TIMEOUT_S = 10.0
DEFAULT_EXAMPLE_MEMORY_MB = 512
# The hand-written docs project mode and the drift gate read unless docs_globs says otherwise.
DEFAULT_DOCS_GLOBS: tuple[str, ...] = ("README.*", "docs/**/*.md", "docs/**/*.rst")
