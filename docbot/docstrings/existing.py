"""A function's docstring as it stands: the input the writer starts from, and what must survive a rewrite.

``docstring_parser`` (Google, NumPy, reST, detected per docstring) reads it into a ``DocModel`` seed:
summary, parameters, returns, raises, examples. reST directives (``.. versionadded::``,
``.. deprecated::``, ``.. seealso::``, ``.. note::``...) are no part of the doc model, so they are cut
out first, kept as they were written, and appended to whatever docbot renders (docs/design.md#docstrings).
Whose docstring it is (a person's, or the one docbot wrote) is decided in ``docbot.docstrings.record``.
"""

from __future__ import annotations

import ast
import re
import textwrap

from docbot.docmodel import DocModel, Example, ParameterDoc, RaisesDoc

__all__ = ["directives", "existing_docstring", "seed_model", "without_directives"]

# A directive starts a line; its body is every following line that is blank or indented deeper.
_DIRECTIVE = re.compile(r"^\.\. [A-Za-z][\w-]*::")


def existing_docstring(function_source: str) -> str | None:
    """The docstring of the (first) function in ``function_source``, cleaned; None when it has none."""
    try:
        tree = ast.parse(textwrap.dedent(function_source))
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return ast.get_docstring(node, clean=True)
    return None


def _split(doc: str) -> tuple[list[str], list[str]]:
    """(the lines outside directives, the directive blocks) of a cleaned docstring."""
    kept: list[str] = []
    blocks: list[list[str]] = []
    inside = False
    for line in doc.split("\n"):
        if _DIRECTIVE.match(line):
            blocks.append([line])
            inside = True
        elif inside and (not line.strip() or line[:1].isspace()):
            blocks[-1].append(line)
        else:
            inside = False
            kept.append(line)
    return kept, ["\n".join(block).rstrip() for block in blocks]


def directives(doc: str | None) -> tuple[str, ...]:
    """The docstring's reST directive blocks, each as written (``.. versionadded:: 20.1.0``)."""
    return tuple(_split(doc)[1]) if doc else ()


def without_directives(doc: str) -> str:
    return "\n".join(_split(doc)[0]).strip()


def seed_model(doc: str | None) -> DocModel | None:
    """The docstring as a doc model (directives aside); None when there is none or it says nothing."""
    if not doc or not doc.strip():
        return None
    import docstring_parser  # only where a docstring is read: the hook's fast path never pays for it

    try:
        parsed = docstring_parser.parse(without_directives(doc))
    except docstring_parser.ParseError:
        return DocModel(summary=without_directives(doc).split("\n\n")[0])
    returns = parsed.returns.description or "" if parsed.returns else ""
    examples = tuple(Example(code=_code(e.snippet or e.description or ""), output=_output(e.snippet or e.description
                                                                                            or ""))
                     for e in parsed.examples if (e.snippet or e.description or "").strip())
    model = DocModel(
        summary=parsed.short_description or "", description=parsed.long_description or "",
        parameters=tuple(ParameterDoc(name=p.arg_name, description=p.description or "") for p in parsed.params),
        returns=returns,
        raises=tuple(RaisesDoc(type=r.type_name or "", condition=r.description or "") for r in parsed.raises),
        examples=tuple(e for e in examples if e.code))
    return model if model != DocModel(summary="") else None


def _code(session: str) -> str:
    """The code of a doctest session: the ``>>>``/``...`` lines without their prompts."""
    return "\n".join(line.strip()[4:] for line in session.split("\n") if line.strip()[:4] in (">>> ", "... "))


def _output(session: str) -> str:
    lines = session.split("\n")
    last = max((i for i, line in enumerate(lines) if line.strip()[:4] in (">>> ", "... ")), default=-1)
    return "\n".join(line.strip() for line in lines[last + 1:]).strip()
