"""What only the source can disprove, judged by ``docbot verify``'s own rule on the page the loop renders.

The exact checks of a doc model (docbot.verify.checks.model) read the function's facts. Some claims need
more than the facts: a raises type the function never raises and nothing it calls could (its text shows
that), a lower-case raises "type" the module binds or not, a return type the code's returns rule out, a
``**kwargs`` keyword its callee does not take, a default a description misstates. ``docbot verify`` decides
them on the page, so the loop renders the model exactly as it ships and asks ``check_doc`` the same
question: the loop can no longer approve (or ship unrepaired) what ``verify`` calls false
(docs/design.md#truth-checks; issue 21, "one checker").

Each finding is given back the model field it is about (``where``), so repair (docbot.loop.repair) can take
that field out; the page text it points at stays in ``doc_text``, which is how repair tells these findings
from the model checks' own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from docbot.apidocs.render import render_section
from docbot.docmodel import DocModel, param_key
from docbot.facts.function import Facts
from docbot.verify.checks.examples import ExampleContext
from docbot.verify.checks.page import check_doc
from docbot.verify.findings import Finding, Check
from docbot.verify.checks.kwargs_reach import carried_keywords
from docbot.verify.checks.text_rules import Author

__all__ = ["CodeContext", "PAGE_KINDS", "page_contradictions"]

# The contradictions ``verify`` reads on the page with the source in hand; the others (a parameter the
# signature lacks, a misquoted message, a return claim for a None function, echoed prompts) are the model
# checks' own rules already, field by field.
RAISES_KINDS = frozenset({Check.WRONG_EXCEPTION_TYPE, Check.INVENTED_EXCEPTION,
                          Check.NOT_AN_EXCEPTION})
PARAMETER_KINDS = frozenset({Check.INVENTED_PARAMETER, Check.WRONG_DEFAULT, Check.WRONG_PARAMETER_TYPE})
PAGE_KINDS = RAISES_KINDS | PARAMETER_KINDS | {Check.WRONG_RETURN_TYPE, Check.WRONG_RETURN_VALUE}


@dataclass(frozen=True)
class CodeContext:
    """What the checks read beyond the facts: where the function lives and its text, and how to run examples."""

    module: str  # dotted module name: the page is rendered for it
    source: str  # the function's own text
    module_source: str = ""  # the whole module; "" when unknown (then only the function's text is read)
    examples: ExampleContext | None = None  # None: examples are not run


def page_contradictions(model: DocModel, facts: Facts, code: CodeContext) -> list[Finding]:
    """``verify``'s contradictions of the kinds only the source decides, on the page of ``model``."""
    page = render_section(model, facts, code.module)
    sys_path = code.examples.sys_path if code.examples else ()
    found = check_doc(page, code.source, facts.qualname, carried=carried_keywords(code.module_source, code.source),
                      module_source=code.module_source, sys_path=sys_path, author=Author.MODEL,
                      module=code.module)
    return [replace(f, where=field_of(f, model)) for f in found if f.fatal and f.check in PAGE_KINDS]


def _named(name: str, text: str) -> bool:
    return bool(name) and re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", text) is not None


def field_of(finding: Finding, model: DocModel) -> str:
    """The model field a page finding is about: the prose field (or parameter text) holding its text, else the
    raises entry or parameter it names; "" when none does. The text comes first: "`lo` defaults to 3" in the
    description is the description's claim, though it names a parameter."""
    text = finding.doc_text
    flat = " ".join(re.sub(r"[`*]", "", text).split())[:60]
    prose = [("summary", model.summary), ("description", model.description), ("returns", model.returns),
             ("notes", model.notes)]
    prose += [(f"parameters[{i}]", p.description) for i, p in enumerate(model.parameters)]
    holding = next((where for where, value in prose if flat and flat in " ".join(re.sub(r"[`*]", "", value).split())),
                   None)
    if holding is not None:
        return holding
    if finding.check in RAISES_KINDS:
        for index, entry in enumerate(model.raises):
            stated = entry.type.strip().strip("`'\"")
            if _named(stated, text) or _named(stated.rsplit(".", 1)[-1], text):
                return f"raises[{index}]"
    if finding.check in PARAMETER_KINDS:
        for index, param in enumerate(model.parameters):
            if _named(param_key(param.name), text):
                return f"parameters[{index}]"
    return "returns" if finding.check in (Check.WRONG_RETURN_TYPE, Check.WRONG_RETURN_VALUE) else ""
