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

The bounds (``Bounds``) follow the function and the writer (docs/design.md#bounds): the lists follow the code
(a parameter entry per parameter, a raises entry per raise site plus a margin), the strings follow the role's
model (``SMALL``, what a 135M model was measured to close its JSON within; ``LARGE`` for 7-9B models on a
server). No string bound may pass ``GRAMMAR_MAX_LENGTH``: llama.cpp's grammar cannot take it
(tests/models/test_grammar_real.py), so a long description is a list of bounded paragraphs.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

__all__ = [
    "GRAMMAR_MAX_LENGTH", "LARGE", "PROFILES", "SMALL", "Bounds", "DocModel", "DocModelError", "Example",
    "ParameterDoc", "RaisesDoc", "doc_model_schema", "paragraphs", "param_key", "parse_doc_model", "strip_answer",
    "strip_think", "when_clause", "without_controls", "writer_json",
]

_FROZEN = ConfigDict(frozen=True, extra="ignore")


# llama.cpp turns a string's maxLength into that many nested optional rules; past about 1,100 its grammar
# parser gives up ("number of rules that are going to be repeated ... exceeds sane defaults") and the
# process dies with a segfault, not an error (seen with llama-cpp-python 0.3.36 at 1,200: `docbot demo`
# crashed when the description's cap was 3,200). tests/models/test_grammar_real.py runs the schema there.
GRAMMAR_MAX_LENGTH = 1_000

@dataclass(frozen=True)
class Bounds:
    """What the schema lets a writer write: characters for a string, items for a list (``maxLength`` /
    ``maxItems``). A description is a list of paragraphs, each a bounded string: one capped string could not
    hold a long doc within ``GRAMMAR_MAX_LENGTH``. The list bounds follow the function
    (``docbot.loop.bounds``); the string bounds follow the writer (``SMALL`` and ``LARGE``)."""

    summary: int
    paragraphs: int
    paragraph: int
    returns: int
    notes: int
    parameters: int
    raises: int
    examples: int
    parameter_name: int
    parameter_description: int
    raise_type: int
    raise_message: int
    raise_condition: int
    example_code: int
    example_output: int

    def longest_string(self) -> int:
        return max(self.summary, self.paragraph, self.returns, self.notes, self.parameter_name,
                   self.parameter_description, self.raise_type, self.raise_message, self.raise_condition,
                   self.example_code, self.example_output)


# What SmolLM2-135M was measured to close its JSON within (the embedded demo's writer, 512-1,024 tokens): raised
# to a 3,200-character description, 32 parameters and "as long as the code needs it", it never closed its JSON
# again (3 of 3 answers unparsable in every round). The list bounds here are the defaults a function without
# facts gets; a real call's follow its code.
SMALL = Bounds(summary=160, paragraphs=1, paragraph=600, returns=240, notes=400, parameters=12, raises=6,
               examples=3, parameter_name=60, parameter_description=240, raise_type=60, raise_message=200,
               raise_condition=160, example_code=600, example_output=300)
# For the 7-9B models of Ollama and OpenAI-compatible servers: a long real doc whole (six paragraphs of
# description, subprocess.Popen's 26 parameters with their text), every string under GRAMMAR_MAX_LENGTH and
# under what the page shows whole (PROSE_LIMIT for the joined description, CELL_LIMIT for a table cell).
LARGE = Bounds(summary=300, paragraphs=6, paragraph=640, returns=1_000, notes=1_000, parameters=32, raises=12,
               examples=3, parameter_name=80, parameter_description=500, raise_type=80, raise_message=500,
               raise_condition=500, example_code=1_000, example_output=1_000)
PROFILES: dict[str, Bounds] = {"small": SMALL, "large": LARGE}
PARAGRAPH_BREAK = "\n\n"  # how a description's paragraphs are joined into the one text docbot renders


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
    name: str = Field(description="The parameter name exactly as in the signature.")
    description: str = Field(default="", description="What the parameter means and what values it accepts.")


class RaisesDoc(_Part):
    type: str = Field(description="The exception class the code raises, e.g. ValueError.")
    message: str = Field(default="", description="The exact error message from the raise statement, or empty.")
    condition: str = Field(default="", description="When it is raised, e.g. 'rate is negative'.")


class Example(_Part):
    code: str = Field(description="Python code that calls the function; it is run to check it.")
    output: str = Field(default="", description="Exactly what the code prints, or empty if it prints nothing.")


class DocModel(_Part):
    """One function's documentation as data."""

    summary: str = Field(description="One sentence: what the function does.")
    # A string here; the schema asks for a list of paragraphs (``_bounded``), which parsing joins.
    description: str = Field(default="", description="Paragraphs with the details a caller needs.")
    parameters: tuple[ParameterDoc, ...] = Field(
        default=(), description="One entry per parameter of the signature, in order.")
    returns: str = Field(default="", description="What the function returns, or empty if it returns None.")
    raises: tuple[RaisesDoc, ...] = Field(
        default=(), description="One entry per exception the code raises.")
    examples: tuple[Example, ...] = Field(default=(), description="Short runnable examples.")
    notes: str = Field(default="", description="Anything else a caller must know, or empty.")

    @field_validator("parameters", mode="before")
    @classmethod
    def _mapping_to_list(cls, value: Any) -> Any:
        """Small models often answer ``{"rate": "the rate"}``; that says the same thing."""
        if isinstance(value, dict):
            return [{"name": str(k), "description": v} for k, v in value.items()]
        return value

    @field_validator("description", mode="before")
    @classmethod
    def _paragraphs_joined(cls, value: Any) -> Any:
        """The schema's list of paragraphs as one text; a model that answers one string says the same."""
        if isinstance(value, (list, tuple)):
            return PARAGRAPH_BREAK.join(str(p).strip() for p in value if p is not None and str(p).strip())
        return value


def paragraphs(text: str) -> list[str]:
    """A description as the schema's list: its paragraphs, split at blank lines."""
    return [part.strip() for part in re.split(r"\n[ \t]*\n", text) if part.strip()]


def writer_json(data: dict[str, Any]) -> str:
    """A doc model's data as a writer is shown it (a previous draft, a docstring read into the model): in the
    schema's own shape, so the description is its list of paragraphs."""
    shown = dict(data)
    if isinstance(shown.get("description"), str):
        shown["description"] = paragraphs(shown["description"])
    return json.dumps(shown, ensure_ascii=False, separators=(",", ":"))  # compact: fewer tokens


def doc_model_schema(bounds: Bounds = SMALL) -> dict[str, Any]:
    """The JSON schema sent to a writer: inlined, every field required, no titles or defaults, every string
    and list bounded by ``bounds`` (without them SmolLM2 repeats list items until it runs out of tokens)."""
    schema = DocModel.model_json_schema()
    definitions = schema.pop("$defs", {})
    return _bounded(_simplify(schema, definitions), bounds)


def _bounded(schema: dict[str, Any], bounds: Bounds) -> dict[str, Any]:
    props = schema["properties"]
    for name in ("summary", "returns", "notes"):
        props[name]["maxLength"] = getattr(bounds, name)
    props["description"] = {"type": "array", "description": props["description"]["description"],
                            "items": {"type": "string", "maxLength": bounds.paragraph},
                            "maxItems": bounds.paragraphs}
    lists = {"parameters": ("parameter", ("name", "description")), "raises": ("raise", ("type", "message",
             "condition")), "examples": ("example", ("code", "output"))}
    for name, (prefix, fields) in lists.items():
        props[name]["maxItems"] = getattr(bounds, name)
        for field in fields:
            props[name]["items"]["properties"][field]["maxLength"] = getattr(bounds, f"{prefix}_{field}")
    return schema


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
        # strict=False: a raw newline inside a string (SmolLM2 writes them) is no reason to ask again
        data = json.loads(body, strict=False)
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
