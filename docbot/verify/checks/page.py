"""The truth-check entry point: every check of one function's Markdown against its source.

What can be checked against the code is checked in code, not asked of a model
(docs/design.md#truth-checks): parameters and defaults, exceptions and their messages, the return
value, and (given an ``ExampleContext``) the examples, executed in a sandbox. Each ``Finding`` carries
its evidence and a ``Severity``: only a contradiction is fatal and blocks approval in the loop; a
gap (an omission) goes to the reviser but never blocks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from docbot.facts.function import extract_facts
from docbot.facts.module import scope_constants
from docbot.verify.checks.parameters import check_parameters
from docbot.verify.read.doc_params import NO_CONSTANTS
from docbot.verify.checks.raises import check_raises
from docbot.verify.checks.examples import check_examples
from docbot.verify.checks.examples import ExampleContext
from docbot.verify.findings import Check, Finding
from docbot.verify.checks.kwargs_reach import NOTHING, Carried
from docbot.verify.read.markdown import html_code_as_spans
from docbot.verify.checks.returns import check_return_type, check_returns
from docbot.verify.checks.text_rules import Author, docbot_prompts, page_findings
from docbot.verify.checks.claim_subjects import OneFunction
from docbot.verify.checks.claims import Code, claim_findings, merged
from docbot.verify.checks.reach import CodeBase
from docbot.verify.read.claims import markdown_claims


def check_doc(doc: str, source: str, qualname: str, examples: ExampleContext | None = None,
              carried: Carried = NOTHING, module_source: str = "", sys_path: tuple[str, ...] = (),
              prompts: Sequence[re.Pattern[str]] | None = None, author: Author = Author.PERSON,
              claims: bool = True, module: str = "") -> list[Finding]:
    """All findings for ``doc`` (one function's Markdown) against ``source`` (that function's text).

    ``carried``: the keywords the function's ``**kwargs`` carries (docbot.verify.checks.kwargs_reach).
    ``module_source``: the whole module, where the checks that follow the code beyond the function look (the
    types it returns, the callees a parameter reaches); ``sys_path``: where its imports are found;
    ``prompts``: the prompt sentences a doc must not repeat (docbot.verify.checks.text_rules.prompt_sentences); None:
    docbot's own (docbot.verify.checks.text_rules.docbot_prompts); ``author``: who wrote ``doc``: the echo and
    placeholder rules read a model's text only (a section docbot wrote), never a person's.
    ``claims``: also read every statement's claims about the function (docbot.verify.read.claims) and hold them
    to the code (docbot.verify.checks.claims); off where the caller reads the whole doc's claims itself (pair
    and project mode). ``module``: the function's dotted module, where its exception reach starts.
    """
    doc = html_code_as_spans(doc)
    try:
        facts = extract_facts(source, qualname)
    except (SyntaxError, ValueError) as error:
        return [Finding(Check.SOURCE_UNREADABLE, f"the source of {qualname} could not be read ({error}); "
                        "nothing was checked")]
    constants = scope_constants(module_source, qualname) if module_source else NO_CONSTANTS
    findings = check_parameters(doc, facts, carried, constants) + check_raises(doc, facts, source, module_source)
    echoed = docbot_prompts() if prompts is None else prompts
    findings += check_returns(doc, facts) + page_findings(doc, facts, module_source, echoed, author)
    findings += check_return_type(doc, facts, module_source, sys_path or (examples.sys_path if examples else ()))
    if claims:
        findings = merged(findings, own_claims(doc, Code(module or "__doc__", qualname, source, module_source,
                                                         CodeBase.of(module or "__doc__", module_source or source),
                                                         sys_path or (examples.sys_path if examples else ()),
                                                         carried)))
    if examples is not None:
        findings += check_examples(doc, qualname, examples)
    return findings


def own_claims(doc: str, code: Code) -> list[Finding]:
    """The findings of what ``doc`` (one function's page or section) claims about that function."""
    resolver = OneFunction(code.qualname, code)
    return claim_findings(markdown_claims(doc, resolver, lambda _line: code.qualname, one=True), resolver.code_of)
