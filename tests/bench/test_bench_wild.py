"""The wild benchmark's corpus is well-formed, and its scoring reads the CLI as intended (cheap: nothing is run)."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from bench.truth.run import kept_wild_section
from bench.truth.wild.adapter import Checked, Found, read_output
from bench.truth.wild.run import HERE, new_fatal, summarise, with_section
from bench.truth.wild.sdists import resolve

MANIFEST: dict[str, Any] = json.loads((HERE / "manifest.json").read_text(encoding="utf-8"))
DOCS = {d["id"]: d for d in MANIFEST["docs"]}


def test_corpus_is_as_large_as_issue_10_asks() -> None:
    assert len(DOCS) == len(MANIFEST["docs"]) >= 25
    assert len({d["package"] for d in DOCS.values()}) >= 10
    assert len(MANIFEST["planted"]) >= 25
    assert len({p["class"] for p in MANIFEST["planted"]}) >= 7
    assert sum(d["verdict"] == "correct" for d in DOCS.values()) >= 20


@pytest.mark.parametrize("doc_id", sorted(DOCS))
def test_doc_entry_points_at_stored_files(doc_id: str) -> None:
    doc = DOCS[doc_id]
    for key in ("source", "doc", "licence"):
        assert resolve(doc[key]).is_file(), doc[key]
    assert doc["verdict"] in ("correct", "wrong")
    assert (doc["verdict"] == "wrong") == bool(doc["true_errors"])
    assert doc["functions"] and doc["package"] and doc["version"] and doc["module"]


@pytest.mark.parametrize("doc_id", sorted(DOCS))
def test_doc_is_a_verbatim_cut_of_its_origin(doc_id: str) -> None:
    doc = DOCS[doc_id]
    first, last = doc["origin"]["lines"]
    origin = resolve(doc["origin"]["file"]).read_text(encoding="utf-8").splitlines(keepends=True)
    assert (HERE / doc["doc"]).read_text(encoding="utf-8") == "".join(origin[first - 1 : last]).rstrip("\n") + "\n"


@pytest.mark.parametrize("doc_id", sorted(DOCS))
def test_documented_functions_are_in_the_source(doc_id: str) -> None:
    tree = ast.parse(resolve(DOCS[doc_id]["source"]).read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names |= {f"{node.name}.{f.name}" for f in node.body if isinstance(f, ast.FunctionDef)}
    assert set(DOCS[doc_id]["functions"]) <= names


@pytest.mark.parametrize("doc_id", sorted(d for d in DOCS if DOCS[d]["true_errors"]))
def test_true_errors_quote_their_doc(doc_id: str) -> None:
    text = (HERE / DOCS[doc_id]["doc"]).read_text(encoding="utf-8")
    for error in DOCS[doc_id]["true_errors"]:
        assert error["text"] in text and error["class"] and error["truth"]
        assert error["function"] in DOCS[doc_id]["functions"]


@pytest.mark.parametrize("edit", MANIFEST["planted"], ids=[p["id"] for p in MANIFEST["planted"]])
def test_planted_edit_is_one_edit_of_a_correct_doc(edit: dict[str, Any]) -> None:
    doc = DOCS[edit["doc"]]
    assert doc["verdict"] == "correct"
    assert (HERE / doc["doc"]).read_text(encoding="utf-8").count(edit["old"]) == 1
    assert edit["new"] != edit["old"] and edit["class"] and edit["why_wrong"]


def test_planted_ids_are_unique() -> None:
    ids = [p["id"] for p in MANIFEST["planted"]]
    assert len(ids) == len(set(ids))


def test_sources_are_import_roots() -> None:
    """docbot's importable_as walks up while __init__.py exists: the stored sdists must stop that walk."""
    assert not (resolve("sources/") / "__init__.py").exists()
    for doc in DOCS.values():
        root = resolve("/".join(Path(doc["source"]).parts[:2]))
        assert not (root / "__init__.py").exists(), root


TODAY = json.dumps([{"qualname": "parse", "section_found": True, "findings": [
    {"kind": "missing_parameter", "message": "m1", "doc_text": "", "code_fact": "", "fatal": True},
    {"kind": "example_mismatch", "message": "m2", "doc_text": "", "code_fact": "", "fatal": True},
    {"kind": "invented_exception", "message": "m3", "doc_text": "", "code_fact": "", "fatal": False}]}])


@pytest.mark.parametrize("stdout, function, expected", [
    (TODAY, "parse", [("missing_parameter", True, True), ("example_mismatch", True, False),
                      ("invented_exception", False, False)]),
    (json.dumps({"functions": [{"qualname": "A.f", "findings": [
        {"kind": "missing_parameter", "message": "m", "fatal": False, "category": "gap"},
        {"kind": "wrong_default", "message": "m", "fatal": True, "category": "contradiction"}]}]}), "A.f",
     [("missing_parameter", False, True), ("wrong_default", True, False)]),
    (json.dumps([{"qualname": "g", "findings": [{"kind": "x", "message": "m", "fatal": True, "gap": True}]}]), "g",
     [("x", True, True)]),
])
def test_adapter_reads_fatal_and_gap(stdout: str, function: str, expected: list[tuple[str, bool, bool]]) -> None:
    checked = read_output(function, stdout, "", 1)
    assert checked.section_found and not checked.error
    assert [(f.kind, f.fatal, f.gap) for f in checked.findings] == expected


def test_adapter_keeps_only_the_asked_function_and_reports_cli_errors() -> None:
    other = json.dumps([{"qualname": "other", "section_found": True, "findings": [
        {"kind": "k", "message": "m", "fatal": True}]}])
    assert read_output("parse", other, "", 1) == Checked("parse", False, (), 1)
    missing = json.dumps([{"qualname": "parse", "section_found": False, "findings": []}])
    assert not read_output("parse", missing, "", 0).section_found
    failed = read_output("parse", "", "Traceback...\ndocbot: no public function parse\n", 2)
    assert failed.error == "docbot: no public function parse" and failed.exit_code == 2


def test_adapter_keeps_the_docs_examples_outside_every_section() -> None:
    # A usage guide has no section per function: its examples' findings come as "(doc examples)".
    payload = json.dumps([{"qualname": "parse", "section_found": False, "findings": []},
                          {"qualname": "(doc examples)", "section_found": True, "findings": [
                              {"kind": "example_mismatch", "message": "m", "severity": "contradiction",
                               "fatal": True}]}])
    checked = read_output("parse", payload, "", 1)
    assert not checked.section_found
    assert [(f.qualname, f.kind, f.fatal) for f in checked.findings] == [("(doc examples)", "example_mismatch", True)]


def _checked(*messages: str) -> list[Checked]:
    return [Checked("f", True, tuple(Found("f", "example_mismatch", m, True, False) for m in messages), 1)]


@pytest.mark.parametrize("before, after, fresh", [
    (_checked("a"), _checked("a"), []),
    (_checked("a"), _checked("a", "b"), ["b"]),
    (_checked("a"), _checked("a", "a"), ["a"]),  # one more of the same finding is new
    (_checked("in /tmp/docbot-wild-x1/original/d.md: 2"), _checked("in /tmp/docbot-wild-x1/e_1/d.md: 2"), []),
    (_checked("a"), [Checked("f", True, (Found("f", "k", "b", False, False),), 0)], []),  # notes never count
])
def test_a_planted_error_is_detected_by_a_new_fatal_finding(before: list[Checked], after: list[Checked],
                                                            fresh: list[str]) -> None:
    assert [f.message for f in new_fatal(before, after)] == fresh


@pytest.mark.parametrize("text, expected", [
    ("# R\n\nold table\n", "# R\n\nold table\n\n## Wild corpus\nnew\n"),
    ("# R\n\n## Wild corpus\nold\n", "# R\n\n## Wild corpus\nnew\n"),
    ("# R\n\n## Wild corpus\nold\n\n## Other\nkept\n", "# R\n\n## Wild corpus\nnew\n\n## Other\nkept\n"),
])
def test_results_section_is_replaced_and_others_kept(text: str, expected: str) -> None:
    assert with_section(text, "## Wild corpus\nnew\n") == expected


def _found(kind: str, fatal: bool = True, gap: bool = False, message: str = "m") -> Found:
    return Found("f", kind, message, fatal, gap)


def test_summary_counts_false_positives_gaps_and_detections() -> None:
    manifest = {"docs": [{"id": "ok1", "verdict": "correct", "true_errors": []},
                         {"id": "ok2", "verdict": "correct", "true_errors": []},
                         {"id": "bad", "verdict": "wrong", "true_errors": [{"class": "example_raises"}]}],
                "planted": [{"id": "ok1#1", "doc": "ok1", "class": "wrong_default"},
                            {"id": "ok2#1", "doc": "ok2", "class": "wrong_default"}]}
    originals = {"ok1": [Checked("f", True, (_found("missing_parameter", gap=True), _found("note", fatal=False)), 1)],
                 "ok2": [Checked("f", False, (), 0)],
                 "bad": [Checked("f", True, (_found("example_raises"),), 1)]}
    planted = {"ok1#1": originals["ok1"], "ok2#1": [Checked("f", True, (_found("wrong_default"),), 1)]}
    summary = summarise(manifest, originals, planted)
    assert summary["correct_docs"] == 2
    assert summary["false_positive_docs"] == ["ok1"]
    assert (summary["fatal_on_correct"], summary["gaps_reported_fatal"]) == (1, 1)
    assert summary["false_contradictions"] == {}
    assert summary["no_section"] == ["ok2"]
    assert summary["per_class"] == {"wrong_default": [1, 2]} and summary["missed"] == {"wrong_default": ["ok1#1"]}
    assert summary["true_error_docs"]["bad"]["contradictions"] == ["example_raises: m"]


@pytest.mark.parametrize("text, kept", [
    pytest.param("# R\n\nx\n\n## Wild corpus\n\nw1\n### sub\nw2\n\n## Other\n\no\n",
                 "## Wild corpus\n\nw1\n### sub\nw2\n",
                 id="the wild section up to the next H2"),
    pytest.param("# R\n\nx\n\n## Wild corpus\n\nw\n", "## Wild corpus\n\nw\n", id="the wild section at the end"),
    pytest.param("# R\n\nx\n", "", id="no wild section"),
])
def test_the_truth_bench_keeps_the_wild_section(text: str, kept: str) -> None:
    assert kept_wild_section(text) == kept
