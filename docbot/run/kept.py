"""A section a person wrote is theirs: ``docbot run`` keeps it and offers its draft as a suggestion.

Two kinds (docs/design.md#docs-files): a docbot section whose body a person edited (the marker's
``body=`` digest is not the body's any more), and a section with no docbot marker whose heading names
the function (``## `pkg.f` ``, ``### f(x)``). Writing docbot's draft beside the second would duplicate
it, and over the first would undo the person's words. The result says "hand-edited, kept" and carries
the draft (its ``markdown``) for the console and the PR review, and nothing of it is written. An edited
section's marker takes the current source hash and loses its gate verdict (the person's text was never
judged), so ``docbot check`` stops calling it stale without calling it approved.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from docbot.apidocs.homes import names_function
from docbot.apidocs.pages import Section
from docbot.plan import ModuleDocs
from docbot.results import FunctionResult

HAND_EDITED = "hand-edited, kept: a person changed docbot's section; docbot's draft is a suggestion, not written"
HAND_WRITTEN = "hand-edited, kept: a person wrote a section for it; docbot's draft is a suggestion, not written"


def kept_by_person(plan: ModuleDocs, results: Mapping[str, FunctionResult], updates: Mapping[str, Section]
                   ) -> tuple[dict[str, FunctionResult], dict[str, Section]]:
    """The results and the section updates once every section a person wrote is taken out of ``updates``."""
    sections = plan.existing.sections if plan.existing else {}
    final, writes = dict(results), {}
    for qualname, update in updates.items():
        old = sections.get(qualname)
        if old is not None and old.hand_edited:
            writes[qualname] = old._replace(hash=update.hash, status=None, score=None)
            final[qualname] = replace(results[qualname], status="unchanged", reason=HAND_EDITED, approval=None)
        elif old is None and names_function(plan.hand_written, qualname):
            final[qualname] = replace(results[qualname], status="unchanged", reason=HAND_WRITTEN, approval=None)
        else:
            writes[qualname] = update
    return final, writes
