"""The witness's script: the doc's own lines up to a claim, written as one plain script a reader can run
(docs/design.md#witness). ``docbot.verify.checks.witness`` runs it and judges what it shows.

A step's script is the doc's steps before it as a console ran them (a line the doc shows raising sits in ``try``,
``_`` bound where the doc reads the last value, ``from __future__`` imports first), then the claim; its ``alone``
variant holds only the claim's own block and the doc's imports, for a reader who starts at that block. A name's
script looks the name up as the doc spells it, on what the doc's lines that bind it made, else on its module; a
signature's asks the live ``inspect.signature``.
"""

from __future__ import annotations

import ast
import functools
import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from docbot.sandbox.script import REQUIRED
from docbot.sandbox.step import Step
from docbot.verify.checks.environment import bound_names, loaded_names
from docbot.verify.checks.examples import Session

_SIGNATURE_CLAIMS = (
    (re.compile(r"documents a parameter `(\w+)` that"), None),
    (re.compile(r"the doc says `(\w+)` defaults to (.+?), (?:the code's default is|but it is required)"), ""),
    (re.compile(r"the doc says `(\w+)` is required, but it defaults"), REQUIRED),
)
_CLAIMS = ("mismatch", "raised", "no_exception", "wrong_exception")
_GOES_ON = "# the doc shows this raising; a console goes on"


@dataclass(frozen=True)
class Plan:
    """One witness: the script, where its claim and docbot's show line start, and how the child judges the claim
    (docbot.sandbox.script); ``expected`` is what the session saw, which the witness must show again."""

    code: str
    claim_line: int
    kind: str  # "step": a stated output or a working example; "name": an API name the doc uses
    stated: str
    expected: Mapping[str, str]
    show_line: int | None = None
    claim: Mapping[str, Any] = field(default_factory=dict)
    value: str = ""  # the script's name for the claimed value
    echo: bool = False  # the claim's last line is a value the console echoes
    steps: int = 1  # the doc's steps the script holds: each has the time limit of one
    parameter: str = ""  # a signature claim: the parameter the doc names ...
    default: str | None = None  # ... and the default it states (REQUIRED: none), or None for "it exists"
    alone: Plan | None = None  # a step's claim with only its own block before it (and the doc's imports)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "claim_line": self.claim_line, "show_line": self.show_line, "kind": self.kind,
                "claim": dict(self.claim), "value": self.value, "echo": self.echo, "parameter": self.parameter,
                "default": self.default}


def for_step(steps: Sequence[Step], session: Session, index: int) -> Plan | None:
    """The witness of step ``index``'s contradiction: the doc's lines before it that ran to their end, then it."""
    result = session.results.get(index)
    if result is None or result["status"] not in _CLAIMS:
        return None
    step = steps[index]
    expected = {"status": result["status"], "error": error_kind(result.get("error", "")),
                "got": str(result.get("got", ""))}
    plan = _step_plan(step, _prefix(steps, session, range(index)), expected, index + 1)
    own = [i for i in range(index) if steps[i].line == step.line]  # this block's steps before the claim
    if len(own) == index:
        return plan
    imports = [line for i in range(index) if i not in own for line in _imports(steps[i].code)]
    lines = _futures_first([*dict.fromkeys(imports), *_prefix(steps, session, own)])
    return replace(plan, alone=_step_plan(step, lines, expected, len(own) + 1))


def _step_plan(step: Step, lines: list[str], expected: Mapping[str, str], steps: int) -> Plan:
    claim, show, value, echo = _render(step)
    code = "\n".join([*lines, *claim, *([show] if show else [])]) + "\n"
    claim_line = len(lines) + 1
    return Plan(code, claim_line, "step", step.want.strip() or "it runs without an error", expected,
                claim_line + len(claim) if show else None, step.to_json(), value, echo, steps)


@functools.lru_cache(maxsize=1024)  # as _parses: asked of each earlier step for each claim's witness
def _imports(code: str) -> tuple[str, ...]:
    """The import statements at the top of a step (what a reader who starts at a later block runs first)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return ()
    return tuple(ast.get_source_segment(code, node) or "" for node in tree.body
                 if isinstance(node, (ast.Import, ast.ImportFrom)))


def for_name(dotted: str, line: int, how: str, steps: Sequence[Step], session: Session, package: str,
             modules: Sequence[str], text: str) -> Plan:
    """The witness of a name the package's source lacks: the name looked up as the doc spells it (``text``: the doc
    lines that use it), on what the doc's lines that bind it made, else on the imported module."""
    if how == "import":
        module, _, name = dotted.rpartition(".")
        claim = [f"from {module} import {name}"]
        return Plan("\n".join(claim) + "\n", 1, "name", f"`{dotted}` exists", {"status": "missing"})
    before = [i for i, step in enumerate(steps) if step.line < line or (how == "code" and step.line == line)]
    spelled = _spelled(dotted, text, _aliases(steps, before, package))
    head = spelled.split(".")[0]
    module = max((m for m in modules if dotted == m or dotted.startswith(m + ".")), key=len, default=package)
    imported = _last_import(steps, before, head)
    if imported is not None:
        lines = [imported]
    else:
        lines = _prefix(steps, session, _binding(steps, session, before, head)) or [f"import {module}"]
    code = "\n".join([*lines, f"print({spelled})"]) + "\n"
    return Plan(code, len(lines) + 1, "name", f"`{spelled}` exists", {"status": "missing"})


def for_signature(message: str, module: str) -> Plan | None:
    """The witness of a parameter or default a topic passage states for ``qualname`` (the message's first word, as
    docbot.verify.project.topics writes it) of ``module``: the live ``inspect.signature``."""
    qualname, _, said = message.partition(": ")
    for pattern, default in _SIGNATURE_CLAIMS:
        found = pattern.search(said)
        if found is not None:
            stated = found.group(2) if default == "" else default
            top = qualname.split(".")[0]
            code = f"import inspect\nfrom {module} import {top}\nsignature = inspect.signature({qualname})\n" \
                   "print(signature)\n"
            claim = f"`{qualname}` takes `{found.group(1)}`" + (f" with default {stated}" if stated else "")
            return Plan(code, 1, "signature", claim, {"status": "mismatch"}, value="signature",
                        parameter=found.group(1), default=stated)
    return None


def _prefix(steps: Sequence[Step], session: Session, indices: Sequence[int] | range) -> list[str]:
    """The lines of the steps at ``indices`` as a console session ran them: a step that raised (as the doc states
    or not) inside ``try``, as the console goes on after a traceback with what ran before it; what ran of a step
    that ended its session; nothing of one never run. Where the doc reads ``_`` (the console's last value), a
    console line's value is bound to it."""
    lines: list[str] = []
    last_value = any("_" in loaded_names(step.code) for step in steps)
    for i in indices:
        step, status = steps[i], session.results.get(i, {}).get("status")
        if not _parses(step.code):
            continue  # a console prints its SyntaxError and goes on; it defined nothing
        if status in ("raised", "wrong_exception") or (step.expect == "raises" and status is not None):
            body = textwrap.indent(step.code.rstrip("\n"), "    ").splitlines()
            lines += ["try:", *body, f"except BaseException:  {_GOES_ON}", "    pass"]
        elif status is not None:
            echoed = last_value and step.expect == "output"
            lines += _render(step)[0] if echoed else step.code.rstrip("\n").splitlines()
        elif session.heads.get(i):
            lines += session.heads[i].splitlines()  # the part of a step that ended its session
    return _futures_first(lines)


_FUTURE = re.compile(r"^\s*from\s+__future__\s+import\b")


def _futures_first(lines: list[str]) -> list[str]:
    """A console takes ``from __future__ import ...`` at any prompt; a script only first (future's docs: a later
    block's import made every witness after it a SyntaxError)."""
    futures = [line.strip() for line in lines if _FUTURE.match(line)]
    return [*dict.fromkeys(futures), *(line for line in lines if not _FUTURE.match(line))]


def _render(step: Step) -> tuple[list[str], str | None, str, bool]:
    """The claim's lines, docbot's show line, the name of the claimed value, and whether it is echoed: a bare value
    the console would show becomes ``_ = value`` and ``print(repr(_))``."""
    code = step.code.strip("\n")
    if step.expect == "value":
        target = step.target or "_"
        lines = code.splitlines() if step.target else [f"_ = {code.strip()}"]
        return lines, f"print(repr({target}))", target, False
    echoes = step.expect in ("output", "raises") or step.echo_last
    try:
        body = ast.parse(code).body
    except SyntaxError:
        return code.splitlines(), None, "", False
    last = body[-1] if body else None
    if not echoes or not isinstance(last, ast.Expr):
        return code.splitlines(), None, "", False
    lines = code.splitlines()
    value = ast.get_source_segment(code, last.value) or ""
    return [*lines[: last.lineno - 1], f"_ = {value}"], "print(repr(_))", "_", True


def _aliases(steps: Sequence[Step], indices: Sequence[int], package: str) -> dict[str, str]:
    """The doc's names for the package's, as its imports up to ``indices`` bind them (docbot.verify.read
    .references reads them the same way)."""
    from docbot.verify.read.references import code_references

    aliases = {package: package}
    for i in indices:
        code_references(steps[i].code, steps[i].line, package, aliases)
    return aliases


def _spelled(dotted: str, text: str, aliases: Mapping[str, str]) -> str:
    """``dotted`` as the doc writes it in ``text`` (``p.f`` under ``import pkg as p``), else as it is."""
    for head, target in sorted(aliases.items(), key=lambda item: -len(item[1])):
        if dotted == target or dotted.startswith(target + "."):
            spelled = head + dotted[len(target):]
            if re.search(rf"(?<![\w.]){re.escape(spelled)}(?!\w)", text):
                return spelled
    return dotted


def _last_import(steps: Sequence[Step], indices: Sequence[int], head: str) -> str | None:
    """The import statement that last binds ``head`` in the steps at ``indices``, when an import is what binds it
    last (``from marshmallow import fields``): the whole witness prefix a module's name needs."""
    last: str | None = None
    for i in indices:
        try:
            tree = ast.parse(steps[i].code)
        except SyntaxError:
            continue
        bindings: list[tuple[int, str | None]] = []  # (line, the import's source, or None for any other binding)
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and head in {
                    (a.asname or a.name).split(".")[0] for a in node.names}:
                bindings.append((node.lineno, ast.unparse(node)))
            elif (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id == head) or (
                    isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == head):
                bindings.append((node.lineno, None))  # a doc variable: the lines that make it are the prefix
        last = max(bindings, key=lambda b: b[0])[1] if bindings else last
    return last


def _binding(steps: Sequence[Step], session: Session, indices: Sequence[int], head: str) -> list[int]:
    """The steps among ``indices`` that bind ``head``, with the ones those read from, in doc order: the smallest
    prefix that makes what the doc's name stands for."""
    needed, chosen = {head}, []
    for i in reversed(indices):
        ran = i in session.results or bool(session.heads.get(i))
        if ran and bound_names(steps[i].code) & needed:
            chosen.append(i)
            needed |= loaded_names(steps[i].code)
    return sorted(chosen)


@functools.lru_cache(maxsize=1024)  # asked of each step of the doc for each claim's witness
def _parses(code: str) -> bool:
    try:
        compile(code, "<doc>", "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def error_kind(error: str) -> str:
    return error.split(":", 1)[0].strip()
