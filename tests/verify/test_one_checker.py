"""One checker (issue 21 item 3): the rules the loop applies to a doc model and ``docbot verify`` applies to a
page, one table per rule. Each case fails on a one-line bug in the rule it names.
"""

from __future__ import annotations

import pytest

from docbot.apidocs.pages import render_doc_file
from docbot.apidocs.render import render_section
from docbot.docmodel import DocModel, Example, ParameterDoc, RaisesDoc
from docbot.facts.function import extract_facts
from docbot.loop.prompts import ECHO_SENTENCES
from docbot.loop.repair import NO_SUMMARY, repair
from docbot.verify.checks.page import check_doc
from docbot.verify.checks.source_doc import verify_source_doc
from docbot.verify.checks.model import check_model
from docbot.verify.checks.text_rules import Author, module_names, resolves_to_exception
from tests.support.docmodel_samples import FakeRunner

MODULE = '''
import json
from socket import error as sock_error

from bank import errors


class AccountFrozen(Exception):
    pass


def deposit(amount: float, memo: str = "", strict: bool = False) -> float:
    if amount <= 0:
        raise ValueError("amount must be non-negative")
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
FUNCTIONS = {name: f"def {name}(" + MODULE.split(f"def {name}(", 1)[1].split("\n\n\n", 1)[0] + "\n"
             for name in ("deposit", "close")}


def facts(name: str):  # type: ignore[no-untyped-def]
    return extract_facts(FUNCTIONS[name], name)


def fatal_kinds(model: DocModel, name: str) -> list[str]:
    return sorted(f.check for f in check_model(model, facts(name), FakeRunner(), prompts=ECHO_SENTENCES) if f.fatal)


def page_findings(model: DocModel, name: str) -> list[tuple[str, bool]]:
    page = render_doc_file("bank", {name: ("h", render_section(model, facts(name), "bank"))})
    [checked] = verify_source_doc(MODULE, page, "bank", (), function=name, run_examples=False,
                                  prompts=ECHO_SENTENCES)
    return sorted((f.check, f.fatal) for f in checked.findings)


OK = DocModel(summary="Close the account.")


@pytest.mark.parametrize(("stated", "known", "resolves"), [
    ("ValueError", True, True), ("ValueError", False, True),  # a builtin exception
    ("AccountFrozen", True, True),  # the code raises it
    ("sock_error", True, True),  # the module binds it (from socket import error as sock_error)
    ("sock_error", False, False),  # unknown module: a bare lower-case name is no class
    ("socket.error", False, True), ("json.decoder", True, True),  # dotted, head imported / module unknown
    ("nowhere.error", True, False),  # dotted, head unbound
    ("json", True, False),  # bound, but to a module
    ("error", True, False), ("exception", True, False), ("empty", True, False), ("list", True, False),
    ("json", False, False), ("error", False, False),
    ("", False, False), ("ValueError or TypeError", True, False),  # not a name at all
    ("`ValueError`", True, True),  # backticks around a name are markup
])
def test_a_raises_type_must_name_an_exception_class(stated: str, known: bool, resolves: bool) -> None:
    names = module_names(MODULE) if known else None
    assert resolves_to_exception(stated, facts("close"), names) is resolves


@pytest.mark.parametrize(("model", "kinds"), [
    (OK, []),
    (OK.model_copy(update={"raises": (RaisesDoc(type="error"),)}), ["not_an_exception"]),
    (OK.model_copy(update={"raises": (RaisesDoc(type="list", message="a reason is needed"),)}),
     ["not_an_exception", "wrong_exception_type"]),  # the message is AccountFrozen's
    (OK.model_copy(update={"raises": (RaisesDoc(type=""),)}), ["empty_field"]),
    (OK.model_copy(update={"returns": "The closed account."}), ["invented_return"]),  # close returns None
    (OK.model_copy(update={"returns": "None."}), []),  # saying nothing comes back is true
    (OK.model_copy(update={"description": "Returns the final balance."}), ["invented_return"]),  # prose too
    (OK.model_copy(update={"summary": ""}), ["empty_field"]),
    (OK.model_copy(update={"summary": " \n"}), ["empty_field"]),
    (OK.model_copy(update={"summary": "Your previous documentation of `close` scored 0/100; the bar is 95/100."}),
     ["echoed_prompt"]),
    (OK.model_copy(update={"notes": "Answer with the JSON object only."}), ["echoed_prompt"]),
    (OK.model_copy(update={"description": "Shows {message} to the user."}), ["template_placeholder"]),
    (OK.model_copy(update={"description": "Formats `{message}` in code."}), []),  # braces in code are code
    (OK.model_copy(update={"parameters": (ParameterDoc(name="reason", description="why {reason}"),)}),
     ["template_placeholder"]),
    (OK.model_copy(update={"examples": (Example(code=" "),)}), ["empty_field"]),
    (OK.model_copy(update={"examples": (Example(code="print('{x}')", output="{x}"),)}), []),  # an example's output
])
def test_the_loop_rejects_what_is_not_documentation(model: DocModel, kinds: list[str]) -> None:
    assert fatal_kinds(model, "close") == kinds


def test_an_empty_model_is_never_approved_and_repair_leaves_no_contradiction() -> None:
    empty = DocModel(summary="", raises=(RaisesDoc(type="json", message="{message}"),), returns="It returns 3.",
                     notes="Your previous documentation of `close` scored 0/100; the bar is 95/100.")
    assert fatal_kinds(empty, "close") == ["echoed_prompt", "empty_field", "invented_return", "not_an_exception",
                                           "template_placeholder"]
    repaired = repair(empty, facts("close"), [])
    assert repaired.model == DocModel(summary=NO_SUMMARY)
    assert fatal_kinds(repaired.model, "close") == []
    assert [kind for kind, fatal in page_findings(repaired.model, "close") if fatal] == []
    assert len(repaired.describe()) == 4 and all(line.startswith("cleared the ") for line in repaired.describe())


@pytest.mark.parametrize(("model", "name", "fatal"), [
    # docbot's own page: its <code> cells, messages with character references, the "when handling" condition
    (DocModel(summary="Add money.", parameters=tuple(ParameterDoc(name=n, description="x.")
                                                      for n in ("amount", "memo", "strict")),
              returns="The total.",
              raises=(RaisesDoc(type="ValueError", message="amount must be non-negative", condition="amount <= 0"),
                      RaisesDoc(type="KeyError", message="no such slot", condition="when handling IndexError"))),
     "deposit", []),
    # a description's "Arguments:" list is prose next to the table, never the parameter list (its items' own
    # claims are read as claims: "memo: defaults to False" would be a wrong default, docbot.verify.read.claims)
    (DocModel(summary="Add money.", description="Arguments:\n- amount: the sum\n- memo: defaults to empty",
              parameters=(ParameterDoc(name="strict", description="Strict; defaults to False."),),
              returns="The total.",
              raises=(RaisesDoc(type="ValueError", message="amount must be non-negative"),
                      RaisesDoc(type="KeyError", message="no such slot"))),
     "deposit", []),
    (DocModel(summary="Close it.", raises=(RaisesDoc(type="error"),)), "close", ["not_an_exception"]),
    (DocModel(summary="Close it.", returns="The account."), "close", ["invented_return"]),
    (DocModel(summary="Close it.", description="Shows {message}."), "close", ["template_placeholder"]),
    (DocModel(summary="Your previous documentation of `close` scored 0/100; the bar is 95/100."), "close",
     ["echoed_prompt"]),
])
def test_verify_reads_docbot_pages_with_the_same_rules(model: DocModel, name: str, fatal: list[str]) -> None:
    found = page_findings(model, name)
    assert [kind for kind, is_fatal in found if is_fatal] == fatal
    if name == "deposit":  # everything the page documents is read: no gap at all
        assert found == []


@pytest.mark.parametrize(("doc", "kinds", "as_docbot_s"), [
    ("## close\n\n**Raises**\n\n- `AccountFrozen`: when no reason is given\n", [], []),
    ("## close\n\n**Raises**\n\n- `error`: when no reason is given\n", ["not_an_exception"], ["not_an_exception"]),
    ("## close\n\n**Raises**\n\n- `reason`: AccountFrozen when it is empty\n", [], []),  # a parameter leads it
    ("## close\n\nPrints `{reason}`. Raises AccountFrozen when empty.\n", [], []),  # braces in code are code
    # a person's braces are theirs (issue 28); under docbot's own marker a model wrote them: a placeholder
    ("## close\n\nPrints {reason}. Raises AccountFrozen when empty.\n", [], ["template_placeholder"]),
    # MyST's role and a formula's superscript are markup, whoever wrote them
    ("## close\n\nSee {func}`close`. The balance grows as (1 + r/n)^{nt}.\n", [], []),
    ("## close\n\nYour previous documentation of `close` scored 0/100; the bar is 95/100.\n", [],
     ["echoed_prompt"]),
])
def test_a_persons_page_is_held_to_the_same_rules(doc: str, kinds: list[str], as_docbot_s: list[str]) -> None:
    found = check_doc(doc, FUNCTIONS["close"], "close", module_source=MODULE, prompts=ECHO_SENTENCES)
    assert sorted(f.check for f in found if f.fatal) == kinds
    ours = check_doc(doc, FUNCTIONS["close"], "close", module_source=MODULE, prompts=ECHO_SENTENCES,
                     author=Author.MODEL)
    assert sorted(f.check for f in ours if f.fatal) == as_docbot_s
