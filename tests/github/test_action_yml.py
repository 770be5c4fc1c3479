"""action.yml: its schema, its inputs and outputs, and its own run step, run for real in check mode (no
model). Also the checkers that judge action.yml and the hook manifest, each shown to catch its problem.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.manifests import (
    ROOT,
    action_problems,
    hook_manifest_problems,
    load_yaml,
    script_problems,
    substitute,
)
from tests.support.action_env import (
    PR,
    TOKEN,
    FakeRun,
    act,
    canned,
    git,
    outputs,
    pr_event,
    runner_env,
)
from tests.support.fake_github import FakeGitHub

pytest_plugins = ["tests.support.action_fixtures"]  # the gh and pr_repos fixtures


ACTION = load_yaml(ROOT / "action.yml")


def test_action_yml_is_a_valid_composite_action() -> None:
    assert action_problems(ROOT / "action.yml") == []
    assert script_problems("docbot-action") == []


def test_the_hook_manifest_is_valid_and_its_entries_are_our_scripts() -> None:
    assert hook_manifest_problems(ROOT / ".pre-commit-hooks.yaml") == []


def test_action_yml_has_the_inputs_and_outputs_the_readme_promises() -> None:
    inputs = ACTION["inputs"]
    assert {"ollama-url", "config", "mode", "base", "head", "github-token", "fail-on-fatal"} <= set(inputs)
    assert inputs["github-token"]["default"] == "${{ github.token }}"
    assert inputs["base"]["default"] == "${{ github.event.pull_request.base.sha }}"
    assert inputs["head"]["default"] == "${{ github.event.pull_request.head.sha }}"
    assert inputs["mode"]["default"] == "comment"
    assert {"functions", "approved", "failed", "report"} <= set(ACTION["outputs"])


def test_action_outputs_are_the_ones_the_entry_point_writes(tmp_path: Path, gh: FakeGitHub) -> None:
    env = runner_env(tmp_path, gh)
    act(env, FakeRun(canned()))
    written = set(outputs(env["GITHUB_OUTPUT"]))
    declared = {str(spec["value"]).split(".outputs.")[1].rstrip("} ") for spec in ACTION["outputs"].values()}
    assert declared == written == set(ACTION["outputs"])


def test_every_input_reaches_the_entry_point() -> None:
    """Each input is passed through env (never spliced into the script) and read by docbot.fronts.action."""
    steps = ACTION["runs"]["steps"]
    used = {m for step in steps for value in (step.get("env") or {}).values()
            for m in [str(value).removeprefix("${{ inputs.").removesuffix(" }}")]}
    assert used == set(ACTION["inputs"])
    source = (ROOT / "docbot" / "fronts" / "action.py").read_text(encoding="utf-8")
    for step_id in ("run", "docbot"):
        for name in next(s for s in steps if s.get("id") == step_id)["env"]:
            assert f'"{name}"' in source or name == "OLLAMA_HOST", name  # OLLAMA_HOST goes to load_settings


def test_the_step_that_runs_models_and_examples_holds_no_token() -> None:
    """Issue 12 item 3: the run step gets no token by any name; only the publish step, which runs nothing."""
    steps = {s.get("id"): s for s in ACTION["runs"]["steps"]}
    run_env = " ".join(f"{k}={v}" for k, v in steps["run"]["env"].items())
    for secret in ("github-token", "github.token", "secrets.", "TOKEN"):
        assert secret not in run_env, secret
    assert steps["run"]["run"].endswith('run --report "$RUNNER_TEMP/docbot-run.json"')
    assert steps["docbot"]["env"]["DOCBOT_TOKEN"] == "${{ inputs.github-token }}"
    assert steps["docbot"]["run"].endswith('publish --report "$RUNNER_TEMP/docbot-run.json"')
    order = [s.get("id") for s in ACTION["runs"]["steps"]]
    assert order.index("run") < order.index("docbot")


def action_step_env(inputs: dict[str, str], github: dict[str, str], step_id: str = "docbot") -> dict[str, str]:
    """The env of one of action.yml's steps, evaluated the way the runner does."""
    values = {f"inputs.{name}": inputs.get(name, substitute(str(spec.get("default", "")), github))
              for name, spec in ACTION["inputs"].items()}
    step = next(s for s in ACTION["runs"]["steps"] if s.get("id") == step_id)
    return {name: substitute(str(value), values) for name, value in step["env"].items()}


def test_action_run_step_runs_check_mode_for_real(tmp_path: Path, gh: FakeGitHub,
                                                   pr_repos: dict[str, Any]) -> None:
    """action.yml's own two shell steps, no model: the PR changes a function that has no doc yet."""
    runner, head = pr_repos["runner"], pr_repos["head"]
    git(runner, "checkout", "--detach", head)
    bin_dir = tmp_path / "temp" / "docbot-venv" / "bin"
    bin_dir.mkdir(parents=True)
    script = bin_dir / "docbot-action"  # what pip makes of the console script docbot.fronts.action:main
    script.write_text(f"#!/bin/sh\nexec '{sys.executable}' -c 'import sys; from docbot.fronts.action import main; "
                      f"sys.exit(main())' \"$@\"\n")
    script.chmod(0o755)
    github = {"github.token": TOKEN, "github.event.pull_request.base.sha": pr_repos["base"],
              "github.event.pull_request.head.sha": head}
    runner_vars = {**runner_env(tmp_path, gh, event=pr_event(pr_repos["base"], head)),
                   "PATH": os.environ["PATH"], "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    del runner_vars["DOCBOT_TOKEN"]  # the runner has none: each step gets what action.yml gives it
    runs = []
    for step_id in ("run", "docbot"):
        env = {**runner_vars, **action_step_env({"mode": "check"}, github, step_id)}
        step = next(s for s in ACTION["runs"]["steps"] if s.get("id") == step_id)
        runs.append(subprocess.run([step["shell"], "-c", step["run"]], cwd=runner, env=env,
                                   capture_output=True, text=True, timeout=120, check=False))
    ran, done = runs

    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "DOCBOT_TOKEN" not in action_step_env({"mode": "check"}, github, "run")
    assert (tmp_path / "temp" / "docbot-run.json").is_file()
    assert done.returncode == 1, done.stdout + done.stderr
    comment = gh.comments[PR][0]["body"]
    assert "**1 function checked**: ✅ 0 current · ❌ 1 to write or update" in comment
    assert "<code>pkg.geometry.area</code> (<code>pkg/geometry.py:1</code>): no doc section yet" in comment
    assert outputs(env["GITHUB_OUTPUT"])["failed"] == "1"
    assert TOKEN not in done.stdout + done.stderr


GOOD_STEP = {"id": "run", "shell": "bash", "env": {"X": "${{ inputs.x }}"}, "run": 'echo "$X"'}
NO_SHELL = {key: value for key, value in GOOD_STEP.items() if key != "shell"}


def dumped(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "file.yml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("action, problem", [
    # GitHub's schema (check-jsonschema)
    ({"description": "d", "runs": {"using": "composite", "steps": []}}, "'name' is a required property"),
    ({"name": "a", "description": "d", "inputs": {"x": {"default": "1"}},
      "runs": {"using": "composite", "steps": [GOOD_STEP]}}, "$.inputs.x: 'description' is a required property"),
    ({"name": "a", "description": "d", "runs": {"using": "composite", "steps": [NO_SHELL]},
      "inputs": {"x": {"description": "x"}}}, "$.runs.steps[0]"),
    ({"name": "a", "description": "d", "outputs": {"n": {"description": "n"}},
      "runs": {"using": "composite", "steps": []}}, "$.outputs.n: 'value' is a required property"),
    # docbot's rules
    ({"name": "a", "description": "d", "runs": {"using": "node20", "main": "x.js"}}, "expected 'composite'"),
    ({"name": "a", "description": "d", "inputs": {"x": {"description": "x"}}, "runs": {
        "using": "composite", "steps": [{**GOOD_STEP, "run": "echo ${{ inputs.x }}"}]}}, "spliced into shell"),
    ({"name": "a", "description": "d", "inputs": {"x": {"description": "x"}},
      "outputs": {"n": {"description": "n", "value": "${{ steps.nope.outputs.n }}"}},
      "runs": {"using": "composite", "steps": [GOOD_STEP]}}, "unknown step id 'nope'"),
    ({"name": "a", "description": "d", "runs": {"using": "composite", "steps": [GOOD_STEP]}},
     "unknown input 'x'"),
])
def test_the_action_checker_catches_each_problem(tmp_path: Path, action: dict[str, Any], problem: str) -> None:
    problems = action_problems(dumped(tmp_path, action))
    assert any(problem in p for p in problems), problems


def test_the_action_checker_passes_a_good_action(tmp_path: Path) -> None:
    action = {"name": "a", "description": "d", "inputs": {"x": {"description": "x"}},
              "outputs": {"n": {"description": "n", "value": "${{ steps.run.outputs.n }}"}},
              "runs": {"using": "composite", "steps": [GOOD_STEP]}}
    assert action_problems(dumped(tmp_path, action)) == []


@pytest.mark.parametrize("hooks, problem", [
    # pre-commit's schema (pre-commit validate-manifest)
    ([{"id": "a", "name": "a", "language": "python"}], "Missing required key: entry"),
    ([{"id": "a", "name": "a", "entry": "docbot-action", "language": "python", "stages": ["nope"]}],
     "but got: 'nope'"),
    # docbot's rules
    ([], "the manifest lists no hooks"),
    ([{"id": "a", "name": "a", "entry": "no-such-script --flag", "language": "python"}],
     "a: console script 'no-such-script' is not in [project.scripts]"),
])
def test_the_hook_manifest_checker_catches_each_problem(tmp_path: Path, hooks: list[dict[str, Any]],
                                                         problem: str) -> None:
    problems = hook_manifest_problems(dumped(tmp_path, hooks))
    assert any(problem in p for p in problems), problems


def test_the_hook_manifest_checker_passes_a_good_manifest(tmp_path: Path) -> None:
    hooks = [{"id": "a", "name": "a", "entry": "docbot-action --x", "language": "python", "types": ["python"],
              "pass_filenames": False, "require_serial": True, "stages": ["pre-commit", "manual"]}]
    assert hook_manifest_problems(dumped(tmp_path, hooks)) == []


def test_installs_are_cached_and_the_patch_is_uploaded() -> None:
    """Issue 13 part 5: no cold pip install of ~56 distributions per run; the apply path's artifact."""
    steps = ACTION["runs"]["steps"]
    uses = {str(s.get("uses", "")).split("@")[0]: s for s in steps if "uses" in s}
    setup = uses["actions/setup-python"]
    assert setup["with"]["cache"] == "pip" and "pyproject.toml" in setup["with"]["cache-dependency-path"]
    names = [s.get("name") for s in steps]
    assert names.index(setup["name"]) < names.index("Install docbot")  # the cache is there before pip runs
    assert uses["actions/cache"]["with"]["path"] == "${{ runner.temp }}/docbot-cache"  # outside the workspace
    upload = uses["actions/upload-artifact"]
    assert upload["with"]["name"] == "docbot-docs"  # the name the comment tells people to download
    assert upload["with"]["path"] == "${{ steps.docbot.outputs.patch }}"
    assert upload["if"] == "steps.docbot.outputs.patch != ''"
    assert names.index(upload["name"]) > names.index("Publish docbot's report")
