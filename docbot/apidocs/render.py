"""One function's Markdown section, rendered deterministically from a ``DocModel`` and the ``Facts``.

docbot writes the structure itself: the anchor and the heading (the qualified name from the code),
the signature block, the types and defaults of the parameters, the raise sites' exact messages where
the model agrees with them. The model only supplies prose, and every piece of it goes through
``docbot.mdtext`` so that it cannot break the page. The same inputs give
the same bytes, so a re-run on unchanged code leaves the files as they are.

Also the ``docs/api/index.md`` page: modules, functions and their approval state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from docbot.docmodel import DocModel, Example, RaisesDoc, param_key, when_clause
from docbot.facts.function import Facts, Parameter
from docbot.results import SectionStatus
from docbot.mdtext import cell, clean, fence, literal_code, prose
from docbot.verify.checks.model import agreeing_site, extra_parameter_allowed

__all__ = ["UNAPPROVED_NOTE", "IndexEntry", "SectionStatus", "anchor", "render_index", "render_section",
           "with_gate_note"]

CODE_LIMIT = 8_000  # characters of one example's code or output; a longer example is left out
MAX_ITEMS = 20  # raises entries / examples rendered; more are counted in a note



def anchor(module: str, qualname: str) -> str:
    """The stable id of a function's section: ``pkg.mod.Class.method``, the same on every host.

    Both names come from the code; anything else is a caller's bug, not text to escape.
    """
    for name in (module, qualname):  # Python's identifiers, Unicode ones included (``pkg.ünï.über``)
        if not all(part.isidentifier() for part in name.split(".")):
            raise ValueError(f"not a dotted Python name: {name!r}")
    return f"{module}.{qualname}"


# What a reader of an unapproved section sees under its heading: the marker alone is an HTML comment
# nobody reads (docs/design.md#gate). Plain Markdown, so it renders on GitHub and in mkdocs alike.
UNAPPROVED_NOTE = ("> **Unapproved.** docbot's reviewer did not pass this section; a person should check it "
                   "against the code before relying on it.")


def with_gate_note(body: str, status: SectionStatus | None) -> str:
    """``body`` with the visible note under its heading when ``status`` is unapproved; an approved or
    unjudged body is returned as it is (same bytes), and the note is never added twice."""
    if status is not SectionStatus.UNAPPROVED or UNAPPROVED_NOTE in body:
        return body
    lines = body.split("\n")
    at = next((i + 1 for i, line in enumerate(lines) if line.startswith("## ")), 0)
    head, rest = lines[:at], lines[at:]
    while rest and not rest[0].strip():
        rest = rest[1:]
    return "\n".join([*head, *([""] if head else []), UNAPPROVED_NOTE, "", *rest])


def render_section(model: DocModel, facts: Facts, module: str) -> str:
    """The section body (below docbot's marker line) for the function ``facts`` describes."""
    blocks = [
        f'<a id="{anchor(module, facts.qualname)}"></a>',
        f"## `{facts.qualname}`",
        fence(facts.signature(), "python"),
        prose(model.summary),
        prose(model.description),
        _parameters(model, facts),
        _returns(model, facts),
        _raises(model, facts),
        _examples(model.examples),
        _labelled("Notes", prose(model.notes)),
    ]
    return "\n\n".join(block for block in blocks if block) + "\n"


def _labelled(label: str, body: str) -> str:
    return f"**{label}**\n\n{body}" if body else ""


def _parameters(model: DocModel, facts: Facts) -> str:
    described: dict[str, str] = {}
    for param in model.parameters:
        described.setdefault(param_key(param.name), param.description)
    rows = [_row(param, described.get(param.name, "")) for param in facts.documentable_parameters]
    carrier = next((p for p in facts.parameters if p.kind == "var-keyword"), None)
    if carrier is not None and extra_parameter_allowed(facts):
        known = {p.name for p in facts.parameters}
        for name, text in described.items():
            if name and name not in known:  # a keyword carried by **kwargs, documented by name
                rows.append(f"| {literal_code(name)} | | via {literal_code(carrier.starred_name)} | {cell(text)} |")
    if not rows:
        return ""
    header = "| Name | Type | Default | Description |\n| --- | --- | --- | --- |"
    return _labelled("Parameters", header + "\n" + "\n".join(rows))


def _row(param: Parameter, description: str) -> str:
    kind = literal_code(param.annotation) if param.annotation else ""
    if param.is_variadic:
        default = ""
    else:
        default = literal_code(param.default) if param.default is not None else "required"
    return f"| {literal_code(param.starred_name)} | {kind} | {default} | {cell(description)} |"


def _returns(model: DocModel, facts: Facts) -> str:
    annotation = facts.return_annotation
    text = prose(model.returns)
    if not text and (not annotation or annotation == "None"):
        return ""
    label = "Yields" if facts.is_generator else "Returns"
    head = literal_code(annotation) if annotation else ""
    return _labelled(label, "\n\n".join(part for part in (head, text) if part))


def _raises(model: DocModel, facts: Facts) -> str:
    items = [_raise_item(entry, facts) for entry in model.raises[:MAX_ITEMS]]
    items = [item for item in items if item]
    if not items:
        return ""
    body = "\n".join(items) + _more(len(model.raises) - MAX_ITEMS, "raises entries")
    return _labelled("Raises", body)


def _raise_item(entry: RaisesDoc, facts: Facts) -> str:
    """``- <code>ValueError</code>: <code>message</code> — when ...``; the code's words where it agrees."""
    site = agreeing_site(entry, facts)
    type_text = site.exception if site is not None else clean(entry.type)
    message = site.shown if site is not None and site.shown is not None else clean(entry.message)
    if not type_text.strip():
        return ""
    line = f"- {literal_code(type_text)}"
    if message.strip():
        line += f": {literal_code(message)}"
    if entry.condition.strip():
        line += f" — {cell(when_clause(entry.condition))}"
    elif site is not None and site.condition:
        line += f" — when {literal_code(site.condition)}"
    return line


def _examples(examples: Sequence[Example]) -> str:
    blocks: list[str] = []
    left_out = 0
    for example in examples[:MAX_ITEMS]:
        code, output = clean(example.code), clean(example.output)
        if not code.strip() or _unsafe_code(code + "\n" + output):
            left_out += 1
            continue
        blocks.append(fence(code, "python"))
        if output:
            blocks.append("Output:\n\n" + fence(output, "text"))
    if left_out:
        blocks.append(f"*({left_out} example{'s' if left_out > 1 else ''} left out: empty, too long, "
                      "or holding a docbot marker)*")
    more = _more(len(examples) - MAX_ITEMS, "examples").strip()
    return _labelled("Examples", "\n\n".join(blocks + ([more] if more else [])))


def _unsafe_code(text: str) -> bool:
    """Code docbot will not put on a page: too long to read, or a line the doc-file parser would take
    for one of docbot's markers (code is shown verbatim, so it cannot be escaped)."""
    return len(text) > CODE_LIMIT or "<!-- docbot:" in text


def _more(extra: int, what: str) -> str:
    return f"\n\n*({extra} more {what} left out)*" if extra > 0 else ""


@dataclass(frozen=True)
class IndexEntry:
    module: str
    qualname: str
    status: SectionStatus | None  # None: the marker predates the gate, no verdict recorded
    score: int | None = None  # the critic's last score; None when no model ran (e.g. a kept section)
    anchored: bool = True  # the section carries its ``anchor`` (one written before anchors links to the page)
    source: str = ""  # the function's module when it is not the page's (a public page of a private module's)


def render_index(entries: Sequence[IndexEntry], title: str = "API reference") -> str:
    """``docs/api/index.md``: one table per module (modules sorted, functions in the given order)."""
    modules: dict[str, list[IndexEntry]] = {}
    for entry in entries:
        anchor(entry.module, entry.qualname)  # validates both names
        modules.setdefault(entry.module, []).append(entry)
    parts = [f"# {title}"]
    if not modules:
        parts.append("No documented modules yet.")
    for module in sorted(modules):
        rows = [f"| [`{e.qualname}`]({_link(e)}) | {_STATUS_WORDS[e.status]} |" for e in modules[module]]
        table = "| Function | Status |\n| --- | --- |\n" + "\n".join(rows)
        parts.append(f"## [`{module}`]({module}.md)\n\n{table}")
    return "\n\n".join(parts) + "\n"


# The index is read by people: words, not the critic's raw score (the marker keeps the score).
_STATUS_WORDS: dict[SectionStatus | None, str] = {
    SectionStatus.APPROVED: "approved",
    SectionStatus.UNAPPROVED: "**unapproved**: a person should check it",
    None: "no verdict recorded",
}


def _link(entry: IndexEntry) -> str:
    """The module page, at the section's anchor when the section has one (link only to what exists)."""
    page = f"{entry.module}.md"
    return f"{page}#{anchor(entry.source or entry.module, entry.qualname)}" if entry.anchored else page
