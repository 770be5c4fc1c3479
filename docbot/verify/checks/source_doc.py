"""``docbot verify``'s core: check every public function of a source file against a doc.

Works on any Markdown doc: each function's section is found by docbot's marker or by its heading. The source's public
functions are found with the same rules ``docbot run`` uses (docbot.scan.targets); it needs only two texts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from docbot.scan import targets
from docbot.errors import ConfigError
from docbot.config.choices import DEFAULT_EXAMPLE_SANDBOX, DEFAULT_EXAMPLE_TIMEOUT_S, ExampleSandbox
from docbot.scan.targets import SourceParseError
from docbot.verify.checks.page import check_doc
from docbot.verify.checks.kwargs_reach import carried_keywords
from docbot.verify.checks.examples import check_steps
from docbot.verify.read.examples import extract_steps
from docbot.verify.checks.examples import ExampleContext
from docbot.verify.findings import Finding, Severity
from docbot.verify.read.pydoc_text import PydocEntry, pydoc_entries
from docbot.verify.read.md_tokens import section_text
from docbot.verify.checks.text_rules import Author
from docbot.verify.read.sections import locate_section, marked_sections
from docbot.verify.checks.claim_subjects import SourceFunctions
from docbot.verify.checks.claims import findings_by_subject, merged
from docbot.verify.read.claim_units import markdown_lines, markdown_units, rst_units
from docbot.verify.read.claims import read_claims
from docbot.verify.read.rst import rst_to_markdown


DOC_EXAMPLES = "(doc examples)"  # findings of examples outside every function's section


@dataclass(frozen=True)
class FunctionFindings:
    qualname: str
    findings: list[Finding] = field(default_factory=list)
    section_found: bool = True

    @property
    def fatal(self) -> list[Finding]:
        return [f for f in self.findings if f.fatal]

    @property
    def gaps(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.GAP]

    def to_json(self) -> dict[str, object]:
        return {"qualname": self.qualname, "section_found": self.section_found,
                "findings": [f.to_json() for f in self.findings]}


def public_functions(source_text: str) -> dict[str, str]:
    """qualname -> the function's own text (decorators included, dedented), in source order.

    The same public rules as ``docbot run`` (``__all__``, private names and classes, ``__init__``,
    overloads and property setters grouped), so verify checks exactly what run documents.
    """
    try:
        return {t.qualname: t.source for t in targets.public_functions(source_text, "source", "the source")}
    except SourceParseError as error:
        raise ConfigError(f"{error}; fix the syntax and run docbot verify again") from error


def section_names(qualname: str) -> list[str]:
    """Headings that may document ``qualname``: ``Class.__init__`` is often documented as ``Class``."""
    if qualname.endswith(".__init__"):
        return [qualname, qualname.rsplit(".", 1)[0]]
    return [qualname]


def select(functions: dict[str, str], name: str) -> str:
    """The qualname ``--function NAME`` means: exact, or a unique method/function name."""
    if name in functions:
        return name
    matches = [q for q in functions if q.rsplit(".", 1)[-1] == name]
    if len(matches) == 1:
        return matches[0]
    choices = ", ".join(functions) or "none"
    if matches:
        raise ConfigError(f"--function {name} is ambiguous ({', '.join(matches)}); pass Class.method")
    raise ConfigError(f"no public function {name} in the source; public functions: {choices}")


def verify_source_doc(source_text: str, doc_text: str, module: str, sys_path: tuple[str, ...],
                      function: str | Sequence[str] | None = None, run_examples: bool = True,
                      timeout_s: float = DEFAULT_EXAMPLE_TIMEOUT_S, sandbox: ExampleSandbox = DEFAULT_EXAMPLE_SANDBOX,
                      prompts: Sequence[re.Pattern[str]] | None = None, rst: bool = False,
                      package: Mapping[str, str] | None = None) -> list[FunctionFindings]:
    """Findings for each public function of the source (or the ones named), in source order.

    A function with no section is reported with ``section_found=False``. The doc's examples run as
    one session, the way its reader runs them top to bottom; each example's findings go to the
    section it stands in, and those outside every section (a usage guide's) to ``DOC_EXAMPLES``, named
    functions or not. With functions named, examples in another function's section are not reported. Every
    statement of the whole doc is read for its claims (docbot.verify.read.claims), each reported with the function
    it is about, in its section or not. ``rst``: the doc is reStructuredText (read with docutils). ``package``: the
    other modules of the source's package (dotted name -> source), where the claims find what the source only
    imports (``pkg/__init__.py``) and follow the code beyond the file (the exception reach, imported constants).
    """
    original = doc_text
    converted = rst_to_markdown(doc_text) if rst else None
    doc_text = converted.markdown if converted else doc_text
    functions = public_functions(source_text)
    named = [function] if isinstance(function, str) else list(function or [])
    wanted = [select(functions, n) for n in named] or list(functions)
    others = frozenset(functions) | {q.split(".")[0] for q in functions}
    sections = find_sections(doc_text, list(functions), others)
    spans = {q: span for q, (span, _text) in sections.items()}
    ours = marked_sections(doc_text)  # docbot's own sections: a model wrote them, so its text rules apply
    report = {q: FunctionFindings(q, check_doc(sections[q][1], functions[q], q,
                                            carried=carried_keywords(source_text, functions[q]),
                                            module_source=source_text, sys_path=sys_path, prompts=prompts,
                                            author=Author.MODEL if q in ours else Author.PERSON,
                                            claims=False, module=module)
                                  if q in sections else [], q in sections) for q in wanted}
    resolver = SourceFunctions(module, source_text, functions, sys_path, package)
    units = rst_units(original) if rst else markdown_units(doc_text)
    markdown_line = markdown_lines(original) if converted else {}
    claims = read_claims(units, resolver, lambda line: _owner(markdown_line.get(line, line), spans))
    for subject, found in findings_by_subject(claims, resolver.code_of).items():
        if not found:
            continue
        # a name the source lacks is reported with the section it stands in (or with the doc's own findings)
        owner = subject if subject in functions else _owner(markdown_line.get(found[0].line or 0, found[0].line),
                                                             spans) or DOC_EXAMPLES
        if owner in report or owner == DOC_EXAMPLES and subject not in functions:
            entry = report.setdefault(owner, FunctionFindings(owner))
            report[owner] = replace(entry, findings=merged(entry.findings, found))
    if run_examples and functions:
        context = ExampleContext(module, sys_path, timeout_s, sandbox=sandbox)
        for finding in check_steps(extract_steps(doc_text), next(iter(functions)).split(".")[0], context):
            owner = _owner(finding.line, spans) or DOC_EXAMPLES
            if owner in report or owner == DOC_EXAMPLES:
                report.setdefault(owner, FunctionFindings(owner)).findings.append(finding)
    return list(report.values())


def find_sections(doc_text: str, qualnames: list[str],
                  others: frozenset[str]) -> dict[str, tuple[tuple[int, int], str]]:
    """qualname -> (its span of doc lines, its text) for each function the doc has a section for.

    A section is found by docbot's marker or a heading (docbot.verify.read.sections); an entry of a pydoc dump
    in the doc (docbot.verify.read.pydoc_text) is a section too, and where a heading's section holds the
    function's pydoc entry, the entry is read as well: its docstring sits in a code block the prose
    checks do not read.
    """
    lines = doc_text.splitlines()
    entries = pydoc_entries(doc_text)
    found: dict[str, tuple[tuple[int, int], str]] = {}
    for qualname in qualnames:
        span = next((s for s in (locate_section(doc_text, n, others) for n in section_names(qualname)) if s), None)
        entry = entries.get(qualname)
        if span is not None:
            text = section_text(doc_text, span[0], span[1], lines)  # a slice of the doc's tokens, not parsed again
            found[qualname] = (span, text + ("\n" + entry.as_markdown() if entry and _inside(entry, span) else ""))
        elif entry is not None:
            found[qualname] = ((entry.start, entry.end), entry.as_markdown())
    return found


def _inside(entry: PydocEntry, span: tuple[int, int]) -> bool:
    return span[0] <= entry.start < span[1]


def _owner(line: int | None, spans: dict[str, tuple[int, int]]) -> str | None:
    """The function whose section holds ``line`` (the innermost, when sections nest)."""
    holding = [(start, q) for q, (start, end) in spans.items() if line is not None and start <= line < end]
    return max(holding)[1] if holding else None
