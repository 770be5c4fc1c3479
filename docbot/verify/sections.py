"""Find one function's section in any Markdown doc by its heading.

Docs docbot did not write name a function in many ways: ``## compound_interest``, ``### Class.method``,
``## `fn(a, b)` ``, ``# fn()``, ``### async def fn(...)``, ``## mod.fn``. A heading names the function
when the first dotted name in it ends with the qualname (or, for a method, with the method's name under
a heading that names its class).
"""

from __future__ import annotations

import re

from docbot.verify.markdown import Heading, headings, label_of

_NAME_IN_HEADING = re.compile(
    r"^(?:(?:async\s+)?def\s+|class\s+|(?:function|method|property|classmethod|staticmethod)\s*:?\s+)?"
    r"([A-Za-z_][\w.]*)"
)


def heading_name(text: str) -> str | None:
    """The dotted name a heading stands for, or None for prose headings (``## Parameters``)."""
    plain = re.sub(r"[`*]", "", text).strip()
    plain = re.sub(r"^\d+(\.\d+)*\.?\s+", "", plain)  # numbered headings: "2.1 compound"
    if label_of(plain) is not None or label_of(plain.split(":")[0]) is not None:
        return None  # "Parameters", "Example: monthly compounding"
    match = _NAME_IN_HEADING.match(plain)
    if not match:
        return None
    rest = plain[match.end() :].strip()
    # "Compound interest for savers" is prose; "compound(a, b) -> float" and "Account.deposit" are names.
    if rest and not rest.startswith(("(", "->", ":", "[", "—", "–", "-")):
        return None
    return match.group(1)


def _names_function(name: str, qualname: str) -> bool:
    return name == qualname or name.endswith("." + qualname)


def find_section(markdown: str, name: str) -> str | None:
    """The section documenting ``name`` ("fn" or "Class.method"), heading line included, or None."""
    all_headings = headings(markdown)
    named = [(h, heading_name(h.text)) for h in all_headings]
    matches = [h for h, n in named if n and _names_function(n, name)]
    # "## class Account" then "### Account(owner, balance=0.0)": the one with a signature documents the call.
    match = next((h for h in matches if "(" in h.text), matches[0] if matches else None)
    if match is None and "." in name:
        match = _method_under_class(named, name)
    if match is None:
        return None
    return _section_text(markdown, all_headings, match)


def _method_under_class(named: list[tuple[Heading, str | None]], qualname: str) -> Heading | None:
    """``### deposit`` below ``## Account`` (or ``## class Account``) documents ``Account.deposit``."""
    class_name, method = qualname.rsplit(".", 1)
    current_class: Heading | None = None
    for heading, name in named:
        if current_class is not None and heading.level <= current_class.level:
            current_class = None
        if name and _names_function(name, class_name) and current_class is None:
            current_class = heading  # the outermost: "### Account(owner)" below it is the constructor
        elif current_class is not None and name and _names_function(name, method):
            return heading
    return None


def _section_text(markdown: str, all_headings: list[Heading], start: Heading) -> str:
    """From the heading to the next heading at its level or above (labels aside) or naming an API."""
    lines = markdown.splitlines()
    end = len(lines)
    for heading in all_headings:
        if heading.line <= start.line:
            continue
        # "## Parameters" right after "## compound" belongs to it (flat model output); another name ends it.
        is_label = label_of(heading.text) is not None or label_of(heading.text.split(":")[0]) is not None
        if (heading.level <= start.level and not is_label) or heading_name(heading.text) is not None:
            end = heading.line
            break
    return "\n".join(lines[start.line : end]).rstrip() + "\n"
