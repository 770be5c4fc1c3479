"""The typed doc model: what the writing models fill in, and docbot renders.

The models never write Markdown structure. They fill this schema; the heading, the signature, the
types and the defaults come from the code, and ``docbot.apidocs.render`` turns the two into a section. The
field descriptions travel to the model as its instructions, so they are short and concrete.

The schema sent to a model (``doc_model_schema``) is deliberately plain: every field required, no
``$ref``, no defaults, no extra keys. A grammar built from it (llama.cpp, Ollama ``format``, a
``json_schema`` response format) is then small and unambiguous even for a 135M model. Every string has a
``maxLength`` and every list a ``maxItems``: without them SmolLM2 repeats list items until it runs out
of tokens and the answer is cut mid-string (measured: 700 tokens, no closing brace). The bounds are in
the schema only; parsing does not enforce them (the renderer bounds what it shows). Parsing is lenient in
the other direction too: a missing field or a ``null`` becomes empty, and parameters given as a
mapping are accepted.

The bounds (``CAPS``) are the ones a 135M model was measured to close its JSON within, so a doc longer than
they allow is beyond what the writer can draft (a person adds it; docbot keeps a person's section). No string
bound may pass ``GRAMMAR_MAX_LENGTH``: llama.cpp's grammar cannot take it (tests/models/test_grammar_real.py).
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

__all__ = [
    "CAPS", "GRAMMAR_MAX_LENGTH", "DocModel", "DocModelError", "Example", "ParameterDoc", "RaisesDoc",
    "doc_model_schema", "param_key", "parse_doc_model", "strip_answer", "strip_think", "when_clause",
    "without_controls",
]

_FROZEN = ConfigDict(frozen=True, extra="ignore")


# llama.cpp turns a string's maxLength into that many nested optional rules; past about 1,100 its grammar
# parser gives up ("number of rules that are going to be repeated ... exceeds sane defaults") and the
# process dies with a segfault, not an error (seen with llama-cpp-python 0.3.36 at 1,200: `docbot demo`
# crashed when the description's cap was 3,200). tests/models/test_grammar_real.py runs the schema there.
GRAMMAR_MAX_LENGTH = 1_000

# Field -> its bound: characters for a string, items for a list (the schema's maxLength / maxItems). These are
# the bounds SmolLM2 was measured to close its JSON within (a writer's 1,024 tokens): raised to a 3,200-character
# description, 32 parameters and a "as long as the code needs it" wording, the embedded demo's writer never
# closed its JSON again (3 of 3 answers unparsable in every round), so they stay here until the bounds can
# follow the writer's token budget. Each is under what the page shows whole (PROSE_LIMIT, CELL_LIMIT, MAX_ITEMS).
CAPS: dict[str, int] = {
    "summary": 160, "description": 600, "returns": 240, "notes": 400,
    "parameters": 12, "raises": 6, "examples": 3,
    "parameter.name": 60, "parameter.description": 240,
    "raise.type": 60, "raise.message": 200, "raise.condition": 160,
    "example.code": 600, "example.output": 300,
}


def _max(characters: int) -> dict[str, Any]:
    return {"maxLength": characters}  # in the schema only: see the module docstring


def _items(count: int) -> dict[str, Any]:
    return {"maxItems": count}


class _Part(BaseModel):
    model_config = _FROZEN

    @model_validator(mode="before")
    @classmethod
    def _null_is_empty(cls, data: Any) -> Any:
        """``null`` from a model means "nothing to say": empty text or no items, not an error."""
        if not isinstance(data, dict):
            return data
        empty = {name: "" if field.annotation is str else () for name, field in cls.model_fields.items()}
        return {key: empty.get(key, value) if value is None else value for key, value in data.items()}

    @field_validator("*", mode="after")
    @classmethod
    def _no_control_characters(cls, value: Any) -> Any:
        """A model's text is rendered into Markdown and into source files: a NUL (or any other control
        character but tab and newline) would make a source uncompilable, so none survives validation."""
        return without_controls(value) if isinstance(value, str) else value


# C0 and C1 controls but tab and newline, DEL, and the Unicode line and paragraph separators (which
# ``str.splitlines`` and some editors take for line ends, so a docstring line would split in two).
# and the bidi controls and zero-width characters of "Trojan Source" (docbot.mdtext.INVISIBLE; issue 30)
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064"
                       "\u2066-\u2069\ufeff]")


def without_controls(text: str) -> str:
    """``text`` with every control character but tab and newline removed; a CR line end becomes LF."""
    return _CONTROLS.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


class ParameterDoc(_Part):
    name: str = Field(description="The parameter name exactly as in the signature.",
                      json_schema_extra=_max(CAPS["parameter.name"]))
    description: str = Field(default="", description="What the parameter means and what values it accepts.",
                             json_schema_extra=_max(CAPS["parameter.description"]))


class RaisesDoc(_Part):
    type: str = Field(description="The exception class the code raises, e.g. ValueError.",
                      json_schema_extra=_max(CAPS["raise.type"]))
    message: str = Field(default="", description="The exact error message from the raise statement, or empty.",
                         json_schema_extra=_max(CAPS["raise.message"]))
    condition: str = Field(default="", description="When it is raised, e.g. 'rate is negative'.",
                           json_schema_extra=_max(CAPS["raise.condition"]))


class Example(_Part):
    code: str = Field(description="Python code that calls the function; it is run to check it.",
                      json_schema_extra=_max(CAPS["example.code"]))
    output: str = Field(default="", description="Exactly what the code prints, or empty if it prints nothing.",
                        json_schema_extra=_max(CAPS["example.output"]))


class DocModel(_Part):
    """One function's documentation as data."""

    summary: str = Field(description="One sentence: what the function does.",
                         json_schema_extra=_max(CAPS["summary"]))
    description: str = Field(default="", description="A short paragraph with details a caller needs.",
                             json_schema_extra=_max(CAPS["description"]))
    parameters: tuple[ParameterDoc, ...] = Field(
        default=(), description="One entry per parameter of the signature, in order.",
        json_schema_extra=_items(CAPS["parameters"]))
    returns: str = Field(default="", description="What the function returns, or empty if it returns None.",
                         json_schema_extra=_max(CAPS["returns"]))
    raises: tuple[RaisesDoc, ...] = Field(
        default=(), description="One entry per exception the code raises.",
        json_schema_extra=_items(CAPS["raises"]))
    examples: tuple[Example, ...] = Field(default=(), description="Short runnable examples.",
                                          json_schema_extra=_items(CAPS["examples"]))
    notes: str = Field(default="", description="Anything else a caller must know, or empty.",
                       json_schema_extra=_max(CAPS["notes"]))

    @field_validator("parameters", mode="before")
    @classmethod
    def _mapping_to_list(cls, value: Any) -> Any:
        """Small models often answer ``{"rate": "the rate"}``; that says the same thing."""
        if isinstance(value, dict):
            return [{"name": str(k), "description": v} for k, v in value.items()]
        return value


def doc_model_schema() -> dict[str, Any]:
    """The JSON schema sent to the model: inlined, every field required, no titles or defaults."""
    schema = DocModel.model_json_schema()
    definitions = schema.pop("$defs", {})
    return _simplify(schema, definitions)


def _simplify(node: Any, definitions: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_simplify(item, definitions) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = copy.deepcopy(definitions[node["$ref"].rsplit("/", 1)[-1]])
        target.update({k: v for k, v in node.items() if k != "$ref"})  # keep the field's own description
        return _simplify(target, definitions)
    out = {k: _simplify(v, definitions) for k, v in node.items() if k not in ("title", "default")}
    if out.get("type") == "object" and "properties" in out and isinstance(out["properties"], dict):
        out["required"] = list(out["properties"])
        out["additionalProperties"] = False
    return out


class DocModelError(ValueError):
    """A model answer that is not a doc model, even after unwrapping; the caller retries."""


# A reasoning block (closed, or cut off before its end) that a thinking model puts before its answer.
_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```[ \t]*(?:json)?[ \t]*\n(?P<body>.*?)\n?```", re.DOTALL | re.IGNORECASE)


def strip_think(text: str) -> str:
    """The text without ``<think>...</think>`` blocks, an unclosed one included."""
    return _THINK.sub("", text)


def strip_answer(text: str) -> str:
    """The JSON object inside a model answer: no ``<think>`` block, no fence, no chatter around it."""
    text = strip_think(text).strip()
    fenced = _FENCE.search(text)
    if fenced:
        text = fenced["body"].strip()
    start, end = text.find("{"), text.rfind("}")
    return text[start : end + 1] if 0 <= start < end else text


def parse_doc_model(text: str) -> DocModel:
    """A model's answer as a ``DocModel``; raises ``DocModelError`` saying what was wrong."""
    body = strip_answer(text)
    try:
        data = json.loads(body)
    except json.JSONDecodeError as err:
        raise DocModelError(f"the answer is not JSON ({err.msg} at character {err.pos})") from err
    if not isinstance(data, dict):
        raise DocModelError("the answer is JSON but not an object")
    try:
        return DocModel.model_validate(data)
    except ValidationError as err:
        raise DocModelError(f"the answer does not fit the doc model: {err.errors()[0]['msg']}") from err


_IDENTIFIER = re.compile(r"[\s*`'\"]*([A-Za-z_]\w*)")


def param_key(name: str) -> str:
    """The identifier a model means by a parameter name: ``*args`` / ``rate: float`` / `` `rate` `` -> name.

    Returns "" when the name holds no identifier at all.
    """
    match = _IDENTIFIER.match(name)
    return match.group(1) if match else ""


def when_clause(condition: str) -> str:
    """A model's condition as a clause: ``rate is negative`` -> ``when rate is negative``; one line."""
    text = " ".join(condition.split())
    if not text or re.match(r"(?i)(when|if|whenever|unless|on|for|raised)\b", text):
        return text
    return f"when {text}"
