"""A section a person wrote is theirs: ``docbot run`` keeps it and offers its draft as a suggestion.

Two kinds (docs/design.md#docs-files): a docbot section whose body a person edited (the marker's
``body=`` digest is not the body's any more), and a section with no docbot marker whose heading names
the function (``## `pkg.f` ``, ``### f(x)``). Writing docbot's draft beside the second would duplicate
it, and over the first would undo the person's words. The result says "hand-edited, kept", what docbot's
checks find in the person's text (verified like any doc), and carries the draft (its ``markdown``) for
the console and the PR review; nothing of the draft is written. An edited
section's marker takes the current source hash and loses its gate verdict (the person's text was never
judged), so ``docbot check`` stops calling it stale without calling it approved.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from docbot.apidocs.homes import names_function
from docbot.apidocs.pages import Section
from docbot.plan import ModuleDocs
from docbot.results import FunctionResult, Target

HAND_EDITED = "hand-edited, kept: a person changed docbot's section; docbot's draft is a suggestion, not written"
HAND_WRITTEN = "hand-edited, kept: a person wrote a section for it; docbot's draft is a suggestion, not written"


def kept_by_person(plan: ModuleDocs, results: Mapping[str, FunctionResult], updates: Mapping[str, Section]
                   ) -> tuple[dict[str, FunctionResult], dict[str, Section]]:
    """The results and the section updates once every section a person wrote is taken out of ``updates``."""
    sections = plan.existing.sections if plan.existing else {}
    targets = {t.qualname: t for t in plan.targets}
    final, writes = dict(results), {}
    for qualname, update in updates.items():
        old = sections.get(qualname)
        if old is not None and old.hand_edited:
            writes[qualname] = old._replace(hash=update.hash, status=None, score=None)
            reason = HAND_EDITED + _verdict(old.body, targets.get(qualname))
        elif old is None and names_function(plan.hand_written, qualname):
            reason = HAND_WRITTEN + _verdict(_their_section(plan, qualname), targets.get(qualname))
        else:
            writes[qualname] = update
            continue
        final[qualname] = replace(results[qualname], status="unchanged", reason=reason, approval=None)
    return final, writes


def _their_section(plan: ModuleDocs, qualname: str) -> str:
    from docbot.verify.read.sections import find_section  # the verify room: only when a person's section is kept

    home = plan.home
    pages = [text for text in (home.text, home.legacy_text) if text] if home is not None else []
    return next((found for text in pages if (found := find_section(text, qualname)) is not None), "")


def _verdict(text: str, target: Target | None) -> str:
    """The person's text checked like any doc (``docbot verify``'s rules; the examples are not run here):
    the first contradiction with the code, or that there is none."""
    if target is None or not text.strip():
        return ""
    from docbot.verify.checks.page import check_doc  # only when a person's section is kept

    fatal = [finding.message for finding in check_doc(text, target.source, target.qualname) if finding.fatal]
    return f"; it contradicts the code: {fatal[0]}" if fatal else "; docbot's checks find no contradiction in it"
