"""The person's docstring reaches the writer: the first request starts from it (docs/design.md#docstrings).

Graph runs with scripted models; the generator's first request is read from what it was sent.
"""

from __future__ import annotations

import pytest

from docbot.config.settings import Settings
from docbot.loop.graph import build_graph
from docbot.loop.runner import stream_loop
from docbot.loop.state import new_state
from tests.loop.test_graph import no_findings
from tests.support.events import CollectingSink
from tests.support.fakes import critique, doc, scripted_models

REST = '''def pipe(*setters):
    """
    Run all *setters* and return the return value of the last one.

    :param setters: the setters to run, in order.
    :raises ValueError: when no setter is given.

    .. versionadded:: 20.1.0
    """
    return setters
'''
GOOGLE = '''def pipe(*setters):
    """Run all setters in order.

    Args:
        setters: the setters to run, in order.
    """
    return setters
'''
BARE = "def pipe(*setters):\n    return setters\n"
HEADING = "The function's docstring as it stands"
KEPT = "docbot keeps these directives"


def first_request(source: str) -> str:
    models = scripted_models([doc("pipe", "v1")], [critique(96, 96)], [doc("pipe", "done")])
    settings = Settings()
    start = new_state("pipe", "m", source, "", None, "")
    final, chain = stream_loop(build_graph(models, settings, no_findings), start, settings, CollectingSink())
    assert chain[0] == "draft" and final["approval"] == "approved"
    return str(models.generator.seen[0][-1].content)


# (source, texts the first request holds, texts it must not hold)
CASES = [
    (REST, ["Run all *setters* and return the return value of the last one.", "the setters to run, in order.",
            '"type":"ValueError"', "when no setter is given.", KEPT, ".. versionadded:: 20.1.0"],
     ['"summary":""']),
    (GOOGLE, ["Run all setters in order.", '"name":"setters"', "the setters to run, in order."], [KEPT]),
    (BARE, [], [HEADING, KEPT]),
]


@pytest.mark.parametrize(("source", "present", "absent"), CASES, ids=["rest-directive", "google", "none"])
def test_the_first_request_starts_from_the_existing_docstring(source: str, present: list[str],
                                                               absent: list[str]) -> None:
    request = first_request(source)
    if present:
        assert HEADING in request
    assert [text for text in present if text not in request] == []
    assert [text for text in absent if text in request] == []


def test_the_revision_does_not_repeat_the_docstring() -> None:
    """Only the first draft starts from it; a revision starts from the previous draft."""
    models = scripted_models([doc("pipe", "v1"), doc("pipe", "v2")], [critique(70, 70), critique(96, 96)],
                             [doc("pipe", "done")])
    settings = Settings()
    stream_loop(build_graph(models, settings, no_findings), new_state("pipe", "m", REST, "", None, ""), settings,
                CollectingSink())
    assert HEADING not in str(models.generator.seen[1][-1].content)
