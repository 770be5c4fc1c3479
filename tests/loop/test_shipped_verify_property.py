"""Done when: every section docbot ships passes ``docbot verify --strict`` on the page it wrote (issue 21 item 3).

The loop's exact checks and ``docbot verify`` are one checker: for any run over scripted models, the
shipped section, written into a docs page the way ``docbot run`` writes it, has no contradiction under
``verify``, and no gap for anything the page documents (its parameter table, the raises it lists).
"""

from __future__ import annotations

import json

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from docbot.apidocs.pages import render_doc_file
from docbot.config.settings import Settings
from docbot.docmodel import DocModel, Example, ParameterDoc, RaisesDoc
from docbot.facts.function import Facts
from docbot.loop.graph import build_graph
from docbot.loop.runner import stream_loop
from docbot.loop.state import new_state
from docbot.loop.truth import CodeContext, check_with_sandbox
from docbot.verify.checks.source_doc import verify_source_doc
from docbot.verify.findings import Check
from docbot.verify.findings import Finding
from tests.support.docmodel_samples import FakeRunner
from tests.support.events import CollectingSink
from tests.support.fakes import critique, scripted_models

MODULE = '''
import json

from bank import errors


class AccountFrozen(Exception):
    pass


def deposit(amount: float, memo: str = "", strict: bool = False) -> float:
    if amount <= 0:
        raise ValueError("amount must be non-negative")
    if memo and len(memo) > 80:
        raise errors.MemoError(f"memo too long: {len(memo)} characters")
    try:
        total = [amount][int(strict)]
    except IndexError:
        raise KeyError("no such slot")
    return total


def close(reason: str) -> None:
    if not reason:
        raise AccountFrozen("a reason is needed")
    print(reason)
'''

PROSE = st.sampled_from([
    "", "Add money.", "Returns the new balance.", "Arguments:\n- amount: the sum\n- memo: defaults to False",
    "Your previous documentation of `deposit` scored 0/100; the bar is 95/100.", "Shows {message} to the user.",
    "Add money; see `{name}` for the format."])
NAMES = st.sampled_from(["amount", "memo", "strict", "reason", "colour", ""])
# The function's own types, names that are no exception, and types the function does not raise (close()
# stating MemoError or ValueError: verify pairs it with the raise it leaves out and proves it wrong from the
# function's text, and so does the loop's checker, docbot.loop.source_rules).
NOT_EXCEPTIONS = ["error", "json", "list", "", "exception", "sock_error", "nowhere.error"]
TYPES = {"deposit": st.sampled_from(["ValueError", "MemoError", "errors.MemoError", "KeyError", *NOT_EXCEPTIONS]),
         "close": st.sampled_from(["AccountFrozen", "MemoError", "ValueError", *NOT_EXCEPTIONS])}
MESSAGES = st.sampled_from(["", "amount must be non-negative", "no such slot", "a reason is needed", "{message}"])
CONDITIONS = st.sampled_from(["", "amount <= 0", "when handling IndexError", "sometimes"])


def models(qualname: str) -> st.SearchStrategy[DocModel]:
    return st.builds(
        DocModel, summary=PROSE, description=PROSE, returns=PROSE, notes=PROSE,
        parameters=st.lists(st.builds(ParameterDoc, name=NAMES, description=PROSE), max_size=4).map(tuple),
        raises=st.lists(st.builds(RaisesDoc, type=TYPES[qualname], message=MESSAGES, condition=CONDITIONS),
                        max_size=3).map(tuple),
        examples=st.lists(st.builds(Example, code=st.sampled_from(["print(1)", "boom()", ""])),
                          max_size=2).map(tuple),
    )


def answers(qualname: str) -> st.SearchStrategy[str]:
    return st.one_of(models(qualname).map(lambda m: m.model_dump_json()), st.just("not json"))
CRITIQUES = st.builds(lambda a, c: critique(a, c), st.integers(80, 100), st.integers(80, 100))
# Gaps about something the page shows: never acceptable on a page docbot wrote.
DOCUMENTED_GAPS = {Check.MISSING_PARAMETER, Check.MESSAGE_NOT_QUOTED}


def exact(model: DocModel, facts: Facts, code: CodeContext) -> list[Finding]:
    """The loop's own checker, examples judged by the fake runner (``boom`` fails)."""
    return check_with_sandbox(model, facts, code, FakeRunner())


# No shrinking: a whole loop run per example is slow to shrink, and the failure message holds the whole case.
@settings(max_examples=40, deadline=None, database=None, phases=(Phase.explicit, Phase.generate))
@given(qualname=st.sampled_from(["deposit", "close"]), data=st.data(),
       critic=st.lists(CRITIQUES, min_size=3, max_size=3))
def test_every_shipped_section_passes_verify_strict(qualname: str, data: st.DataObject, critic: list[str]) -> None:
    writer = data.draw(st.lists(answers(qualname), min_size=9, max_size=9), "writer")
    adjudicator = data.draw(st.lists(answers(qualname), min_size=3, max_size=3), "adjudicator")
    loop = Settings(max_attempts=2)
    source = MODULE.split(f"def {qualname}(", 1)[1]
    source = f"def {qualname}(" + source.split("\n\n\n", 1)[0] + "\n"
    start = new_state(qualname, "bank.account", source, "", None, module_source=MODULE)
    final, _ = stream_loop(build_graph(scripted_models(writer, critic, adjudicator), loop, exact), start, loop,
                           CollectingSink())
    if final["final_model"] is None:
        return  # nothing shipped
    page = render_doc_file("bank.account", {qualname: ("h", final["final_markdown"])})
    # verify with its default prompts: docbot's own, read from the loop's templates (docbot.verify.checks.text_rules)
    [checked] = verify_source_doc(MODULE, page, "bank.account", (), function=qualname, run_examples=False)
    wrong = [f.to_json() for f in checked.findings if f.fatal or f.check in DOCUMENTED_GAPS]
    assert checked.section_found and wrong == [], json.dumps({"model": final["final_model"], "wrong": wrong})


def test_a_type_only_the_source_disproves_is_caught_by_both() -> None:
    """verify proves "close() raises MemoError" false from close()'s text (it names no MemoError and calls no
    other code); the loop's checker reads the same text with the same rule (this was a known gap)."""
    from docbot.apidocs.render import render_section
    from docbot.facts.function import extract_facts

    source = 'def close(reason: str) -> None:\n    if not reason:\n        raise AccountFrozen("a reason is needed")\n'
    model = DocModel(summary="Close it.", raises=(RaisesDoc(type="MemoError", condition="amount <= 0"),))
    code = CodeContext("bank.account", source, MODULE)
    assert [f.check for f in exact(model, extract_facts(source, "close"), code) if f.fatal] == [
        Check.WRONG_EXCEPTION_TYPE]
    page = render_doc_file("bank.account", {"close": ("h", render_section(model, extract_facts(source, "close"),
                                                                            "bank.account"))})
    [checked] = verify_source_doc(MODULE, page, "bank.account", (), function="close", run_examples=False)
    assert [f.check for f in checked.fatal] == [Check.WRONG_EXCEPTION_TYPE]
