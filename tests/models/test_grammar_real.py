"""The doc model's schema as llama.cpp's grammar, run for real: a bound llama.cpp cannot take does not
raise, it kills the process (docbot.docmodel.GRAMMAR_MAX_LENGTH). So the call runs in a child process,
and the test asserts the child lived and answered JSON, on both bindings; with the description's bound at
3,200 llama-cpp-python 0.3.36 died by SIGSEGV, as `docbot demo` did (xllamacpp's grammar takes it)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from docbot.docmodel import GRAMMAR_MAX_LENGTH, doc_model_schema
from docbot.models.bindings import Binding

pytest_plugins = ["tests.support.fixtures"]  # smollm_path: the bundled SmolLM2 GGUF, one per session

CHILD = """
import json, sys
from langchain_core.messages import HumanMessage
from docbot.docmodel import doc_model_schema
from docbot.models.bindings import Binding
from docbot.models.embedded import EmbeddedChatModel
model = EmbeddedChatModel(model_path=sys.argv[1], max_tokens=int(sys.argv[2]), binding=Binding(sys.argv[3]))
schema = json.loads(sys.argv[4]) if len(sys.argv) > 4 else doc_model_schema()
print(json.dumps(model.invoke([HumanMessage("Document def f(x): return x")], format=schema).text))
"""


def _child(smollm_path: Path, binding: Binding, *extra: str, max_tokens: int = 12) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", CHILD, str(smollm_path), str(max_tokens), binding.value, *extra],
                          capture_output=True, text=True, timeout=600, check=False)


def _strings(node: object) -> list[int]:
    if isinstance(node, dict):
        found = [node["maxLength"]] if node.get("type") == "string" and "maxLength" in node else []
        return found + [n for value in node.values() for n in _strings(value)]
    if isinstance(node, list):
        return [n for value in node for n in _strings(value)]
    return []


def test_every_string_bound_is_one_the_grammar_takes() -> None:
    bounds = _strings(doc_model_schema())
    assert bounds and max(bounds) <= GRAMMAR_MAX_LENGTH, bounds


@pytest.mark.parametrize("binding", list(Binding))
def test_the_doc_model_schema_runs_as_a_real_grammar(smollm_path: Path, binding: Binding) -> None:
    done = _child(smollm_path, binding, max_tokens=24)
    assert done.returncode == 0, (done.returncode, done.stderr[-400:])
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert re.match(r'(```json\s*)?\{\s*"summary"', answer), answer  # grammar-constrained: the schema's first key


@pytest.mark.parametrize(("bound", "lives"), [(GRAMMAR_MAX_LENGTH, True), (3_200, False)])
def test_the_bound_is_where_llama_cpp_stops_taking_it(smollm_path: Path, bound: int, lives: bool) -> None:
    # the control: past the bound the child really dies, so the test above could fail
    schema = {"type": "object", "properties": {"d": {"type": "string", "maxLength": bound}}, "required": ["d"]}
    done = _child(smollm_path, Binding.LLAMA_CPP_PYTHON, json.dumps(schema), max_tokens=4)
    assert (done.returncode == 0) is lives, (bound, done.returncode, done.stderr[-300:])
