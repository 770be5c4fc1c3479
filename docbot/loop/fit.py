"""Prompts that fit: every request is measured against its role's context before it is sent.

A server cuts what does not fit without a word (Ollama drops the start of the prompt: the instructions,
the schema's field list), and the loop would then score what the model guessed. So each prompt's tokens are
counted first (docs/design.md#fit): by the model's own tokenizer where the backend has one (the embedded
llama.cpp), else as characters over ``chars_per_token``, the fewest characters per token measured on docbot's
prompts. The budget is the role's ``num_ctx`` less its ``max_tokens`` (the answer needs that room) and a
re-ask's reserve (a parse retry adds one short message to the same prompt).

A prompt over the budget is built again from a reduced source: the signature, the docstring and the lines
that raise and return, which with the facts block are what the exact checks hold a doc to. When even that
does not fit, the function fails with ``PromptTooLarge``, naming the setting to raise; nothing is ever sent
that the server would cut.
"""

from __future__ import annotations

import ast
import math
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage

from docbot.errors import PromptTooLarge
from docbot.config.settings import Role, Settings

MESSAGE_TOKENS = 8  # a message's chat-template markers, where no tokenizer counts them
REASK_TOKENS = 256  # a parse retry's one extra message: the re-ask text, a 300-character error, a 160 excerpt
REDUCED = "the signature, the facts, the lines that raise and return, and the docstring"
GAP = "..."  # where the reduced source leaves lines out


@dataclass(frozen=True)
class Budget:
    """What one role's request may hold."""

    role: Role
    num_ctx: int
    max_tokens: int

    @property
    def prompt(self) -> int:
        return self.num_ctx - self.max_tokens - REASK_TOKENS

    def settings_hint(self, need: int) -> str:
        wanted = need + self.max_tokens + REASK_TOKENS
        return (f"raise num_ctx (or model_registry.{self.role}.num_ctx) to at least {wanted}, on a model "
                "that has that context")


def budget(settings: Settings, role: Role) -> Budget:
    return Budget(role, settings.num_ctx_for(role), settings.max_tokens_for(role))


def estimate(messages: list[BaseMessage], chars_per_token: float) -> int:
    """Tokens by the characters bound: never fewer than a real tokenizer counts on docbot's prompts."""
    return sum(math.ceil(len(m.text) / chars_per_token) + MESSAGE_TOKENS for m in messages)


def counter_for(model: Any, settings: Settings) -> Callable[[list[BaseMessage]], int]:
    """The model's own token count where it has one, else the characters bound."""
    exact = getattr(model, "count_prompt_tokens", None)

    def count(messages: list[BaseMessage]) -> int:
        # A model may have a counter that cannot answer (an embedded binding without a tokenizer call).
        counted = exact(messages) if callable(exact) else None
        return counted if isinstance(counted, int) else estimate(messages, settings.chars_per_token)
    return count


@dataclass(frozen=True)
class Fitted:
    messages: list[BaseMessage]
    tokens: int  # as counted
    warning: str  # "" when the full prompt fit


def fitted(build: Callable[[str], list[BaseMessage]], source: str, qualname: str, limit: Budget,
           count: Callable[[list[BaseMessage]], int], what: str) -> Fitted:
    """The messages ``build(source)`` makes when they fit ``limit``, else those of the reduced source;
    raises PromptTooLarge when neither fits. ``what`` names the request in the warning and the error."""
    messages = build(source)
    need = count(messages)
    if need <= limit.prompt:
        return Fitted(messages, need, "")
    smaller = build(reduced_source(source, qualname))
    need_reduced = count(smaller)
    over = (f"the {what} prompt ({need} tokens) is over what {limit.role}'s context leaves it ({limit.prompt}: "
            f"num_ctx {limit.num_ctx} less max_tokens {limit.max_tokens} and a re-ask's {REASK_TOKENS})")
    if need_reduced <= limit.prompt:
        return Fitted(smaller, need_reduced, f"{over}; sent a reduced prompt: {REDUCED}")
    raise PromptTooLarge(f"{qualname}: {over}, and so is the reduced one ({need_reduced} tokens: {REDUCED}); "
                         f"{limit.settings_hint(need_reduced)}")


def reduced_source(source: str, qualname: str) -> str:
    """``source`` cut to its signature (decorators included), its docstring and every statement that raises
    or returns, in order, with ``...`` where lines are left out; ``source`` itself when it does not parse."""
    text = textwrap.dedent(source)
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return source
    name = qualname.rsplit(".", 1)[-1]
    function = next((node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and node.name == name), None)
    if function is None or not function.body:
        return source
    lines = text.splitlines()
    first = function.decorator_list[0].lineno if function.decorator_list else function.lineno
    keep = set(range(first, function.body[0].lineno))  # the signature: up to the first statement
    for node in _kept_statements(function):
        keep.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return "\n".join(_with_gaps(lines, sorted(keep)))


def _kept_statements(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.stmt]:
    from docbot.facts.function import own_nodes  # the function's own nodes, not those of a nested def

    body = function.body
    docstring = body[:1] if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
        and isinstance(body[0].value.value, str) else []
    return [*docstring, *(n for n in own_nodes(function) if isinstance(n, (ast.Raise, ast.Return)))]


def _with_gaps(lines: list[str], numbers: list[int]) -> list[str]:
    out: list[str] = []
    for index, number in enumerate(numbers):
        if index and number != numbers[index - 1] + 1:
            out.append(_gap_before(lines[number - 1]))
        out.append(lines[number - 1])
    if numbers and numbers[-1] < len(lines):
        out.append(_gap_before(lines[numbers[-1] - 1]))
    return out


def _gap_before(line: str) -> str:
    """``...`` at ``line``'s indentation."""
    return line[: len(line) - len(line.lstrip())] + GAP
