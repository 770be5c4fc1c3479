"""Exception checks: a stated exception must have the code's type and, when quoted, its exact message.

A wrong type or a misquoted message is a contradiction; an exception the doc does not mention, or a
message it does not quote, is a gap. A doc "documents" an exception in a Raises part or in a prose
sentence that says it raises it; an example's traceback alone does not count when the doc has
labelled parts (a reader scanning the Raises list would never learn of it).

When the doc names a type the code never raises and the code raises a type the doc never names, the
two are paired as a wrong type. That pairing is fatal only when nothing else could raise the stated
type: when the function calls other code (a callee may raise it under the condition the doc describes)
and the entry does not quote the code's message, it is a note (tests/verify/test_doccheck.py, "callee").
"""

from __future__ import annotations

import ast
import builtins
import difflib
import re
from dataclasses import dataclass, field

from docbot.facts.function import Facts, Raise
from docbot.verify.findings import Check, Finding, Severity, lower
from docbot.verify.read.markdown import entries, paragraphs, prose, split_parts
from docbot.verify.checks.raise_reach import may_be_subclass, only_passed_on, parameter_raises

_EXCEPTION_NAME = re.compile(
    r"(?<![\w.])(?:[A-Za-z_]\w*\.)*([A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Iteration|Failure|Fault))\b"
)
_LEAD_CLASS = re.compile(r"^\s*(?:[-*+]\s+)?[`*_]*(?:[A-Za-z_]\w*\.)*([A-Z][a-z]+[A-Z]\w*|[A-Z][a-z]{2,}Error)\b")
_NOT_CLASSES = {"None", "Nothing", "If", "When", "The"}
_RAISE_VERB = re.compile(r"\b(raise[sd]?|raising|throws?|thrown)\b", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*])")
_QUOTED = re.compile(r"`([^`]+)`|\"([^\"]+)\"|“([^”]+)”|(?<![\w'])'([^']+?)'(?![\w])")
_CALL_FORM = re.compile(r"^\s*[\w.]+\(\s*f?(['\"])(.*)\1\s*\)\s*$", re.DOTALL)
# "when handling IndexError": the exception the code catches, named in a condition, is not one it raises.
_HANDLED = re.compile(r"\b(?:while|when|after|during|on)\s+`?(?:handling|catching)\s+`?(?:[A-Za-z_]\w*\.)*\w+`?")
_COLON_FORM = re.compile(r"^\s*([\w.]+(?:Error|Exception|Warning)|[A-Z]\w*):\s+(.+)$", re.DOTALL)


@dataclass
class RaiseEntry:
    types: list[str]  # exception class names the entry names, without module
    text: str
    quotes: list[str] = field(default_factory=list)  # quoted texts that may be messages


def exception_names(text: str, known: set[str]) -> list[str]:
    names = [m.group(1) for m in _EXCEPTION_NAME.finditer(text)]
    names += [k for k in known if k not in names and re.search(rf"(?<![\w]){re.escape(k)}\b", text)]
    return list(dict.fromkeys(names))


def raise_entries(section: str, known: set[str]) -> list[RaiseEntry]:
    """Entries of the Raises parts, plus prose sentences outside them that say something is raised."""
    found: list[RaiseEntry] = []
    for part in split_parts(section):
        if part.label == "raises":
            texts = [e.text for e in entries(part.text)]
        else:
            texts = [s for p in paragraphs(part.text) for s in _SENTENCE.split(p) if _RAISE_VERB.search(s)]
        for text in texts:
            types = exception_names(_HANDLED.sub("", text), known)
            lead = _LEAD_CLASS.match(text) if part.label == "raises" else None
            if lead and lead.group(1) not in types and lead.group(1) not in _NOT_CLASSES:
                types.insert(0, lead.group(1))  # "InsufficientFunds — when ...": any class name leads an entry
            if types:
                found.append(RaiseEntry(types, text, _quotes(text)))
    return found


def _quotes(text: str) -> list[str]:
    found = []
    for match in _QUOTED.finditer(text):
        quoted = next(g for g in match.groups() if g is not None)
        call, colon = _CALL_FORM.match(quoted), _COLON_FORM.match(quoted)
        if call:
            quoted = call.group(2)
        elif colon:
            quoted = colon.group(2)
        found.append(_unquote(quoted))
    return found


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def _normal(text: str) -> str:
    text = text.replace("“", '"').replace("”", '"').replace("‘", "'").replace("’", "'")
    return re.sub(r"\s+", " ", text).strip()


def _is_code(text: str) -> bool:
    try:
        ast.parse(text, mode="eval")
        return True
    except SyntaxError:
        return False


def _looks_like_message(quote: str, messages: list[str]) -> bool:
    """A quote is an attempt at a message when it resembles one, or is a phrase rather than code.

    Code (a condition like `principal < 0`, a name) sits next to messages in Raises entries, so it
    counts only when it is nearly a message already.
    """
    similarity = max((_similar(quote, m) for m in messages), default=0.0)
    if _is_code(quote):
        return similarity >= 0.85
    return similarity >= 0.6 or len(quote.split()) >= 3


def _similar(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, _normal(a).lower(), _normal(b).lower()).ratio()


def _matches(quote: str, raise_: Raise) -> bool:
    return raise_.matches_message(_normal(quote)) or raise_.matches_message(quote)


def is_builtin_exception(name: str) -> bool:
    value = getattr(builtins, name, None)
    return isinstance(value, type) and issubclass(value, BaseException)


def check_raises(section: str, facts: Facts, source: str, module_source: str = "") -> list[Finding]:
    real_types = {r.type_name for r in facts.raises if r.exception}
    doc_entries = raise_entries(section, real_types)
    documented = {t for e in doc_entries for t in e.types}
    structured = any(p.label != "intro" for p in split_parts(section))
    if not structured:
        documented |= set(exception_names(section, real_types))  # an unstructured doc: any mention counts
    required = list(facts.propagated_raises)
    # "Raises AppError" covers a LimitError(AppError) raise: a subclass the module (or builtins) shows
    missing = [r for r in required if r.type_name not in documented
               and not any(may_be_subclass(r.type_name, t, module_source, unknown=False) for t in documented)]
    invented = [t for t in dict.fromkeys(t for e in doc_entries for t in e.types) if t not in real_types
                and not any(may_be_subclass(r, t, module_source, unknown=False) for r in real_types)]
    findings = _type_findings(missing, invented, doc_entries, facts, source)
    # An entry already judged (a wrong or invented type) gets the parameter check's word only when it is fatal.
    judged = {f.doc_text for f in findings
              if f.check in (Check.WRONG_EXCEPTION_TYPE, Check.INVENTED_EXCEPTION)}
    findings += [f for f in _parameter_findings(doc_entries, facts, source, module_source)
                 if f.fatal and not any(g.fatal and g.doc_text == f.doc_text for g in findings)
                 or f.doc_text not in judged]
    # Where a message counts as quoted: in a structured doc, the text a reader scans, not the examples.
    searchable = prose(section) if structured else section
    findings += _message_findings(searchable, doc_entries, required, documented)
    return findings


def _type_findings(missing: list[Raise], invented: list[str], doc_entries: list[RaiseEntry], facts: Facts,
                   source: str) -> list[Finding]:
    findings: list[Finding] = []
    unpaired = list(invented)
    for raise_ in _one_per_type(missing):
        if unpaired:
            wrong = unpaired.pop(0)
            entry = next(e for e in doc_entries if wrong in e.types)
            callee = calls_other_code(source) and not any(_matches(q, raise_) for q in entry.quotes)
            advice = "; a callee may raise it, make sure it does" if callee else ""
            found = Finding(Check.WRONG_EXCEPTION_TYPE, f"the doc says {facts.name}() raises {wrong}, but "
                            f"the code raises {raise_.describe()}{advice}", entry.text, raise_.describe())
            findings.append(lower(found, Severity.NOTE, "a callee may raise it") if callee else found)
        else:
            findings.append(Finding(Check.MISSING_EXCEPTION, f"{facts.name}() raises {raise_.describe()}, "
                                    "which the doc does not mention", code_fact=raise_.describe()))
    for name in unpaired:
        text = next(e.text for e in doc_entries if name in e.types)
        quoted = _raise_quoted(next(e for e in doc_entries if name in e.types), facts)
        if quoted is not None:  # "TypeError('amount must be positive')" where the code raises ValueError(...)
            findings.append(Finding(Check.WRONG_EXCEPTION_TYPE, f"the doc says {facts.name}() raises {name}, but "
                                    f"the code raises {quoted.describe()}", text, quoted.describe()))
            continue
        # A builtin error can come from an operation (a division, an index) rather than a raise, and any
        # exception may come from a callee: then it is worth a look, not proven wrong.
        provable = not is_builtin_exception(name) and not re.search(rf"\b{re.escape(name)}\b", source) and (
            not calls_other_code(source))
        raised = ", ".join(sorted({r.type_name for r in facts.raises if r.exception})) or "nothing explicitly"
        advice = "" if provable else "; make sure a callee or an operation really raises it"
        found = Finding(Check.INVENTED_EXCEPTION, f"the doc says {facts.name}() raises {name}, but the code "
                        f"never raises it explicitly (it raises: {raised}){advice}", text, raised)
        findings.append(found if provable else lower(found, Severity.NOTE, "a callee or an operation may raise it"))
    return findings


def _parameter_findings(doc_entries: list[RaiseEntry], facts: Facts, source: str,
                        module_source: str) -> list[Finding]:
    """A stated type against the raise sites about the one parameter the entry names
    (docbot.verify.checks.raise_reach)."""
    findings: list[Finding] = []
    params = [p.name for p in facts.documentable_parameters if len(p.name) >= 3 and not p.is_variadic]
    for entry in doc_entries:
        named = [p for p in params if re.search(rf"(?<![\w.]){re.escape(p)}\b", entry.text)]
        if len(entry.types) != 1 or len(named) != 1:
            continue
        stated, param = entry.types[0], named[0]
        reached = parameter_raises(module_source, source, param)
        if not reached or any(may_be_subclass(r.raise_.type_name, stated, module_source) for r in reached):
            continue
        fatal = only_passed_on(source, param)
        advice = "" if fatal else f"; an operation on `{param}` may raise {stated}, make sure it does"
        code = f"{reached[0].raise_.describe()} (in {reached[0].where})"
        found = Finding(Check.WRONG_EXCEPTION_TYPE, f"the doc says {facts.name}() raises {stated} about "
                        f"`{param}`, but the code raises {code}{advice}", entry.text, code)
        findings.append(found if fatal else lower(found, Severity.NOTE, f"an operation on `{param}` may raise it"))
    return findings


def _raise_quoted(entry: RaiseEntry, facts: Facts) -> Raise | None:
    """The code's raise site whose message the entry quotes, when it is of another type than stated."""
    for raise_ in facts.raises:
        if raise_.exception and raise_.type_name not in entry.types and raise_.message:
            if any(len(q.split()) >= 2 and _matches(q, raise_) for q in entry.quotes):
                return raise_
    return None


# Methods of builtin types: calling them cannot raise a project's own exception classes.
_BUILTIN_METHODS = {
    "append", "extend", "insert", "pop", "remove", "clear", "copy", "count", "index", "sort", "reverse",
    "get", "items", "keys", "values", "setdefault", "update", "add", "discard", "union", "intersection",
    "split", "rsplit", "splitlines", "strip", "lstrip", "rstrip", "join", "replace", "lower", "upper", "title",
    "startswith", "endswith", "find", "format", "encode", "decode", "isdigit", "isalpha", "isalnum",
    "isupper", "islower", "isspace", "isidentifier", "zfill", "ljust", "rjust", "center", "partition",
}


def calls_other_code(source: str) -> bool:
    """Whether the function calls anything beyond builtins and builtin-type methods."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return True
    raised = {id(n.exc) for n in ast.walk(tree) if isinstance(n, ast.Raise) and n.exc is not None}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or id(node) in raised:
            continue  # constructing the exception a `raise` throws is not calling other code
        func = node.func
        if isinstance(func, ast.Name) and not hasattr(builtins, func.id):
            return True
        if isinstance(func, ast.Attribute) and func.attr not in _BUILTIN_METHODS:
            return True
        if not isinstance(func, (ast.Name, ast.Attribute)):
            return True
    return False


def _one_per_type(raises: list[Raise]) -> list[Raise]:
    seen: dict[str, Raise] = {}
    for raise_ in raises:
        seen.setdefault(raise_.type_name, raise_)
    return list(seen.values())


def _message_findings(searchable: str, doc_entries: list[RaiseEntry], required: list[Raise],
                      documented: set[str]) -> list[Finding]:
    findings: list[Finding] = []
    everywhere = _normal(searchable)
    for type_name in dict.fromkeys(r.type_name for r in required if r.type_name in documented):
        of_type = [r for r in required if r.type_name == type_name]
        known = [r for r in of_type if r.message is not None]
        quotes = [q for e in doc_entries if type_name in e.types for q in e.quotes]
        attempts = [q for q in quotes if _looks_like_message(q, [r.message or "" for r in known])]
        misquoted: list[Raise] = []
        for quote in attempts:
            if any(_matches(quote, r) for r in of_type):
                continue
            closest = max(known, key=lambda r: _similar(quote, r.message or ""), default=None)
            # With a message the code builds at run time, only a near-copy of a known one is a misquote.
            if closest is not None and (len(known) == len(of_type) or _similar(quote, closest.message or "") >= 0.8):
                misquoted.append(closest)
                findings.append(Finding(Check.MISQUOTED_MESSAGE,
                                        f'the doc quotes {type_name}\'s message as "{quote}"; '
                                        f"the code raises {closest.describe()}", quote, closest.describe()))
        quoted_some = any(any(_matches(q, r) for q in quotes) for r in known)
        for raise_ in known:
            if any(_matches(q, raise_) for q in quotes) or _message_in(everywhere, raise_) or raise_ in misquoted:
                continue
            if quoted_some:  # the doc quotes this type's messages, so leaving one out hides a case
                findings.append(Finding(Check.MISSING_EXCEPTION, f"{raise_.describe()} is not documented (the "
                                        f"doc quotes other {type_name} messages)", code_fact=raise_.describe()))
            else:
                findings.append(Finding(Check.MESSAGE_NOT_QUOTED, f"the doc does not quote the message of "
                                        f"{raise_.describe()}", code_fact=raise_.describe()))
    return findings


def _message_in(text: str, raise_: Raise) -> bool:
    pattern = raise_.message_pattern()
    if pattern is None:
        return False
    if not raise_.is_template:
        return _normal(raise_.message or "") in text
    return bool(re.search(pattern.pattern.replace(".*?", "[^\\n`\"']*?"), text))
