"""Checks for the files other tools read: action.yml and .pre-commit-hooks.yaml.

Each file's schema is judged by its own tool: ``pre-commit validate-manifest``, and ``check-jsonschema``
with the GitHub action schema it vendors (``vendor.github-actions``: no network). The ``*_problems``
functions add only docbot's own rules on top, and return a list of human-readable problems
([] = valid), so a test can assert ``== []`` and see every problem at once in the failure message.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def load_yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def console_scripts(pyproject: Path = ROOT / "pyproject.toml") -> dict[str, str]:
    """``[project.scripts]``: script name -> ``module:function``."""
    return dict(tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"].get("scripts", {}))


def script_problems(name: str, pyproject: Path = ROOT / "pyproject.toml") -> list[str]:
    """The console script exists and its target imports and is callable."""
    target = console_scripts(pyproject).get(name)
    if target is None:
        return [f"console script {name!r} is not in [project.scripts]"]
    module, _, function = target.partition(":")
    try:
        found = getattr(importlib.import_module(module), function, None)
    except ImportError as err:
        return [f"console script {name!r} -> {target}: cannot import ({err})"]
    return [] if callable(found) else [f"console script {name!r} -> {target}: not a callable"]


def hook_manifest_problems(path: Path, pyproject: Path = ROOT / "pyproject.toml") -> list[str]:
    """pre-commit's verdict on a ``.pre-commit-hooks.yaml``, then: every python hook's entry is a console
    script of ours that imports."""
    problems = _tool_problems("pre_commit", "validate-manifest", str(path))
    if problems:
        return problems
    hooks = load_yaml(path)
    if not hooks:
        return ["the manifest lists no hooks"]
    for hook in hooks:
        if hook["language"] == "python":
            problems += [f"{hook['id']}: {p}" for p in script_problems(str(hook["entry"]).split()[0], pyproject)]
    return problems


def action_problems(path: Path) -> list[str]:
    """GitHub's action schema on ``action.yml``, then docbot's rules: a composite action whose run steps
    take values through env, never spliced into shell text, and whose references resolve."""
    problems = _tool_problems("check_jsonschema", "--builtin-schema", "vendor.github-actions", "--verbose",
                              "--color", "never", str(path))
    action = load_yaml(path)
    return problems + (_docbot_action_problems(action) if isinstance(action, dict) else [])


def _docbot_action_problems(action: dict[str, Any]) -> list[str]:
    problems = []
    runs = action.get("runs") or {}
    if runs.get("using") != "composite":
        problems.append(f"runs.using is {runs.get('using')!r}, expected 'composite'")
    steps = runs.get("steps") or []
    ids = {step["id"] for step in steps if "id" in step}
    for index, step in enumerate(steps):
        if "run" in step and EXPRESSION.search(str(step["run"])):
            problems.append(f"{step.get('name') or f'step {index}'}: ${{{{ }}}} spliced into shell text; pass it "
                            "through env")
    for name, spec in (action.get("outputs") or {}).items():
        for step_id in re.findall(r"steps\.([\w-]+)\.outputs", str((spec or {}).get("value") or "")):
            if step_id not in ids:
                problems.append(f"output {name}: refers to unknown step id {step_id!r}")
    inputs = action.get("inputs") or {}
    used = {m for e in EXPRESSION.findall(yaml.safe_dump(action)) for m in re.findall(r"inputs\.([\w-]+)", e)}
    return problems + [f"expression refers to unknown input {name!r}" for name in sorted(used - set(inputs))]


def _tool_problems(module: str, *args: str) -> list[str]:
    """Run a validator module with this interpreter; its report when it refuses the file."""
    done = subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True, check=False)
    return [] if done.returncode == 0 else [f"{module}: {(done.stdout + done.stderr).strip()}"]


def substitute(value: str, contexts: dict[str, str]) -> str:
    """Evaluate the plain ``${{ inputs.x }}``-style lookups of a value, as the runner would."""
    return EXPRESSION.sub(lambda m: contexts.get(m.group(1), ""), value)
