"""The prose checks of a topic passage: a heading's passage that uses exactly one of the package's functions
gets that function's parameter, default, exception and return checks (docs/design.md#truth-checks); and every
statement of the doc is read for its claims about the package's functions (docs/design.md#claims), each subject
resolved in the package (the doc's own imports and qualified names first, then a name only one public function
of the package has), the passage's function standing for a statement that names none.
"""

from __future__ import annotations

import re
from dataclasses import replace

from collections.abc import Sequence

from docbot.sandbox.step import Step
from docbot.verify.checks.claims import findings_by_subject, merged
from docbot.verify.checks.kwargs_reach import carried_keywords
from docbot.verify.checks.page import check_doc
from docbot.verify.checks.returns import own_return_prose
from docbot.verify.checks.text_rules import Author
from docbot.verify.findings import DocFinding, Finding, Severity
from docbot.verify.project.api_index import ApiIndex
from docbot.verify.project.package import Package
from docbot.verify.read.autodoc import current_module
from docbot.verify.read.claim_units import markdown_units, markdown_lines, rst_units
from docbot.verify.read.claims import read_claims
from docbot.verify.read.markdown import block_spans, headings
from docbot.verify.project.claim_subjects import PackageSubjects, function_of
from docbot.verify.read.references import Reference
from docbot.verify.read.sections import marked_sections


def topic_checks(markdown: str, references: list[Reference], package: Package, index: ApiIndex) -> list[Finding]:
    """The prose checks of each heading's passage that uses exactly one of the package's functions.

    A topic passage is not a reference entry, so it owes nothing: only what it states is checked (its
    contradictions); what it leaves out is not a gap here (coverage is reported for the whole project). Unless
    its heading names the function, its sentences about what other things return are left out first
    (docbot.verify.checks.returns.own_return_prose).
    """
    found: list[Finding] = []
    ours = marked_sections(markdown).values()  # docbot's own sections (docs/api): a model's text
    lines = markdown.splitlines()
    for (start, end), qualified, mentions in _passages(markdown, references, package, index):
        module, qualname = qualified
        functions = package.functions(module)
        if qualname not in functions:
            continue
        heading = lines[start] if start < len(lines) else ""
        if re.search(rf"\b{re.escape(qualname.rsplit('.', 1)[-1])}\b", heading):
            text = "\n".join(lines[start:end]) + "\n"  # the function's own entry
        else:  # a topic: it speaks of the function only near where it writes it
            near = near_mentions(markdown, mentions)
            text = own_return_prose("\n".join(line if i in near else "" for i, line in enumerate(lines[start:end],
                                                                                          start)) + "\n", qualname)
        source = package.source(module)
        author = Author.MODEL if any(a <= start < b for a, b in ours) else Author.PERSON
        for finding in check_doc(text, functions[qualname], qualname, carried=carried_keywords(
                source, functions[qualname]), module_source=source, sys_path=package.sys_path, author=author,
                claims=False, module=module):
            if finding.severity is Severity.CONTRADICTION:
                found.append(replace(finding, message=f"{qualname}: {finding.message}", line=start))
    return found


def _passages(markdown: str, references: list[Reference], package: Package,
              index: ApiIndex) -> list[tuple[tuple[int, int], tuple[str, str], list[int]]]:
    """(span, (module, qualname), the lines that name it) for each heading's passage whose references name one
    function."""
    marks = headings(markdown)
    total = len(markdown.splitlines())
    spans = [(h.line, next((o.line for o in marks[i + 1 :] if o.level <= h.level), total))
             for i, h in enumerate(marks)]
    found = []
    for start, end in spans:
        inner = [s for s in spans if start < s[0] < end]
        own = {r.line: q for r in references if start <= r.line < end and not any(a <= r.line < b for a, b in inner)
               if (q := function_of(index.canonical(r.dotted), package)) is not None}
        if len(set(own.values())) == 1:
            found.append(((start, end), next(iter(own.values())), sorted(own)))
    return found


def near_mentions(markdown: str, mentions: Sequence[int]) -> set[int]:
    """The lines a passage's statement may speak of a function from without naming it: the block (a paragraph, a
    list, a code block) that names it and the block after that. A long topic passage's far blocks are about other
    things (PySocks' README: a list of exceptions the connection raises, under a passage that names
    set_default_proxy once, was 24 false contradictions about set_default_proxy)."""
    spans = block_spans(markdown)
    named = {i for i, (start, end) in enumerate(spans) if any(start <= m < end for m in mentions)}
    lines = markdown.splitlines()
    return {line for i in named | {i + 1 for i in named} if i < len(spans) for line in range(*spans[i])
            if line < len(lines) and lines[line].strip()}


def claim_checks(text: str, is_rst: bool, markdown: str, references: list[Reference], steps: Sequence[Step],
                 package: Package, index: ApiIndex, said: Sequence[Finding]) -> list[DocFinding]:
    """The findings of the doc's claims about the package's functions that ``said`` (the passages' checks) does
    not already hold, each at the doc line a person sees (an RST doc's own)."""
    resolver = PackageSubjects(package, index, steps, current_module(markdown))  # project.claim_subjects
    # a passage whose heading names the function is its entry: all of it; a topic: near where it names it
    passages = {line: f"{m}:{q}" for (start, end), (m, q), mentions in _passages(markdown, references, package, index)
                for line in (range(start, end) if start in mentions else near_mentions(markdown, mentions))}
    units = rst_units(text) if is_rst else markdown_units(markdown)
    to_markdown = markdown_lines(text, markdown) if is_rst else {}
    claims = read_claims(units, resolver, lambda line: passages.get(to_markdown.get(line, line)))
    found = [replace(f, message=f"{subject.partition(':')[2]}: {f.message}")
             for subject, findings in findings_by_subject(claims, resolver.code_of).items() for f in findings]
    new = [f for f in merged(said, found) if any(f is g for g in found)]
    return [DocFinding(f, (f.line or 0) + 1) for f in new]
