"""What the doc says comes back, against the code: a value where the code returns none, nothing where it returns
one, and a stated return type against the types the code can return (docbot.verify.checks.return_types).

A constructor (``__init__``) is accused of an invented return only when the claim names a builtin
value type in code (`` `int` ``, `` `float` ``, `` `str` `` ...): calling the class returns the instance,
so "instances return a default" or "returns a new set" in a class's doc is true of the call the reader
makes, while "Returns the total as a `float`" is not (tests/verify/test_doccheck.py, "constructor").

What counts as the doc stating the type of the function's own return value, in plain words a reader reads so:

- a Returns part that opens with a type (``str: the text``, ``A list of lines``);
- a clause that starts with the verb, its subject being the function (``Returns a string``, ``...; returns
  string if None``, ``it returns a dict``), or the passive ``is returned as a whole string``;
- the summary sentence of a conversion (``Parse XML input into a Python dictionary``).

The type is the first type word of the phrase, within five words and before a word that ends the noun
phrase (``a list of Python dictionaries`` is a list; ``a JSON formatted str`` is a str; ``1 if the list is
empty`` names no type). A relative clause (``a callback that returns
True/False``) speaks of something else and is not read. The claim is a contradiction only when the code's
returned types are all known and none of them is of the stated kind (``float`` admits an ``int``, ``integer``
a ``bool``): "returns bytes if None" for a function that only returns ``str`` or nothing is false whatever
the condition. docs/design.md#return-types; tests/verify/test_return_types.py.

A topic passage ("Usage", "Quickstart") is not one function's entry: its sentences speak of many things, so
``own_return_prose`` keeps of its return sentences only those whose verb has the function as its subject
(`` `f` returns ``, ``f(x) also returns``); "an object with a `read()` method that returns `bytes`", "if the
converter returns a pair" and "otherwise it should return `None`" are about something else
(tests/verify/test_reading_claims.py).
"""

from __future__ import annotations

import re

from docbot.facts.function import Facts
from docbot.verify.findings import Check, Finding
from docbot.verify.checks.parameters import call_names
from docbot.verify.read.doc_params import doc_signatures
from docbot.verify.read.markdown import parts_labelled, prose
from docbot.verify.read.md_tokens import tokens
from docbot.verify.checks.return_types import returned_types, shown

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

# type word -> the builtin types that make the claim true
TYPE_WORDS: dict[str, frozenset[str]] = {
    "str": frozenset({"str"}), "string": frozenset({"str"}),
    "bytes": frozenset({"bytes", "bytearray"}), "bytestring": frozenset({"bytes", "bytearray"}),
    "bytearray": frozenset({"bytearray"}),
    "list": frozenset({"list"}), "dict": frozenset({"dict"}), "dictionary": frozenset({"dict"}),
    "mapping": frozenset({"dict"}), "tuple": frozenset({"tuple"}), "set": frozenset({"set", "frozenset"}),
    "frozenset": frozenset({"frozenset", "set"}), "int": frozenset({"int", "bool"}),
    "integer": frozenset({"int", "bool"}), "float": frozenset({"float", "int"}),
    "number": frozenset({"int", "float", "complex"}), "bool": frozenset({"bool"}), "boolean": frozenset({"bool"}),
}
_PLURALS = {"strings": "string", "lists": "list", "dicts": "dict", "dictionaries": "dictionary", "tuples": "tuple",
            "sets": "set", "integers": "integer", "ints": "int", "floats": "float", "numbers": "number",
            "booleans": "boolean", "bools": "bool", "mappings": "mapping"}
# the phrase after the verb: up to five words of one clause; stated_type finds the type word in it
_PHRASE = r"((?:[^\s.;,:]+[ \t]*){1,5})"
# words that end the noun phrase: "returns 1 if the list is empty" says nothing of a list
_STOP = {"of", "if", "when", "unless", "otherwise", "or", "and", "for", "with", "to", "from", "in", "on", "by",
         "as", "is", "that", "which", "else", "where", "containing", "whose"}
# the subject of the verb: none (the clause starts with it), "it", "this (function)", "the function" or the
# function's own name ("`parse()` returns"); "a callback function returns" is about the callback
_ACTIVE = (r"(?:^|[;:(]\s*|\b(?:[Ii]t|[Tt]his|(?:[Tt]his|[Tt]he)\s+(?:function|method)|`?{name}\(\)`?)\s+)"
           rf"(?:[Rr]eturns|[Rr]eturn)\s+{_PHRASE}")
_PASSIVE = re.compile(rf"\bis\s+returned\s+(?:as|in)\s+{_PHRASE}")
_CONVERSION = re.compile(
    rf"^\s*(?:Parse|Convert|Turn|Transform|Decode|Deserialize|Deserialise|Load|Read|Split|Serialize|Serialise|"
    rf"Dump|Render|Format|Encode)s?\b[^.;]*?\s(?:into|as)\s+{_PHRASE}")
_NEGATED = re.compile(r"\b(?:not|never|no longer|instead of)\s+(?:\w+\s+){0,2}$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*])")
_RETURN_VERB = re.compile(r"\b(?:[Rr]eturn(?:s|ed|ing)?|[Yy]ield(?:s|ed|ing)?)\b")
# where a clause starts: the subject of a verb stands between one of these and the verb
_CLAUSE_START = re.compile(r"[;:,()]|\b(?:if|when|whenever|unless|otherwise|and|but|or|which|that|who|whose|"
                           r"because|while|whereas|so|then)\b", re.IGNORECASE)
_AUXILIARIES = re.compile(r"(?:\s+(?:also|always|only|then|now|simply|just|still|should|shall|will|would|can|"
                          r"could|may|might|must|never|not|does|do|did|doesn't|don't|instead|usually|"
                          r"typically|normally|itself))+\s*$", re.IGNORECASE)
_LABEL = re.compile(r"^\W*(?:Returns?|Yields?)\W*(?::|$)")
_OWN = "\x00F\x00"  # the function's mention, masked so its parentheses do not split a clause


def stated_type(phrase: str) -> str | None:
    """The type word a phrase names: ``a list of Python dictionaries`` -> "list"; None when it names none."""
    words = [w.strip("`*_,").lower() for w in re.split(r"\s+", phrase.strip())]
    if re.search(r"\bTrue(?:/| or )False\b", phrase):
        return "bool"
    for word in words:
        if word in ("a", "an", "the", "one", "single"):
            continue
        word = _PLURALS.get(word, word)
        if word in TYPE_WORDS:
            return word
        if word in _STOP or word.endswith("'s"):
            return None  # "the length of the list", "the list's size": the list is not what comes back
    return None


def return_type_claims(section: str, name: str = "") -> list[tuple[str, str]]:
    """(type word, the doc text) for each statement of the own return type of the function called ``name``."""
    # The subject `name()` can match only where the section writes it. In a section that does not, "(?!)" finds
    # the same claims, and that one pattern comes from re's cache: no compile per function (~0.2 ms each).
    named = re.escape(name) if name and f"{name}()" in section else "(?!)"
    active = re.compile(_ACTIVE.replace("{name}", named))
    claims: list[tuple[str, str]] = []
    returns_parts = [p.text for p in parts_labelled(section, "returns")]
    for text in returns_parts:
        lead = re.sub(r"^\s*(?:[-*+]\s+)?", "", prose(text)).strip()
        word = stated_type(" ".join(lead.split()[:4]).split(":")[0])
        if word is not None:
            claims.append((word, lead[:120]))
    paragraphs = [re.sub(r"\s+", " ", p) for p in re.split(r"\n\s*\n|\n(?=\s*#)", prose(section))]
    for sentence in (s for p in paragraphs for s in _SENTENCE_END.split(p)):
        for pattern in (active, _PASSIVE, _CONVERSION):
            for match in pattern.finditer(sentence):
                if _NEGATED.search(sentence[: match.start(1)]) or re.search(r"\b(?:that|which)\s*$",
                                                                           sentence[: match.start()]):
                    continue
                word = stated_type(match.group(1))
                if word is not None:
                    claims.append((word, match.group(0).strip()))
    return claims


def check_return_type(section: str, facts: Facts, module_source: str, sys_path: tuple[str, ...] = ()) -> list[Finding]:
    """A contradiction for each stated return type the code never returns.

    What the code returns is inferred only when the doc states a type (inference reads the whole module).
    """
    claims = return_type_claims(section, facts.name)
    if not claims or not module_source or facts.name in ("__init__", "__new__") or facts.kind == "property":
        return []
    returned = returned_types(module_source, facts.qualname, sys_path)
    if returned is None:
        return []
    values = returned - {"NoneType"}
    if not values:
        return []
    findings = []
    for word, text in claims:
        if not TYPE_WORDS[word] & returned:
            code = shown(returned)
            findings.append(Finding(Check.WRONG_RETURN_TYPE,
                                    f"the doc says {facts.name}() returns a {word}, but the "
                                    f"code returns {code}", text, f"returns {code}"))
    return findings


def own_return_prose(passage: str, name: str) -> str:
    """A topic passage with the prose sentences that say what something other than ``name`` returns left out.

    The paragraphs come from markdown-it (list items and block quotes included, headings and tables not); the
    line count is kept, code is untouched.
    """
    lines = passage.splitlines()
    short = name.rsplit(".", 1)[-1]
    stream = tokens(passage)
    for index, token in enumerate(stream):
        if token.type != "inline" or not token.map or not index or stream[index - 1].type != "paragraph_open":
            continue
        start, end = token.map
        lead = re.match(r"^\s*(?:>\s*)*(?:(?:[-*+]|\d+[.)])\s+)?", lines[start])
        prefix = lead.group(0) if lead else ""
        text = " ".join([lines[start][len(prefix):].strip(), *(line.strip().lstrip("> ") for line in
                                                                lines[start + 1 : end])])
        kept = [sentence for sentence in _SENTENCE_END.split(text) if _own_or_silent(sentence, short)]
        lines[start:end] = [prefix + " ".join(kept)] + [""] * (end - start - 1)
    return "\n".join(lines) + "\n"


def _own_or_silent(sentence: str, name: str) -> bool:
    """Whether every return verb of the sentence has the function as its subject (true when there is none)."""
    if _LABEL.match(re.sub(r"[*_]", "", sentence)):
        return True  # "**Returns:** ..." labels a part; it is the entry's own
    mention = re.compile(rf"`?(?:[\w.]+\.)?{re.escape(name)}(?:\([^()`]*\))?`?(?!\w)")
    masked = re.sub(r"`[^`]*`", "\x00C\x00", mention.sub(_OWN, sentence))
    for verb in _RETURN_VERB.finditer(masked):
        before = masked[: verb.start()]
        clause = before[max((m.end() for m in _CLAUSE_START.finditer(before)), default=0) :]
        subject = _AUXILIARIES.sub("", clause).rstrip().rstrip("—–- ")  # "`f(x)` — returns a list"
        if verb.group(0).lower().endswith(("ed", "ing")):
            after = masked[verb.end() :]
            if _OWN not in clause and not after.lstrip().startswith(("by " + _OWN, "from " + _OWN)):
                return False
        elif not subject.endswith(_OWN):
            return False
    return True


_CLAUSE_END = re.compile(r"[.!?\n]")


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
    for signature in doc_signatures(section, call_names(facts)):
        if signature.returns:
            claims.append(("nothing" if signature.returns == "None" else "value", signature.text))
    said = prose(section)
    for match in _RETURN_PHRASE.finditer(said):
        if _RELATIVE.search(said[max(0, match.start() - 16) : match.start()]):
            continue  # "a callback that returns a list": the verb's subject is the callback, not the function
        if (end := _CLAUSE_END.search(said, match.start())) is not None and end.group() == "?":
            continue  # "Why does detect() return None for encoding?" (chardet's FAQ): a question states nothing
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
            return [Finding(Check.INVENTED_RETURN, f"the doc describes a return value ({_short(said)}), but "
                            f"{facts.name}() returns nothing (None)", said, "no `return <value>` in the code")]
        return []
    what = "yields values" if facts.is_generator else "returns a value"
    said = next((text for kind, text in claims if kind == "nothing"), None)
    if said is not None:
        return [Finding(Check.WRONG_RETURN, f"the doc says {facts.name}() returns nothing, but it {what}",
                        said, f"{what}" + (f" ({facts.return_annotation})" if facts.return_annotation else ""))]
    # Omission is judged leniently ("Returns x." talks about the return); contradictions strictly.
    mentions = re.search(r"\b(?:[Rr]eturn(?:s|ed|ing)?|[Yy]ield(?:s|ed|ing)?)\b|->|→", prose(section))
    if not claims and not mentions and facts.kind != "property":
        return [Finding(Check.MISSING_RETURN, f"{facts.name}() {what} but the doc never says what it returns",
                        code_fact=what)]
    return []


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
