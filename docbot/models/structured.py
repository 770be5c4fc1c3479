"""Structured output for docbot's own chat models, with the same contract as ChatOllama's.

``ChatOllama`` and ``ChatOpenAI`` implement ``with_structured_output(schema, include_raw=True)``
natively. docbot's own models (embedded llama.cpp, replay, test fakes) get it from this mixin: the
JSON schema is bound as the ``format`` keyword (what Ollama calls it; each model maps it to its own
grammar), and the reply is parsed into ``{"raw", "parsed", "parsing_error"}``. A reply that does not
parse never raises here: the critic node decides how to retry.
"""

from __future__ import annotations

from typing import Any, Callable

from langchain_core.messages import AIMessage
from langchain_core.output_parsers import PydanticOutputParser
from langchain_core.runnables import Runnable, RunnableLambda
from pydantic import BaseModel

from docbot.docmodel import strip_think as strip_think  # one definition; callers here keep this name


# A schema's own answer parser (e.g. ``docmodel.parse_doc_model``, lenient where a small model slips).
AnswerParser = Callable[[str], BaseModel]


def parse_structured(raw: AIMessage, schema: type[BaseModel], parser: AnswerParser | None = None) -> dict[str, Any]:
    """The include_raw contract: never raises on bad model output. Reasoning blocks are not the JSON."""
    try:
        if parser is not None:
            parsed = parser(raw.text)
        else:
            parsed = PydanticOutputParser(pydantic_object=schema).invoke(AIMessage(strip_think(raw.text)))
    except Exception as err:  # OutputParserException, ValidationError: both mean "the model got it wrong"
        return {"raw": raw, "parsed": None, "parsing_error": err}
    return {"raw": raw, "parsed": parsed, "parsing_error": None}


class JsonSchemaStructuredMixin:
    """Adds ``with_structured_output`` to a BaseChatModel that understands a ``format`` kwarg."""

    def with_structured_output(self, schema: Any, *, include_raw: bool = False,
                               format_schema: dict[str, Any] | None = None, parser: AnswerParser | None = None,
                               **_: Any) -> Runnable[Any, Any]:
        """``format_schema`` replaces the schema sent to the model (a plainer one makes a smaller grammar);
        ``parser`` replaces the pydantic parser."""
        bound = self.bind(format=format_schema or schema.model_json_schema())  # type: ignore[attr-defined]

        def parse(raw: AIMessage) -> Any:
            result = parse_structured(raw, schema, parser)
            if include_raw:
                return result
            if result["parsing_error"] is not None:
                raise result["parsing_error"]
            return result["parsed"]

        return bound | RunnableLambda(parse)


def without_reasoning(answer: dict[str, Any], schema: type[BaseModel],
                      parser: AnswerParser | None = None) -> dict[str, Any]:
    """A native structured answer (ChatOllama, ChatOpenAI) that failed on a reasoning block, parsed again
    without it; any other answer unchanged."""
    raw = answer.get("raw")
    if answer.get("parsed") is not None or not isinstance(raw, AIMessage) or "<think" not in raw.text.lower():
        return answer
    return parse_structured(raw, schema, parser)
