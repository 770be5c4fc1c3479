"""Parameter, default and return checks: what the doc says against the facts of the code.

A parameter the doc names that the function does not take, or a default it states wrongly, is a
contradiction. A parameter the doc leaves out is a gap, never fatal: a usage guide need not list
everything. A parameter counts as documented when the doc lists it, names it in its prose or
signature, or passes it by keyword in an example; ``**kwargs`` counts as documented when the doc lists
keywords it carries. The keywords ``**kwargs`` carries to a callee in the same module
(docbot.verify.kwargs_reach) are parameters too: a wrong default for one is a contradiction, and a
keyword outside them is a contradiction once every route of ``**kwargs`` is known (else a note).

A constructor (``__init__``) is accused of an invented return only when the claim names a builtin
value type in code (`` `int` ``, `` `float` ``, `` `str` `` ...): calling the class returns the instance,
so "instances return a default" or "returns a new set" in a class's doc is true of the call the reader
makes, while "Returns the total as a `float`" is not (tests/verify/test_doccheck.py, "constructor").
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Mapping

from docbot.facts.function import Facts, Parameter
from docbot.verify.docparams import (NO_CONSTANTS, DocParam, doc_signatures, documented_params, inline_default_items,
                                     same_default)
from docbot.verify.findings import Finding, FindingKind, FindingName, gap
from docbot.verify.kwargs_reach import NOTHING, Carried
from docbot.verify.markdown import code_blocks, parts_labelled, prose

_NOT_PARAMETERS = {"self", "cls", "return", "returns", "none", "raises", "yields"}
_SAYS_NOTHING = re.compile(
    r"^(?:returns?\s+)?(?:none\b|nothing\b|no\s+value|no\s+return|does\s+not\s+return|doesn't\s+return"
    r"|(?:this|the)\s+(?:function|method)\s+(?:does\s+not|doesn't)\s+return)"
)
BUILTIN_VALUE = re.compile(r"`(?:int|float|complex|str|bytes|bool|list|dict|tuple|set|frozenset)`")
_RELATIVE = re.compile(r"\b(?:that|which)\s*$")  # a relative clause: its verb belongs to the noun before it
_CONDITIONAL = re.compile(r"\b(if|or|otherwise|else|unless|when)\b")
# "returns the total", "Return a list", "yields `int`": a verb followed by what is returned.
_RETURN_PHRASE = re.compile(
    r"\b(?:[Rr]eturns?|[Yy]ields?)\b[:\s]+((?:the|a|an|its|their|this|that|one|`|True|False|None|nothing|"
    r"\d|['\"]|int\b|float\b|str\b|bool\b|list\b|dict\b|tuple\b|set\b|bytes\b)[^\n.]{0,60})"
)


def check_parameters(section: str, facts: Facts, carried: Carried = NOTHING,
                     constants: Mapping[str, str] = NO_CONSTANTS) -> list[Finding]:
    """``constants``: the module's named literals (docbot.facts.module), so `timeout=TIMEOUT` is held to its value."""
    real = {p.name: p for p in facts.documentable_parameters}
    listed = documented_params(section)
    documented = listed if listed is not None else inline_default_items(section)
    findings = _check_signatures(section, facts, real, constants)
    passed = keywords_in_examples(section, _call_names(facts))
    named = {d.name for d in documented} | passed
    if listed is None:  # no Parameters list: naming it in the prose or a signature is documenting it
        named |= set(re.findall(r"[A-Za-z_]\w*", prose(section)))
        named |= {name for sig in doc_signatures(section, _call_names(facts)) for name, _ in sig.params}
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
    return gap(FindingName.MISSING_PARAMETER,
               f"parameter `{param.starred_name}`{default} of {facts.name}() is not documented",
               param.display())


def _invented(name: str, doc_text: str, facts: Facts, carried: Carried = NOTHING) -> Finding:
    real = ", ".join(p.name for p in facts.documentable_parameters) or "none"
    open_kwargs = any(p.kind == "var-keyword" for p in facts.parameters) and not carried.closed
    note = " (it may be passed through **kwargs; say so)" if open_kwargs else ""
    if carried.closed:
        note = f" (its **kwargs carries only: {', '.join(carried.parameters)})"
    return Finding(FindingName.INVENTED_PARAMETER,
                   f"the doc documents a parameter `{name}` that {facts.name}() does not "
                   f"take (its parameters: {real}){note}", doc_text, facts.signature(),
                   FindingKind.NOTE if open_kwargs else FindingKind.CONTRADICTION)


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
    return Finding(FindingName.WRONG_DEFAULT, message, doc_text=doc_param.text, code_fact=param.display())


def _check_signatures(section: str, facts: Facts, real: dict[str, Parameter],
                      constants: Mapping[str, str]) -> list[Finding]:
    findings: list[Finding] = []
    for signature in doc_signatures(section, _call_names(facts)):
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


def _call_names(facts: Facts) -> set[str]:
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


def return_claims(section: str, facts: Facts) -> list[tuple[str, str]]:
    """What the doc says comes back, wherever it says it: ("value" | "nothing", the doc text) pairs.

    A Returns part, a signature's ``-> X`` and prose ("Returns the total") all count, so a doc whose
    Returns part says None while its summary promises a value is caught.
    """
    claims: list[tuple[str, str]] = []
    text = re.sub(r"\s+", " ", prose(" ".join(p.text for p in parts_labelled(section, "returns")))).strip()
    # docbot's Returns part leads with the annotation (`None`); a text after it is what the doc claims
    text = re.sub(r"^`None`\s+(?=\S)", "", text)
    if text:
        claims.append(("nothing" if says_nothing(text) else "value", text))
    for signature in doc_signatures(section, _call_names(facts)):
        if signature.returns:
            claims.append(("nothing" if signature.returns == "None" else "value", signature.text))
    said = prose(section)
    for match in _RETURN_PHRASE.finditer(said):
        if _RELATIVE.search(said[max(0, match.start() - 16) : match.start()]):
            continue  # "a callback that returns a list": the verb's subject is the callback, not the function
        claims.append(("nothing" if says_nothing(match.group(1)) else "value", match.group(0)))
    return claims


def says_nothing(text: str) -> bool:
    plain = re.sub(r"[`*_]", "", text).strip().lower()
    return bool(_SAYS_NOTHING.match(plain)) and not _CONDITIONAL.search(plain[:60])


def check_returns(section: str, facts: Facts) -> list[Finding]:
    claims = return_claims(section, facts)
    annotated_value = facts.return_annotation not in (None, "None")
    if not facts.returns_value:
        said = next((text for kind, text in claims if kind == "value"
                     and (facts.name != "__init__" or BUILTIN_VALUE.search(text))), None)
        if said is not None and not annotated_value:
            return [Finding(FindingName.INVENTED_RETURN, f"the doc describes a return value ({_short(said)}), but "
                            f"{facts.name}() returns nothing (None)", said, "no `return <value>` in the code")]
        return []
    what = "yields values" if facts.is_generator else "returns a value"
    said = next((text for kind, text in claims if kind == "nothing"), None)
    if said is not None:
        return [Finding(FindingName.WRONG_RETURN, f"the doc says {facts.name}() returns nothing, but it {what}",
                        said, f"{what}" + (f" ({facts.return_annotation})" if facts.return_annotation else ""))]
    # Omission is judged leniently ("Returns x." talks about the return); contradictions strictly.
    mentions = re.search(r"\b(?:[Rr]eturn(?:s|ed|ing)?|[Yy]ield(?:s|ed|ing)?)\b|->|→", prose(section))
    if not claims and not mentions and facts.kind != "property":
        return [gap(FindingName.MISSING_RETURN, f"{facts.name}() {what} but the doc never says what it returns", what)]
    return []


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
