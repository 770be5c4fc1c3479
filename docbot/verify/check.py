"""The truth-check entry point: every check of one function's Markdown against its source.

What can be checked against the code is checked in code, not asked of a model
(docs/design.md#truth-checks): parameters and defaults, exceptions and their messages, the return
value, and (given an ``ExampleContext``) the examples, executed in a sandbox. Each ``Finding`` carries
its evidence and a ``FindingKind``: only a contradiction is fatal and blocks approval in the loop; a
gap (an omission) goes to the reviser but never blocks.
"""

from __future__ import annotations

from docbot.facts import extract_facts
from docbot.verify.doccheck import check_parameters, check_returns
from docbot.verify.docraises import check_raises
from docbot.verify.example_check import check_examples
from docbot.verify.findings import ExampleContext, Finding, note
from docbot.verify.kwargs_reach import NOTHING, Carried


def check_doc(doc: str, source: str, qualname: str, examples: ExampleContext | None = None,
              carried: Carried = NOTHING) -> list[Finding]:
    """All findings for ``doc`` (one function's Markdown) against ``source`` (that function's text).

    ``carried``: the keywords the function's ``**kwargs`` carries (docbot.verify.kwargs_reach).
    """
    try:
        facts = extract_facts(source, qualname)
    except (SyntaxError, ValueError) as error:
        return [note("source_unreadable", f"the source of {qualname} could not be read ({error}); "
                     "nothing was checked")]
    findings = check_parameters(doc, facts, carried) + check_raises(doc, facts, source) + check_returns(doc, facts)
    if examples is not None:
        findings += check_examples(doc, qualname, examples)
    return findings
