"""``docbot verify`` on a whole project: its README and docs pages against its package (docs/design.md#truth-checks).

The package is found from ``pyproject.toml`` (``[project].name``, or the only package under ``src/``); the docs
are the files the ``docs_globs`` setting names. Each doc is read as its reader reads it: its examples run top to
bottom in a fresh namespace holding only what the doc imports and defines (after the ``docs_setup`` snippet
for its glob, where a project declares setup its prose states); every API name it presents as existing is
resolved in the package (docbot.verify.read.references); and a heading's passage that uses exactly one of the
package's functions gets that function's parameter, default, exception and return checks. Findings are told
apart by what they mean to the reader (docbot.verify.checks.reader): only a contradiction fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from docbot.sandbox.step import Step
from docbot.verify.checks.examples import ExampleContext, Unverified
from docbot.verify.checks.genre import as_genre
from docbot.verify.checks.reader import classify, defined_names, one_per_block
from docbot.errors import ConfigError
from docbot.verify.findings import Check, DocFinding, Finding
from docbot.verify.project.api_index import ApiIndex, ApiName, Resolution
from docbot.verify.project.doc_files import DocsOptions, doc_paths, read_doc, setup_for
from docbot.verify.project.package import Package, find_package, public_api
from docbot.verify.project.report import DocReport, ProjectReport
from docbot.verify.project.runs import DocRun, DocText, name_witnesses, not_run, run_doc
from docbot.verify.project.suggest import fixes_for, patch
from docbot.verify.project.topics import claim_checks, topic_checks
from docbot.verify.read.autodoc import Documented, documented, members_by_default
from docbot.verify.read.examples import extract_steps
from docbot.verify.read.genre import Genre, read_genre
from docbot.verify.read.markdown import code_line_flags
from docbot.verify.read.references import Reference, code_references, prose_references
from docbot.verify.read.rst import is_rst_doc, rst_to_markdown

# A doc is read up to this many characters: a 9.4 MB README cost 142 s and 626 MB (issue 30); past the bound the
# rest is left unverified, said in a note and counted (the drift gate refuses a doc that reaches the change
# with claims unverified).
MAX_DOC_CHARS = 1_000_000
# A fresh namespace: the sandbox binds a module's names for its examples; `builtins` adds none a reader lacks. The
# "documented name" must be one no doc rebinds (`from rich import print` does rebind print).
_BLANK_MODULE, _BLANK_NAME = "builtins", "__build_class__"


def autodoc_members_by_default(root: Path) -> bool:
    """Whether the project's Sphinx ``conf.py`` (``docs/``, ``doc/``, or their ``source/``) documents members by
    default (docbot.verify.read.autodoc.members_by_default)."""
    for folder in ("docs", "doc", "docs/source", "doc/source"):
        conf = root / folder / "conf.py"
        if conf.is_file():
            return members_by_default(conf.read_text(encoding="utf-8", errors="replace"))
    return False


def verify_project(root: Path, package: Package, docs: Sequence[Path], options: DocsOptions | None = None,
                   run_examples: bool = True) -> ProjectReport:
    """Every doc of ``docs`` read and checked against ``package``, and the public API no doc names."""
    options = options or DocsOptions()
    index = package.index()
    reports, used = [], set()
    members = autodoc_members_by_default(root)
    for path in docs:
        relative = path.absolute().relative_to(root.absolute()).as_posix() if path.is_absolute() else path.as_posix()
        text, cut = bounded_doc(read_doc(root, path))
        report, names = verify_doc(text, relative, is_rst_doc(path.name, text), package,
                                   index, setup_for(relative, options.docs_setup),
                                   ExampleContext(_BLANK_MODULE, package.sys_path, options.timeout_s,
                                                  sandbox=options.sandbox, root=str(root)) if run_examples else None,
                                   members)
        reports.append(_with_cut(report, text, cut) if cut else report)
        used |= names
    # `Class.__init__` is documented as the class (docbot.verify.checks.source_doc.section_names)
    api = [ApiName(a.path.removesuffix(".__init__"), "class" if a.path.endswith(".__init__") else a.kind)
           for a in public_api(package, index)]
    return ProjectReport(package.name, reports, list(dict.fromkeys(
        a for a in api if index.canonical(a.path) not in used and a.path not in used)))


def bounded_doc(text: str, limit: int | None = None) -> tuple[str, int]:
    """``text`` up to the last line end within ``limit`` characters (default ``MAX_DOC_CHARS``), and how many
    characters were left out."""
    limit = MAX_DOC_CHARS if limit is None else limit
    if len(text) <= limit:
        return text, 0
    end = text.rfind("\n", 0, limit) + 1 or limit
    return text[:end], len(text) - end


def _with_cut(report: DocReport, text: str, cut: int) -> DocReport:
    from dataclasses import replace

    lines = text.count("\n")
    note = Finding(Check.EXAMPLES_NOT_RUN, f"the doc is {len(text) + cut:,} characters: docbot reads its first "
                   f"{len(text):,} (lines 1-{lines}); the rest ({cut:,} characters) is not verified",
                   code_fact=f"docs past {MAX_DOC_CHARS:,} characters are read up to the bound")
    return replace(report, findings=[*report.findings, DocFinding(note, lines + 1)],
                   unverified=[*report.unverified, Unverified(lines + 1, "the rest of the doc",
                                                              f"{cut:,} characters past the bound")])


def verify_here(root: Path, paths: Sequence[Path], options: DocsOptions, run_examples: bool = True) -> ProjectReport:
    """``docbot verify`` at ``root``: the docs given (else the ones ``options.globs`` name) against the package
    found there."""
    docs = list(paths) or doc_paths(root, options.globs)
    for path in docs:
        if not path.is_file():
            raise ConfigError(f"{path}: no such file.")
    if not docs:
        raise ConfigError(f"no docs match {', '.join(options.globs)} under {root}; pass the doc paths, or "
                          "set docs_globs")
    return verify_project(root, find_package(root), docs, options, run_examples)


def suggested_patch(root: Path, report: ProjectReport) -> str:
    """The patch that replaces each stale stated output with the real one (docbot.verify.project.suggest)."""
    parts = []
    for doc in report.docs:
        text = read_doc(root, root / doc.path)
        parts.append(patch(doc.path, text, fixes_for(doc.path, doc.findings, text, doc.blocks)))
    return "".join(parts)


def verify_doc(text: str, relative: str, is_rst: bool, package: Package, index: ApiIndex, setup: str,
               context: ExampleContext | None, autodoc_members: bool = False) -> tuple[DocReport, set[str]]:
    """One doc's findings, and the package names it uses (canonical: where each is defined); ``autodoc_members``:
    the project's Sphinx ``conf.py`` makes autodoc document members by default."""
    if is_rst:
        converted = rst_to_markdown(text)
        markdown, line_of = converted.markdown, {i: n for i, n in enumerate(converted.lines) if n}
    else:
        markdown, line_of = text, {}
    steps = extract_steps(markdown)
    api = documented(markdown, package.name, autodoc_members)
    references = _references(markdown, steps, package.name, api)
    genre = read_genre(relative, markdown, package.name)
    # each name once, where today's text first names it (history's mention of it claims nothing)
    found = [_unresolved(ref, line_of) for ref in _first_of_each(references, genre)
             if index.resolve(ref.dotted) is Resolution.MISSING]
    topics = topic_checks(markdown, references, package, index)
    found += claim_checks(text, is_rst, markdown, references, steps, package, index, topics)
    lines = markdown.splitlines()
    read = DocText(lines, defined_names(steps), line_of)
    # a changelog names what was, not what is: read as its genre before any witness is run for it
    found = as_genre(found + [r for f in topics if (r := classify(f, steps, lines, read.defined, line_of))
                              is not None], genre)
    found, unverified = _run_examples(found, steps, setup, context, read, references, package, index, genre)
    references = [r for r in references if not genre.history_at(r.line)]  # nor does it document anything
    used = {index.canonical(r.dotted) for r in references if index.resolve(r.dotted) is Resolution.FOUND}
    used |= _autodocumented(api if not genre.whole else [], index)
    blocks: dict[int, list[tuple[str, str]]] = {}
    for step in steps:
        blocks.setdefault(step.line, []).append((step.code, step.want))
    return (DocReport(relative, one_per_block(found), len(used), {k: tuple(v) for k, v in blocks.items()},
                      unverified), used | {r.dotted for r in references})


def _run_examples(found: list[DocFinding], steps: list[Step], setup: str, context: ExampleContext | None,
                  read: DocText, references: list[Reference], package: Package, index: ApiIndex,
                  genre: Genre) -> tuple[list[DocFinding], list[Unverified]]:
    """``found`` held to its witnesses plus what running the examples found, and the claims no run compared."""
    if context is None:
        return found, not_run(steps, read.line_of)
    ran = [Step(setup, "none", fatal=False, shown="docs_setup", line=0), *steps] if setup and steps else steps
    run = run_doc(ran, steps, context, read, lambda name: _own_import(name, package, index), _BLANK_NAME) \
        if steps else DocRun()
    found = name_witnesses(found, references, run, context, package.name, list(package.modules), read.lines,
                           lambda qualname: _defining(qualname, package))
    return [*found, *as_genre(run.findings, genre)], run.unverified


def _autodocumented(api: list[Documented], index: ApiIndex) -> set[str]:
    """What Sphinx directives document beyond the names they give: the public members of an ``autoclass`` or
    ``automodule`` with ``:members:``, and the object a documented attribute belongs to (``.. data::
    thread_local.name`` documents ``thread_local``)."""
    found = {m for d in api if d.members for m in index.members(d.dotted)}
    for d in api:
        parts = d.dotted.split(".")
        found |= {index.canonical(".".join(parts[:cut])) for cut in range(2, len(parts))
                  if index.resolve(".".join(parts[:cut])) is Resolution.FOUND}
    return found


def _own_import(name: str, package: Package, index: ApiIndex) -> str | None:
    """The import a reader needs for ``name`` when it is the package or one of its public names, else None.

    A submodule's name is no such name: a page's ``app``, ``document`` or ``table`` is the object an earlier
    page made (``app = Flask(__name__)``), named like ``flask.app`` or ``docx.table`` by chance (issue 28's
    after-fix run: 81 false contradictions in flask and python-docx from ``from flask import app``)."""
    if name == package.name:
        return f"import {package.name}"
    dotted = f"{package.name}.{name}"
    if not name.startswith("_") and dotted not in package.modules and index.resolve(dotted) is Resolution.FOUND:
        return f"from {package.name} import {name}"
    return None


def _defining(qualname: str, package: Package) -> str | None:
    """The one module of the package that defines the function ``qualname``, else None."""
    found = [module for module in package.modules if qualname in package.functions(module)]
    return found[0] if len(found) == 1 else None


def doc_references(text: str, is_rst: bool, package: str) -> list[Reference]:
    """The package names a doc uses, read without running it (the drift gate's "which docs mention f")."""
    markdown = rst_to_markdown(text).markdown if is_rst else text
    return _references(markdown, extract_steps(markdown), package, documented(markdown, package))


def _references(markdown: str, steps: list[Step], package: str, api: list[Documented]) -> list[Reference]:
    aliases: dict[str, str] = {package: package}
    # what a Sphinx directive documents (`.. autofunction:: to_name` under `.. module:: pkg`) is named by the page
    found = [Reference(d.dotted, d.line, "autodoc") for d in api]
    for step in steps:
        refs = code_references(step.code, step.line, package, aliases)
        # an example the doc shows failing (a traceback, prose saying it raises) does not present its names as API
        found += refs if step.expect != "raises" and step.fatal else []
    flags = code_line_flags(markdown)
    prose = [(i, line) for i, line in enumerate(markdown.splitlines()) if i < len(flags) and not flags[i]]
    return found + prose_references(prose, package, aliases)


def _first_of_each(references: list[Reference], genre: Genre) -> list[Reference]:
    seen: dict[str, Reference] = {}
    for ref in references:
        if not genre.names_what_was(ref.line, ref.dotted):
            seen.setdefault(ref.dotted, ref)
    return list(seen.values())


def _unresolved(ref: Reference, line_of: dict[int, int]) -> DocFinding:
    how = {"import": "imports", "code": "uses", "prose": "names", "autodoc": "documents"}[ref.how]
    finding = Finding(Check.UNRESOLVED_REFERENCE,
                      f"the doc {how} `{ref.dotted}`, which the package does not have", ref.dotted,
                      "no such name in the package's source", line=ref.line)
    return DocFinding(finding, line_of.get(ref.line, ref.line + 1))
