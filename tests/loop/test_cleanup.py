"""Output cleanup (text hygiene for model output), as tables."""

from __future__ import annotations

import pytest

from docbot.docmodel import DocModel
from docbot.loop.cleanup import clean_markdown, tidy_model

CLEANUP = [
    ("short preamble dropped", "Sure! Here is the documentation:\n\n# f\n\nBody.\n", "# f\n\nBody.\n"),
    ("long preamble kept", "x" * 250 + "\n# f\nBody.\n", "x" * 250 + "\n# f\nBody.\n"),
    ("stacked sign-offs removed in one pass",
     "# f\n\nBody.\n\nNote: the doc is accurate.\nI hope this helps!\nLet me know if you need more.\n",
     "# f\n\nBody.\n"),
    ("review verdict removed", "# f\n\nBody.\n\nNo errors or contradictions were found.\n", "# f\n\nBody.\n"),
    ("bold note removed", "# f\n\nBody.\n\n**Note:** I removed the chatter.\n", "# f\n\nBody.\n"),
    ("structural lines never removed",
     "# f\n\n| a | b |\n- Note: a list item\n> Note: a quote\n1. Note: numbered\n```\n",
     "# f\n\n| a | b |\n- Note: a list item\n> Note: a quote\n1. Note: numbered\n```\n"),
    ("a last bullet is content, not a sign-off", "# f\n\nBody.\n\n* Note: rate is a fraction.\n",
     "# f\n\nBody.\n\n* Note: rate is a fraction.\n"),
    ("a last plus bullet too", "# f\n\nBody.\n+ Note: x.\n", "# f\n\nBody.\n+ Note: x.\n"),
    ("sign-off above a table row stays", "# f\nLet me know.\n| a |\n", "# f\nLet me know.\n| a |\n"),
    ("think block stripped", "<think>\nreasoning\n</think>\n# f\nBody.\n", "# f\nBody.\n"),
    ("unclosed think stripped", "# f\nBody.\n<think>still thinking", "# f\nBody.\n"),
    ("outer markdown fence unwrapped", "```markdown\n# f\nBody.\n```\n", "# f\nBody.\n"),
    ("CRLF normalised", "# f\r\nBody.\r\n", "# f\nBody.\n"),
    ("empty stays empty", "Let me know!\n", ""),
]


@pytest.mark.parametrize("name,raw,expected", CLEANUP, ids=[c[0] for c in CLEANUP])
def test_clean_markdown(name: str, raw: str, expected: str) -> None:
    assert clean_markdown(raw) == expected
    assert clean_markdown(clean_markdown(raw)) == clean_markdown(raw)  # idempotent


def test_tidy_model_cleans_the_description_and_leaves_the_notes() -> None:
    model = DocModel(summary="s", description="Doubles x.\n\nI hope this helps!", notes="Note: x is an int.")
    tidy = tidy_model(model)
    assert (tidy.description, tidy.notes) == ("Doubles x.", "Note: x is an int.")
    assert tidy_model(tidy) is tidy  # nothing to do: the same model
