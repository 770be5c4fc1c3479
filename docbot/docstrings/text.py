"""A ``DocModel`` as docstring text in Google, NumPy or reST style (pure; no indentation, no quotes).

The code supplies what the model must not get wrong: the parameter names and their order, the
types (NumPy style shows them), the return annotation, the raise sites' exact messages where the model
agrees with them. Examples become doctest sessions (``>>>`` / ``...``), so ``python -m doctest``
and the example checks read them as the doc's reader does.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from enum import Enum

from docbot.docmodel import DocModel, Example, RaisesDoc, param_key, when_clause
from docbot.facts.function import Facts
from docbot.mdtext import INVISIBLE, clean
from docbot.verify.checks.model import agreeing_site

__all__ = ["DocstringStyle", "doctest_lines", "render_docstring"]


class DocstringStyle(Enum):
    GOOGLE = "google"
    NUMPY = "numpy"
    REST = "rest"


def render_docstring(model: DocModel, facts: Facts, style: DocstringStyle, keep: tuple[str, ...] = ()) -> str:
    """The docstring's text: summary line, blank line, the style's sections, then ``keep``: the reST
    directives of the docstring it replaces (``.. versionadded::``), as they were written."""
    builders: dict[DocstringStyle, Callable[[DocModel, Facts], list[str]]] = {
        DocstringStyle.GOOGLE: _google, DocstringStyle.NUMPY: _numpy, DocstringStyle.REST: _rest,
    }
    head = [part for part in (_one_line(model.summary), clean(model.description)) if part]
    # no bidi control or zero-width character from the model reaches a source, whatever field held it
    blocks = [INVISIBLE.sub("", block) for block in head + builders[style](model, facts) if block]
    blocks += [block for block in keep if block not in blocks]
    return "\n\n".join(blocks) or facts.name


def _one_line(text: str) -> str:
    return " ".join(clean(text).split())


def _indented(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else "" for line in text.split("\n"))


def _params(model: DocModel, facts: Facts) -> list[tuple[str, str | None, str]]:
    """(name as the signature writes it, annotation, description) for every described parameter."""
    described: dict[str, str] = {}
    for param in model.parameters:
        if clean(param.description):
            described.setdefault(param_key(param.name), clean(param.description))
    rows = [(p.starred_name, p.annotation, described[p.name])
            for p in facts.documentable_parameters if p.name in described]
    if any(p.kind == "var-keyword" for p in facts.parameters):
        known = {p.name for p in facts.parameters}
        rows += [(name, None, text) for name, text in described.items() if name and name not in known]
    return rows


def _raise_parts(entry: RaisesDoc, facts: Facts) -> tuple[str, str]:
    """(type, text) of one raises entry, with the code's type and message where the model agrees."""
    site = agreeing_site(entry, facts)
    type_text = site.exception if site is not None else _one_line(entry.type)
    message = site.message if site is not None and site.message is not None else _one_line(entry.message)
    condition = when_clause(entry.condition or (site.condition if site is not None and site.condition else ""))
    return type_text, " ".join(part for part in (f'"{message}"' if message else "", condition) if part)


def _raises(model: DocModel, facts: Facts) -> list[tuple[str, str]]:
    return [parts for parts in (_raise_parts(e, facts) for e in model.raises) if parts[0]]


def doctest_lines(example: Example) -> str:
    """``>>> `` before each top-level statement, ``... `` before its other lines, then the output."""
    code = clean(example.code)
    lines = code.split("\n")
    try:
        starts = {node.lineno for node in ast.parse(code).body}
    except SyntaxError:
        starts = {1}
    session = [(">>> " if n in starts else "... ") + line for n, line in enumerate(lines, 1)]
    output = [line if line.strip() else "<BLANKLINE>" for line in clean(example.output).split("\n")]
    return "\n".join(session + [line for line in output if clean(example.output)])


def _examples(model: DocModel) -> str:
    return "\n\n".join(doctest_lines(e) for e in model.examples if clean(e.code))


def _returns_type(facts: Facts) -> str:
    annotation = facts.return_annotation or ""
    return "" if annotation == "None" else annotation


def _google(model: DocModel, facts: Facts) -> list[str]:
    blocks: list[str] = []
    params = _params(model, facts)
    if params:
        blocks.append("Args:\n" + "\n".join(_indented(f"{name}: {text}") for name, _, text in params))
    if clean(model.returns):
        label = "Yields" if facts.is_generator else "Returns"
        blocks.append(f"{label}:\n" + _indented(clean(model.returns)))
    raises = _raises(model, facts)
    if raises:
        blocks.append("Raises:\n" + "\n".join(_indented(f"{kind}: {text}".rstrip(": ")) for kind, text in raises))
    if _examples(model):
        blocks.append("Examples:\n" + _indented(_examples(model)))
    if clean(model.notes):
        blocks.append("Note:\n" + _indented(clean(model.notes)))
    return blocks


def _numpy_section(title: str, body: str) -> str:
    return f"{title}\n{'-' * len(title)}\n{body}"


def _numpy(model: DocModel, facts: Facts) -> list[str]:
    blocks: list[str] = []
    params = _params(model, facts)
    if params:
        entries = [f"{name} : {kind}" if kind else name for name, kind, _ in params]
        body = "\n".join(f"{entry}\n{_indented(text)}" for entry, (_, _, text) in zip(entries, params))
        blocks.append(_numpy_section("Parameters", body))
    if clean(model.returns):
        label = "Yields" if facts.is_generator else "Returns"
        blocks.append(_numpy_section(label, f"{_returns_type(facts) or 'object'}\n" + _indented(clean(model.returns))))
    raises = _raises(model, facts)
    if raises:
        body = "\n".join(f"{kind}\n{_indented(text)}" if text else kind for kind, text in raises)
        blocks.append(_numpy_section("Raises", body))
    if clean(model.notes):
        blocks.append(_numpy_section("Notes", clean(model.notes)))
    if _examples(model):
        blocks.append(_numpy_section("Examples", _examples(model)))
    return blocks


def _rest(model: DocModel, facts: Facts) -> list[str]:
    fields = [f":param {name.lstrip('*')}: {text}" for name, _, text in _params(model, facts)]
    if clean(model.returns):
        fields.append(f":{'yields' if facts.is_generator else 'returns'}: {_one_line(model.returns)}")
    fields += [f":raises {kind}: {text}".rstrip(": ") for kind, text in _raises(model, facts)]
    blocks = ["\n".join(fields)] if fields else []
    if clean(model.notes):
        blocks.append(".. note::\n\n" + _indented(clean(model.notes), "   "))
    if _examples(model):
        blocks.append(_examples(model))  # a paragraph of >>> lines is a doctest block in reST
    return blocks
