"""The drift gate: which hand-written docs a code change made false (docs/design.md#drift-gate).

A change to a function can make a README example false without touching the README, and so can a change to
the private helper it calls or the constant that is its default. So the docs to verify after a change are
the ones whose names can *reach* a changed definition (docbot.verify.project.reach), found from a cheap scan
of each doc (docbot.verify.project.mentions, no docutils), plus every doc the diff edited; only those are
read and run in full.

Against a base revision a contradiction is *introduced* unless the base side has a finding (of any kind: a
note, an elided setup, a contradiction) on the same example with the same stated text in the same doc: one
the base had too is *pre-existing*, reported apart and never failing, since the diff did not make it false.
A doc reaching the change whose run left claims unverified (a block that timed out or ended the session)
fails the gate too: the gate cannot say the change left it true. The pre-commit hook (base ``HEAD``, the
staged diff), ``docbot check --base`` and the Action all judge through ``judge``.
"""

from __future__ import annotations

import ast
import tempfile
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from docbot.errors import ConfigError
from docbot.git.blobs import BlobReader
from docbot.verify.findings import Severity
from docbot.verify.project.doc_files import DocsOptions, doc_paths, read_doc
from docbot.verify.project.mentions import MentionCache, PackageNames
from docbot.verify.project.package import Package
from docbot.verify.project.api_index import parsed
from docbot.verify.project.content_cache import ContentCache, repo_cache_folder
from docbot.verify.project.package_read import VERSION as PACKAGE_VERSION, HandedOn, read_package
from docbot.verify.project.reach import Reach
from docbot.verify.project.report import DocReport, DriftReport, ProjectReport, StaleLine
from docbot.verify.project.sides import Change, changed_in, checkout, package_at
from docbot.verify.project.suggest import OutputFix, fixes_for
from docbot.verify.read.rst import is_rst_doc

if TYPE_CHECKING:
    from docbot.scan.diff_read import DiffRead


def project_docs(root: Path, options: DocsOptions) -> list[Path]:
    """The project's hand-written docs: the globs' files outside docbot's generated folder."""
    generated = (root / options.generated_dir).absolute()
    return [p for p in doc_paths(root, options.globs) if not p.absolute().is_relative_to(generated)]


def reaching(root: Path, docs: Sequence[Path], texts: Mapping[Path, str], package: Package, changed: Collection[str],
             cache: bool = False, parse: Callable[[str], ast.Module | None] = parsed) -> list[Path]:
    """The docs among ``docs`` whose names can reach one of the ``changed`` definitions; ``cache``: each doc's
    mentions and each module's reading kept in the repository's cache folder, by their text; ``parse``: as
    ``read_package``'s."""
    if not changed:
        return []
    folder = repo_cache_folder(root) if cache else None
    mentions = MentionCache(folder / "mentions.json" if folder else None)
    modules = ContentCache(folder / "package.json" if folder else None, PACKAGE_VERSION)
    index, defs = read_package(package, modules, parse)
    modules.save()
    names = PackageNames(package.name, index)
    graph = Reach({m: f.name == "__init__.py" for m, f in package.modules.items()}, package.source, defs)
    uses = {p.as_posix(): names.uses(mentions.mentions(texts[p], is_rst_doc(p.name, texts[p]))) for p in docs}
    mentions.save()
    reached = graph.reaching(uses, set(changed))
    return [p for p in docs if p.as_posix() in reached]


def judge(root: Path, diff: DiffRead, options: DocsOptions, *, run_examples: bool = True, cache: bool = False,
          edited_docs: Collection[str] | None = None) -> DriftReport:
    """What ``diff`` made false in the hand-written docs, judged on the checkout at ``root`` against the
    diff's old side. ``edited_docs``: the repo-relative docs to verify whatever they reach (default: the
    docs the diff edited); ``run_examples`` False runs nothing of the docs (a fork's PR): only the checks
    that read the code."""
    docs = project_docs(root, options)
    if not docs:
        return DriftReport((), (), (), ran_examples=run_examples)
    trees = HandedOn()  # a changed module's new side is parsed once, for what changed and the package's reading
    with BlobReader(diff.repo.top) as reader:  # one git process for the base's project files and both sides
        package = package_at(root, diff.plan.old_rev, reader)
        change = changed_in(root, package, diff, reader, trees.keep)
    wanted = set(change.edited if edited_docs is None else edited_docs)
    chosen = [p for p in docs if p.relative_to(root).as_posix() in wanted]
    if not change.names and not chosen:
        return DriftReport((), (), (), ran_examples=run_examples)
    texts = {p: read_doc(root, p) for p in docs}
    reached = reaching(root, docs, texts, package, change.names, cache, trees.take)
    chosen = sorted({*chosen, *reached})
    if not chosen:
        return DriftReport(tuple(sorted(change.names)), (), (), ran_examples=run_examples)
    # imported here: the verifier (the example checks, markdown-it, the sandbox) is most of the gate's imports,
    # and most commits reach no doc (issue 32)
    from docbot.verify.project.docs import verify_project

    now = verify_project(root, package, chosen, options, run_examples)
    return _verdict(root, change, package, now, {p.relative_to(root).as_posix() for p in reached}, options,
                    run_examples)


def _verdict(root: Path, change: Change, package: Package, now: ProjectReport, reached: set[str],
             options: DocsOptions, run_examples: bool) -> DriftReport:
    texts = {d.path: read_doc(root, root / d.path) for d in now.docs}
    found = contradictions(now, texts)
    before = base_claims(root, change.base, package, [d.path for d in now.docs], options, run_examples) \
        if found and change.base else set()
    introduced, pre_existing = split_by_base(found, before)
    unverified = tuple((d.path, len(d.unverified)) for d in now.docs if d.unverified and d.path in reached)
    return DriftReport(tuple(sorted(change.names)), tuple(d.path for d in now.docs), tuple(introduced),
                       tuple(pre_existing), _fixes(now, texts, introduced), tuple(now.docs), unverified=unverified,
                       ran_examples=run_examples)


def contradictions(report: ProjectReport, texts: Mapping[str, str]) -> list[StaleLine]:
    """Each contradiction of ``report``, placed on the line stating what is false (``texts``: each doc's text)."""
    found = []
    for doc in report.docs:
        lines = texts[doc.path].split("\n")  # git's lines: a form feed or U+2028 does not end one
        found += [StaleLine.of(doc.path, f, lines, doc.block(f), doc.blocks) for f in doc.findings
                  if f.severity is Severity.CONTRADICTION]
    return found


def base_claims(root: Path, base: str | None, package: Package, relative: Sequence[str], options: DocsOptions,
                run_examples: bool) -> set[tuple[str, str, str]]:
    """What the base side of each doc already did not vouch for: every finding, of whatever kind, as
    (doc, example, stated text); empty when the base has no commit or no package at that place yet."""
    if base is None:
        return set()
    with tempfile.TemporaryDirectory(prefix="docbot-base-") as folder:
        old_root = checkout(root, base, Path(folder))
        old = Package(package.name, old_root / package.path.relative_to(root),
                      old_root / package.base.relative_to(root))
        on_base = [old_root / r for r in relative if (old_root / r).is_file() and not (old_root / r).is_symlink()]
        if not on_base or not (old.path.is_file() or (old.path / "__init__.py").is_file()):
            return set()
        from docbot.verify.project.docs import verify_project

        try:
            report = verify_project(old_root, old, on_base, options, run_examples)
        except ConfigError:  # a base doc docbot cannot read (not UTF-8): nothing on it vouches for the claim
            return set()
    return {claim for doc in report.docs for claim in unvouched(doc)}


def unvouched(doc: DocReport) -> set[tuple[str, str, str]]:
    """The claims of ``doc`` its run did not show true: each finding's, and each example that reads a name a
    step with a finding was to bind (its run had nothing to show: issue 30's ``setup_elided`` at the base,
    contradiction at head)."""
    from docbot.verify.checks.environment import bound_names, loaded_names

    claims = {StaleLine.of(doc.path, f, [], doc.block(f)).claim for f in doc.findings}
    unbound = {name for f in doc.findings if (step := doc.block(f)) for name in bound_names(step)}
    if unbound:
        claims |= {StaleLine(doc.path, None, "", "", want, code).claim for steps in doc.blocks.values()
                   for code, want in steps if loaded_names(code) & unbound}
    return claims


def split_by_base(now: Sequence[StaleLine], before: Collection[tuple[str, str, str]]
                  ) -> tuple[list[StaleLine], list[StaleLine]]:
    """(introduced, pre-existing): a contradiction is pre-existing when the base side has a finding on the
    same example stating the same text in the same doc (its line may have moved, its kind differ)."""
    return [s for s in now if s.claim not in before], [s for s in now if s.claim in before]


def _fixes(now: ProjectReport, texts: Mapping[str, str], introduced: Sequence[StaleLine]) -> tuple[OutputFix, ...]:
    """The suggested fixes of the outputs this diff made stale (not of those the base had stale too)."""
    new_lines = {(s.path, s.line) for s in introduced}
    return tuple(fix for doc in now.docs for fix in fixes_for(doc.path, doc.findings, texts[doc.path], doc.blocks)
                 if (fix.path, fix.start) in new_lines)


def drift_gate(root: Path, base: str, options: DocsOptions, *, run_examples: bool = True,
               cache: bool = False, diff: DiffRead | None = None) -> DriftReport:
    """``docbot check --base``'s drift gate: what ``base...HEAD`` made false in the hand-written docs;
    ``diff``: that diff as the caller read it already (``check`` reads it once for both gates)."""
    if diff is None:
        from docbot.git.repo import DiffSpec, open_repo, resolve_commit
        from docbot.scan.diff_read import read_diff

        # resolved first: an unknown REV (or "-x", which git would read as an option) is a clear RepoError
        diff = read_diff(root, DiffSpec(base=resolve_commit(open_repo(root), base)))
    return judge(root, diff, options, run_examples=run_examples, cache=cache)
