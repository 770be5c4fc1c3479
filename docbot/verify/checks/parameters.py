"""Parameter and default checks: what the doc says about the parameters against the facts of the code.

A parameter the doc names that the function does not take, or a default it states wrongly, is a
contradiction. A parameter the doc leaves out is a gap, never fatal: a usage guide need not list
everything. A parameter counts as documented when the doc lists it, names it in its prose or
signature, or passes it by keyword in an example; ``**kwargs`` counts as documented when the doc lists
keywords it carries. The keywords ``**kwargs`` carries to a callee in the same module
(docbot.verify.checks.kwargs_reach) are parameters too: a wrong default for one is a contradiction, and a
keyword outside them is a contradiction once every route of ``**kwargs`` is known (else a note).
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Mapping

from docbot.facts.function import Facts, Parameter
from docbot.verify.read.doc_params import (NO_CONSTANTS, DocParam, doc_signatures, documented_params,
                                           inline_default_items, same_default)
from docbot.verify.findings import Check, Finding, Severity, lower
from docbot.verify.checks.kwargs_reach import NOTHING, Carried
from docbot.verify.read.markdown import code_blocks, prose

_NOT_PARAMETERS = {"self", "cls", "return", "returns", "none", "raises", "yields"}


def check_parameters(section: str, facts: Facts, carried: Carried = NOTHING,
                     constants: Mapping[str, str] = NO_CONSTANTS) -> list[Finding]:
    """``constants``: the module's named literals (docbot.facts.module), so `timeout=TIMEOUT` is held to its value."""
    real = {p.name: p for p in facts.documentable_parameters}
    listed = documented_params(section)
    documented = listed if listed is not None else inline_default_items(section)
    findings = _check_signatures(section, facts, real, constants)
    passed = keywords_in_examples(section, call_names(facts))
    named = {d.name for d in documented} | passed
    if listed is None:  # no Parameters list: naming it in the prose or a signature is documenting it
        named |= set(re.findall(r"[A-Za-z_]\w*", prose(section)))
        named |= {name for sig in doc_signatures(section, call_names(facts)) for name, _ in sig.params}
    extra = [d.name for d in documented if d.name.lower() not in _NOT_PARAMETERS and d.name not in real]
    for param in real.values():
        # "**options: any of color, size" or a list of the keywords it carries documents **kwargs
        kwargs_listed = param.kind == "var-keyword" and bool(extra)
        if param.name not in named and not kwargs_listed:
            findings.append(_missing(param, facts))
    for doc_param in documented:
        if doc_param.name.lower() in _NOT_PARAMETERS or doc_param.name in {p.name for p in facts.parameters}:
            findings += _check_default(doc_param, real.get(doc_param.name), constants)
        elif doc_param.name in carried.parameters:
            findings += _check_default(doc_param, carried.parameters[doc_param.name], constants)
        else:
            findings.append(_invented(doc_param.name, doc_param.text, facts, carried))
    return _unique(findings)


def keywords_in_examples(section: str, names: set[str]) -> set[str]:
    """Keyword arguments the doc's code passes in calls to the function (``f(x, rate=0.05)``)."""
    found: set[str] = set()
    for block in code_blocks(section):
        source = "\n".join(re.sub(r"^\s*(?:>>>|\.\.\.) ?", "", line) for line in block.text.splitlines()
                           if not line.strip() or line.lstrip().startswith((">>>", "...")) or ">>>" not in block.text)
        try:
            tree = ast.parse(textwrap.dedent(source))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _called_name(node.func) in names:
                found |= {k.arg for k in node.keywords if k.arg}
    return found


def _called_name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _missing(param: Parameter, facts: Facts) -> Finding:
    default = f" (default {param.default})" if param.default is not None else ""
    return Finding(Check.MISSING_PARAMETER,
                   f"parameter `{param.starred_name}`{default} of {facts.name}() is not documented",
                   code_fact=param.display())


def _invented(name: str, doc_text: str, facts: Facts, carried: Carried = NOTHING) -> Finding:
    real = ", ".join(p.name for p in facts.documentable_parameters) or "none"
    open_kwargs = any(p.kind == "var-keyword" for p in facts.parameters) and not carried.closed
    note = " (it may be passed through **kwargs; say so)" if open_kwargs else ""
    if carried.closed:
        note = f" (its **kwargs carries only: {', '.join(carried.parameters)})"
    found = Finding(Check.INVENTED_PARAMETER,
                    f"the doc documents a parameter `{name}` that {facts.name}() does not "
                    f"take (its parameters: {real}){note}", doc_text, facts.signature())
    return lower(found, Severity.NOTE, "it may be passed through **kwargs") if open_kwargs else found


def _check_default(doc_param: DocParam, param: Parameter | None,
                   constants: Mapping[str, str] = NO_CONSTANTS) -> list[Finding]:
    if param is None or param.is_variadic:
        return []
    if param.default is None:
        if doc_param.default is not None and doc_param.default.lower() != "none":
            return [_wrong_default(param, doc_param, f"the doc says `{param.name}` defaults to "
                                   f"{doc_param.default}, but it is required (no default)")]
        return []
    if doc_param.says_required:
        return [_wrong_default(param, doc_param, f"the doc says `{param.name}` is required, but it defaults "
                               f"to {param.default}")]
    if doc_param.default is not None and same_default(doc_param.default, param.default, constants) is False:
        value = constants.get(param.default.strip())
        shown = f"{param.default} (= {value})" if value is not None else param.default
        return [_wrong_default(param, doc_param, f"the doc says `{param.name}` defaults to {doc_param.default}, "
                               f"the code's default is {shown}")]
    return []


def _wrong_default(param: Parameter, doc_param: DocParam, message: str) -> Finding:
    return Finding(Check.WRONG_DEFAULT, message, doc_text=doc_param.text, code_fact=param.display())


def _check_signatures(section: str, facts: Facts, real: dict[str, Parameter],
                      constants: Mapping[str, str]) -> list[Finding]:
    findings: list[Finding] = []
    for signature in doc_signatures(section, call_names(facts)):
        shown = {name: default for name, default in signature.params if name not in ("self", "cls")}
        for name, default in shown.items():
            if name not in real:
                findings.append(_invented(name, signature.text, facts))
            elif default is not None:
                doc_param = DocParam(name, default, False, signature.text)
                findings += _check_default(doc_param, real[name], constants)
        for name, param in real.items():
            if name not in shown:
                findings.append(_missing(param, facts))
    return _unique(findings)


def call_names(facts: Facts) -> set[str]:
    """How a doc writes the function in a signature: ``__init__`` is shown as ``Class(...)``."""
    if facts.name == "__init__" and "." in facts.qualname:
        return {facts.name, facts.qualname.split(".")[-2]}
    return {facts.name}


def _unique(findings: list[Finding]) -> list[Finding]:
    seen: set[str] = set()
    out = []
    for finding in findings:
        if finding.message not in seen:
            seen.add(finding.message)
            out.append(finding)
    return out
