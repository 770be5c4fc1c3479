"""The prose checks of a topic passage: a heading's passage that uses exactly one of the package's functions
gets that function's parameter, default, exception and return checks (docs/design.md#truth-checks).
"""

from __future__ import annotations

import re
from dataclasses import replace

from docbot.verify.checks.kwargs_reach import carried_keywords
from docbot.verify.checks.page import check_doc
from docbot.verify.checks.returns import own_return_prose
from docbot.verify.checks.text_rules import Author
from docbot.verify.findings import Finding, Severity
from docbot.verify.project.api_index import ApiIndex
from docbot.verify.project.package import Package
from docbot.verify.read.markdown import headings
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
    for (start, end), qualified in _passages(markdown, references, package, index):
        module, qualname = qualified
        functions = package.functions(module)
        if qualname not in functions:
            continue
        text = "\n".join(markdown.splitlines()[start:end]) + "\n"
        heading = markdown.splitlines()[start] if start < len(markdown.splitlines()) else ""
        if not re.search(rf"\b{re.escape(qualname.rsplit('.', 1)[-1])}\b", heading):
            text = own_return_prose(text, qualname)  # a topic, not the function's entry
        source = package.source(module)
        author = Author.MODEL if any(a <= start < b for a, b in ours) else Author.PERSON
        for finding in check_doc(text, functions[qualname], qualname, carried=carried_keywords(
                source, functions[qualname]), module_source=source, sys_path=package.sys_path, author=author):
            if finding.severity is Severity.CONTRADICTION:
                found.append(replace(finding, message=f"{qualname}: {finding.message}", line=start))
    return found


def _passages(markdown: str, references: list[Reference], package: Package,
              index: ApiIndex) -> list[tuple[tuple[int, int], tuple[str, str]]]:
    """(span, (module, qualname)) for each heading's passage whose references name one function."""
    marks = headings(markdown)
    total = len(markdown.splitlines())
    spans = [(h.line, next((o.line for o in marks[i + 1 :] if o.level <= h.level), total))
             for i, h in enumerate(marks)]
    found = []
    for start, end in spans:
        inner = [s for s in spans if start < s[0] < end]
        own = {q for r in references if start <= r.line < end and not any(a <= r.line < b for a, b in inner)
               if (q := _function_of(index.canonical(r.dotted), package)) is not None}
        if len(own) == 1:
            found.append(((start, end), own.pop()))
    return found


def _function_of(dotted: str, package: Package) -> tuple[str, str] | None:
    """``pkg.core.f`` -> ("pkg.core", "f"); ``pkg.core.Class.m`` -> ("pkg.core", "Class.m"); else None."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:cut])
        if module in package.modules:
            qualname = ".".join(parts[cut:])
            return (module, qualname) if qualname in package.functions(module) else None
    return None
