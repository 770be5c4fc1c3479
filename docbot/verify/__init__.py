"""Truth checks: the doc against the code, in code (docs/design.md#truth-checks).

``check.check_doc`` checks one function's Markdown against its source; ``source_doc`` checks a
Markdown file a person wrote (``docbot verify``). The names below are re-exported for callers
that want the package's surface and not its layout.
"""

from __future__ import annotations

from docbot.verify.check import check_doc
from docbot.verify.findings import ExampleContext, Finding
from docbot.verify.sections import find_section
from docbot.verify.source_doc import FunctionFindings, verify_source_doc

__all__ = ["ExampleContext", "Finding", "FunctionFindings", "check_doc", "find_section", "verify_source_doc"]
