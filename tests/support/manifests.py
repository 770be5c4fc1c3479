"""Schema-level checks for the files other tools read: action.yml and .pre-commit-hooks.yaml.

Each ``*_problems`` function returns a list of human-readable problems ([] = valid), so a test can
assert ``== []`` and see every problem at once in the failure message.
"""

from __future__ import annotations

import importlib
import re
import tomllib
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")

# pre-commit 4.7's MANIFEST_HOOK_DICT (pre_commit/clientlib.py).
HOOK_REQUIRED = {"id", "name", "entry", "language"}
HOOK_OPTIONAL = {"files", "exclude", "types", "types_or", "exclude_types", "always_run", "fail_fast",
                 "verbose", "pass_filenames", "require_serial", "description", "language_version",
                 "minimum_pre_commit_version", "args", "stages", "additional_dependencies", "log_file",
                 "alias"}
HOOK_STAGES = {"commit-msg", "post-checkout", "post-commit", "post-merge", "post-rewrite", "pre-commit",
               "pre-merge-commit", "pre-push", "pre-rebase", "prepare-commit-msg", "manual"}


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


def hook_manifest_problems(hooks: Any, pyproject: Path = ROOT / "pyproject.toml") -> list[str]:
    """A ``.pre-commit-hooks.yaml`` list: required keys, known keys, unique ids, real entry points."""
    if not isinstance(hooks, list) or not hooks:
        return ["the manifest must be a non-empty list of hooks"]
    problems, seen = [], set()
    for hook in hooks:
        hook_id = hook.get("id", "?")
        problems += [f"{hook_id}: missing {key}" for key in sorted(HOOK_REQUIRED - set(hook))]
        problems += [f"{hook_id}: unknown key {key}" for key in sorted(set(hook) - HOOK_REQUIRED - HOOK_OPTIONAL)]
        problems += [f"{hook_id}: unknown stage {s}" for s in hook.get("stages", []) if s not in HOOK_STAGES]
        if hook_id in seen:
            problems.append(f"{hook_id}: duplicate id")
        seen.add(hook_id)
        if hook.get("language") == "python" and hook.get("entry"):
            problems += [f"{hook_id}: {p}" for p in script_problems(str(hook["entry"]).split()[0], pyproject)]
    return problems


def action_problems(action: Any) -> list[str]:
    """A composite ``action.yml``: the keys GitHub requires and the references that must resolve."""
    if not isinstance(action, dict):
        return ["action.yml must be a mapping"]
    problems = [f"missing {key}" for key in ("name", "description", "runs") if not action.get(key)]
    inputs = action.get("inputs") or {}
    problems += [f"input {name}: no description" for name, spec in inputs.items()
                 if not (spec or {}).get("description")]
    runs = action.get("runs") or {}
    if runs.get("using") != "composite":
        problems.append(f"runs.using is {runs.get('using')!r}, expected 'composite'")
    steps = runs.get("steps") or []
    ids = {step["id"] for step in steps if "id" in step}
    for index, step in enumerate(steps):
        label = step.get("name") or f"step {index}"
        if "run" in step and not step.get("shell"):
            problems.append(f"{label}: a composite run step must set shell")
        if "run" in step and EXPRESSION.search(str(step["run"])):
            problems.append(f"{label}: ${{{{ }}}} spliced into shell text; pass it through env")
    for name, spec in (action.get("outputs") or {}).items():
        value = str((spec or {}).get("value") or "")
        if not value:
            problems.append(f"output {name}: composite outputs need a value")
        for step_id in re.findall(r"steps\.([\w-]+)\.outputs", value):
            if step_id not in ids:
                problems.append(f"output {name}: refers to unknown step id {step_id!r}")
    used = {m for e in EXPRESSION.findall(yaml.safe_dump(action)) for m in re.findall(r"inputs\.([\w-]+)", e)}
    problems += [f"expression refers to unknown input {name!r}" for name in sorted(used - set(inputs))]
    return problems


def substitute(value: str, contexts: dict[str, str]) -> str:
    """Evaluate the plain ``${{ inputs.x }}``-style lookups of a value, as the runner would."""
    return EXPRESSION.sub(lambda m: contexts.get(m.group(1), ""), value)
