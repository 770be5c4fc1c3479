"""The truth-check entry point: every check of one function's Markdown against its source.

What can be checked against the code is checked in code, not asked of a model
(docs/design.md#truth-checks): parameters and defaults, exceptions and their messages, the return
value, and (given an ``ExampleContext``) the examples, executed in a sandbox. Each ``Finding`` carries
its evidence and a ``FindingKind``: only a contradiction is fatal and blocks approval in the loop; a
gap (an omission) goes to the reviser but never blocks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from docbot.facts.function import extract_facts
from docbot.facts.module import module_constants
from docbot.verify.doccheck import check_parameters, check_returns
from docbot.verify.docparams import NO_CONSTANTS
from docbot.verify.docraises import check_raises
from docbot.verify.example_check import check_examples
from docbot.verify.findings import ExampleContext, Finding, FindingName, note
from docbot.verify.kwargs_reach import NOTHING, Carried
from docbot.verify.markdown import html_code_as_spans
from docbot.verify.return_check import check_return_type
from docbot.verify.text_rules import docbot_prompts, page_findings


def check_doc(doc: str, source: str, qualname: str, examples: ExampleContext | None = None,
              carried: Carried = NOTHING, module_source: str = "", sys_path: tuple[str, ...] = (),
              prompts: Sequence[re.Pattern[str]] | None = None) -> list[Finding]:
    """All findings for ``doc`` (one function's Markdown) against ``source`` (that function's text).

    ``carried``: the keywords the function's ``**kwargs`` carries (docbot.verify.kwargs_reach).
    ``module_source``: the whole module, where the checks that follow the code beyond the function look (the
    types it returns, the callees a parameter reaches); ``sys_path``: where its imports are found;
    ``prompts``: the prompt sentences a doc must not repeat (docbot.verify.text_rules.prompt_sentences); None:
    docbot's own (docbot.verify.text_rules.docbot_prompts), so every verify applies the loop's echo rule.
    """
    doc = html_code_as_spans(doc)
    try:
        facts = extract_facts(source, qualname)
    except (SyntaxError, ValueError) as error:
        return [note(FindingName.SOURCE_UNREADABLE, f"the source of {qualname} could not be read ({error}); "
                     "nothing was checked")]
    constants = module_constants(module_source) if module_source else NO_CONSTANTS
    findings = check_parameters(doc, facts, carried, constants) + check_raises(doc, facts, source, module_source)
    echoed = docbot_prompts() if prompts is None else prompts
    findings += check_returns(doc, facts) + page_findings(doc, facts, module_source, echoed)
    findings += check_return_type(doc, facts, module_source, sys_path or (examples.sys_path if examples else ()))
    if examples is not None:
        findings += check_examples(doc, qualname, examples)
    return findings
