"""Do no harm, one step further (docs/design.md#docstrings): an approved doc replaces a person's docstring only if it
keeps every fact of it still true (each documented exception, each example, each directive, its style); else it
is suggested, and the report says which facts were kept or dropped."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.config.settings import Settings
from docbot.docmodel import DocModel, Example, ParameterDoc, RaisesDoc
from docbot.docstrings.apply import apply_docstrings
from docbot.docstrings.keep import FactKind, dropped, facts_of, style_of
from docbot.docstrings.text import DocstringStyle
from docbot.results import FunctionResult, SectionStatus
from docbot.verify.checks.reach import CodeBase
from tests.support.git_repo import GitRepo

PERSON = '''\
Settle an amount.

Args:
    amount: the sum.

Raises:
    ValueError: if the amount is negative.
    KeyError: if the ledger has no such account.

Example:
    >>> settle(2)
    2

.. versionadded:: 1.2
'''
SOURCE = f'''def settle(amount):
    """{PERSON}"""
    if amount < 0:
        raise ValueError("negative")
    return amount
'''
CODE = (CodeBase.of("pkg.bank", SOURCE), "pkg.bank", "settle")


@pytest.mark.parametrize("after, lost", [
    (PERSON, []),
    (PERSON.replace("    ValueError: if the amount is negative.\n", ""), [(FactKind.RAISE, "ValueError")]),
    (PERSON.replace(">>> settle(2)", ">>> settle(3)"), [(FactKind.EXAMPLE, "settle(2)")]),
    (PERSON.replace(".. versionadded:: 1.2\n", ""), [(FactKind.DIRECTIVE, ".. versionadded:: 1.2")]),
    ("Settle an amount.\n\n:param amount: the sum.\n:raises ValueError: if negative.\n\n>>> settle(2)\n2\n\n"
     ".. versionadded:: 1.2\n", [(FactKind.STYLE, "google")]),
])
def test_what_a_new_docstring_would_lose(after: str, lost: list[tuple[FactKind, str]]) -> None:
    assert [(f.kind, f.text) for f in dropped(facts_of(PERSON, after, CODE))] == lost


def test_an_exception_nothing_can_raise_any_more_is_not_owed() -> None:
    facts = {f.text: f for f in facts_of(PERSON, PERSON.replace("KeyError", "Nothing"), CODE)}
    assert facts["KeyError"].true is False and facts["KeyError"] not in dropped(list(facts.values()))
    assert facts["ValueError"].true is True


@pytest.mark.parametrize("doc, style", [
    (PERSON, DocstringStyle.GOOGLE), ("Do it.\n\n:param x: the x.\n", DocstringStyle.REST),
    ("Do it.\n\nParameters\n----------\nx : int\n", DocstringStyle.NUMPY), ("Just prose.", None),
])
def test_the_style_a_docstring_is_in(doc: str, style: DocstringStyle | None) -> None:
    assert style_of(doc) is style


def _project(tmp_path: Path, model: DocModel) -> tuple[GitRepo, list[FunctionResult]]:
    """A real ``docbot run`` over the person's file, its documenter answering ``model``, approved."""
    from docbot.apidocs.render import render_section
    from docbot.facts.function import extract_facts
    from docbot.results import Target
    from docbot.run.pipeline import run_docs
    from docbot.scan.repo import DiffSpec
    from tests.support.events import CollectingSink

    def document(target: Target, current: str = "") -> FunctionResult:
        facts = extract_facts(target.source, target.qualname)
        return FunctionResult(target.module, target.qualname, "updated",
                              markdown=render_section(model, facts, target.module), scores=[97], rounds=1,
                              exit_reason="approved", approval=SectionStatus.APPROVED, doc_model=model)

    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/bank.py", SOURCE).commit("bank")
    report = run_docs(Settings(), repo.root, DiffSpec(all=True), (), CollectingSink(),
                      documenter_factory=lambda *args: document)
    return repo, list(report.results)


VAGUE = DocModel(summary="Settle an amount.", parameters=(ParameterDoc(name="amount", description="The sum."),),
                 returns="The amount.")


def test_an_approved_doc_that_drops_a_persons_facts_is_suggested(tmp_path: Path) -> None:
    repo, results = _project(tmp_path, VAGUE)
    report = apply_docstrings(repo.root, Settings(), results)
    assert report.written == [] and repo.read("pkg/bank.py") == SOURCE
    assert [s.qualname for s in report.suggested] == ["settle"]
    assert "would drop what the person's says (raise ValueError; example settle(2))" in report.kept[0]
    assert "pkg/bank.py: settle: raise ValueError: dropped" in report.facts
    assert "pkg/bank.py: settle: raise KeyError: dropped (no longer true)" in report.facts
    assert "pkg/bank.py: settle: style google: kept" in report.facts


def test_an_approved_doc_that_keeps_them_is_written(tmp_path: Path) -> None:
    keeps = VAGUE.model_copy(update={"raises": (RaisesDoc(type="ValueError", condition="amount is negative"),),
                                     "examples": (Example(code="settle(2)", output="2"),)})
    repo, results = _project(tmp_path, keeps)
    report = apply_docstrings(repo.root, Settings(docstring_style="google"), results)
    assert report.written == ["pkg/bank.py"], report.kept
    assert "ValueError" in repo.read("pkg/bank.py") and ">>> settle(2)" in repo.read("pkg/bank.py")
    assert "pkg/bank.py: settle: example settle(2): kept" in report.facts
