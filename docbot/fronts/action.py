"""Front: the GitHub Action. Pull-request event -> docbot run -> the publishing step.

``action.yml`` installs docbot and calls ``docbot-action`` twice, with its inputs in environment
variables (``DOCBOT_MODE``, ``DOCBOT_CONFIG``, ``DOCBOT_BASE``, ``DOCBOT_HEAD``, ``DOCBOT_TOKEN``,
``DOCBOT_FAIL_ON_FATAL``, ``OLLAMA_HOST``) next to the runner's own (``GITHUB_EVENT_PATH``,
``GITHUB_STEP_SUMMARY``, ``GITHUB_OUTPUT``...): ``docbot-action run --report FILE`` runs the models and
examples **without the token**, then ``docbot-action publish --report FILE`` posts the report with it
(docs/design.md#trust). Without a stage, both happen in one process (by hand, and in tests).
Everything is read from one ``env`` mapping, so tests run this front with a fabricated environment,
and the run itself is one injected function. What happens to the report (summary, comment, commit,
outputs) is ``docbot.github.publish``.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, cast

from docbot import __version__, events
from docbot.errors import ConfigError, DocbotError, RepoError
from docbot.fronts.common import guarded
from docbot.github.logsafe import Redactor, SafeLog, escape_data
from docbot.github.publish import (
    MODES,
    TITLES,
    ActionInputs,
    Mode,
    annotation,
    append_file,
    publish,
    stale_report,
)
from docbot.github.drift import drift_file, read_drift, write_drift
from docbot.github.stages import StageOptions, read_run_report, write_run_report
from docbot.github.trust import load_base_settings, trusted_settings
from docbot.results import RunReport, Target
from docbot.config.settings import Settings

if TYPE_CHECKING:
    from docbot.check import UnapprovedEntry
    from docbot.verify.project.report import DriftReport
    from docbot.scan.repo import DiffSpec

RunPr = Callable[[Settings, Path, str, str, Mode], RunReport]


def main(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    """``docbot-action``: the entry point ``action.yml`` runs."""
    return run_action(os.environ if env is None else env, sys.argv[1:] if argv is None else argv)


def run_action(env: Mapping[str, str], argv: Sequence[str] | None = None, *,
               run_pr: RunPr | None = None, out: TextIO | None = None) -> int:
    """The whole action; ``run_pr`` replaces the real run (tests pass a canned report)."""
    redact = Redactor.of([env.get("DOCBOT_TOKEN", ""), env.get("GITHUB_TOKEN", "")])
    log = cast(TextIO, SafeLog(out or sys.stdout, redact))  # nothing reaches the job log unredacted
    # docbot's cache lives in the runner's temp folder (restored by actions/cache), never in the workspace a
    # pull request fills (docs/design.md#cache).
    cache_dir = Path(env["RUNNER_TEMP"]) / "docbot-cache" if env.get("RUNNER_TEMP") else None
    real = functools.partial(default_run_pr, cache_dir=cache_dir)
    return guarded(lambda: _action(env, argv, run_pr or real, log, redact),
                   lambda message: print(annotation("error", message), file=log))


def _action(env: Mapping[str, str], argv: Sequence[str] | None, run_pr: RunPr, out: TextIO,
            redact: Redactor) -> int:
    flags = _parser().parse_args(list(argv or []))
    inputs = read_inputs(env, argv)
    if flags.stage and not flags.report:
        raise ConfigError(f"`docbot-action {flags.stage}` needs --report FILE.")
    if flags.stage == "publish":
        report, options = read_run_report(Path(flags.report))
        return publish(inputs, report, _lines_to(out), redact, docstrings=options.write_docstrings,
                       docstring_style=options.docstring_style, drift=read_drift(drift_file(Path(flags.report))))
    report, settings = _run(inputs, env, run_pr, out, redact)
    drift = drift_step(inputs, settings, out) if inputs.mode == "check" else None
    options = StageOptions(write_docstrings=settings.write_docstrings, docstring_style=settings.docstring_style)
    if flags.stage == "run":
        write_run_report(Path(flags.report), report, redact, options)
        if drift is not None:
            write_drift(drift_file(Path(flags.report)), drift, redact)
        print(f"{report.summary_line()}; report in {flags.report}", file=out)
        return 0
    # One order in both modes: the report is redacted as raw text, as the run step writes it, before any
    # rendering escapes it (``_`` as ``&#95;`` would hide a token from a later redaction).
    with tempfile.TemporaryDirectory(prefix="docbot-") as folder:
        write_run_report(Path(folder) / "run.json", report, redact, options)
        report, _ = read_run_report(Path(folder) / "run.json")
    return publish(inputs, report, _lines_to(out), redact, docstrings=options.write_docstrings,
                   docstring_style=options.docstring_style, drift=drift)


def drift_step(inputs: ActionInputs, settings: Settings, out: TextIO) -> DriftReport | None:
    """Check mode's drift gate: the hand-written docs this PR made false (run step: it runs their examples).

    Everything it judges by comes from the base commit (``settings``, and the package the base names). A
    fork's PR gets the checks that run nothing (parameters, defaults, raises, names); a gate that cannot run
    (no package the base names, no history to diff, a doc docbot cannot read) fails the check, it is never
    skipped: only the base's ``drift_gate: false`` turns it off (docs/design.md#drift-gate)."""
    from docbot.verify.project.doc_files import DocsOptions
    from docbot.verify.project.drift import drift_gate
    from docbot.verify.project.report import DriftReport

    if not settings.drift_gate:
        print("docbot: the drift gate is off (drift_gate: false in the base's configuration)", file=out)
        return None
    if not settings.run_examples:  # a fork's PR, by default: nothing of it runs (docs/design.md#trust)
        print("docbot: the drift gate runs no example of this PR (run_examples is off): it checks parameters, "
              "defaults, raises and names only", file=out)
    try:
        return drift_gate(inputs.workspace, inputs.base, DocsOptions.of(settings),
                          run_examples=bool(settings.run_examples))
    except (ConfigError, RepoError) as err:
        print(annotation("error", f"docbot: the drift gate cannot judge this PR: {err}"), file=out)
        return DriftReport((), (), (), ran_examples=bool(settings.run_examples), error=str(err))


def _run(inputs: ActionInputs, env: Mapping[str, str], run_pr: RunPr, out: TextIO,
         redact: Redactor) -> tuple[RunReport, Settings]:
    """The run step: settings from the base commit, then the models and the examples."""
    settings = load_base_settings(inputs.workspace, inputs.base, str(inputs.config), inputs.config_required, env,
                                  lambda message: print(annotation("warning", message), file=out),
                                  lambda message: print(escape_data(f"docbot: {message}"), file=out))
    settings = trusted_settings(settings, is_fork=bool(inputs.head_repo) and inputs.head_repo != inputs.repo)
    print(f"::group::docbot {inputs.mode} on {escape_data(inputs.base[:12])}..{escape_data(inputs.head[:12])}",
          file=out)
    try:
        report = run_pr(settings, inputs.workspace, inputs.base, inputs.head, inputs.mode)
    except DocbotError as err:
        print("::endgroup::", file=out)
        append_file(inputs.summary_path, redact(f"## {TITLES[inputs.mode]}\n\n**docbot stopped:** {err}\n"))
        raise  # the guard prints the annotation and returns the error's exit code
    print("::endgroup::", file=out)
    return report, settings


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
    parser.add_argument("--version", action="version", version=f"docbot-action {__version__}")
    parser.add_argument("stage", nargs="?", choices=("run", "publish"), help=(
        "run: the models and examples, writing --report (give this step no token); publish: post "
        "--report with the token. Without a stage, both."))
    parser.add_argument("--report", metavar="FILE", help="the run's report, between the two stages")
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


def default_run_pr(settings: Settings, repo_root: Path, base: str, head: str, mode: Mode, *,
                   cache_dir: Path | None = None) -> RunReport:
    """The real run: ``docbot run`` on base...head, or the no-model staleness check in check mode.
    ``cache_dir``: the result cache's folder outside the workspace; None: the workspace's own."""
    from docbot.scan.repo import DiffSpec  # imported late: git and the loop are not needed to parse inputs

    spec = DiffSpec(base=base, head=head)
    if mode == "check":
        from docbot.check import check_report

        # The gate's verdict depends on no cache at all: a pull request fills the workspace.
        settings = settings.model_copy(update={"cache": False})
        # A section's status= from the PR is re-derived against the base, never read (docbot.check_kept).
        found = check_report(settings, repo_root, spec, (), emit=log_sink(sys.stdout), index=False, trusted_base=base)
        report = stale_report(found.stale, base, head, in_scope(settings, repo_root, spec))
        return with_unapproved(report, found.unapproved, _lines_to(sys.stdout))
    from docbot.run.pipeline import run_docs

    return run_docs(settings, repo_root, spec, (), log_sink(sys.stdout), cache_dir=cache_dir)


CURRENT_UNAPPROVED = "doc current, unapproved"


def with_unapproved(report: RunReport, unapproved: Sequence[UnapprovedEntry],
                    log: Callable[[str], None]) -> RunReport:
    """Check mode's current sections the gate never passed: a notice on each in the job log (on its
    ``def`` line in the PR's files), and their reason says so in the report, so the comment can tell them
    from approved ones. They do not fail the check (``docbot check --strict`` does that)."""
    from dataclasses import replace

    from docbot.github.annotate import escape_property

    by_key = {f"{u.module}.{u.qualname}": u for u in unapproved}
    for entry in unapproved:
        log(f"::notice file={escape_property(entry.path)},line={entry.lineno},"
            f"title={escape_property('docbot: unapproved section')}::{escape_data(entry.describe())}")
    # The outcome stays "unchanged" (results.py: an unchanged section's outcome is its status); the
    # reason is what tells the comment this current section was never approved.
    report.results = [replace(r, reason=CURRENT_UNAPPROVED) if r.key in by_key and r.status == "unchanged" else r
                      for r in report.results]
    return report


def in_scope(settings: Settings, repo_root: Path, spec: DiffSpec) -> list[Target]:
    """The functions ``docbot check`` judged: those in scope that still exist (so the check's comment
    counts the current ones too, not only the stale)."""
    from docbot.plan import plan_modules
    from docbot.scan.repo import scan

    found = scan(repo_root, spec, (), include_dunder=settings.include_dunder, exclude=settings.exclude,
                 outside_package=settings.scan_outside_package)
    return [t for module in plan_modules(found, settings, repo_root, spec, ()) for t in module.targets
            if t.kind != "deleted"]


def _lines_to(stream: TextIO) -> Callable[[str], None]:
    return lambda line: print(line, file=stream)


def log_sink(stream: TextIO, redact: Redactor | None = None) -> events.EventSink:
    """The run's events in the job log; warnings also become annotations on the PR. Event text comes
    from models and the repository: redacted, and no line of it can act as a workflow command."""
    from docbot.fronts.console import ConsoleSink  # rich: only when something is actually logged

    redact = redact or Redactor()
    console = ConsoleSink(cast(TextIO, SafeLog(stream, redact, untrusted=True)))

    def show(event: events.Event) -> None:
        # A warning about one function's loop (a parse retry, degenerate feedback) is a log line: it is
        # in the JSON report too, and annotations are capped, so they are kept for what needs a person.
        if isinstance(event, events.WarningEvent) and event.qualname is None:
            print(annotation("warning", redact(event.message)), file=stream)
        else:
            console(event)

    return show


if __name__ == "__main__":
    sys.exit(main())
