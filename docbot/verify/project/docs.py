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

import fnmatch
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from docbot.config.choices import DEFAULT_EXAMPLE_SANDBOX, DEFAULT_EXAMPLE_TIMEOUT_S, ExampleSandbox
from docbot.sandbox.step import Step
from docbot.verify.checks.examples import ExampleContext, check_steps
from docbot.verify.checks.reader import classify, defined_names, one_per_block
from docbot.verify.findings import Check, DocFinding, Finding
from docbot.verify.project.api_index import ApiIndex, Resolution
from docbot.errors import ConfigError
from docbot.verify.project.package import Package, find_package, public_api
from docbot.verify.project.report import DocReport, ProjectReport
from docbot.verify.project.suggest import fixes_for, patch
from docbot.verify.project.topics import topic_checks
from docbot.verify.read.examples import extract_steps
from docbot.verify.read.markdown import code_line_flags
from docbot.verify.read.references import Reference, code_references, prose_references
from docbot.verify.read.rst import rst_to_markdown

if TYPE_CHECKING:
    from docbot.config.plain import PlainSettings
    from docbot.config.settings import Settings

DEFAULT_DOCS_GLOBS = ("README.*", "docs/**/*.md", "docs/**/*.rst")
# A fresh namespace: the sandbox binds a module's names for its examples; `builtins` adds none a reader lacks. The
# "documented name" must be one no doc rebinds (`from rich import print` does rebind print).
_BLANK_MODULE, _BLANK_NAME = "builtins", "__build_class__"


@dataclass(frozen=True)
class DocsOptions:
    """How project mode reads and runs the docs (the settings of the same names)."""

    globs: tuple[str, ...] = DEFAULT_DOCS_GLOBS
    docs_setup: Mapping[str, str] = field(default_factory=dict)
    timeout_s: float = DEFAULT_EXAMPLE_TIMEOUT_S
    sandbox: ExampleSandbox = DEFAULT_EXAMPLE_SANDBOX
    generated_dir: str = "docs/api"  # docbot's own sections: kept true by `docbot check`, not by this gate

    @classmethod
    def of(cls, settings: Settings | PlainSettings) -> DocsOptions:
        return cls(tuple(settings.docs_globs), settings.docs_setup, settings.example_timeout_s,
                   settings.example_sandbox, settings.docs_dir)


def doc_paths(root: Path, globs: Sequence[str]) -> list[Path]:
    """The docs the globs name, relative to ``root``, sorted; build outputs and hidden folders are left out."""
    found = {p for pattern in globs for p in root.glob(pattern) if p.is_file() and p.suffix in (".md", ".rst", "")}
    return sorted(p for p in found if not any(part.startswith((".", "_build")) for part in p.relative_to(root).parts))


def setup_for(relative: str, docs_setup: Mapping[str, str]) -> str:
    """The ``docs_setup`` snippets whose glob matches the doc, in the setting's order."""
    return "\n".join(code for pattern, code in docs_setup.items() if fnmatch.fnmatch(relative, pattern))


def verify_project(root: Path, package: Package, docs: Sequence[Path], options: DocsOptions | None = None,
                   run_examples: bool = True) -> ProjectReport:
    """Every doc of ``docs`` read and checked against ``package``, and the public API no doc names."""
    options = options or DocsOptions()
    index = package.index()
    reports, used = [], set()
    for path in docs:
        relative = path.resolve().relative_to(root.resolve()).as_posix() if path.is_absolute() else path.as_posix()
        report, names = verify_doc(path.read_text(encoding="utf-8-sig"), relative, path.suffix == ".rst", package,
                                   index, setup_for(relative, options.docs_setup),
                                   ExampleContext(_BLANK_MODULE, package.sys_path, options.timeout_s,
                                                  sandbox=options.sandbox) if run_examples else None)
        reports.append(report)
        used |= names
    api = public_api(package, index)
    # `Class.__init__` is documented as the class (docbot.verify.checks.source_doc.section_names)
    api = [q.removesuffix(".__init__") for q in api]
    return ProjectReport(package.name, reports, list(dict.fromkeys(
        q for q in api if index.canonical(q) not in used and q not in used)))


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
        text = (root / doc.path).read_bytes().decode("utf-8", "replace")
        parts.append(patch(doc.path, text, fixes_for(doc.path, doc.findings, text)))
    return "".join(parts)


def verify_doc(text: str, relative: str, is_rst: bool, package: Package, index: ApiIndex, setup: str,
               context: ExampleContext | None) -> tuple[DocReport, set[str]]:
    """One doc's findings, and the package names it uses (canonical: where each is defined)."""
    if is_rst:
        converted = rst_to_markdown(text)
        markdown, line_of = converted.markdown, {i: n for i, n in enumerate(converted.lines) if n}
    else:
        markdown, line_of = text, {}
    steps = extract_steps(markdown)
    references = _references(markdown, steps, package.name)
    found = [_unresolved(ref, line_of) for ref in _first_of_each(references)
             if index.resolve(ref.dotted) is Resolution.MISSING]
    checks: list[Finding] = topic_checks(markdown, references, package, index)
    if context is not None and steps:
        ran = [Step(setup, "none", fatal=False, shown="docs_setup", line=0), *steps] if setup else steps
        checks += check_steps(ran, _BLANK_NAME, context)
    lines = markdown.splitlines()
    defined = defined_names(steps)
    found += [r for f in checks if (r := classify(f, steps, lines, defined, line_of)) is not None]
    used = {index.canonical(r.dotted) for r in references if index.resolve(r.dotted) is Resolution.FOUND}
    return DocReport(relative, one_per_block(found), len(used)), used | {r.dotted for r in references}


def doc_references(text: str, is_rst: bool, package: str) -> list[Reference]:
    """The package names a doc uses, read without running it (the drift gate's "which docs mention f")."""
    markdown = rst_to_markdown(text).markdown if is_rst else text
    return _references(markdown, extract_steps(markdown), package)


def _references(markdown: str, steps: list[Step], package: str) -> list[Reference]:
    aliases: dict[str, str] = {package: package}
    found: list[Reference] = []
    for step in steps:
        refs = code_references(step.code, step.line, package, aliases)
        # an example the doc shows failing (a traceback, prose saying it raises) does not present its names as API
        found += refs if step.expect != "raises" and step.fatal else []
    flags = code_line_flags(markdown)
    prose = [(i, line) for i, line in enumerate(markdown.splitlines()) if i < len(flags) and not flags[i]]
    return found + prose_references(prose, package, aliases)


def _first_of_each(references: list[Reference]) -> list[Reference]:
    seen: dict[str, Reference] = {}
    for ref in references:
        seen.setdefault(ref.dotted, ref)
    return list(seen.values())


def _unresolved(ref: Reference, line_of: dict[int, int]) -> DocFinding:
    how = {"import": "imports", "code": "uses", "prose": "names"}[ref.how]
    finding = Finding(Check.UNRESOLVED_REFERENCE,
                      f"the doc {how} `{ref.dotted}`, which the package does not have", ref.dotted,
                      "no such name in the package's source", line=ref.line)
    return DocFinding(finding, line_of.get(ref.line, ref.line + 1))
