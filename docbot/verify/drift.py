"""The drift gate: which hand-written docs a code change made false (docs/design.md#drift-gate).

A change to a function can make a README example false without touching the README. So the docs to verify
after a change are the ones that *mention* a changed function, resolved as project mode resolves a passage
(docbot.verify.passages): the names a doc's examples import and the qualified names its prose uses, each
taken to where it is defined. A doc that mentions a class mentions its methods too.

Against a base revision, a contradiction is *introduced* when the base side had no contradiction of the same
check on the same stated text of the same doc; one the base had too is *pre-existing*: reported apart and
never failing, since the diff did not make it false.
"""

from __future__ import annotations

import io
import tarfile
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docbot.config.choices import DEFAULT_EXAMPLE_SANDBOX, ExampleSandbox
from docbot.errors import ConfigError
from docbot.git.runner import run_git
from docbot.verify.passages import ApiIndex, Resolution
from docbot.verify.project import (DEFAULT_DOCS_GLOBS, DocReport, ProjectReport, doc_paths, doc_references,
                                   find_package, verify_project)
from docbot.verify.project_api import Package
from docbot.verify.reader import ReaderFinding, ReaderKind
from docbot.verify.suggest import OutputFix, fixes_for, stated_line


@dataclass(frozen=True)
class DocsOptions:
    """How project mode reads and runs the docs (the settings of the same names)."""

    globs: tuple[str, ...] = DEFAULT_DOCS_GLOBS
    docs_setup: Mapping[str, str] = field(default_factory=dict)
    timeout_s: float = 10.0
    sandbox: ExampleSandbox = DEFAULT_EXAMPLE_SANDBOX
    generated_dir: str = "docs/api"  # docbot's own sections: kept true by `docbot check`, not by this gate


@dataclass(frozen=True)
class StaleLine:
    """One contradiction in a doc: where, which check, and what the doc states."""

    path: str
    line: int | None  # 1-based
    check: str
    message: str
    doc_text: str

    @classmethod
    def of(cls, path: str, found: ReaderFinding, lines: list[str]) -> StaleLine:
        """Placed on the line that states what is false (a stated output), else on the finding's block."""
        return cls(path, stated_line(found, lines), str(found.finding.kind), found.finding.message,
                   found.finding.doc_text)

    @property
    def claim(self) -> tuple[str, str, str]:
        """What a contradiction is about, whatever line it moved to and whatever the code now gives."""
        return self.path, self.check, self.doc_text.strip() or self.message

    def to_json(self) -> dict[str, object]:
        return {"path": self.path, "line": self.line, "check": self.check, "message": self.message,
                "doc_text": self.doc_text}


@dataclass(frozen=True)
class DriftReport:
    changed: tuple[str, ...]  # the changed functions, `module.qualname`
    docs: tuple[str, ...]  # the docs verified: those mentioning a changed function, and docs the diff edited
    introduced: tuple[StaleLine, ...]  # false now, not on the base side: these fail
    pre_existing: tuple[StaleLine, ...] = ()  # false on both sides: reported, never failing
    fixes: tuple[OutputFix, ...] = ()  # suggested fixes of the introduced stale outputs (docbot.verify.suggest)
    reports: tuple[DocReport, ...] = ()  # the new side's full reports (notes and gaps, for printing)

    @property
    def failed(self) -> bool:
        return bool(self.introduced)

    def to_json(self) -> dict[str, object]:
        return {"changed": list(self.changed), "docs": list(self.docs),
                "introduced": [s.to_json() for s in self.introduced],
                "pre_existing": [s.to_json() for s in self.pre_existing], "fixes": [f.to_json() for f in self.fixes]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DriftReport:
        """Back from ``to_json`` (the Action's run step writes it, its publish step reads it)."""
        def stale(items: Any) -> tuple[StaleLine, ...]:
            return tuple(StaleLine(str(i["path"]), i.get("line"), str(i["check"]), str(i["message"]),
                                   str(i.get("doc_text", ""))) for i in items or ())

        fixes = tuple(OutputFix(str(f["path"]), int(f["start"]), int(f["end"]), tuple(str(n) for n in f["new"]),
                                str(f.get("message", ""))) for f in data.get("fixes") or ())
        return cls(tuple(data.get("changed") or ()), tuple(data.get("docs") or ()), stale(data.get("introduced")),
                   stale(data.get("pre_existing")), fixes)


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
    return [path for path in docs if mentions_any(mentioned(path.read_text(encoding="utf-8-sig"),
                                                            path.suffix == ".rst", package.name, index),
                                                  changed, index)]


def project_docs(root: Path, options: DocsOptions) -> list[Path]:
    """The project's hand-written docs: the globs' files outside docbot's generated folder."""
    generated = (root / options.generated_dir).resolve()
    return [p for p in doc_paths(root, options.globs) if not p.resolve().is_relative_to(generated)]


def verify_docs(root: Path, docs: Sequence[Path], options: DocsOptions,
                package: Package | None = None) -> ProjectReport:
    return verify_project(root, package or find_package(root), [root / p.relative_to(root) for p in docs],
                          options.docs_setup, True, options.timeout_s, options.sandbox)


def contradictions(report: ProjectReport, root: Path) -> list[StaleLine]:
    found = []
    for doc in report.docs:
        lines = (root / doc.path).read_text(encoding="utf-8-sig").splitlines()
        found += [StaleLine.of(doc.path, f, lines) for f in doc.findings if f.kind is ReaderKind.CONTRADICTION]
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
                 for fix in fixes_for(doc, (root / doc.path).read_bytes().decode("utf-8", "replace"))
                 if (fix.path, fix.start) in new_lines)


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
