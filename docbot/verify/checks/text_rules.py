"""Rules about text that is not documentation, and about raises types that are not exceptions.

One set of rules for both checkers (docs/design.md#truth-checks): the loop's exact checks on a doc
model (docbot.verify.checks.model) and ``docbot verify`` on a page (docbot.verify.checks.page) call these.

- A raises type must name an exception class: a builtin one, one the code raises, or a name the
  function's module defines or imports. ``error``, ``json``, ``list`` name no exception a reader can catch.
- A field that repeats the prompt (a model echoing "Your previous documentation of `x` scored 0/100"),
  or holds a template placeholder (``{message}``) outside code, is not documentation. These two rules are for
  text a model wrote (``Author.MODEL``: the loop's doc model, a section under docbot's own marker); a person's
  doc is never held to them: its braces are a formula's (``(1 + r/n)^{nt}``), its toolchain's markup (MyST's
  ``{func}``), or a message the code formats, and no measurement of the rule was ever made on people's text.
- An empty summary, raises type or example code is a field the schema needs and the model left empty:
  an empty model must never be approved.
"""

from __future__ import annotations

import ast
import builtins
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from pathlib import Path

from docbot.facts.function import Facts
from docbot.facts.module import module_tree
from docbot.verify.findings import Finding, Check
from docbot.verify.read.markdown import entries, paragraphs, parts_labelled

_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)
_TEMPLATE_FIELD = re.compile(r"\{[A-Za-z_]\w*\}")
# A formula's braces are not a template: TeX math (``$A = P(1 + r/n)^{nt}$``, ``\(x_{i}\)``) and a superscript
# or subscript written bare (``(1 + r/n)^{nt}``).
_MATH = re.compile(r"\$\$.+?\$\$|\$[^$\n]+\$|\\\(.+?\\\)|\\\[.+?\\\]", re.DOTALL)
_SCRIPT = re.compile(r"[\^_]\{[^{}]*\}")
_MYST_ROLE = re.compile(r"\{[\w:.+-]+\}(?=`)")  # {func}`close`, {py:class}`Box`: MyST's role markup
MIN_ECHO_WORDS = 5  # a shorter run of a prompt's words ("the source code") is ordinary prose


class Author(Enum):
    """Who wrote the text a rule reads: the echo and placeholder rules hold a model's text only."""

    MODEL = "model"  # the loop's doc model, or a section under docbot's ``<!-- docbot:section -->`` marker
    PERSON = "person"  # anything else: a README, a docs page, a person's section


def is_builtin_exception(name: str) -> bool:
    value = getattr(builtins, name, None)
    return isinstance(value, type) and issubclass(value, BaseException)


@dataclass(frozen=True)
class ModuleNames:
    """What a module binds: every name (classes, functions, assignments, imports), and the ones that
    name a module (``import json``): ``json`` is no exception class, ``json.JSONDecodeError`` may be."""

    bound: frozenset[str]
    modules: frozenset[str]


@lru_cache(maxsize=8)  # the same module for every section of a doc: walked once, not once per section
def module_names(module_source: str) -> ModuleNames | None:
    """The names the module binds at any depth; None when it is unknown or does not parse, so nothing
    is judged against it."""
    if not module_source.strip():
        return None
    tree = module_tree(module_source)
    if tree is None:
        return None
    bound: set[str] = set()
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            bound.add(node.name)
        elif isinstance(node, ast.Import):
            modules |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            bound |= {alias.asname or alias.name for alias in node.names}
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
    return ModuleNames(frozenset(bound), frozenset(modules))


def resolves_to_exception(stated: str, facts: Facts, names: ModuleNames | None) -> bool:
    """Whether a stated raises type can name an exception class.

    A builtin exception or a type the code raises always can. A CapWords name (``AccountFrozen``,
    ``json.JSONDecodeError``) may come from a callee: whether the code raises it is the invented-exception
    check's to judge, not this one's. A lower-case name (``error``, ``json``, ``list``) names an exception
    only when the module binds it to something other than a module (``from socket import error``), or, for
    a dotted one (``socket.error``), when its head is bound; with the module unknown, only a dotted one
    can. Anything that is not a dotted name is no class at all.
    """
    text = stated.strip().strip("`'\"").strip()
    if not re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", text):
        return False
    head, last = text.split(".", 1)[0], text.rsplit(".", 1)[-1]
    raised = {r.type_name for r in facts.raises if r.exception}
    if is_builtin_exception(last) or last in raised or last[:1].isupper():
        return True
    if names is None:
        return "." in text
    if "." in text:
        return head in names.bound | names.modules
    return text in names.bound and text not in names.modules


def prompt_sentences(templates: Sequence[str]) -> tuple[re.Pattern[str], ...]:
    """Patterns for the fixed sentences of the prompt templates (placeholders match anything short)."""
    patterns: list[re.Pattern[str]] = []
    for template in templates:
        text = re.sub(r"\n(?![\n-])", " ", template.replace("{{", "{").replace("}}", "}"))  # wrapped lines
        for sentence in re.split(r"(?<=[.:;!?])\s+|\n", text):
            fixed = _TEMPLATE_FIELD.sub(" ", sentence)
            if len(re.findall(r"[A-Za-z]+", fixed)) < MIN_ECHO_WORDS:
                continue
            parts = [re.escape(" ".join(piece.split())) for piece in _TEMPLATE_FIELD.split(sentence)]
            patterns.append(re.compile(r".{0,80}?".join(p for p in parts if p) if len(parts) > 1 else parts[0],
                                       re.IGNORECASE))
    return tuple(patterns)


# The prompts live with the loop (docbot/loop/prompts.py), which ``docbot verify`` must not import: the loop is
# heavy (LangChain) and depends on verify, so an import would be a room cycle. Their text is read from that file
# instead, as data: the templates TEMPLATES names, one source for both checkers (tests/verify/test_echo_cli.py).
_PROMPTS_FILE = Path(__file__).resolve().parents[2] / "loop" / "prompts.py"


@functools.lru_cache(maxsize=1)
def docbot_prompts() -> tuple[re.Pattern[str], ...]:
    """The sentences of docbot's own prompt templates, for ``docbot verify``; none when the file is unreadable."""
    try:
        tree = ast.parse(_PROMPTS_FILE.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return ()
    texts: dict[str, str] = {}
    names: list[str] = []
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        target, value = node.targets[0].id, node.value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            texts[target] = value.value
        elif target == "TEMPLATES" and isinstance(value, ast.Tuple):
            names = [item.id for item in value.elts if isinstance(item, ast.Name)]
    return prompt_sentences([texts[name] for name in names if name in texts])


def echoes(text: str, sentences: Sequence[re.Pattern[str]]) -> str | None:
    """The first prompt sentence ``text`` repeats, or None."""
    flat = " ".join(text.split())
    return next((found.group(0) for pattern in sentences if (found := pattern.search(flat))), None)


def placeholder(text: str) -> str | None:
    """A template placeholder in the prose of ``text`` (code spans are code, a formula's braces are math, and
    MyST's ``{func}`` before a code span is a role)."""
    found = _TEMPLATE_FIELD.search(_SCRIPT.sub("", _MATH.sub("", _CODE_SPAN.sub("", _MYST_ROLE.sub("", text)))))
    return found.group(0) if found else None


_LEAD_SPAN = re.compile(r"^\s*(?:[-*+]\s+)?(`+)\s*(?P<name>[^`]+?)\s*\1")


def page_findings(section: str, facts: Facts, module_source: str = "",
                  prompts: Sequence[re.Pattern[str]] = (), author: Author = Author.PERSON) -> list[Finding]:
    """The same rules on a page: a Raises entry whose leading code names no exception class (docbot writes
    ``- `ValueError`: ...``), and, on a section a model wrote, a prompt repeated or a placeholder in its prose."""
    found: list[Finding] = []
    for paragraph in paragraphs(section) if author is Author.MODEL else ():
        echoed, hole = echoes(paragraph, prompts), placeholder(paragraph)
        if echoed is not None:
            found.append(Finding(Check.ECHOED_PROMPT, f"the doc repeats docbot's prompt ({echoed!r})",
                                 paragraph, "a prompt sentence, not documentation"))
        elif hole is not None:
            found.append(Finding(Check.TEMPLATE_PLACEHOLDER, f"the doc holds a template placeholder {hole}",
                                 paragraph, "an unfilled template field"))
    names = module_names(module_source)
    parameters = {p.name for p in facts.parameters}
    for part in parts_labelled(section, "raises"):
        for entry in entries(part.text):
            lead = _LEAD_SPAN.match(entry.text)
            if lead is None or lead["name"] in parameters or resolves_to_exception(lead["name"], facts, names):
                continue
            found.append(Finding(Check.NOT_AN_EXCEPTION, f"the doc says {facts.name}() raises "
                                 f"`{lead['name']}`, which is not an exception class", entry.text,
                                 "not a builtin exception, a type the code raises, or a name its module binds"))
    return found
