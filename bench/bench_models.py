"""Time and tokens per role for one docbot-size call set: a draft, a critique, an adjudication.

    python -m bench.bench_models                       # embedded SmolLM2, docbot defaults
    python -m bench.bench_models --max-tokens 256 --num-ctx 4096
    python -m bench.bench_models --backend ollama --base-url http://gpu-box:11434

Uses docbot's own prompts on a realistic sample function (parameters, defaults, two raises), so the
prompt sizes are the ones a real run sends. Prints the load time (embedded: loading the GGUF) and,
per role, wall time, tokens in/out and output tokens per second (over the whole call, prompt included);
for the embedded backend also llama.cpp's raw prompt and generation speed.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from docbot.facts.function import extract_facts
from docbot.loop import prompts
from docbot.loop.state import Critique
from docbot.models.factory import build_models
from docbot.config.sources import load_settings
from docbot.config.settings import ROLES

SAMPLE = '''\
def chunked(items: list[str], size: int = 100, *, drop_empty: bool = True, sep: str | None = None) -> list[list[str]]:
    """Split items into lists of at most size elements."""
    if size <= 0:
        raise ValueError(f"size must be positive, got {size}")
    if sep is not None and not isinstance(sep, str):
        raise TypeError("sep must be a string or None")
    chunks: list[list[str]] = []
    current: list[str] = []
    for item in items:
        if drop_empty and not item.strip():
            continue
        if sep is not None:
            item = item.replace(sep, " ")
        current.append(item)
        if len(current) == size:
            chunks.append(current)
            current = []
    if current:
        chunks.append(current)
    return chunks
'''
QUALNAME = "chunked"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="embedded", choices=["embedded", "ollama", "openai"])
    parser.add_argument("--base-url")
    parser.add_argument("--max-tokens", type=int, default=None, help="default: docbot's (1024)")
    parser.add_argument("--num-ctx", type=int, default=None, help="default: docbot's (8192)")
    parser.add_argument("--model", action="append", default=[], metavar="ROLE=NAME")
    return parser.parse_args()


def call(model: Any, messages: list[Any]) -> tuple[Any, float]:
    started = time.perf_counter()
    answer = model.invoke(messages)
    return answer, time.perf_counter() - started


def report(role: str, raw: Any, seconds: float) -> None:
    usage = getattr(raw, "usage_metadata", None) or {}
    tokens_in, tokens_out = usage.get("input_tokens", 0), usage.get("output_tokens", 0)
    rate = tokens_out / seconds if seconds else 0.0
    print(f"{role:<12} {seconds:7.2f} s  {tokens_in:6d} in  {tokens_out:6d} out  {rate:7.1f} out-tokens/s")


def raw_speed(settings: Any) -> None:
    """llama.cpp alone, for the embedded backend: prompt evaluation and generation in tokens/s."""
    from docbot.models.bindings import Binding
    from docbot.models.embedded import embedded_model_path, load_llama

    # llama-cpp-python's low-level eval, which times prompt evaluation apart from generation
    llama = load_llama(str(embedded_model_path(settings, "GENERATOR")), settings.num_ctx,
                       binding=Binding.LLAMA_CPP_PYTHON).llama.native
    tokens = llama.tokenize((SAMPLE * 4).encode())[:512]
    llama.reset()
    started = time.perf_counter()
    llama.eval(tokens)
    prompt_rate = len(tokens) / (time.perf_counter() - started)
    started = time.perf_counter()
    reply = llama.create_completion("def add(a, b):", max_tokens=64, temperature=0.0)
    generated = reply["usage"]["completion_tokens"]
    print(f"llama.cpp    {prompt_rate:7.1f} prompt-tokens/s, "
          f"{generated / (time.perf_counter() - started):5.1f} generated-tokens/s ({generated} tokens)")


def main() -> None:
    args = parse_args()
    registry = {role: name for role, name in (m.split("=", 1) for m in args.model)}
    overrides: dict[str, Any] = {"backend": args.backend, "base_url": args.base_url,
                                 "max_tokens": args.max_tokens, "num_ctx": args.num_ctx}
    if registry:
        from docbot.config.settings import DEFAULT_MODELS
        overrides["model_registry"] = {**DEFAULT_MODELS, **registry}
    settings = load_settings(None, overrides=overrides)
    started = time.perf_counter()
    models = build_models(settings)
    print(f"backend {settings.backend}, num_ctx {settings.num_ctx}, max_tokens {settings.max_tokens}; "
          f"models: {', '.join(settings.model_for(r) for r in ROLES)}")
    print(f"load         {time.perf_counter() - started:7.2f} s")
    if settings.backend == "embedded":
        raw_speed(settings)

    facts = extract_facts(SAMPLE, QUALNAME).to_prompt()
    draft, seconds = call(models.generator, prompts.writer_messages(
        prompts.DRAFT, qualname=QUALNAME, module="sample.text", source=SAMPLE, facts=facts))
    report("GENERATOR", draft, seconds)
    structured = models.critic.with_structured_output(Critique, include_raw=True)
    critique, seconds = call(structured, prompts.critic_messages(
        qualname=QUALNAME, source=SAMPLE, facts=facts, truth="(none)", draft=draft.text))
    report("CRITIC", critique["raw"], seconds)
    print(f"{'':12} critique {'parsed' if critique['parsed'] else 'did not parse'}")
    final, seconds = call(models.adjudicator, prompts.adjudicator_messages(
        qualname=QUALNAME, source=SAMPLE, concern="(none)", draft=draft.text))
    report("ADJUDICATOR", final, seconds)


if __name__ == "__main__":
    main()
