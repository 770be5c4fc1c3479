"""The drift gate: which hand-written docs a code change made false (docs/design.md#drift-gate).

A change to a function can make a README example false without touching the README. So the docs to verify
after a change are the ones that *mention* a changed function, resolved as project mode resolves a passage
(docbot.verify.read.references): the names a doc's examples import and the qualified names its prose uses, each
taken to where it is defined. A doc that mentions a class mentions its methods too.

Against a base revision, a contradiction is *introduced* when the base side had no contradiction of the same
check on the same stated text of the same doc; one the base had too is *pre-existing*: reported apart and
never failing, since the diff did not make it false.
"""

from __future__ import annotations

import io
import tarfile
import tempfile
from collections.abc import Sequence
from pathlib import Path

from docbot.errors import ConfigError
from docbot.git.runner import run_git
from docbot.verify.findings import Severity
from docbot.verify.project.api_index import ApiIndex, Resolution
from docbot.verify.project.docs import DocsOptions, doc_paths, doc_references, verify_project
from docbot.verify.project.package import Package, find_package
from docbot.verify.project.report import DriftReport, ProjectReport, StaleLine
from docbot.verify.project.suggest import OutputFix, fixes_for
from docbot.verify.read.rst import is_rst_doc


def mentioned(text: str, is_rst: bool, package: str, index: ApiIndex) -> set[str]:
    """The package names a doc uses that the package has, each where it is defined (``pkg.core.f``)."""
    return {index.canonical(r.dotted) for r in doc_references(text, is_rst, package)
            if index.resolve(r.dotted) is Resolution.FOUND}


def mentions_any(names: set[str], changed: set[str], index: ApiIndex) -> bool:
    """Whether a doc using ``names`` mentions a changed function: by its name, or by its class's."""
    return any(key in names or any(key.startswith(f"{n}.") and _is_class(n, index) for n in names)
               for key in changed)


def _is_class(dotted: str, index: ApiIndex) -> bool:
    head, _, leaf = dotted.rpartition(".")
    scope = index.scopes.get(head)
    return scope is not None and scope.names.get(leaf) == "class"


def docs_mentioning(root: Path, docs: Sequence[Path], package: Package, changed: set[str]) -> list[Path]:
    """The docs among ``docs`` that mention one of the ``changed`` functions."""
    index = package.index()
    texts = {path: path.read_text(encoding="utf-8-sig") for path in docs}
    return [path for path, text in texts.items()
            if mentions_any(mentioned(text, is_rst_doc(path.name, text), package.name, index), changed, index)]


def project_docs(root: Path, options: DocsOptions) -> list[Path]:
    """The project's hand-written docs: the globs' files outside docbot's generated folder."""
    generated = (root / options.generated_dir).resolve()
    return [p for p in doc_paths(root, options.globs) if not p.resolve().is_relative_to(generated)]


def verify_docs(root: Path, docs: Sequence[Path], options: DocsOptions,
                package: Package | None = None) -> ProjectReport:
    return verify_project(root, package or find_package(root), [root / p.relative_to(root) for p in docs], options)


def contradictions(report: ProjectReport, root: Path) -> list[StaleLine]:
    found = []
    for doc in report.docs:
        lines = (root / doc.path).read_text(encoding="utf-8-sig").splitlines()
        found += [StaleLine.of(doc.path, f, lines) for f in doc.findings if f.severity is Severity.CONTRADICTION]
    return found


def split_by_base(now: Sequence[StaleLine], before: Sequence[StaleLine]) -> tuple[list[StaleLine], list[StaleLine]]:
    """(introduced, pre-existing): a contradiction is pre-existing when the base side states the same claim
    falsely too (the same doc, check and stated text; its line may have moved)."""
    old = {s.claim for s in before}
    return [s for s in now if s.claim not in old], [s for s in now if s.claim in old]


def drift_since(root: Path, base: str, changed: Sequence[str], edited_docs: set[str],
                options: DocsOptions) -> DriftReport:
    """The docs the change from ``base`` made false, judged on the working tree (in CI: the PR's head).

    ``changed``: the changed functions (docbot.scan answers which); ``edited_docs``: repo-relative paths of
    docs the diff edited, verified whatever they mention."""
    docs = project_docs(root, options)
    if not docs:
        return DriftReport(tuple(changed), (), ())
    package = find_package(root)
    keys = set(changed)
    chosen = [p for p in docs if p.relative_to(root).as_posix() in edited_docs]
    chosen += [p for p in docs_mentioning(root, docs, package, keys) if p not in chosen]
    chosen.sort()
    if not chosen:
        return DriftReport(tuple(changed), (), ())
    now = verify_docs(root, chosen, options, package)
    relative = [p.relative_to(root) for p in chosen]
    with tempfile.TemporaryDirectory(prefix="docbot-base-") as folder:
        old_root = checkout(root, base, Path(folder))
        on_base = [old_root / r for r in relative if (old_root / r).is_file()]
        try:
            before = contradictions(verify_docs(old_root, on_base, options), old_root) if on_base else []
        except ConfigError:  # no package on the base side yet: everything false now is new
            before = []
    introduced, pre_existing = split_by_base(contradictions(now, root), before)
    return DriftReport(tuple(changed), tuple(r.as_posix() for r in relative), tuple(introduced),
                       tuple(pre_existing), _fixes(root, now, introduced), tuple(now.docs))


def _fixes(root: Path, now: ProjectReport, introduced: Sequence[StaleLine]) -> tuple[OutputFix, ...]:
    """The suggested fixes of the outputs this diff made stale (not of those the base had stale too)."""
    new_lines = {(s.path, s.line) for s in introduced}
    return tuple(fix for doc in now.docs
                 for fix in fixes_for(doc.path, doc.findings, (root / doc.path).read_bytes().decode("utf-8", "replace"))
                 if (fix.path, fix.start) in new_lines)


def drift_gate(root: Path, base: str, options: DocsOptions) -> DriftReport:
    """``docbot check --base``'s drift gate: what ``base...HEAD`` made false in the hand-written docs."""
    changed, edited, fork = changes(root, base)
    return drift_since(root, fork, changed, edited, options)


def changes(root: Path, base: str) -> tuple[list[str], set[str], str]:
    """What HEAD changed since it forked from ``base`` (``base...HEAD``, as a PR shows it): the public
    functions (``module.qualname``, deleted ones included), the paths of every edited file, and the fork point."""
    from docbot.git.repo import open_repo, resolve_commit
    from docbot.scan.repo import DiffSpec, scan

    # resolved first: an unknown REV (or "-x", which git would read as an option) is a clear RepoError
    fork = run_git(root, "merge-base", resolve_commit(open_repo(root), base), "HEAD").decode().strip()
    found = scan(root, DiffSpec(base=fork))
    edited = run_git(root, "diff", "--name-only", "--no-renames", "-z", fork, "HEAD", "--").decode("utf-8", "replace")
    return [t.key for t in found.targets], {p for p in edited.split("\0") if p}, fork


def checkout(root: Path, rev: str, into: Path) -> Path:
    """The tree of ``rev`` written under ``into`` (``git archive``: no worktree to register or clean up)."""
    data = run_git(root, "archive", "--format=tar", rev)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into
