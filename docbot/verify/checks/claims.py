"""Each claim the reader made (docbot.verify.read.claims), held to the code facts docbot already has
(docs/design.md#claims).

- it takes P: the signature's parameters, and the keywords its ``**kwargs`` carries (docbot.verify.checks.
  kwargs_reach). An invented parameter the doc says is one is a contradiction; one ``**kwargs`` may still take
  (its routes are not all known) is a note.
- P defaults to V: the signature's default, a module or class constant's value for a named one
  (docbot.facts.module.scope_constants). A ``None`` (or sentinel) default that the body replaces
  ("``timeout = timeout or 30``") may well be the V the doc names: a note.
- P has type T: the annotation. Only builtin types are compared, ``float`` accepting an ``int`` as PEP 484 says.
- it raises E: the exception reach (docbot.verify.checks.reach). Nothing reachable can raise it, and the reach
  is complete: a contradiction; else, when the function raises no such type itself, a note.
- it returns a T or V: the types its returns can give (docbot.verify.checks.return_types), and the literal values
  when every return is a literal.
- a name exists: the API index says whether it does (docbot.verify.project.api_index).

Every finding's severity is its check's row in ``CHECKS``; the notes come from ``lower`` with their reason.
"""

from __future__ import annotations

import ast
import html
import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from docbot.facts.function import Facts, Parameter, extract_facts, is_none, own_nodes
from docbot.facts.module import module_constants, module_tree, scope_constants
from docbot.verify.checks.kwargs_reach import NOTHING, Carried
from docbot.verify.checks.reach import CodeBase, may_raise
from docbot.verify.checks.return_types import annotation_types, returned_types, shown
from docbot.verify.findings import Check, Family, Finding, Severity, lower
from docbot.verify.read.claim_patterns import WORDS
from docbot.verify.read.claims import Claim, Kind
from docbot.verify.read.doc_params import same_default

__all__ = ["Code", "CodeOf", "claim_findings", "findings_by_subject", "merged"]


@dataclass(frozen=True)
class Code:
    """What a claim about one function is held to."""

    module: str
    qualname: str
    source: str  # the function's own text
    module_source: str  # its module's
    base: CodeBase  # where its reach is followed (its module, or its whole package)
    sys_path: tuple[str, ...] = ()
    carried: Carried = NOTHING


CodeOf = Callable[[str], "Code | None"]  # a claim's subject -> its code; None when it cannot be read


def claim_findings(claims: Sequence[Claim], code_of: CodeOf) -> list[Finding]:
    """The findings of ``claims``: contradictions the code proves, notes where the proof is not complete."""
    return [finding for findings in findings_by_subject(claims, code_of).values() for finding in findings]


def findings_by_subject(claims: Sequence[Claim], code_of: CodeOf) -> dict[str, list[Finding]]:
    """The findings of ``claims`` by the subject each is about (an unknown name: by the name)."""
    facts: dict[str, tuple[Code, Facts] | None] = {}
    found: dict[str, list[Finding]] = {}
    for claim in claims:
        if claim.kind is Kind.EXISTS:
            found.setdefault(claim.subject, []).append(Finding(
                Check.UNRESOLVED_REFERENCE, f"the doc names `{claim.value}`, which the code does not have", claim.text,
                "no such name in the source", line=claim.line))
            continue
        if claim.subject not in facts:
            facts[claim.subject] = _facts(code_of(claim.subject))
        known = facts[claim.subject]
        if known is not None:
            found.setdefault(claim.subject, []).extend(_CHECKS[claim.kind](claim, *known))
    return found


def _facts(code: Code | None) -> tuple[Code, Facts] | None:
    if code is None:
        return None
    try:
        return code, extract_facts(code.source, code.qualname)
    except (SyntaxError, ValueError):
        return None


def _parameter(name: str, facts: Facts, code: Code) -> Parameter | None:
    return facts.parameter(name) if facts.parameter(name) is not None else code.carried.parameters.get(name)


def _takes(claim: Claim, code: Code, facts: Facts) -> list[Finding]:
    if not claim.explicit or claim.parameter in ("self", "cls") or _parameter(claim.parameter, facts, code):
        return []
    real = ", ".join(p.name for p in facts.documentable_parameters) or "none"
    found = Finding(Check.INVENTED_PARAMETER, f"the doc says {facts.name}() takes `{claim.parameter}`, which it does "
                    f"not take (its parameters: {real})", claim.text, facts.signature(), line=claim.line)
    if any(p.kind == "var-keyword" for p in facts.parameters) and not code.carried.closed:
        return [lower(found, Severity.NOTE, "it may be passed through **kwargs")]
    return [found]


def _default(claim: Claim, code: Code, facts: Facts) -> list[Finding]:
    param = _parameter(claim.parameter, facts, code)
    if param is None or param.is_variadic:
        return []
    stated = claim.value
    if param.default is None:
        if stated.lower() == "none":
            return []
        message = f"the doc says `{param.name}` of {facts.name}() defaults to {stated}, but it is required"
        return [Finding(Check.WRONG_DEFAULT, message, claim.text, param.display(), line=claim.line)]
    constants = _constants(code)
    if same_default(stated, param.default, constants) is not False:
        return []
    value = constants.get(param.default.strip())
    shown = f"{param.default} (= {value})" if value is not None else param.default
    found = Finding(Check.WRONG_DEFAULT, f"the doc says `{param.name}` of {facts.name}() defaults to {stated}, the "
                    f"code's default is {shown}", claim.text, param.display(), line=claim.line)
    if _replaced_in_body(code.source, param, constants):
        return [lower(found, Severity.NOTE, f"the code replaces the default of `{param.name}` in its body; the "
                      "value it then uses may be the one the doc states")]
    return [found]


def _constants(code: Code) -> Mapping[str, str]:
    """The module's named literals, and those it imports from its code base (``from .defaults import TIMEOUT``)."""
    found = dict(scope_constants(code.module_source, code.qualname)) if code.module_source else {}
    tree = module_tree(code.module_source) if code.module_source else None
    modules = code.base.modules
    for node in tree.body if tree else []:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                value = _imported_constant(_imported_module(node, code.module, modules), alias.name, modules)
                if value is not None:
                    found[alias.asname or alias.name] = value
    return found


def _imported_constant(module: str | None, name: str, modules: Mapping[str, str], hops: int = 4) -> str | None:
    """The literal ``name`` has in ``module``, following its re-imports (``_client`` imports it from
    ``_base_client``, which imports it from ``_constants``)."""
    if module is None or hops == 0:
        return None
    value = module_constants(modules[module]).get(name)
    if value is not None:
        return value
    tree = module_tree(modules[module])
    for node in tree.body if tree else []:
        if isinstance(node, ast.ImportFrom) and any(a.name == name and a.asname in (None, name) for a in node.names):
            return _imported_constant(_imported_module(node, module, modules), name, modules, hops - 1)
    return None


def _imported_module(node: ast.ImportFrom, module: str, modules: Mapping[str, str]) -> str | None:
    parts = module.split(".")
    package = any(other.startswith(module + ".") for other in modules)
    base = parts[: len(parts) - node.level + (1 if package else 0)] if node.level else []
    dotted = ".".join([*base, *([node.module] if node.module else [])])
    return dotted if dotted in modules else None


def _replaced_in_body(source: str, param: Parameter, constants: Mapping[str, str]) -> bool:
    """Whether the doc may state the value the function then uses: its default is a sentinel (a name bound to no
    literal), or the body replaces what it was given under a test of it (``x = x or 30``, ``if x is None: x =
    30``, ``x = 30 if x is None else x``); processing it (``x = x.strip()``) is no new default."""
    if not _literal(constants.get((param.default or "").strip(), param.default)):
        return True
    try:
        tree = ast.parse(textwrap.dedent(source))
    except SyntaxError:
        return True
    name = param.name
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _tests(node.test, name) and any(
                isinstance(t, ast.Name) and t.id == name for s in node.body for a in ast.walk(s)
                if isinstance(a, ast.Assign) for t in a.targets):
            return True
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            value = node.value
            if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or) and _names_it(value.values[0], name):
                return True
            if isinstance(value, ast.IfExp) and _tests(value.test, name):
                return True
    return False


def _names_it(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _tests(test: ast.expr, name: str) -> bool:
    """``x is None``, ``not x``, ``x == 0``, ``x is _DEFAULT``: a test of the parameter itself."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _names_it(test.operand, name)
    if isinstance(test, ast.Compare):
        return _names_it(test.left, name) and len(test.ops) == 1 and isinstance(
            test.ops[0], (ast.Is, ast.IsNot, ast.Eq, ast.NotEq))
    return _names_it(test, name)


def _literal(text: str | None) -> bool:
    try:
        ast.literal_eval(text or "")
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return True


def _unaliased(node: ast.expr, code: Code) -> ast.expr:
    """The annotation with the module's type aliases written out (``_Encoding = str``, ``Path: TypeAlias = str``),
    those it imports from its code base (``from .types import Headers``, ``variable.VarDict``), and ``typing``
    under another name (``import typing as t``: ``t.Optional``)."""
    modules = {**code.base.modules, code.module: code.module_source} if code.module_source else {}
    return _expanded(node, code.module, modules, 3) if modules else node


def _expanded(node: ast.expr, module: str, modules: Mapping[str, str], hops: int) -> ast.expr:
    aliases, typing_names, imported = _aliases_of(module, modules)

    class Expand(ast.NodeTransformer):
        def visit_Name(self, name: ast.Name) -> ast.expr:
            value = aliases.get(name.id)
            if isinstance(value, (ast.Name, ast.Subscript, ast.BinOp, ast.Attribute)):
                return _expanded(value, module, modules, hops - 1) if hops else value
            if name.id in imported and hops:  # `from .types import Headers`: that module's alias
                return _foreign(*imported[name.id], name, modules, hops)
            return name

        def visit_Attribute(self, attribute: ast.Attribute) -> ast.expr:
            head = attribute.value
            if isinstance(head, ast.Name) and head.id in typing_names:
                return ast.Attribute(ast.Name("typing", ast.Load()), attribute.attr, ast.Load())
            if isinstance(head, ast.Name) and head.id in imported and hops:  # `variable.VarDict`
                other = ".".join(imported[head.id])
                if other in modules:
                    return _foreign(other, attribute.attr, attribute, modules, hops)
            return attribute

    return Expand().visit(node)


def _foreign(module: str, name: str, written: ast.expr, modules: Mapping[str, str], hops: int) -> ast.expr:
    """The alias ``name`` of another module of the code base, written out there (``written`` when it has none)."""
    if module not in modules:
        return written
    value = _aliases_of(module, modules)[0].get(name)
    if not isinstance(value, (ast.Name, ast.Subscript, ast.BinOp, ast.Attribute)):
        return written
    return _expanded(value, module, modules, hops - 1)


def _aliases_of(module: str, modules: Mapping[str, str]) -> tuple[dict[str, ast.expr], set[str],
                                                                  dict[str, tuple[str, str]]]:
    """A module's type aliases, its names for ``typing``, and the names it imports from its code base (local name
    -> (module, name))."""
    tree = module_tree(modules[module])
    aliases: dict[str, ast.expr] = {}
    typing_names: set[str] = set()
    imported: dict[str, tuple[str, str]] = {}
    for statement in tree.body if tree else []:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0],
                                                                                              ast.Name):
            aliases[statement.targets[0].id] = statement.value
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and statement.value \
                and "TypeAlias" in ast.unparse(statement.annotation):
            aliases[statement.target.id] = statement.value
        elif isinstance(statement, ast.Import):
            typing_names |= {a.asname for a in statement.names if a.asname and a.name in ("typing",
                                                                                          "typing_extensions")}
        elif isinstance(statement, ast.ImportFrom):
            source = _imported_module(statement, module, modules) if statement.level or statement.module else None
            for alias in statement.names:
                if source is not None:
                    imported[alias.asname or alias.name] = (source, alias.name)
    return aliases, typing_names, imported


def _accepted(types: frozenset[str]) -> frozenset[str]:
    """What an annotation accepts: ``float`` an ``int`` too, ``complex`` both (PEP 484's numeric tower)."""
    more = {"int", "bool"} if "float" in types else set()
    more |= {"float", "int", "bool"} if "complex" in types else set()
    return types | more | ({"bool"} if "int" in types else set())


def _type(claim: Claim, code: Code, facts: Facts) -> list[Finding]:
    param = _parameter(claim.parameter, facts, code)
    if param is None or not param.annotation:
        return []
    try:
        types = annotation_types(_unaliased(ast.parse(param.annotation, mode="eval").body, code))
    except SyntaxError:
        return []
    words = [w for w in claim.value.split("|") if w]
    if types is None or not words or any(WORDS[w] & _accepted(types) for w in words):
        return []
    stated = " or ".join(words)
    return [Finding(Check.WRONG_PARAMETER_TYPE, f"the doc says `{param.name}` of {facts.name}() is a {stated}, but it "
                    f"is annotated `{param.annotation}`", claim.text, param.display(), line=claim.line)]


def _raises(claim: Claim, code: Code, facts: Facts) -> list[Finding]:
    leaf = claim.value.rsplit(".", 1)[-1]
    verdict = may_raise(code.base, code.module, code.qualname, claim.value)
    if verdict is True or any(r.type_name == leaf for r in facts.raises):
        return []
    raised = ", ".join(sorted({r.type_name for r in facts.raises if r.exception})) or "nothing explicitly"
    found = Finding(Check.INVENTED_EXCEPTION, f"the doc says {facts.name}() raises {leaf}, but nothing it reaches can "
                    f"raise it (it raises: {raised})", claim.text, raised, line=claim.line)
    if verdict is False:
        return [found]
    return [lower(replace(found, message=f"the doc says {facts.name}() raises {leaf}, but the code never raises it "
                          f"explicitly (it raises: {raised}); make sure a callee or an operation really raises it"),
                  Severity.NOTE, "a callee or an operation may raise it")]


def _returned(code: Code, facts: Facts) -> frozenset[str] | None:
    if facts.name in ("__init__", "__new__") or facts.kind == "property" or not code.module_source:
        return None
    return returned_types(code.module_source, code.qualname, code.sys_path)


def _returns_type(claim: Claim, code: Code, facts: Facts) -> list[Finding]:
    returned = _returned(code, facts)
    words = [w for w in claim.value.split("|") if w and w != "none"]
    if returned is None or not words or not returned - {"NoneType"} or any(WORDS[w] & returned for w in words):
        return []
    code_returns = shown(returned)
    return [Finding(Check.WRONG_RETURN_TYPE, f"the doc says {facts.name}() returns a {' or '.join(words)}, but the "
                    f"code returns {code_returns}", claim.text, f"returns {code_returns}", line=claim.line)]


def _returns_value(claim: Claim, code: Code, facts: Facts) -> list[Finding]:
    try:
        value = ast.literal_eval(claim.value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return []
    returned = _returned(code, facts)
    constants = _returned_literals(code.source)
    kind = "NoneType" if value is None else type(value).__name__
    numeric = {"int", "float", "complex", "bool"}
    possible = returned is None or kind in returned or kind in numeric and bool(returned & numeric)
    if possible and (constants is None or any(value == c and type(value) is type(c) for c in constants)):
        return []
    values = shown(returned) if not possible and returned else ", ".join(repr(c) for c in constants or ())
    return [Finding(Check.WRONG_RETURN_VALUE, f"the doc says {facts.name}() returns {claim.value}, but it returns "
                    f"{values}", claim.text, f"returns {values}", line=claim.line)]


def _returned_literals(source: str) -> list[object] | None:
    """The values of the function's returns when every one is a literal (falling off the end returns None)."""
    try:
        function = ast.parse(textwrap.dedent(source)).body[0]
    except (SyntaxError, IndexError):
        return None
    if not isinstance(function, ast.FunctionDef):
        return None
    nodes = own_nodes(function)
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in nodes):
        return None
    values: list[object] = []
    for node in (n for n in nodes if isinstance(n, ast.Return)):
        if node.value is None or is_none(node.value):
            values.append(None)
            continue
        try:
            values.append(ast.literal_eval(node.value))
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
    if not function.body or not isinstance(function.body[-1], (ast.Return, ast.Raise)):
        values.append(None)
    return values


_CHECKS: dict[Kind, Callable[[Claim, Code, Facts], list[Finding]]] = {
    Kind.TAKES: _takes, Kind.DEFAULT: _default, Kind.TYPE: _type, Kind.RAISES: _raises,
    Kind.RETURNS_TYPE: _returns_type, Kind.RETURNS_VALUE: _returns_value,
}


def _normal(text: str) -> str:
    # the section checks read a rendered page's code spans as HTML (<code>, &lt;); the claim reader as Markdown
    text = html.unescape(re.sub(r"</?code>", "", text))
    return " ".join(text.replace("`", "").replace("*", "").split()).lower()


def _overlap(a: Finding, b: Finding) -> bool:
    """Whether two findings say the same of the same text: the same check (a parameter's: about the same
    parameter), or two checks of the exceptions or of the return reading the same statement."""
    left, right = _normal(a.doc_text), _normal(b.doc_text)
    if not (left and right and (left in right or right in left)):
        return False
    if a.family is b.family and a.family in (Family.RAISES, Family.RETURNS):
        return True
    return a.check is b.check and (a.family is not Family.PARAMETERS or a.code_fact == b.code_fact)


def merged(existing: Sequence[Finding], added: Sequence[Finding]) -> list[Finding]:
    """``existing`` and ``added`` findings without saying one thing twice: where both read the same text for the
    same check, the heavier finding stands (a claim's proof turns the section check's note into a
    contradiction)."""
    kept = [f for f in existing if not any(_overlap(f, g) and g.severity.weight > f.severity.weight for g in added)]
    new = [g for g in added if not any(_overlap(f, g) and f.severity.weight >= g.severity.weight for f in kept)]
    unique: dict[tuple[object, ...], Finding] = {}
    for finding in new:
        unique.setdefault((finding.check, finding.message, finding.line), finding)
    return kept + list(unique.values())
