"""The few exceptions docbot raises to its fronts, each with an exit code and a next step.

Fronts catch ``DocbotError`` and print ``str(err)``; the message always says what to do next.
Exit codes: 1 = findings (stale docs, a failed function, fatal issues; unapproved sections for
``check --strict``), 2 = usage/config, 3 = model server, 4 = git/repo, 5 = GitHub API,
6 = ``docbot run`` wrote every section but at least one is unapproved (no function failed: 1 wins);
130 = interrupted (docs/design.md#exit-codes).
"""

from __future__ import annotations

FINDINGS = 1  # the exit code for findings: stale docs, a failed function, contradictions
UNAPPROVED = 6  # docbot run: nothing failed, but a section was written without the gate's approval


class DocbotError(Exception):
    """Base class: carries the process exit code a front should return."""

    exit_code = 1


class ConfigError(DocbotError):
    """Bad configuration, bad flags or a missing input file (nothing was sent to a model)."""

    exit_code = 2


class ModelServerError(DocbotError):
    """The model server is unreachable, a model is missing or was unloaded, or a call kept failing."""

    exit_code = 3


class ReplayMissError(ModelServerError):
    """A replayed run asked something the recording has no answer for."""


class RepoError(DocbotError):
    """Not a git repository, an unknown revision, or a git command failed."""

    exit_code = 4


class GitHubError(DocbotError):
    """The GitHub REST API refused or failed a request."""

    exit_code = 5
