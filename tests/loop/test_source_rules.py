"""Types only the source can disprove: the loop's checker and ``docbot verify`` give the same verdict
(issue 21, "one checker"), and what the loop repairs, ``verify`` then passes.

Each case runs through both paths: the loop's default checker (docbot.loop.truth.check_with_sandbox, with
the function's and the module's text) on the doc model, and ``verify_source_doc`` on the page docbot writes
for it. Before this rule the loop let through six of these that ``verify`` calls false (two raises types the
function's text rules out, two return types the code never returns, a keyword ``**kwargs`` does not carry, a
dotted raises type whose head the module does not bind) and refused one ``verify`` accepts (a lower-case
name the module binds to an exception).
"""

from __future__ import annotations

import pytest

from docbot.apidocs.pages import render_doc_file
from docbot.apidocs.render import render_section
from docbot.docmodel import DocModel, ParameterDoc, RaisesDoc
from docbot.facts.function import Facts, extract_facts
from docbot.loop.repair import repair
from docbot.loop.truth import CodeContext, check_with_sandbox
from docbot.verify.checks.source_doc import verify_source_doc

MODULE = '''
from socket import error as sock_error

from bank import errors


class AccountFrozen(Exception):
    pass


def deposit(amount: float, memo: str = "") -> float:
    if amount <= 0:
        raise ValueError("amount must be non-negative")
    return amount


def close(reason: str) -> None:
    if not reason:
        raise AccountFrozen("a reason is needed")
    print(reason)


def label(n: int) -> str:
    return str(n)


def options(**kwargs):
    return _apply(**kwargs)


def _apply(colour: str = "red") -> str:
    return colour
'''


def source_of(name: str) -> str:
    return f"def {name}(" + MODULE.split(f"def {name}(", 1)[1].split("\n\n\n", 1)[0] + "\n"


def facts(name: str) -> Facts:
    return extract_facts(source_of(name), name)


def loop_fatal(model: DocModel, name: str) -> list[str]:
    found = check_with_sandbox(model, facts(name), CodeContext("bank", source_of(name), MODULE))
    return sorted(f.check.value for f in found if f.fatal)


def verify_fatal(model: DocModel, name: str) -> list[str]:
    page = render_doc_file("bank", {name: ("h", render_section(model, facts(name), "bank"))})
    [checked] = verify_source_doc(MODULE, page, "bank", (), function=name, run_examples=False)
    return sorted(f.check.value for f in checked.findings if f.fatal)


S = DocModel(summary="Do it.")
CASES = [  # (function, model, the verdict both give)
    ("close", S.model_copy(update={"raises": (RaisesDoc(type="MemoError", condition="amount <= 0"),)}),
     ["wrong_exception_type"]),  # close() calls no other code and names no MemoError: only its text shows it
    ("close", S.model_copy(update={"raises": (RaisesDoc(type="AccountFrozen"),)}), []),
    ("close", S.model_copy(update={"raises": (RaisesDoc(type="sock_error"),)}), []),  # the module binds it
    ("close", S.model_copy(update={"raises": (RaisesDoc(type="nowhere.error"),)}), ["not_an_exception"]),
    ("close", S.model_copy(update={"raises": (RaisesDoc(type="errors.Frozen"),)}), []),  # `errors` is imported
    ("close", S.model_copy(update={"returns": "The account."}), ["invented_return"]),  # returns None
    ("close", S.model_copy(update={"returns": "None."}), []),
    ("label", S.model_copy(update={"description": "Returns a list of labels."}), ["wrong_return_type"]),
    ("label", S.model_copy(update={"summary": "Convert the number into a dict."}), ["wrong_return_type"]),
    ("label", S.model_copy(update={"description": "Returns a string."}), []),
    ("deposit", S.model_copy(update={"raises": (RaisesDoc(type="TypeError", condition="when amount is wrong"),)}),
     ["wrong_exception_type"]),  # paired with the ValueError it leaves out; deposit() calls nothing
    ("deposit", S.model_copy(update={"raises": (RaisesDoc(type="ValueError", message="amount must be non-negative"),)}),
     []),
    ("options", S.model_copy(update={"parameters": (ParameterDoc(name="size", description="the size"),)}),
     ["invented_parameter"]),  # **kwargs reaches _apply(colour=...) only
    ("options", S.model_copy(update={"parameters": (ParameterDoc(name="colour", description="the colour"),)}), []),
]


@pytest.mark.parametrize(("name", "model", "verdict"), CASES)
def test_the_loop_and_verify_agree(name: str, model: DocModel, verdict: list[str]) -> None:
    assert (loop_fatal(model, name), verify_fatal(model, name)) == (verdict, verdict)


@pytest.mark.parametrize(("name", "model", "verdict"), [case for case in CASES if case[2]])
def test_what_the_loop_repairs_verify_passes(name: str, model: DocModel, verdict: list[str]) -> None:
    found = check_with_sandbox(model, facts(name), CodeContext("bank", source_of(name), MODULE))
    repaired = repair(model, facts(name), [], found)
    assert repaired.changes and verify_fatal(repaired.model, name) == []
    assert loop_fatal(repaired.model, name) == []


def test_without_the_module_only_the_function_text_is_read() -> None:
    """The hook documents a staged blob: with no module text the source rule still reads the function's own."""
    model = S.model_copy(update={"raises": (RaisesDoc(type="MemoError", condition="amount <= 0"),)})
    found = check_with_sandbox(model, facts("close"), CodeContext("bank", source_of("close")))
    assert [f.check.value for f in found if f.fatal] == ["wrong_exception_type"]
    assert [f.where for f in found if f.fatal] == ["raises[0]"]



GUARD_MODULE = '''
def fetch(key, store):
    if not key:
        raise ValueError("a key is needed")
    return store.lookup(key)  # code it is handed: what it may raise is unknown


def check(key):
    if not key:
        raise ValueError("a key is needed")
    return key


def _lookup(key):
    return {}[key]
'''


@pytest.mark.parametrize("name, entry, kept, also", [
    # fatal, and of a kind only the page decides (the function calls nothing that could raise `Broken`): kept
    ("check", RaisesDoc(type="BrokenError", message="when it breaks"), [("wrong_exception_type", "raises[0]")], None),
    # what a callee may raise is a note on the page: nothing for repair to take out
    ("fetch", RaisesDoc(type="BrokenError", message="when it breaks"), [], "note"),
    # a misquoted message is fatal, but the model checks' own rule: not the page's to report again
    ("check", RaisesDoc(type="ValueError", message="a key is required"), [], "fatal"),
])
def test_only_the_page_s_fatal_kinds_are_its_contradictions(name: str, entry: RaisesDoc,
                                                           kept: list[tuple[str, str]], also: str | None) -> None:
    """Issue 28 item 5: `f.fatal and f.check in PAGE_KINDS` turned into `or` made each page note, and each fatal
    finding of the model checks' own kinds, a contradiction for repair to take out."""
    from docbot.loop.source_rules import PAGE_KINDS, page_contradictions
    from docbot.verify.checks.page import check_doc

    source = f"def {name}(" + GUARD_MODULE.split(f"def {name}(", 1)[1].split("\n\n\n", 1)[0] + "\n"
    facts = extract_facts(source, name)
    model = DocModel(summary="Fetch a key.", returns="The value.", raises=(entry,))
    found = page_contradictions(model, facts, CodeContext("shop", source, GUARD_MODULE))
    assert [(f.check, f.where) for f in found] == kept
    everything = check_doc(render_section(model, facts, "shop"), source, name, module_source=GUARD_MODULE)
    if also == "note":  # the page does find it: as a note of a page kind
        assert any(f.check in PAGE_KINDS and not f.fatal for f in everything)
    if also == "fatal":  # the page does find it: fatal, of a kind not the page's
        assert any(f.fatal and f.check not in PAGE_KINDS for f in everything)
