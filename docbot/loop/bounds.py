"""The doc model's bounds for one function and one writer (docs/design.md#bounds).

The lists follow the code: an entry per documentable parameter (and room for the keywords a ``**kwargs``
carries, which a doc may name), an entry per raise site the facts list and a margin for what a callee raises,
examples as the settings allow. The strings follow the role's model: ``SMALL`` for the embedded backend (what
SmolLM2 was measured to close its JSON within), ``LARGE`` for a server's models, ``doc_bounds`` overriding.
"""

from __future__ import annotations

from dataclasses import replace

from docbot.docmodel import PROFILES, Bounds
from docbot.facts.function import Facts
from docbot.config.settings import Role, Settings

KWARGS_ROOM = 16  # keywords a **kwargs carries that a doc may document by name (argparse's add_argument: 12)
RAISES_MARGIN = 2  # raises entries beyond the function's own raise sites: what a callee raises through it


def profile_for(settings: Settings, role: Role) -> Bounds:
    """The string bounds of the role's writer."""
    name = settings.doc_bounds
    if name == "auto":
        name = "small" if settings.backend_for(role) == "embedded" else "large"
    return PROFILES[name]


def bounds_for(facts: Facts, profile: Bounds, examples: int) -> Bounds:
    """``profile``'s strings, with lists as long as this function needs."""
    params = len(facts.documentable_parameters)
    if any(p.kind == "var-keyword" for p in facts.parameters):
        params += KWARGS_ROOM
    return replace(profile, parameters=params, raises=len(facts.raises) + RAISES_MARGIN, examples=examples)


def writer_bounds(facts: Facts, settings: Settings, role: Role) -> Bounds:
    return bounds_for(facts, profile_for(settings, role), settings.max_examples)
