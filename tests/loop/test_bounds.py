"""The doc model's bounds follow the function and the writer (docs/design.md#bounds): a table of functions and
settings, each row failing a one-line bug in docbot/loop/bounds.py."""

from __future__ import annotations

import pytest

from docbot.docmodel import LARGE, SMALL
from docbot.facts.function import extract_facts
from docbot.loop.bounds import KWARGS_ROOM, RAISES_MARGIN, bounds_for, profile_for, writer_bounds
from docbot.config.settings import Role, RoleModel, Settings

WIDE = "def wide(" + ", ".join(f"p{i}" for i in range(30)) + "):\n    return p0\n"
RAISING = ("def r(x):\n    if x < 0:\n        raise ValueError('negative')\n    if x > 9:\n"
           "        raise OverflowError('big')\n    return x\n")

LIST_CASES = [
    # (name, source, qualname, parameters, raises)
    ("30 parameters: 30 entries, not SmolLM2's old 12", WIDE, "wide", 30, RAISES_MARGIN),
    ("no parameter, no raise", "def f():\n    return 1\n", "f", 0, RAISES_MARGIN),
    ("self is not documented", "    def m(self, a):\n        return a\n", "C.m", 1, RAISES_MARGIN),
    ("**kwargs leaves room for the keywords it carries", "def f(a, **kw):\n    return kw\n", "f",
     2 + KWARGS_ROOM, RAISES_MARGIN),
    ("*args is one entry", "def f(*args):\n    return args\n", "f", 1, RAISES_MARGIN),
    ("each raise site, plus the margin", RAISING, "r", 1, 2 + RAISES_MARGIN),
]


@pytest.mark.parametrize(("name", "source", "qualname", "parameters", "raises"), LIST_CASES,
                         ids=[c[0] for c in LIST_CASES])
def test_the_lists_follow_the_code(name: str, source: str, qualname: str, parameters: int, raises: int) -> None:
    bounds = bounds_for(extract_facts(source, qualname), LARGE, examples=5)
    assert (bounds.parameters, bounds.raises, bounds.examples) == (parameters, raises, 5), name
    assert (bounds.paragraph, bounds.summary) == (LARGE.paragraph, LARGE.summary)  # the strings: the profile's


def _embedded_writer() -> Settings:
    """Servers for every role but the generator, which runs in-process."""
    registry = {"GENERATOR": RoleModel(model="g", backend="embedded"), "CRITIC": RoleModel(model="c"),
                "ADJUDICATOR": RoleModel(model="a")}
    return Settings(backend="ollama", model_registry=registry)


PROFILE_CASES = [
    # (name, settings, role, profile)
    ("an Ollama writer gets the large strings", Settings(backend="ollama"), Role.GENERATOR, LARGE),
    ("an OpenAI-compatible server too", Settings(backend="openai"), Role.ADJUDICATOR, LARGE),
    ("the embedded model gets what SmolLM2 closes its JSON within", Settings(backend="embedded"), Role.GENERATOR,
     SMALL),
    ("a role on the embedded backend among servers", _embedded_writer(), Role.GENERATOR, SMALL),
    ("the other roles keep theirs", _embedded_writer(), Role.ADJUDICATOR, LARGE),
    ("the setting overrides: small on a server", Settings(backend="ollama", doc_bounds="small"), Role.GENERATOR,
     SMALL),
    ("the setting overrides: large embedded", Settings(backend="embedded", doc_bounds="large"), Role.GENERATOR,
     LARGE),
]


@pytest.mark.parametrize(("name", "settings", "role", "profile"), PROFILE_CASES, ids=[c[0] for c in PROFILE_CASES])
def test_the_strings_follow_the_role_s_model(name: str, settings: Settings, role: Role, profile: object) -> None:
    assert profile_for(settings, role) == profile, name


def test_the_examples_follow_the_settings() -> None:
    facts = extract_facts(WIDE, "wide")
    assert writer_bounds(facts, Settings(max_examples=0), Role.GENERATOR).examples == 0
    assert writer_bounds(facts, Settings(), Role.GENERATOR).examples == 3
