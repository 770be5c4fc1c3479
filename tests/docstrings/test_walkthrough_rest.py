"""docs/walkthrough-rest.md's claims, from the command it shows (tests/docstrings/walkthrough_rest.py): on
pyrsistent 0.20.0, a reST project, an unapproved result leaves a person's docstring byte-identical with its
``.. versionadded::``, an approved one replaces it in reST with its ``.. versionchanged::`` kept, and the page
shows the unapproved note a reader sees. Properties, not a golden: the doc's figures come from the same run."""

from __future__ import annotations

import pytest

from pathlib import Path

from docbot.verify.checks.source_doc import verify_source_doc
from tests.docstrings.walkthrough_rest import KEPT, MODULE, REPLACED, Walkthrough, run, section, show


@pytest.fixture(scope="module")
def walk(tmp_path_factory: pytest.TempPathFactory) -> Walkthrough:
    return run(tmp_path_factory.mktemp("walkthrough"))


def test_the_unapproved_result_leaves_the_human_docstring_and_its_directive(walk: Walkthrough) -> None:
    results = {r["qualname"]: r for r in walk.report["results"]}
    assert results[KEPT]["approval"] == "unapproved" and results[KEPT]["scores"] == [58] * 5
    assert walk.after[KEPT] == walk.before[KEPT] and ".. versionadded:: 0.20.1" in walk.after[KEPT]
    assert [s["qualname"] for s in walk.report["docstrings"]["suggested"]] == [KEPT]  # offered, not written


def test_the_approved_result_replaces_it_in_rest_style_keeping_its_directive(walk: Walkthrough) -> None:
    results = {r["qualname"]: r for r in walk.report["results"]}
    assert results[REPLACED]["approval"] == "approved" and results[REPLACED]["scores"] == [97]
    after = walk.after[REPLACED]
    assert after != walk.before[REPLACED] and walk.report["docstrings"]["written"] == [MODULE]
    assert ":param item_invariant: An invariant each item must hold." in after  # reST, not Google's "Args:"
    assert ":returns: A ``field`` containing a ``CheckedPVector``" in after and "Args:" not in after
    assert after.rstrip().endswith(".. versionchanged:: 0.20.1\n       ``optional`` is annotated.")


def test_the_page_shows_the_unapproved_note_and_verify_passes_it(walk: Walkthrough) -> None:
    kept = section(walk.page, KEPT)
    assert "status=unapproved score=58" in kept.splitlines()[0]
    assert "> **Unapproved.**" in kept and "a person should check it" in kept
    assert "> **Unapproved" not in section(walk.page, REPLACED)
    checked = verify_source_doc(walk.module_text, walk.page, "pyrsistent._field_common", (),
                                function=[KEPT, REPLACED], run_examples=False)
    assert [(c.qualname, [f.check.value for f in c.findings if f.fatal]) for c in checked] == [(KEPT, []),
                                                                                               (REPLACED, [])]


def test_what_the_command_prints_holds_the_doc_figures(walk: Walkthrough) -> None:
    shown = show(walk)
    assert f"{KEPT}: approval=unapproved scores=[58, 58, 58, 58, 58] docstring unchanged" in shown
    assert f"{REPLACED}: approval=approved scores=[97] docstring replaced" in shown
    assert f"docstrings suggested, not written: ['{KEPT}']" in shown


def test_the_doc_shows_what_the_command_prints(walk: Walkthrough) -> None:
    """The summary block of docs/walkthrough-rest.md is the command's output, line for line."""
    doc = (Path(__file__).parents[2] / "docs" / "walkthrough-rest.md").read_text(encoding="utf-8")
    block = doc.split("## What it prints\n\n```text\n", 1)[1].split("\n```", 1)[0]
    printed = show(walk).splitlines()
    assert [line for line in block.splitlines() if line not in printed] == []
    assert ".. versionadded:: 0.20.1" in doc and "> **Unapproved.**" in section(walk.page, KEPT)
