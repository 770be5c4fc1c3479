"""Every exit code docbot returns, the rule that combines outcomes into one, and the exceptions
docbot raises to its fronts, each with its exit code and a next step.

Fronts catch ``DocbotError`` and print ``str(err)``; the message always says what to do next. Each
report type (a run, a check, the hook's, the Action's, a merge) computes its own code through
``outcome_code``; fronts only return it (docs/design.md#exit-codes).
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """What each exit code means; the text ``--help`` shows is ``EXIT_CODE_MEANINGS``."""

    OK = 0  # done; nothing to report
    FINDINGS = 1  # stale or missing docs, a failed function, contradictions (unapproved with check --strict)
    USAGE = 2  # usage or configuration: nothing was sent to a model
    MODEL_SERVER = 3  # unreachable, a model missing, a call that kept failing
    GIT = 4  # git or repository
    GITHUB = 5  # the GitHub REST API
    UNAPPROVED = 6  # run/merge: no function failed, but a section was written unapproved
    INTERRUPTED = 130  # what a shell reports for a process stopped by Ctrl-C (128 + SIGINT)


EXIT_CODE_MEANINGS: dict[ExitCode, str] = {
    ExitCode.OK: "done; nothing to report",
    ExitCode.FINDINGS: "findings: stale or missing docs (check; unapproved ones with --strict), a failed "
                       "function (run),\n       contradictions (verify)",
    ExitCode.USAGE: "usage or configuration: nothing was sent to a model",
    ExitCode.MODEL_SERVER: "model server: unreachable, a model missing, a call that kept failing",
    ExitCode.GIT: "git or repository",
    ExitCode.GITHUB: "GitHub API",
    ExitCode.UNAPPROVED: "run: no function failed, but a section was written unapproved",
    ExitCode.INTERRUPTED: "interrupted (Ctrl-C)",
}

# The names older code imports.
FINDINGS = ExitCode.FINDINGS
UNAPPROVED = ExitCode.UNAPPROVED


def outcome_code(*, failed: bool = False, findings: bool = False, unapproved: bool = False) -> ExitCode:
    """The one rule: a failure or a finding (1) outranks an unapproved section (6), which outranks
    success (0). A failure outranks unapproved because a failed function kept its old doc: that is
    the thing a script must not miss; an unapproved one was written and is listed."""
    if failed or findings:
        return ExitCode.FINDINGS
    return ExitCode.UNAPPROVED if unapproved else ExitCode.OK


class DocbotError(Exception):
    """Base class: carries the process exit code a front should return."""

    exit_code: int = ExitCode.FINDINGS


class ConfigError(DocbotError):
    """Bad configuration, bad flags or a missing input file (nothing was sent to a model)."""

    exit_code = ExitCode.USAGE


class ModelServerError(DocbotError):
    """The model server is unreachable, a model is missing or was unloaded, or a call kept failing."""

    exit_code = ExitCode.MODEL_SERVER


class ReplayMissError(ModelServerError):
    """A replayed run asked something the recording has no answer for."""


class PromptTooLarge(DocbotError):
    """One function's prompt does not fit its role's context even reduced (docs/design.md#fit): that function
    fails, naming the setting to raise; the others go on."""


class RepoError(DocbotError):
    """Not a git repository, an unknown revision, or a git command failed."""

    exit_code = ExitCode.GIT


class GitHubError(DocbotError):
    """The GitHub REST API refused or failed a request."""

    exit_code = ExitCode.GITHUB
