"""TEST SUPPORT: whether llama.cpp's own grammar, compiled from a JSON schema, accepts a text, token by token.

This is the path a grammar-bound writer answers through (the embedded backend, llama.cpp's server, Ollama's
``format``): the schema becomes a GBNF grammar (llama-cpp-python's converter) and llama.cpp's grammar sampler
masks every token the grammar forbids. Feeding it the text's tokens one at a time says whether a writer could
have answered that text at all. A grammar llama.cpp cannot take kills the process instead of raising
(docbot.docmodel.GRAMMAR_MAX_LENGTH), so it runs in a child; only the vocabulary is loaded.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

CHILD = r"""
import ctypes, json, math, sys
import llama_cpp
from llama_cpp import Llama, LlamaGrammar

llm = Llama(model_path=sys.argv[1], vocab_only=True, verbose=False)
vocab = llama_cpp.llama_model_get_vocab(llm._model.model)

def verdict(schema, text):
    grammar = LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
    sampler = llama_cpp.llama_sampler_init_grammar(vocab, grammar._grammar.encode(), grammar._root.encode())
    def allowed(token):
        data = (llama_cpp.llama_token_data * 1)(llama_cpp.llama_token_data(token, 1.0, 0.0))
        candidates = llama_cpp.llama_token_data_array(data, 1, -1, False)
        llama_cpp.llama_sampler_apply(sampler, ctypes.byref(candidates))
        return not math.isinf(data[0].logit)
    try:
        tokens = llm.tokenize(text.encode("utf-8"), add_bos=False, special=False)
        for index, token in enumerate(tokens):
            if not allowed(token):
                return f"rejected at token {index}: {llm.detokenize(tokens[max(index - 8, 0):index + 1])!r}"
            llama_cpp.llama_sampler_accept(sampler, token)
        return "accepted" if allowed(llama_cpp.llama_vocab_eos(vocab)) else "incomplete"
    finally:
        llama_cpp.llama_sampler_free(sampler)

cases = json.loads(open(sys.argv[2], encoding="utf-8").read())
print(json.dumps([verdict(schema, text) for schema, text in cases]))
"""


def grammar_verdicts(model_path: Path, cases: list[tuple[dict[str, Any], str]]) -> list[str]:
    """For each (schema, text): "accepted", "incomplete" (a prefix of an answer) or "rejected at token N: ..."."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as handle:
        json.dump(cases, handle)
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, str(model_path), handle.name], capture_output=True,
                              text=True, timeout=900, check=False)
    finally:
        Path(handle.name).unlink()
    assert done.returncode == 0, (done.returncode, done.stderr[-600:])  # a signal: llama.cpp took no grammar
    verdicts: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    return verdicts
