"""The doc model: the schema a model fills, and the lenient parse of what it answers."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from pydantic import ValidationError

from docbot.apidocs.render import CODE_LIMIT, MAX_ITEMS, render_section
from docbot.docmodel import (
    GRAMMAR_MAX_LENGTH,
    LARGE,
    PROFILES,
    SMALL,
    Bounds,
    DocModel,
    DocModelError,
    Example,
    ParameterDoc,
    RaisesDoc,
    doc_model_schema,
    param_key,
    parse_doc_model,
    writer_json,
    strip_answer,
    when_clause,
)
from docbot.facts.function import extract_facts
from docbot.mdtext import CELL_LIMIT, PROSE_LIMIT

GOOD = {
    "summary": "Add interest.", "description": "", "parameters": [{"name": "rate", "description": "the rate"}],
    "returns": "the new balance", "raises": [{"type": "ValueError", "message": "bad", "condition": "rate < 0"}],
    "examples": [{"code": "print(1)", "output": "1"}], "notes": "",
}


def _walk(node: Any) -> list[dict[str, Any]]:
    if isinstance(node, list):
        return [d for item in node for d in _walk(item)]
    if isinstance(node, dict):
        return [node] + [d for value in node.values() for d in _walk(value)]
    return []


def test_schema_is_inlined_strict_and_small() -> None:
    schema = doc_model_schema()
    text = json.dumps(schema)
    for key in ("$ref", "$defs", '"title"', '"default"', "anyOf"):
        assert key not in text, key
    objects = [d for d in _walk(schema) if d.get("type") == "object"]
    assert len(objects) == 4  # the model and its three item kinds
    for obj in objects:
        assert obj["required"] == list(obj["properties"])
        assert obj["additionalProperties"] is False
    assert len(text) < 3000  # a grammar a 135M model can follow


def test_schema_lists_the_fields_with_their_descriptions() -> None:
    props = doc_model_schema()["properties"]
    assert list(props) == ["summary", "description", "parameters", "returns", "raises", "examples", "notes"]
    assert all(prop["description"] for prop in props.values())
    param_props = props["parameters"]["items"]["properties"]
    assert list(param_props) == ["name", "description"]  # type and default come from the code
    assert list(props["raises"]["items"]["properties"]) == ["type", "message", "condition"]
    assert list(props["examples"]["items"]["properties"]) == ["code", "output"]
    assert "exact" in props["raises"]["items"]["properties"]["message"]["description"]


def test_schema_is_a_fresh_copy_each_time() -> None:
    first = doc_model_schema()
    first["properties"].clear()
    assert doc_model_schema()["properties"]


def test_model_is_frozen() -> None:
    model = DocModel.model_validate(GOOD)
    with pytest.raises(ValidationError):
        model.summary = "x"  # type: ignore[misc]


@pytest.mark.parametrize("wrapped", [
    json.dumps(GOOD),
    "```json\n" + json.dumps(GOOD) + "\n```",
    "```\n" + json.dumps(GOOD, indent=2) + "\n```\nHope this helps!",
    "<think>the user wants {json}</think>\n" + json.dumps(GOOD),
    "<THINK>unclosed thoughts } {",  # cut off mid-thought: nothing usable (checked below)
    "Sure! Here is the doc:\n" + json.dumps(GOOD) + "\nLet me know.",
])
def test_parse_unwraps_fences_think_blocks_and_chatter(wrapped: str) -> None:
    if "unclosed" in wrapped:
        with pytest.raises(DocModelError):
            parse_doc_model(wrapped)
        return
    assert parse_doc_model(wrapped) == DocModel.model_validate(GOOD)


def test_strip_answer_keeps_a_bare_object_as_it_is() -> None:
    assert strip_answer('  {"a": "}"}  ') == '{"a": "}"}'


@pytest.mark.parametrize(("answer", "reason"), [
    ("not json at all", "not JSON"),
    ("[1, 2]", "not an object"),
    ('"just a string"', "not an object"),
    ('{"description": "no summary"}', "does not fit"),
    ('{"summary": "s", "parameters": [{"description": "no name"}]}', "does not fit"),
    ('{"summary": 3}', "does not fit"),
])
def test_parse_rejects_what_is_not_a_doc_model(answer: str, reason: str) -> None:
    with pytest.raises(DocModelError, match=reason):
        parse_doc_model(answer)


def test_parse_rejects_a_json_array_wrapped_object() -> None:
    with pytest.raises(DocModelError, match="not an object|does not fit|not JSON"):
        parse_doc_model('[{"summary": "s"}, {"summary": "t"}]')


def test_nulls_and_missing_fields_are_empty() -> None:
    model = parse_doc_model('{"summary": "s", "description": null, "raises": null, "examples": null,'
                            ' "parameters": [{"name": "x", "description": null}], "extra": 1}')
    assert model.description == "" and model.raises == () and model.examples == () and model.notes == ""
    assert model.parameters == (ParameterDoc(name="x", description=""),)
    assert parse_doc_model('{"summary": "s", "raises": [{"type": "E", "message": null}]}').raises == (
        RaisesDoc(type="E"),)
    assert parse_doc_model('{"summary": "s", "examples": [{"code": "f()", "output": null}]}').examples == (
        Example(code="f()"),)


def test_parameters_given_as_a_mapping_are_accepted() -> None:
    model = parse_doc_model('{"summary": "s", "parameters": {"rate": "the rate", "days": "how long"}}')
    assert [(p.name, p.description) for p in model.parameters] == [("rate", "the rate"), ("days", "how long")]


@pytest.mark.parametrize(("name", "key"), [
    ("rate", "rate"), ("*args", "args"), ("**options", "options"), ("`rate`", "rate"),
    ("rate: float", "rate"), ("rate (float)", "rate"), ("rate=0.05", "rate"), ("  rate", "rate"),
    ("", ""), ("123", ""), ("- rate", ""),
])
def test_param_key(name: str, key: str) -> None:
    assert param_key(name) == key


@pytest.mark.parametrize(("condition", "clause"), [
    ("rate is negative", "when rate is negative"),
    ("When rate < 0", "When rate < 0"),
    ("if the file\n is missing", "if the file is missing"),
    ("on timeout", "on timeout"),
    ("", ""),
    ("   ", ""),
    ("whenever", "whenever"),
    ("ifdef set", "when ifdef set"),  # a word that only starts like "if"
])
def test_when_clause(condition: str, clause: str) -> None:
    assert when_clause(condition) == clause


def test_every_string_and_list_in_the_schema_is_bounded() -> None:
    nodes = _walk(doc_model_schema())
    strings = [n for n in nodes if n.get("type") == "string"]
    arrays = [n for n in nodes if n.get("type") == "array"]
    assert len(strings) == 11 and all(0 < n["maxLength"] <= PROSE_LIMIT for n in strings)
    assert len(arrays) == 4 and all(0 < n["maxItems"] <= 32 for n in arrays)  # the description's paragraphs too


LINE = "Each line of this description tells a caller one more thing it needs."  # 70 characters
LONG_DESCRIPTION = "\n".join(f"{LINE} ({i})" for i in range(8))  # 8 lines, ~600 characters: the cap
PARAMS = [f"p{i}" for i in range(12)]
LONG_SOURCE = f"def wide({', '.join(PARAMS)}):\n    return p0\n"


def _long_doc(**overrides: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "summary": "Combine twelve inputs into one value.", "description": [LONG_DESCRIPTION],
        "parameters": [{"name": p, "description": f"The {p} input. " + "It matters. " * 18} for p in PARAMS],
        "returns": "The first input.", "raises": [], "examples": [], "notes": "Long but legitimate. " * 19,
    }
    return {**doc, **overrides}


@pytest.mark.parametrize("name, doc, fits", [
    ("an 8-line description and 12 parameters", _long_doc(), True),
    ("12 parameters", _long_doc(parameters=[{"name": f"p{i}", "description": "x"} for i in range(12)]), True),
    ("a description at its cap", _long_doc(description=["d" * SMALL.paragraph]), True),
    ("a description one over its cap", _long_doc(description=["d" * (SMALL.paragraph + 1)]), False),
    ("a second paragraph where the profile has one", _long_doc(description=["d", "e"]), False),
    ("a description as one string, not its list", _long_doc(description="d"), False),
    ("13 parameters", _long_doc(parameters=[{"name": f"p{i}", "description": "x"} for i in range(13)]), False),
    ("a 1 MB description", _long_doc(description=["d" * 1_000_000]), False),
    ("a 1 MB parameter description", _long_doc(parameters=[{"name": "p0", "description": "d" * 1_000_000}]), False),
    ("a 1 MB notes", _long_doc(notes="n" * 1_000_000), False),
])
def test_the_schema_takes_long_docs_and_refuses_huge_fields(name: str, doc: dict[str, Any], fits: bool) -> None:
    errors = list(Draft202012Validator(doc_model_schema()).iter_errors(doc))
    assert (not errors) is fits, (name, [e.message[:80] for e in errors])


def test_a_long_doc_the_schema_allows_reaches_the_page_uncut() -> None:
    model = parse_doc_model(json.dumps(_long_doc()))
    page = render_section(model, extract_facts(LONG_SOURCE, "wide"), "pkg.mod")
    assert "docbot cut" not in page
    assert all(f"{LINE} ({i})" in page for i in range(8))
    assert all(f"<code>{p}</code>" in page for p in PARAMS) and page.count("It matters.") == 12 * 18


@pytest.mark.parametrize("field", ["description", "notes", "returns"])
def test_a_1_mb_field_is_still_cut_on_the_page(field: str) -> None:
    model = parse_doc_model(json.dumps(_long_doc(**{field: "w " * 500_000})))
    page = render_section(model, extract_facts(LONG_SOURCE, "wide"), "pkg.mod")
    assert "docbot cut" in page and len(page) < 60_000


def _description(bounds: Bounds) -> int:
    return bounds.paragraphs * bounds.paragraph + (bounds.paragraphs - 1) * 2  # joined by a blank line


@pytest.mark.parametrize("profile", sorted(PROFILES))
@pytest.mark.parametrize("field, limit", [
    *[(f, PROSE_LIMIT) for f in ("summary", "returns", "notes")],
    *[(f, CELL_LIMIT) for f in ("parameter_name", "parameter_description", "raise_type", "raise_message",
                                 "raise_condition")],
    *[(f, CODE_LIMIT) for f in ("example_code", "example_output")],
    *[(f, MAX_ITEMS) for f in ("raises", "examples")],
])
def test_each_bound_is_within_what_the_page_shows_whole(profile: str, field: str, limit: int) -> None:
    assert 0 < getattr(PROFILES[profile], field) <= limit


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_the_whole_description_is_within_the_page_and_each_string_within_the_grammar(profile: str) -> None:
    bounds = PROFILES[profile]
    assert _description(bounds) <= PROSE_LIMIT
    assert bounds.longest_string() <= GRAMMAR_MAX_LENGTH


def test_the_large_profile_holds_more_than_the_small_one_everywhere() -> None:
    small, large = vars(SMALL), vars(LARGE)
    assert all(large[name] >= small[name] for name in small) and _description(LARGE) > 4 * _description(SMALL)


@pytest.mark.parametrize(("given", "joined"), [
    (["One.", "Two."], "One.\n\nTwo."),
    ([" One. ", "", None, "Two."], "One.\n\nTwo."),  # blank and null paragraphs say nothing
    ("One string.", "One string."),  # a model that answers one string says the same
    ([], ""),
])
def test_a_description_s_paragraphs_are_joined_on_parse(given: Any, joined: str) -> None:
    assert parse_doc_model(json.dumps({"summary": "s", "description": given})).description == joined


def test_a_writer_is_shown_the_description_as_its_paragraphs() -> None:
    shown = json.loads(writer_json({"summary": "s", "description": "One.\n\nTwo\nlines.\n  \nThree."}))
    assert shown["description"] == ["One.", "Two\nlines.", "Three."]
    assert parse_doc_model(json.dumps(shown)).description == "One.\n\nTwo\nlines.\n\nThree."


def test_bounds_are_not_enforced_on_parse() -> None:
    model = parse_doc_model(json.dumps({"summary": "x" * 5000, "examples": [{"code": "f()"}] * 10}))
    assert len(model.summary) == 5000 and len(model.examples) == 10
