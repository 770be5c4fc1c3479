"""Front: the GitHub Action. Pull-request event -> docbot run -> summary, outputs, sticky comment.

``action.yml`` installs docbot and calls ``docbot-action`` with its inputs in environment variables
(``DOCBOT_MODE``, ``DOCBOT_CONFIG``, ``DOCBOT_BASE``, ``DOCBOT_HEAD``, ``DOCBOT_TOKEN``,
``DOCBOT_FAIL_ON_FATAL``, ``OLLAMA_HOST``) next to the runner's own (``GITHUB_EVENT_PATH``,
``GITHUB_STEP_SUMMARY``, ``GITHUB_OUTPUT``...). Everything is read from one ``env`` mapping, so tests
run this front with a fabricated environment, and the run itself is one injected function.

The job summary is written first and always: a read-only token (fork PRs) cannot post the comment,
and the summary is then where the results are.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TextIO, cast

from docbot import events
from docbot.errors import ConfigError, DocbotError, GitHubError, RepoError
from docbot.github import GitHubClient
from docbot.pr_git import commit_docs, docs_at
from docbot.report import Links, render_comment, render_summary
from docbot.results import FunctionResult, RunReport
from docbot.settings import Settings, load_settings

if TYPE_CHECKING:
    from docbot.check import StaleEntry

Mode = Literal["comment", "commit", "check"]
MODES: tuple[Mode, ...] = ("comment", "commit", "check")
RunPr = Callable[[Settings, Path, str, str, Mode], RunReport]

# The identity GitHub shows with its own avatar for commits made by Actions.
STALE_REASONS = {"missing": "no doc section yet", "stale": "doc is stale: the code changed since",
                 "orphaned": "doc section of a function that no longer exists"}
TITLES: dict[Mode, str] = {"comment": "docbot: API docs", "commit": "docbot: API docs",
                           "check": "docbot check: stale API docs"}


@dataclass(frozen=True)
class ActionInputs:
    """Everything the action needs from its environment, checked once."""

    mode: Mode
    config: Path
    config_required: bool  # the user named a config file: a missing one is an error
    base: str
    head: str
    token: str = field(repr=False)
    fail_on_fatal: bool
    repo: str  # owner/name
    server_url: str
    api_url: str
    pr_number: int | None  # None outside pull_request events: no comment then
    head_ref: str  # the PR's branch name, where commit mode pushes
    head_repo: str  # owner/name of the PR's head repository (differs for forks)
    workspace: Path
    summary_path: str
    output_path: str
    report_dir: Path


def main(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    """``docbot-action``: the entry point ``action.yml`` runs."""
    return run_action(os.environ if env is None else env, sys.argv[1:] if argv is None else argv)


def run_action(env: Mapping[str, str], argv: Sequence[str] | None = None, *,
               run_pr: RunPr | None = None, out: TextIO | None = None) -> int:
    """The whole action; ``run_pr`` replaces the real run (tests pass a canned report)."""
    out = out or sys.stdout
    try:
        inputs = read_inputs(env, argv)
        settings = trusted_settings(load_settings(inputs.config, env=env, required=inputs.config_required),
                                    inputs)
    except DocbotError as err:
        print(annotation("error", str(err)), file=out)
        return err.exit_code
    print(f"::group::docbot {inputs.mode} on {inputs.base[:12]}..{inputs.head[:12]}", file=out)
    try:
        report = (run_pr or default_run_pr)(settings, inputs.workspace, inputs.base, inputs.head, inputs.mode)
    except DocbotError as err:
        print("::endgroup::", file=out)
        print(annotation("error", str(err)), file=out)
        append_file(inputs.summary_path, f"## {TITLES[inputs.mode]}\n\n**docbot stopped:** {err}\n")
        return err.exit_code
    print("::endgroup::", file=out)
    return publish(inputs, report, out)


def trusted_settings(settings: Settings, inputs: ActionInputs) -> Settings:
    """A fork PR's code is untrusted: unless the config insists, its docs' examples are not executed."""
    is_fork = bool(inputs.head_repo) and inputs.head_repo != inputs.repo
    if is_fork and settings.run_examples == "auto":
        return settings.model_copy(update={"run_examples": False})
    return settings


def publish(inputs: ActionInputs, report: RunReport, out: TextIO) -> int:
    """Commit (commit mode), then summary, comment, JSON report and outputs; returns the exit code."""
    print(report.summary_line(), file=out)
    link_ref, commit_failed = inputs.head, False
    if inputs.mode == "commit" and report.written:
        try:
            link_ref = commit_step(inputs, report.written, out) or link_ref
        except RepoError as err:
            print(annotation("error", str(err)), file=out)
            commit_failed = True
    links = Links(inputs.server_url, inputs.repo, link_ref,
                  docs_at(inputs.workspace, link_ref, {r.doc_path for r in report.results if r.doc_path}))
    append_file(inputs.summary_path, render_summary(report, links, title=TITLES[inputs.mode]))
    comment = post_comment(inputs, render_comment(report, links, title=TITLES[inputs.mode]), out)
    if comment.startswith("failed"):
        append_file(inputs.summary_path, f"\n> [!WARNING]\n> The PR comment could not be posted: "
                                         f"{comment.removeprefix('failed: ')}\n")
    report_path = inputs.report_dir / "docbot-report.json"
    report_path.write_text(json.dumps({"mode": inputs.mode, "pull_request": inputs.pr_number,
                                       "comment": comment, **report.to_json()}, indent=2) + "\n",
                           encoding="utf-8")
    write_outputs(inputs.output_path, {
        "functions": str(len(report.results)), "approved": str(report.approved),
        "failed": str(report.count("failed")),
        "fatal": str(sum(1 for r in report.results if r.fatal_issues)), "report": str(report_path)})
    return RepoError.exit_code if commit_failed else exit_code_for(report, inputs.mode, inputs.fail_on_fatal)


def exit_code_for(report: RunReport, mode: Mode, fail_on_fatal: bool) -> int:
    """1 when the job should fail: stale docs in check mode, else problems when asked to fail on them."""
    if mode == "check":
        return 1 if report.count("failed") else 0
    problems = any(r.status == "failed" or r.fatal_issues for r in report.results)
    return 1 if fail_on_fatal and problems else 0


def read_inputs(env: Mapping[str, str], argv: Sequence[str] | None = None) -> ActionInputs:
    """Inputs from the environment, overridden by flags (handy when running it by hand)."""
    flags = _parser().parse_args(list(argv or []))
    event = read_event(env.get("GITHUB_EVENT_PATH", ""))
    pull = event.get("pull_request") or {}
    mode = flags.mode or env.get("DOCBOT_MODE", "").strip() or "comment"
    if mode not in MODES:
        raise ConfigError(f"mode {mode!r} is not one of {', '.join(MODES)}; fix the `mode` input.")
    base = flags.base or env.get("DOCBOT_BASE", "").strip() or str((pull.get("base") or {}).get("sha") or "")
    head = flags.head or env.get("DOCBOT_HEAD", "").strip() or str((pull.get("head") or {}).get("sha") or "")
    if not (base and head):
        raise ConfigError("no base/head revision: run on a pull_request event, or set the `base` and "
                          "`head` inputs.")
    workspace = Path(env.get("GITHUB_WORKSPACE") or Path.cwd())
    config = flags.config or env.get("DOCBOT_CONFIG", "").strip()
    number = pull.get("number")
    return ActionInputs(
        mode=cast(Mode, mode), config=workspace / (config or "config.json"), config_required=bool(config),
        base=base, head=head, token=env.get("DOCBOT_TOKEN") or env.get("GITHUB_TOKEN") or "",
        fail_on_fatal=parse_bool(env.get("DOCBOT_FAIL_ON_FATAL", ""), "fail-on-fatal"),
        repo=env.get("GITHUB_REPOSITORY", ""),
        server_url=env.get("GITHUB_SERVER_URL") or "https://github.com",
        api_url=env.get("GITHUB_API_URL") or "https://api.github.com",
        pr_number=int(number) if isinstance(number, int) else None,
        head_ref=str((pull.get("head") or {}).get("ref") or ""),
        head_repo=str(((pull.get("head") or {}).get("repo") or {}).get("full_name") or ""),
        workspace=workspace, summary_path=env.get("GITHUB_STEP_SUMMARY", ""),
        output_path=env.get("GITHUB_OUTPUT", ""), report_dir=Path(env.get("RUNNER_TEMP") or Path.cwd()))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="docbot-action", description=(
        "Run docbot for a pull request the way the GitHub Action does. Inputs come from the "
        "environment that action.yml sets; these flags override them when run by hand."))
    parser.add_argument("--mode", choices=MODES)
    parser.add_argument("--config", metavar="FILE", help="config file, relative to the workspace")
    parser.add_argument("--base", metavar="REV")
    parser.add_argument("--head", metavar="REV")
    return parser


def read_event(path: str) -> dict[str, Any]:
    """The webhook payload GitHub stores for the run; {} when there is none (e.g. run by hand)."""
    if not path:
        return {}
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise ConfigError(f"{path}: cannot read the GitHub event payload ({err}).") from err
    return data if isinstance(data, dict) else {}


def parse_bool(value: str, name: str) -> bool:
    text = value.strip().lower()
    if text in ("", "false", "0", "no", "off"):
        return False
    if text in ("true", "1", "yes", "on"):
        return True
    raise ConfigError(f"input `{name}` is {value!r}; use true or false.")


def default_run_pr(settings: Settings, repo_root: Path, base: str, head: str, mode: Mode) -> RunReport:
    """The real run: ``docbot run`` on base...head, or the no-model staleness check in check mode."""
    from docbot.repo import DiffSpec  # imported late: git and the loop are not needed to parse inputs

    spec = DiffSpec(base=base, head=head)
    if mode == "check":
        from docbot.check import check_docs

        return stale_report(check_docs(settings, repo_root, spec, (), emit=log_sink(sys.stdout)), base, head)
    from docbot.run import run_docs

    return run_docs(settings, repo_root, spec, (), log_sink(sys.stdout))


def stale_report(entries: Sequence[StaleEntry], base: str, head: str) -> RunReport:
    """Check-mode results: every function whose doc is missing, stale or orphaned, as a failure."""
    results = [FunctionResult(e.module, e.qualname, "failed", reason=STALE_REASONS[e.status], path=e.path,
                              doc_path=e.doc_path) for e in entries]
    return RunReport(results=results, base=base, head=head)


def log_sink(stream: TextIO) -> events.EventSink:
    """The run's events in the job log; warnings also become annotations on the PR."""
    from docbot.console import ConsoleSink  # rich: only when something is actually logged

    console = ConsoleSink(stream)

    def show(event: events.Event) -> None:
        if event.kind == events.WARNING:
            print(annotation("warning", event.message), file=stream)
        else:
            console(event)

    return show


def post_comment(inputs: ActionInputs, body: str, out: TextIO) -> str:
    """Create or update the sticky comment; returns what happened. Never fails the job."""
    if inputs.pr_number is None:
        print("::notice::not a pull_request event: no PR comment; results are in the job summary", file=out)
        return "skipped: not a pull request"
    try:
        with GitHubClient(inputs.api_url, inputs.token, inputs.repo) as github:
            outcome = github.upsert_sticky_comment(inputs.pr_number, body)
    except GitHubError as err:
        print(annotation("warning", f"docbot could not post the PR comment: {err}"), file=out)
        return f"failed: {err}"
    print(f"PR comment {outcome} on #{inputs.pr_number}", file=out)
    return outcome


def commit_step(inputs: ActionInputs, written: Sequence[str], out: TextIO) -> str | None:
    """Push the docs to the PR branch; returns the new commit, None when there was nothing to push."""
    if inputs.head_repo and inputs.head_repo != inputs.repo:
        print(annotation("warning", "mode commit cannot push to a fork's branch; the docs are in the "
                         "job summary and the PR comment instead."), file=out)
        return None
    if not inputs.head_ref:
        raise RepoError("mode commit needs the PR's branch name (pull_request.head.ref in the event); "
                        "run it on pull_request events.")
    commit = commit_docs(inputs.workspace, written, inputs.head, inputs.head_ref)
    print(f"pushed {commit[:12]} to {inputs.head_ref}" if commit else "docs already current on the branch",
          file=out)
    return commit


def append_file(path: str, text: str) -> None:
    """Append to a file the runner gave us (summary, outputs); nothing to do when run by hand."""
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(text if text.endswith("\n") else text + "\n")


def write_outputs(path: str, values: Mapping[str, str]) -> None:
    lines = []
    for name, value in values.items():
        # The multi-line form with a delimiter that cannot occur in the value.
        delimiter = "docbot_EOF"
        while delimiter in value:
            delimiter += "_"
        lines.append(f"{name}<<{delimiter}\n{value}\n{delimiter}\n" if "\n" in value else f"{name}={value}\n")
    append_file(path, "".join(lines))


def annotation(level: Literal["error", "warning", "notice"], message: str) -> str:
    """A workflow command; % and newlines are escaped so the message stays one annotation."""
    escaped = message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return f"::{level} title=docbot::{escaped}"


if __name__ == "__main__":
    sys.exit(main())
