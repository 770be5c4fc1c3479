"""Truth checks: the doc against the code, in code (docs/design.md#truth-checks).

``check.check_doc`` checks one function's Markdown against its source; ``source_doc`` checks a Markdown file
a person wrote (``docbot verify``); ``model_check.check_model`` checks the loop's doc model with the same
rules (``text_rules`` holds the ones both call). Each ``Finding`` carries its evidence, a ``FindingName``
(which check) and a ``FindingKind``: only a contradiction is fatal and blocks approval in the loop; a gap
(an omission) goes to the reviser but never blocks. The names below are re-exported for callers that want
the package's surface and not its layout."""

from __future__ import annotations

from docbot.verify.check import check_doc
from docbot.verify.findings import ExampleContext, Finding, FindingKind, FindingName
from docbot.verify.sections import find_section
from docbot.verify.source_doc import FunctionFindings, verify_source_doc

__all__ = ["ExampleContext", "Finding", "FindingKind", "FindingName", "FunctionFindings", "check_doc", "find_section",
           "verify_source_doc"]
