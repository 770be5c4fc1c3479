"""``docbot verify`` on a whole project: its README and docs pages against its package (docs/design.md#truth-checks).

The package is found from ``pyproject.toml`` (``[project].name``, or the only package under ``src/``); the docs
are the files the ``docs_globs`` setting names. Each doc is read as its reader reads it: its examples run top to
bottom in a fresh namespace holding only what the doc imports and defines (after the ``docs_setup`` snippet
for its glob, where a project declares setup its prose states); every API name it presents as existing is
resolved in the package (docbot.verify.passages); and a heading's passage that uses exactly one of the
package's functions gets that function's parameter, default, exception and return checks. Findings are told
apart by what they mean to the reader (docbot.verify.reader): only a contradiction fails.
"""

from __future__ import annotations

import fnmatch
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from docbot.config.choices import ExampleSandbox
from docbot.errors import ConfigError
from docbot.sandbox.step import Step
from docbot.verify.example_check import check_steps
from docbot.verify.examples import extract_steps
from docbot.verify.findings import ExampleContext, Finding, FindingName
from docbot.verify.passages import ApiIndex, Reference, Resolution, code_references, prose_references
from docbot.verify.project_api import Package, public_api, topic_checks
from docbot.verify.reader import ReaderFinding, ReaderKind, classify, defined_names, one_per_block
from docbot.verify.rst import rst_to_markdown

DEFAULT_DOCS_GLOBS = ("README.*", "docs/**/*.md", "docs/**/*.rst")
# A fresh namespace: the sandbox binds a module's names for its examples; `builtins` adds none a reader lacks. The
# "documented name" must be one no doc rebinds (`from rich import print` does rebind print).
_BLANK_MODULE, _BLANK_NAME = "builtins", "__build_class__"


@dataclass(frozen=True)
class DocReport:
    path: str
    findings: list[ReaderFinding] = field(default_factory=list)
    references: int = 0  # API names the doc uses that the package has

    def of(self, kind: ReaderKind) -> list[ReaderFinding]:
        return [f for f in self.findings if f.kind is kind]


@dataclass(frozen=True)
class ProjectReport:
    package: str
    docs: list[DocReport]
    undocumented: list[str]  # public functions no doc names (coverage: a report, not a failure)

    def count(self, kind: ReaderKind) -> int:
        return sum(len(d.of(kind)) for d in self.docs)


def find_package(root: Path) -> Package:
    """The package the docs describe: the project's name (pyproject.toml, else an sdist's PKG-INFO) at the root or
    under ``src/``; else the one package there (``beautifulsoup4`` ships ``bs4``)."""
    name = _project_name(root)
    for base in (root / "src", root):
        named = [base / name] if name and (base / name / "__init__.py").is_file() else []
        single = [base / f"{name}.py"] if name and (base / f"{name}.py").is_file() else []
        if named or single:
            return Package.at((named or single)[0], base)
    namespaced = _namespaced(root, name)
    if namespaced is not None:
        return namespaced
    for base in (root / "src", root):
        found = [p.parent for p in sorted(base.glob("*/__init__.py")) if p.parent.name not in _NOT_THE_PACKAGE]
        if len(found) == 1:
            return Package.at(found[0], base)
    raise ConfigError(f"{root}: no package found (pyproject.toml's [project].name, or one package under src/); "
                      "run docbot verify from the project root, or pass SOURCE DOC")


def _namespaced(root: Path, name: str) -> Package | None:
    """``google-cloud-dlp`` ships ``google/cloud/dlp/``: a package inside namespace folders (no ``__init__.py``
    above it), named by the distribution's words; the docs import it by its dotted name."""
    parts = [p for p in name.split("_") if p]
    for base in (root / "src", root):
        if len(parts) < 2 or (base / parts[0] / "__init__.py").is_file():
            continue  # one word, or a regular package on top: the folders above are no namespace
        folder = base.joinpath(*parts)
        if (folder / "__init__.py").is_file():
            return Package(".".join(parts), folder, base)
    return None


_NOT_THE_PACKAGE = {"tests", "test", "docs", "doc", "examples", "example", "benchmarks", "scripts", "tools"}


def _project_name(root: Path) -> str:
    try:
        name = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8")).get("project", {}).get("name")
    except (OSError, tomllib.TOMLDecodeError):
        name = None
    if not name:
        try:  # a built sdist says its name in PKG-INFO, whatever its build tool
            info = (root / "PKG-INFO").read_text(encoding="utf-8", errors="replace")
            name = next((line.split(":", 1)[1].strip() for line in info.splitlines() if line.startswith("Name:")), "")
        except OSError:
            name = ""
    return str(name).replace("-", "_").replace(".", "_").lower()


def doc_paths(root: Path, globs: Sequence[str]) -> list[Path]:
    """The docs the globs name, relative to ``root``, sorted; build outputs and hidden folders are left out."""
    found = {p for pattern in globs for p in root.glob(pattern) if p.is_file() and p.suffix in (".md", ".rst", "")}
    return sorted(p for p in found if not any(part.startswith((".", "_build")) for part in p.relative_to(root).parts))


def setup_for(relative: str, docs_setup: Mapping[str, str]) -> str:
    """The ``docs_setup`` snippets whose glob matches the doc, in the setting's order."""
    return "\n".join(code for pattern, code in docs_setup.items() if fnmatch.fnmatch(relative, pattern))


def verify_project(root: Path, package: Package, docs: Sequence[Path], docs_setup: Mapping[str, str] | None = None,
                   run_examples: bool = True, timeout_s: float = 10.0,
                   sandbox: ExampleSandbox = "os") -> ProjectReport:
    index = package.index()
    reports, used = [], set()
    for path in docs:
        relative = path.resolve().relative_to(root.resolve()).as_posix() if path.is_absolute() else path.as_posix()
        report, names = verify_doc(path.read_text(encoding="utf-8-sig"), relative, path.suffix == ".rst", package,
                                   index, setup_for(relative, docs_setup or {}),
                                   ExampleContext(_BLANK_MODULE, package.sys_path, timeout_s, sandbox=sandbox)
                                   if run_examples else None)
        reports.append(report)
        used |= names
    api = public_api(package, index)
    # `Class.__init__` is documented as the class (docbot.verify.source_doc.section_names)
    api = [q.removesuffix(".__init__") for q in api]
    return ProjectReport(package.name, reports, list(dict.fromkeys(
        q for q in api if index.canonical(q) not in used and q not in used)))


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
    from docbot.verify.markdown import code_line_flags

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


def _unresolved(ref: Reference, line_of: dict[int, int]) -> ReaderFinding:
    how = {"import": "imports", "code": "uses", "prose": "names"}[ref.how]
    finding = Finding(FindingName.UNRESOLVED_REFERENCE,
                      f"the doc {how} `{ref.dotted}`, which the package does not have", ref.dotted,
                      "no such name in the package's source", line=ref.line)
    return ReaderFinding(ReaderKind.CONTRADICTION, finding, line_of.get(ref.line, ref.line + 1))
