"""One diff, read from git once and shared by the questions a front asks of it.

The hook asks three things of the same staged diff: which paths it names, whether it touches anything
public (the screen, before the settings are loaded), and which targets it has (the check or the run).
Each used to ask git again: HEAD three times, the diff three times, the blobs twice, 11 git processes
where 6 do, and on a one-function commit those processes were most of what docbot paid above the parse
floor (docs/design.md#speed). A ``DiffRead`` holds git's answers for one ``DiffSpec``; nothing in it is
a setting, so the screen's reading (dunders included) serves the settings' narrower one too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from docbot.errors import RepoError
from docbot.git.blobs import BlobReader
from docbot.git.diff import DIFF_FLAGS, DiffShapeError, FileChange, parse_git_diff
from docbot.git.repo import DiffPlan, DiffSpec, diff_plan, open_repo
from docbot.git.runner import Git, open_git_at_head, run_git


@dataclass
class DiffRead:
    """git's answers for ``spec``: the plan (both sides' revisions), the diff's file changes, and the
    blobs read so far (by ``REV:path``), so a second reading of the same diff starts no git process."""

    repo: Git
    spec: DiffSpec
    plan: DiffPlan
    changes: list[FileChange]
    blobs: dict[str, bytes] = field(default_factory=dict)
    edited_paths: tuple[str, ...] | None = None  # every path the diff names, once asked (``edited``)

    def blob(self, reader: BlobReader, name: str) -> bytes:
        """``reader.read(name)``, once per name."""
        if name not in self.blobs:
            self.blobs[name] = reader.read(name)
        return self.blobs[name]

    def edited(self, root: Path) -> tuple[str, ...]:
        """Every path the diff names, Python or not, as ``--name-only --no-renames`` lists them (relative to
        the top): the drift gate's edited docs and ``check``'s edited pages, from one git process."""
        if self.edited_paths is None:
            self.edited_paths = edited_paths(root, self.plan)
        return self.edited_paths

    def paths(self) -> tuple[set[str], set[str]]:
        """The ``*.py`` paths the diff changed: those still there, and those gone (a rename counts as
        both, so its old path is among the gone), as ``--name-status --no-renames`` lists them."""
        present: set[str] = set()
        gone: set[str] = set()
        for change in self.changes:
            if change.new_path is not None:
                present.add(change.new_path)
            if change.old_path is not None and change.old_path != change.new_path:
                gone.add(change.old_path)
        return present, gone


def edited_paths(root: Path, plan: DiffPlan, *under: str) -> tuple[str, ...]:
    """The paths ``plan``'s diff names (``under``: those git's pathspecs name), any kind of file."""
    listed = run_git(root, "diff", "--name-only", "--no-renames", "-z", *plan.diff_args, "--", *under)
    return tuple(p for p in listed.decode("utf-8", "replace").split("\0") if p)


def read_diff(repo_root: Path, spec: DiffSpec) -> DiffRead:
    """The diff ``spec`` names (not a whole-tree spec), restricted to ``*.py`` files: one ``rev-parse``
    (the checkout's top and HEAD together) and one ``diff``. RepoError when git cannot name the revisions or
    prints a diff docbot cannot read."""
    if spec.base is None:  # the index or the worktree against HEAD: the top and HEAD from one process
        repo, head = open_git_at_head(repo_root)
        plan = diff_plan(repo, spec, lambda: head)
    else:  # base...head names its own revisions
        repo = open_repo(repo_root)
        plan = diff_plan(repo, spec)
    try:
        changes = parse_git_diff(repo.run("diff", *plan.diff_args, *DIFF_FLAGS, "--", "*.py"))
    except DiffShapeError as err:
        raise RepoError(f"cannot read git's diff ({err}); please report this with `git --version`.") from None
    return DiffRead(repo, spec, plan, changes)
