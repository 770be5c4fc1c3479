"""What a doc says about parameters and defaults, read from tables, lists, definitions and signatures.

A signature in a code block is a ``def`` line, a line with annotations or ``->``, or a line of
``help()``/pydoc output: its gutter ``|`` followed by exactly two spaces and ``name(params)``, which is
how pydoc prints a method's signature (its docstring lines are indented further and are not read as
signatures). A plain call in an example is never a signature (tests/verify/test_truth_patterns.py, "pydoc").

Without a Parameters part, a list of at least two items that each lead with ``name=default`` in code
(`` - `attr_prefix='@'`: ... ``) is read as a parameter list all the same: that form says nothing but
"this parameter, this default" (tests/verify/test_truth_patterns.py, "unlabelled").
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from docbot.verify.read.claim_patterns import own_definition
from docbot.verify.read.markdown import Entry, code_blocks, entries, headings, parts_labelled, prose

_PYDOC_GUTTER = re.compile(r"^\s*\|  (?=[A-Za-z_])")
_INLINE_DEFAULT_ITEM = re.compile(r"^\s*(?:(?:[-*+]|\d+[.)])\s+)?`[A-Za-z_]\w*\s*=[^`]+`")
_NAME_COLUMNS = ("parameter", "parameters", "param", "name", "argument", "arg", "field", "option")
_PARAMETER_COLUMNS = ("parameter", "parameters", "param", "argument", "arguments", "arg")
# headers of columns that describe a parameter: a table whose first column is one of these has no name column
_ABOUT_COLUMNS = {"type", "types", "required", "optional", "description", "default", "defaults", "value", "values",
                  "meaning", "notes", "note", "kind", "example", "examples"}
_STATED_DEFAULT = re.compile(
    r"(?i:\bdefaults?)(?:\s+(?i:value|is|to|of))*\s*(?:[:=]|\bis\b|\bto\b)?\s*"
    r"(`[^`]+`|\"[^\"]*\"|'[^']*'|[-+]?\.?\d[\w.+-]*|True\b|False\b|None\b)"
)
_MARKED = re.compile(r"^(\*\*|__|`|\*)(.+?)\1")
_PLAIN_LEAD = re.compile(r"^(\\?\*{0,2}[A-Za-z_]\w*)[ \t]*(?=[(:—–=,]|\s-\s|\s--\s|\n|$)")
_SIGNATURE = re.compile(r"^\s*(?:async\s+)?(?:def\s+)?([A-Za-z_][\w.]*)\s*(\(.*\))\s*(?:->\s*(.+?))?\s*:?\s*$")
# reST field lists, as docstrings copied into Markdown have them: ":param rate: yearly rate"
_REST_FIELD = re.compile(r"^\s*:(param|parameter|arg|argument|key|keyword)\s+(?:[\w\[\], |]+\s+)?\**(\w+):(.*)$",
                         re.MULTILINE)
NO_CONSTANTS: Mapping[str, str] = MappingProxyType({})
NO_DEFAULT_WORDS = {"", "-", "—", "–", "n/a", "none", "required", "(required)", "*required*", "no default"}


@dataclass(frozen=True)
class DocParam:
    name: str  # without stars
    default: str | None  # the stated default, backticks removed; None when the doc states none
    says_required: bool  # a Default column saying "required"
    text: str  # the entry, for evidence


@dataclass(frozen=True)
class DocSignature:
    name: str
    params: tuple[tuple[str, str | None], ...]  # (name without stars, default text or None)
    returns: str | None
    text: str


def leading_name(text: str) -> tuple[str, str | None, bool, str] | None:
    """The name an entry starts with: (name, default given inline, marked up or not, rest of the text).

    ``- `rate` (float): ...`` -> ("rate", None, True, "(float): ...");
    ``periods=12: ...`` -> ("periods", "12", False, ...). Prose ("All values are ...") gives None.
    """
    body = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", text).strip()
    marked = _MARKED.match(body)
    if marked:
        inner, rest, is_marked = marked.group(2), body[marked.end() :], True
    else:
        plain = _PLAIN_LEAD.match(body)
        if not plain:
            return None
        inner, rest, is_marked = plain.group(1), body[plain.end() :], False
    code_span = is_marked and marked is not None and marked.group(1) == "`"
    inner = re.sub(r"[`*_]{2,}|`", "", inner)
    inner = (inner if code_span else inner.replace("\\", "")).strip()  # a code span's backslash is literal
    match = re.match(r"^\*{0,2}([A-Za-z_]\w*)\s*(?::[^=]*)?(?:=\s*(.+))?$", inner)
    if not match:
        return None
    if not is_marked and match.group(1)[:1].isupper():
        return None  # "Note: ..." is prose; parameter names are not capitalised unless marked up
    return match.group(1), match.group(2), is_marked, rest


def stated_default(text: str) -> str | None:
    match = _STATED_DEFAULT.search(text)
    return match.group(1).strip("`").strip() if match else None


def documented_params(section: str) -> list[DocParam] | None:
    """Parameters listed in the doc's Parameters part(s) or reST fields; None when the doc has neither."""
    parts = parts_labelled(section, "params")
    fields = [DocParam(m.group(2), stated_default(m.group(3)), False, m.group(0).strip())
              for m in _REST_FIELD.finditer(prose(section))]
    if not parts:
        return fields or None
    found: list[DocParam] = fields
    listed = [entries(part.text) for part in parts]
    if any(entry.cells is not None for part in listed for entry in part):
        # A table is the parameter list; a list beside it (a description's "Arguments:" lines) is prose
        # about it, and reading both hands one item's "defaults to False" to another.
        listed = [[entry for entry in part if entry.cells is not None] for part in listed]
    for part_entries in listed:
        for entry in part_entries:
            param = _from_table_row(entry) if entry.cells is not None else _from_item(entry)
            if param is not None:
                found.append(param)
    return found


def inline_default_items(section: str) -> list[DocParam]:
    """Items of a list outside any Parameters part that lead with `` `name=default` `` (the docstring), and the
    rows of a table with a name column and a Default column: both forms say "this parameter, this default", so
    the defaults they state are compared with the code wherever they stand. Only a column headed as parameters
    says so: a "Name | Default" table may list settings, not the function's parameters."""
    listed = entries(section)
    found = [param for entry in listed if entry.cells is None and _INLINE_DEFAULT_ITEM.match(entry.text)
             for param in [_from_item(entry)] if param is not None]
    rows = [param for entry in listed if entry.cells is not None and any(c in _PARAMETER_COLUMNS for c in entry.cells)
            and any("default" in c for c in entry.cells) for param in [_from_table_row(entry)] if param is not None]
    return (found if len(found) >= 2 else []) + rows


def _from_table_row(entry: Entry) -> DocParam | None:
    cells = entry.cells or {}
    column = next((c for c in cells if c in _NAME_COLUMNS), next(iter(cells), None))
    if column is None or column in _ABOUT_COLUMNS:
        return None  # Type / Required / Description: its first column holds types, not names
    lead = leading_name(cells[column])
    if lead is None:
        return None
    name, inline_default, _marked, _rest = lead
    default_column = next((c for c in cells if "default" in c), None)
    says_required = False
    default: str | None = inline_default
    if default_column is not None:
        cell = re.sub(r"[*_]", "", cells[default_column]).strip()
        says_required = cell.lower().strip("()") == "required"
        # Plain "None" in a Default column usually means "no default"; `None` in backticks is a value. docbot's
        # "via `**kwargs`" for a keyword **kwargs carries says where it goes, not its default.
        carried = re.match(r"(?i)\s*via\s+`?\*\*", cells[default_column]) is not None
        if cell.lower() not in NO_DEFAULT_WORDS and not says_required and default is None and not carried:
            default = cell.strip("`").strip()
    else:
        others = " ".join(v for k, v in cells.items() if k != column)
        default = default or stated_default(others)
    return DocParam(name, default, says_required, entry.text)


def _from_item(entry: Entry) -> DocParam | None:
    lead = leading_name(entry.text)
    if lead is None:
        return None
    name, inline_default, _marked, rest = lead
    return DocParam(name, inline_default or stated_default(rest), False, entry.text)


def doc_signatures(section: str, names: set[str]) -> list[DocSignature]:
    """Signatures the doc shows in headings or code blocks for a function called one of ``names``."""
    candidates = [h.text.replace("`", "") for h in headings(section)]
    for block in code_blocks(section):
        if ">>>" in block.text:
            continue
        for line in _joined_lines(_without_own_functions(block.text)):
            # A call in an example looks like a signature; only `def`, annotations, `->` or pydoc make one.
            if line.lstrip().startswith(("def ", "async def ")) or "->" in line or re.search(r"\(\s*\w+\s*:", line):
                candidates.append(line)
            elif _PYDOC_GUTTER.match(line):
                candidates.append(_PYDOC_GUTTER.sub("", line))
    found = []
    for text in candidates:
        signature = _parse_signature(text)
        if signature and signature.name.rsplit(".", 1)[-1] in names:
            found.append(signature)
    return found


def _without_own_functions(code: str) -> str:
    """The block without the ``def`` lines of the functions it defines for itself (``own_definition``)."""
    lines = code.splitlines()
    return "\n".join("" if own_definition(lines, index) else line for index, line in enumerate(lines))


def _joined_lines(code: str) -> list[str]:
    """Lines of a code block, a signature split over several lines joined into one."""
    joined: list[str] = []
    pending = ""
    for line in code.splitlines():
        pending = f"{pending} {line.strip()}" if pending else line
        if pending.count("(") <= pending.count(")") or len(pending) > 2000:
            joined.append(pending.replace("( ", "(").replace(", )", ")").replace(" )", ")"))
            pending = ""
    return joined + ([pending] if pending else [])


def _parse_signature(text: str) -> DocSignature | None:
    match = _SIGNATURE.match(text)
    if not match or match.group(2).strip() == "()":
        return None
    try:
        tree = ast.parse(f"def _f{match.group(2)}: pass")
    except SyntaxError:
        return None
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef)
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    defaults = [None] * (len(positional) - len(args.defaults)) + [ast.unparse(d) for d in args.defaults]
    params = [(a.arg, d) for a, d in zip(positional, defaults)]
    params += [(a.arg, None) for a in (args.vararg,) if a]
    params += [(a.arg, ast.unparse(d) if d else None) for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    params += [(a.arg, None) for a in (args.kwarg,) if a]
    returns = match.group(3).strip() if match.group(3) else None
    return DocSignature(match.group(1), tuple(params), returns, text.strip())


def same_default(stated: str, real: str, constants: Mapping[str, str] = NO_CONSTANTS) -> bool | None:
    """Whether a stated default equals the code's; None when it cannot be told (e.g. a constant's name).

    ``constants``: the module's names bound once to a literal (docbot.facts.module.module_constants). A default
    that is one of them (``timeout=TIMEOUT``) is compared by its value: "30" for ``TIMEOUT = 30`` is right,
    "60" is a contradiction, and the name itself is right too (tests/verify/test_rules_defaults.py).
    """
    if _normal(stated) == _normal(real):
        return True
    real = constants.get(real.strip(), real)
    if _normal(stated) == _normal(real):
        return True
    real_value, real_ok = _literal(real)
    stated_value, stated_ok = _literal(stated)
    if real_ok and isinstance(real_value, str) and not stated_ok:
        return stated.strip("\"'") == real_value  # `fast` for 'fast'
    if real_ok and stated_ok:
        return _values_equal(stated_value, real_value)
    if real_ok and real_value is None and stated.lower() == "none":
        return True
    return None


def _values_equal(a: object, b: object) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
    return type(a) is type(b) and a == b


def _literal(text: str) -> tuple[object, bool]:
    try:
        return ast.literal_eval(text.strip()), True
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None, False


def _normal(text: str) -> str:
    return re.sub(r"\s+", "", text).replace('"', "'")
