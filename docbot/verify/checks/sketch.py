"""What a sketch's ``...`` reaches: the statements of a doc that depend on an argument it leaves to the reader
(docs/design.md#no-blinding).

A doc that writes ``r = redis.Redis(...)`` shows the shape of a call, not one a reader can run: ``...`` stands for
the host, the credentials, the channels. What fails after it fails for the missing values, not because the doc is
false: redis's README makes ``r = redis.Redis(...)``, then ``p = r.pubsub()``, ``p.subscribe('a', 'b', ...)``
(a TypeError from ``getaddrinfo``) and ``p.get_message()`` (nothing, where the doc shows a message). Each of those
reads a name bound, step by step, from the sketched call, or passes ``...`` itself.

Only top-level statements are sources: ``Field(...)`` in a class body and ``Option(...)`` as a parameter's default
are pydantic's and typer's "required" marker, real code. A name bound again by a statement that depends on no
sketch is real again. An error about a name (a module or attribute the API lacks, an import) does not depend on
the values left out, so it stays what it was: ``client = Client(...)`` then ``client.removed()`` is still stale.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Sequence

from docbot.sandbox.step import Step

# errors about the API's names, whatever the arguments were
_ABOUT_NAMES = re.compile(r"^(?:ImportError|ModuleNotFoundError|NameError|AttributeError: module )")
_PUBLIC_ATTRIBUTE = re.compile(r"^AttributeError: .* has no attribute '([A-Za-z]\w*)'")


def sketched_by(steps: Sequence[Step], index: int, line: int | None, error: str) -> str | None:
    """The statement with a ``...`` argument that the failure of ``steps[index]`` (at ``line`` of its code, when
    it raised) depends on, as written; None when it depends on none, or the error is about a name."""
    if _ABOUT_NAMES.match(error) or _public_attribute(error, steps[index].code):
        return None
    tainted: dict[str, str] = {}
    source: str | None = None
    for node in _statements(steps, index, line):
        source = _placeholder(node) or next((tainted[n] for n in sorted(_read(node)) if n in tainted), None)
        for name in _bound(node):
            if source is not None:
                tainted[name] = source
            else:
                tainted.pop(name, None)
    return source


def _public_attribute(error: str, code: str) -> bool:
    """``'Client' object has no attribute 'removed'`` for a ``.removed`` the doc writes: the API's shape."""
    found = _PUBLIC_ATTRIBUTE.match(error)
    return found is not None and re.search(rf"\.{found.group(1)}\b", code) is not None


def _statements(steps: Sequence[Step], index: int, line: int | None) -> Iterator[ast.stmt]:
    """The top-level statements that ran, in order, to the one that failed (the last)."""
    for at, step in enumerate(steps[: index + 1]):
        try:
            tree = ast.parse(step.code)
        except SyntaxError:
            continue
        body = tree.body
        if at == index and line is not None:
            body = [node for node in body if node.lineno <= line]
        yield from body


def _placeholder(node: ast.stmt) -> str | None:
    """The statement, when a call in it (outside a def, class or lambda) passes ``...``."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return None
    for call in _outside_bodies(node):
        if isinstance(call, ast.Call) and passes_ellipsis(call):
            return ast.unparse(node)
    return None


def passes_ellipsis(call: ast.Call) -> bool:
    """Whether ``call`` passes ``...`` as an argument (``iter(...)``, ``Redis(host=...)``)."""
    return any(isinstance(a, ast.Constant) and a.value is Ellipsis
               for a in [*call.args, *(k.value for k in call.keywords)])


def _outside_bodies(node: ast.AST) -> Iterator[ast.AST]:
    yield node
    for child in ast.iter_child_nodes(node):
        if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            yield from _outside_bodies(child)


def _read(node: ast.stmt) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _bound(node: ast.stmt) -> set[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}  # not the names its body binds when it is called
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
