"""What a passage of a topic-organised doc uses: the package names its examples and prose mention.

A README is organised by topic ("Quickstart", "Usage"), not by function, so a passage is tied to a function by
the names it uses: what its examples import (``from pkg import f``, ``import pkg as p`` then ``p.f(...)``) and
the qualified names its prose marks as code (`` `pkg.f` ``, `` `Class.method()` ``). Which of them the package
has is the project's question (docbot.verify.project.api_index).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Reference:
    dotted: str  # the full name, aliases expanded: ``pkg.f``
    line: int  # 0-based doc line
    how: str  # "import" (an example imports it) or "prose" (the text names it as code)


# a file the text names (`setup.cfg`, markdown's `markdown.pl`, the Perl original it was ported from)
_FILE_SUFFIXES = {"py", "pyi", "txt", "md", "rst", "toml", "cfg", "ini", "json", "yaml", "yml", "so", "pyd",
                  "pl", "sh", "bat", "exe", "html", "htm", "css", "js", "csv", "xml", "lock", "log", "pdf",
                  "png", "jpg", "jpeg", "gif", "svg", "zip", "gz", "whl"}
# a name the text makes up to stand for any (faker's "forwards `faker.Generator.method_name()` calls to
# `faker.Generator.format(method_name)`"): never a name the API lost
_PLACEHOLDER = re.compile(r"(?:(?:method|function|func|attribute|attr|field|property|provider|module|class|option|"
                          r"setting|command|key|param|parameter|arg|argument|var|variable|plugin|extension|hook|"
                          r"handler|task|signal|event|backend)_name|foo|bar|baz|qux|spam|eggs|xxx|something|"
                          r"whatever|(?:your|my|some)_\w+)")
# what follows a code span that names an entry-point group (flake8 7.5.0's README, celery 5.7.0's extending guide)
_ENTRY_POINTS = re.compile(r"(?:\s*(?:,|and|or)?\s*`[^`]+`)*\s*(?:entry[- ]?points?|entrypoints?)\b", re.IGNORECASE)
# ... or what precedes it: "entry-points (for the `celery.commands`, `celery.result_backends`, or ..." (celery)
_AFTER_ENTRY_POINTS = re.compile(r"(?:entry[- ]?points?|entrypoints?)\s*\(?\s*(?:(?:for|in|of)\s+)?(?:the\s+)?"
                                 r"(?:`[^`]+`\s*,?\s*(?:and|or)?\s*)*$", re.IGNORECASE)
_CODE_SPAN = re.compile(r"`([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+)(?:\([^`]*\))?`")


def code_references(code: str, line: int, package: str, aliases: dict[str, str]) -> list[Reference]:
    """The package names one example's code uses; ``aliases`` (name -> dotted) grows with its imports."""
    try:
        tree = ast.parse(code)
    except SyntaxError:  # a sketch (`def step(...):`): its import lines still say what it uses
        tree = _imports_only(code)
    found: list[Reference] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == package:
                    aliases[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else package
                else:
                    _rebound(aliases, alias.asname or alias.name.split(".")[0], package)
        elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == package:
            for alias in node.names:
                if alias.name != "*":
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                    found.append(Reference(f"{node.module}.{alias.name}", line, "import"))
        elif isinstance(node, ast.ImportFrom):  # `from .celery import celery`: the reader's own module's name
            for alias in node.names:
                _rebound(aliases, alias.asname or alias.name, package)
    inner = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    for node in ast.walk(tree):
        dotted = None if id(node) in inner else _dotted(node)  # `p.core.add`, not also `p.core`
        if dotted and aliases.get(dotted.split(".")[0]) and "." in dotted:
            head, _, rest = dotted.partition(".")
            found.append(Reference(f"{aliases[head]}.{rest}", line, "code"))
    for node in tree.body:  # `celery = Celery()`: from here on the doc's app, named like the package (its own
        if isinstance(node, ast.Assign):  # line still reads the package: `celery = celery.Celery()`)
            for target in node.targets:
                if isinstance(target, ast.Name):
                    _rebound(aliases, target.id, package)
    return found


def _rebound(aliases: dict[str, str], name: str, package: str) -> None:
    """``name`` no longer stands for the package's: "" marks it so (prose named like the package included)."""
    if name in aliases or name == package:
        aliases[name] = ""


def _imports_only(code: str) -> ast.Module:
    """The top-level import statements of code that does not parse as a whole, each read on its own."""
    body: list[ast.stmt] = []
    for line in code.splitlines():
        if line.startswith(("import ", "from ")):
            try:
                body += ast.parse(line).body
            except SyntaxError:
                continue
    return ast.Module(body=body, type_ignores=[])


def _dotted(node: ast.AST) -> str | None:
    if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Load):
        return None
    parts: list[str] = []
    current: ast.AST = node
    while isinstance(current, ast.Attribute):
        parts.append(current.attr)
        current = current.value
    if not isinstance(current, ast.Name):
        return None
    return ".".join([current.id, *reversed(parts)])


def prose_references(prose_lines: list[tuple[int, str]], package: str, aliases: dict[str, str]) -> list[Reference]:
    """Qualified names the text marks as code: `` `pkg.f()` ``, or `` `p.f` `` under an alias the doc bound."""
    found = []
    following = dict(prose_lines)
    for line, text in prose_lines:
        for match in _CODE_SPAN.finditer(text):
            last = match.group(1).rpartition(".")[2]
            if last in _FILE_SUFFIXES or _PLACEHOLDER.fullmatch(last):
                continue  # `distro.py`, `setup.cfg`: a file the text names; `Generator.method_name`: any method
            if _ENTRY_POINTS.match(f"{text[match.end():]} {following.get(line + 1, '')}") or \
                    _AFTER_ENTRY_POINTS.search(f"{following.get(line - 1, '')} {text[:match.start()]}"):
                continue  # "`flake8.extension` and `flake8.formatting` entry points": a group's name, not the API
            head, _, rest = match.group(1).partition(".")
            if head == package and aliases.get(head, package):  # not where the doc rebound the name
                found.append(Reference(match.group(1), line, "prose"))
            elif aliases.get(head) and head != package:
                found.append(Reference(f"{aliases[head]}.{rest}", line, "prose"))
    return found
