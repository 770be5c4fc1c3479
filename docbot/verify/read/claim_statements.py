"""The claims one statement makes, subject aside (docbot.verify.read.claims, docs/design.md#claims).

A signature line states its parameters, their defaults and types and its return type. A Parameters row or item
states its parameter (explicitly: a row of a table headed "Parameter" is one), its type and its default, and its
text may state the default again ("the low bound (default 7)"). Any sentence may state a default
("`timeout` defaults to 5", "By default, `mode` is `'r'`"), a type ("`path` (str)", "`n` must be an integer"),
an exception ("raises `KeyError` if ...", "a `ValueError` is raised"), a return type or value ("returns a
list", "returns `None` when ..."). A verb whose subject is something else ("a callback that returns", "your hook
should raise") states nothing about the subject; a negated one ("never raises") states nothing checkable.
"""

from __future__ import annotations

import re
from dataclasses import replace

from docbot.verify.read.claim_patterns import (Kind, Stated, default_value, literal_value, parse_signature,
                                               type_words)
from docbot.verify.read.claim_units import Form, Unit

__all__ = ["statements"]

_ID = r"[A-Za-z_]\w*"
_V = r"(`[^`]+`|\"[^\"]*\"|'[^']*'|[-+]?\.?\d[\w.+-]*|True\b|False\b|None\b)"
_PARAM_FIELDS = ("param", "parameter", "arg", "argument", "key", "keyword", "kwarg")
_PARAM_HEADERS = ("parameter", "parameters", "param", "argument", "arguments", "arg", "keyword", "kwarg")
_NAME_HEADERS = _PARAM_HEADERS + ("name", "option", "field")
_NO_DEFAULT = {"", "-", "—", "–", "n/a", "none", "required", "(required)", "no default", "no", "yes", "optional"}
_DEFAULTS = [re.compile(p) for p in (
    rf"`(?P<p>{_ID})`(?:\s+(?:argument|parameter|keyword(?: argument)?|option))?(?:\s+of\s+`[^`]+`)?\s*"
    rf"(?:\(\s*|,\s*)?(?:which\s+)?"
    rf"(?i:defaults?(?:\s+value)?)\s*(?:is\s+|to\s+|of\s+|:\s*|=\s*)?(?P<v>{_V[1:-1]})",
    rf"`(?P<p>{_ID})`\s+(?:is|=)\s+(?:set\s+to\s+)?(?P<v>{_V[1:-1]})\s+(?i:by\s+default)",
    rf"(?i:by\s+default),?\s+`(?P<p>{_ID})`\s+(?:is|=)\s+(?:set\s+to\s+)?(?P<v>{_V[1:-1]})",
    rf"(?i:the\s+default(?:\s+value)?\s+(?:of|for)\s+)`(?P<p>{_ID})`\s+is\s+(?P<v>{_V[1:-1]})",
    rf"`(?P<p>{_ID})`'s\s+default(?:\s+value)?\s+is\s+(?P<v>{_V[1:-1]})",
    rf"`(?P<p>{_ID})\s*=\s*(?P<v>[^`]+)`\s+(?i:is\s+the\s+default|by\s+default)",
    rf"`(?P<p>{_ID})`[^`.;:]{{0,40}}?\b(?i:defaults?|defaulting)\s+(?:to|is)\s+(?P<v>{_V[1:-1]})",
    rf"(?i:defaults?\s+(?:to|is)\s+)`(?P<p>{_ID})\s*=\s*(?P<v>[^`]+)`",
)]
# "If you leave it out, `f()` sets `p` to `V`": a default, when the sentence says it is one
_SETS = re.compile(rf"\b(?:sets?|uses?)\s+`(?P<p>{_ID})`\s+(?:to|as|=)\s+(?P<v>{_V[1:-1]})")
_OMITTED = re.compile(r"(?i)\bby default\b|\bleave it out\b|\bomit(?:ted)?\b|\bnot given\b|\bunless\b|"
                      r"\bleft out\b|\bif not (?:passed|provided|specified)\b|\bwithout it\b")
_SPAN_PATTERNS = 6  # the patterns from here on read `p=v` spans
# "the `x` argument" names a parameter of *something*: the claim is made only where the syntax says whose (an
# owner after it, "of `f()`"; or a verb before it whose subject is the statement's own: "it takes a `x` argument")
_TAKES = [re.compile(p) for p in (
    rf"`(?P<p>{_ID})`\s+(?:keyword\s+)?(?:argument|parameter|kwarg)\b",
    rf"\b(?:argument|parameter|keyword argument|kwarg)\s+`(?P<p>{_ID})`",
    rf"\b(?i:pass(?:ing)?|with|using|accepts?|takes?|supports?)\s+(?:the\s+)?`(?P<p>{_ID})\s*=[^`]*`",
)]
_TAKING_VERB = re.compile(r"\b(?:takes|accepts|has|supports|expects|requires|take|accept)\s+(?:an?\s+|the\s+|its\s+)?"
                          r"(?:(?:optional|new|extra|additional|keyword|keyword-only|positional)\s+)*"
                          r"(?:(?:argument|parameter)s?\s+)?$")
_OF = r"(?:\s+(?:argument|parameter|keyword(?: argument)?))?(?:\s+(?:of|to|for)\s+`[^`]+`)?"
_TYPES = [re.compile(p) for p in (
    rf"`(?P<p>{_ID})`\s*\((?P<t>[^()]{{1,40}})\)",
    rf"`(?P<p>{_ID})`{_OF}\s+(?:must|should|has\s+to|needs\s+to)\s+be\s+(?:a|an)\s+(?P<t>[^.,;:()]{{1,40}})",
    rf"`(?P<p>{_ID})`{_OF}\s+is\s+(?:a|an|always\s+a|always\s+an)\s+(?P<t>[^.,;:()]{{1,40}})",
    rf"\b(?:expects?|requires?|wants?)\s+`(?P<p>{_ID})`\s+to\s+be\s+(?:a|an)\s+(?P<t>[^.,;:()]{{1,40}})",
)]
_TYPED_SPAN = re.compile(rf"`(?P<p>{_ID})\s*:\s*(?P<t>[^`=]+?)(?:\s*=\s*(?P<v>[^`]+))?`")
_OWNER = re.compile(r"\s*(?:of|to|for)\s+`~?([A-Za-z_][\w.]*)(?:\([^`]*\))?`")
_CALL_SPAN = re.compile(r"`~?([A-Za-z_][\w.]*)\(([^`]*)\)`")
_EXCEPTION = re.compile(
    r"(?<![\w.])((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Iteration|Failure|Fault|Timeout))\b")
_RAISED_SPAN = re.compile(r"\s+(?:an?\s+|the\s+)?`~?((?:[A-Za-z_]\w*\.)*[A-Z][A-Za-z0-9]+)`")
_RAISE_VERB = re.compile(r"\b(?:raise[sd]?|raising|throws?|thrown|threw)\b", re.IGNORECASE)
_RETURN_VERB = re.compile(r"\b(?:[Rr]eturns?|[Yy]ields?|[Gg]ives?\s+back)\b")
# the return stated as what the call's result is: "The result of `f()` is a list." ("is not a" states no type)
_RESULT_OF = re.compile(r"\b[Tt]he\s+(?:result|return\s+value)\s+of\s+(?:calling\s+)?`~?([A-Za-z_][\w.]*)"
                        r"(?:\([^`]*\))?`\s+is\s+(?:always\s+)?")
_RETURN_END = re.compile(r"[;.]\s|[;:]|\s(?:if|when|unless|otherwise|or|and)\s")
_PASSIVE_RETURN = re.compile(r"\b(?:is|are)\s+returned\b")
_NEGATION = re.compile(r"\b(?:not|never|no\s+longer|n't|without|instead\s+of|rather\s+than|avoid|prevents?|"
                       r"suppress(?:es)?|cannot|no)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)
_HANDLED = re.compile(r"\b(?:handl\w*|catch\w*|except|caught|wrap\w*|from)\s+(?:an?\s+|the\s+)?`?$", re.IGNORECASE)
_CLAUSE = re.compile(r"[;:,()]|—|–|\b(?:if|when|whenever|unless|otherwise|and|but|or|which|that|who|whose|because|"
                     r"while|whereas|so|then|else|where)\b", re.IGNORECASE)
_AUX = re.compile(r"(?:\s+(?:also|always|only|then|now|simply|just|still|will|would|can|could|may|might|must|"
                  r"does|do|did|instead|usually|typically|normally|itself|first|immediately|automatically))+\s*$",
                  re.IGNORECASE)
_OWN_SUBJECT = re.compile(r"^(?:it|this|this\s+(?:function|method|call|class)|the\s+(?:function|method|call)|"
                          r"calling\s+it)$", re.IGNORECASE)
_OTHERS = re.compile(r"\b(?:should|shall|your|you|user|callback|hook|handler|subclass(?:es)?|implementations?)\b",
                     re.IGNORECASE)


_API_PARTS = ("params", "raises", "returns")
_WRITES_CALL = re.compile(r"`~?[A-Za-z_][\w.]*\(")


def statements(unit: Unit) -> list[Stated]:
    """Every claim the unit states; ``bound`` names the subject where the syntax ties one."""
    # the sentence that introduces a list or table says what its items are; under a heading that names no API part
    # ("## Usage", "Notes") too, when it writes the call it is about: "`f()` takes these arguments:"
    if unit.form is not Form.PROSE and unit.lead.rstrip().endswith(":") and (
            not unit.label or unit.label not in _API_PARTS and _WRITES_CALL.search(unit.lead)):
        unit = replace(unit, label=_introduced(unit.lead) or unit.label)
    if unit.form is Form.SIGNATURE:
        return _signature(unit.text)
    found = _row(unit) if unit.form is Form.TABLE else _item(unit) if unit.term and not unit.part else []
    text = unit.text
    named = _named_defaults(text)
    owner = _item_parameter(unit)
    if owner and not named and unit.form is not Form.TABLE:
        value = default_value(text)
        found += [Stated(Kind.DEFAULT, owner, value)] if value is not None else []
    found += named + _takes(text) + _types(text) + _raises(text, unit) + _returns(text, unit)
    return found


def _introduced(lead: str) -> str:
    """The part a list's or table's lead sentence opens: "`f()` takes these arguments:" -> "params"."""
    if re.search(r"(?i)\b(?:arguments|parameters|params|keyword arguments|kwargs)\b", lead):
        return "params"
    if _RAISE_VERB.search(lead) or re.search(r"(?i)\b(?:exceptions|errors)\b", lead):
        return "raises"
    return "returns" if re.search(r"(?i)\breturns?\b", lead) else ""


def _signature(text: str) -> list[Stated]:
    signature = parse_signature(text)
    if signature is None:
        return []
    found: list[Stated] = []
    for name, default, annotation in signature.parameters:
        if name in ("self", "cls"):
            continue
        found.append(Stated(Kind.TAKES, name, explicit=True))
        if default is not None and literal_value(f"`{default}`") is not None and default != "...":
            found.append(Stated(Kind.DEFAULT, name, default))
        words = type_words(annotation) if annotation else None
        if words:
            found.append(Stated(Kind.TYPE, name, "|".join(sorted(words))))
    words = type_words(signature.returns) if signature.returns else None
    if words:
        found.append(Stated(Kind.RETURNS_TYPE, value="|".join(sorted(words))))
    return found


def _item_parameter(unit: Unit) -> str:
    """The parameter a table row, definition or bullet is about ("" when it is about none)."""
    if unit.form is Form.TABLE:
        cells = dict(unit.cells)
        column = next((h for h in cells if h in _NAME_HEADERS), None)
        if column is None:
            return ""
        return _identifier(cells[column])
    term = unit.term.strip()
    field = re.match(r"^(\w+)\s+(?:[\w\[\], |.]+\s+)?\**(\w+)$", term)
    if field and field.group(1).lower() in _PARAM_FIELDS:
        return field.group(2)
    if unit.label in ("raises", "returns") or unit.form is Form.PROSE:
        return ""
    return _identifier(re.split(r"\s+:\s+|\s*\(", term, maxsplit=1)[0])


def _identifier(text: str) -> str:
    plain = text.strip().strip("`*_").strip()
    plain = re.sub(r"^\*{1,2}", "", plain.split("=")[0].strip())
    return plain if re.fullmatch(_ID, plain) and (text.strip().startswith(("`", "*")) or plain.islower()) else ""


def _explicit(unit: Unit) -> bool:
    if unit.label == "params":  # a Parameters part, or a list "`f()` takes these arguments:" introduces
        return True
    if unit.form is Form.TABLE:
        return any(h in _PARAM_HEADERS for h, _ in unit.cells)
    return unit.term.split(" ")[0].lower() in _PARAM_FIELDS


def _row(unit: Unit) -> list[Stated]:
    name = _item_parameter(unit)
    if not name:
        return []
    cells = dict(unit.cells)
    found = [Stated(Kind.TAKES, name, explicit=_explicit(unit))]
    column = next((h for h in cells if "default" in h), None)
    if column is not None:
        cell = re.sub(r"[*_]", "", cells[column]).strip()
        plain_none = cell.lower() == "none"  # plain None in a Default column means "no default"; `None` is a value
        if cell.lower().strip("()") not in _NO_DEFAULT and not plain_none and not cell.lower().startswith("via"):
            value = literal_value(cell) or literal_value(f"`{cell}`")
            found += [Stated(Kind.DEFAULT, name, value)] if value is not None else []
    else:
        value = default_value(" ".join(v for h, v in unit.cells if h not in _NAME_HEADERS))
        found += [Stated(Kind.DEFAULT, name, value)] if value is not None else []
    typed = next((v for h, v in unit.cells if h in ("type", "types")), "")
    words = type_words(typed) if typed.strip() else None
    found += [Stated(Kind.TYPE, name, "|".join(sorted(words)))] if words else []
    description = " ".join(v for h, v in unit.cells if h not in _NAME_HEADERS and "default" not in h
                           and h not in ("type", "types"))
    value = default_value(description) if not _named_defaults(description) else None
    found += [Stated(Kind.DEFAULT, name, value)] if value is not None else []
    return found


def _item(unit: Unit) -> list[Stated]:
    """A definition's or bullet's term: a parameter entry, an RST field, a Raises or Returns entry."""
    term = unit.term.strip()
    head = term.split(" ")[0].lower()
    if head in ("raises", "raise", "except", "exception", "throws") and " " in term:
        return [Stated(Kind.RAISES, value=term.split()[-1].strip("`"))]
    if head in ("rtype", "returntype"):
        words = type_words(unit.text)
        return [Stated(Kind.RETURNS_TYPE, value="|".join(sorted(words)))] if words else []
    if head == "type" and len(term.split()) == 2:
        words = type_words(unit.text)
        return [Stated(Kind.TYPE, term.split()[1], "|".join(sorted(words)))] if words else []
    if unit.label == "raises":
        return [Stated(Kind.RAISES, value=m.group(1)) for m in _EXCEPTION.finditer(term)]
    name = _item_parameter(unit)
    if not name:
        return []
    found = [Stated(Kind.TAKES, name, explicit=_explicit(unit))]
    rest = re.split(r"\s+:\s+", term, maxsplit=1)[1:] or re.findall(r"\(([^()]+)\)", term + " " + unit.text[:60])[:1]
    classifier = rest[0] if rest else ""
    inline = re.match(rf"^`?{re.escape(name)}\s*=\s*([^`]+)`?$", term)
    value = inline.group(1).strip() if inline else default_value(classifier) if classifier else None
    found += [Stated(Kind.DEFAULT, name, value)] if value is not None else []
    words = type_words(re.split(r",\s*default", classifier)[0]) if classifier else None
    found += [Stated(Kind.TYPE, name, "|".join(sorted(words)))] if words else []
    return found


def _named_defaults(text: str) -> list[Stated]:
    """Defaults stated with their parameter named: "`timeout` defaults to 5", "`mode='r'` by default"."""
    found = []
    for index, pattern in enumerate(_DEFAULTS):
        for match in pattern.finditer(text):
            raw = match.group("v").strip()
            in_span = index >= _SPAN_PATTERNS  # `p=v`: the value is the code inside the span
            value = literal_value(f"`{raw}`") if in_span else literal_value(raw)
            if value is not None:
                found.append(Stated(Kind.DEFAULT, match.group("p"), value))
    for match in _TYPED_SPAN.finditer(text):
        if match.group("v") and literal_value(f"`{match.group('v')}`") is not None:
            found.append(Stated(Kind.DEFAULT, match.group("p"), match.group("v").strip()))
    if _OMITTED.search(text):
        found += [Stated(Kind.DEFAULT, m.group("p"), value) for m in _SETS.finditer(text)
                  if (value := literal_value(m.group("v"))) is not None]
    return list(dict.fromkeys(found))


def _takes(text: str) -> list[Stated]:
    found = []
    for pattern in _TAKES:
        for match in pattern.finditer(text):
            owner = _OWNER.match(text, match.end())  # "the `retries` argument of `connect()`"
            verb = _TAKING_VERB.search(text[: match.start()])
            subject = _verb_subject(text, verb.start()) if verb else None
            if owner is None and subject is None:
                continue  # "`retry_state` argument is a `RetryCallState`": whose argument, it does not say
            found.append(Stated(Kind.TAKES, match.group("p"), explicit=True,
                                bound=owner.group(1) if owner else subject or ""))
    for match in _CALL_SPAN.finditer(text):
        keywords = re.findall(rf"(?:^|,)\s*({_ID})\s*=(?!=)", match.group(2))
        found += [Stated(Kind.TAKES, k, explicit=True, bound=match.group(1)) for k in keywords]
    return found


def _types(text: str) -> list[Stated]:
    found = []
    for pattern in _TYPES:
        for match in pattern.finditer(text):
            words = type_words(match.group("t"))
            if words:
                found.append(Stated(Kind.TYPE, match.group("p"), "|".join(sorted(words))))
    for match in _TYPED_SPAN.finditer(text):
        words = type_words(match.group("t"))
        found += [Stated(Kind.TYPE, match.group("p"), "|".join(sorted(words)))] if words else []
    return found


def _verb_subject(text: str, start: int) -> str | None:
    """The subject of the verb at ``start``: "" for the statement's own (none, "it", "this function"), the name
    for "`f()` raises", None for anything else ("the callback returns", "that returns")."""
    before = text[:start]
    masked = re.sub(r"`[^`]*`", lambda m: "`" + "x" * (len(m.group(0)) - 2) + "`", before)  # `f()`: no clause
    boundaries = list(_CLAUSE.finditer(masked))
    last = boundaries[-1] if boundaries else None
    if last is not None and last.group(0).lower() in ("which", "that", "who", "whose") and not before[
            last.end():].strip():
        return None  # a relative clause: "a callback that returns a list"
    clause = before[last.end() if last else 0 :]
    if last is not None and last.group(0).lower() in ("and", "or") and "`" in masked[
            max((m.end() for m in boundaries[:-1]), default=0) : last.start()]:
        return None  # "`f()` and `g()` return": a compound subject, not one object
    subject = _AUX.sub("", clause).strip().strip("*_").strip()
    if _OTHERS.search(clause):
        return None
    if not subject or _OWN_SUBJECT.match(subject):
        return ""
    spans = re.findall(r"`~?([A-Za-z_][\w.]*)(?:\([^`]*\))?`|([A-Za-z_][\w.]*)\(\)$", subject)
    names = [a or b for a, b in spans]
    # "`f()`", "the `f` function", "Calling `f()`" (the call is the subject: "Calling `f()` gives back a list")
    if len(names) == 1 and re.fullmatch(r"(?:[Tt]he\s+|[Cc]alling\s+)?`[^`]+`(?:\s+(?:function|method|call|class))?"
                                        r"|[\w.]+\(\)", subject):
        return names[0]
    return None


def _clause_start(before: str) -> int:
    masked = re.sub(r"`[^`]*`", lambda m: "`" + "x" * (len(m.group(0)) - 2) + "`", before)
    return max((m.end() for m in _CLAUSE.finditer(masked)), default=0)


def _raises(text: str, unit: Unit) -> list[Stated]:
    if unit.label == "raises" and unit.form in (Form.BULLET, Form.DEFINITION, Form.TABLE) and not unit.term:
        lead = _EXCEPTION.search(text)  # "ValueError: when ...": an entry of a Raises part leads with its type
        return [Stated(Kind.RAISES, value=lead.group(1))] if lead else []
    found = []
    for verb in _RAISE_VERB.finditer(text):
        before = text[: verb.start()]
        if _NEGATION.search(before):
            continue
        passive = verb.group(0).lower() in ("raised", "thrown") and re.search(r"\b(?:is|are|be|being|been|gets?)\s+$",
                                                                              before)
        if passive:
            clause = before[_clause_start(before):]
            names, bound = [m.group(1) for m in _EXCEPTION.finditer(clause)], ""
        else:
            subject = _verb_subject(text, verb.start())
            if subject is None:
                continue
            after = text[verb.end():]
            stop = re.search(r"[;.]\s|\b(?:if|when|unless|whenever|because|on|for|while)\b", after)
            names = [m.group(1) for m in _EXCEPTION.finditer(after[: stop.start() if stop else len(after)])
                     if not _HANDLED.search(after[: m.start()])]
            named = _RAISED_SPAN.match(after)  # "raises `Broke`": any class the verb names in code
            names += [named.group(1)] if named and named.group(1) not in names else []
            bound = subject
        found += [Stated(Kind.RAISES, value=name, bound=bound) for name in names]
    return found


def _returns(text: str, unit: Unit) -> list[Stated]:
    found: list[Stated] = []
    if unit.label == "returns" and unit.form in (Form.PROSE, Form.BULLET, Form.DEFINITION) and not _RETURN_VERB.search(
            text):
        words = type_words(" ".join(re.sub(r"^[`*]*", "", text).split()[:4]).split(":")[0])
        if words and len(text.split()) <= 12:
            found.append(Stated(Kind.RETURNS_TYPE, value="|".join(sorted(words))))
    verbs = [(m, False) for m in _RETURN_VERB.finditer(text)] + [(m, True) for m in _PASSIVE_RETURN.finditer(text)]
    for verb, passive in verbs:
        before = text[: verb.start()]
        if _NEGATION.search(before):
            continue
        if passive:
            phrase, bound = before[_clause_start(before):], ""
        else:
            subject = _verb_subject(text, verb.start())
            if subject is None:
                continue
            phrase, bound = _RETURN_END.split(text[verb.end():])[0], subject
        found += _returned(phrase.strip(), bound, passive)
    for result in _RESULT_OF.finditer(text):
        found += _returned(_RETURN_END.split(text[result.end():])[0].strip(), result.group(1), False)
    return found


def _returned(phrase: str, bound: str, passive: bool) -> list[Stated]:
    """The value or type a return phrase states ("a dict", "`None` if empty"; passive: "a list is")."""
    value = _returned_value(phrase)
    if value is not None:
        return [Stated(Kind.RETURNS_VALUE, value=value, bound=bound)]
    words = type_words(" ".join(phrase.split()[-3:] if passive else phrase.split()[:6])) if phrase else None
    return [Stated(Kind.RETURNS_TYPE, value="|".join(sorted(words)), bound=bound)] if words else []


def _returned_value(phrase: str) -> str | None:
    """The literal a return phrase leads with: `` `None` ``, ``True``, ``0 on success``; not "2 values"."""
    words = phrase.split()
    if not words:
        return None
    value = literal_value(words[0])
    if value is None:
        return None
    if words[0].startswith("`") or value in ("True", "False", "None"):
        return value
    return value if len(words) == 1 or words[1].lower() in ("on", "for", "otherwise", "in", "at") else None
