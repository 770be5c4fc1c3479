"""TEST SUPPORT: docbot's import graph, read with the stdlib ``ast``, and the layout rules it must keep.

Every import counts, wherever it stands: at the top, inside a function (a late import is still a
dependency) or under ``TYPE_CHECKING``. ``from a.b import c`` points at the module ``a.b.c`` when there
is one, else at ``a.b``; importing a module does not count as importing its parent packages.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

Graph = Mapping[str, set[str]]

FRONTS = "docbot.fronts"
SHARED_FRONT_MODULES = frozenset({"docbot.fronts.common", "docbot.fronts.console", "docbot.fronts.options",
                                  "docbot.fronts.single", "docbot.fronts.cli_files"})


def modules_under(package_dir: Path) -> dict[str, Path]:
    """Dotted name -> file for every module of the package at ``package_dir`` (``__init__`` is the package)."""
    root = package_dir.parent
    found = {}
    for file in sorted(package_dir.rglob("*.py")):
        parts = list(file.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = file
    return found


def imports_of(source: str, module: str, known: Iterable[str], *, is_package: bool = False) -> set[str]:
    """The known modules that ``source`` (the text of ``module``) imports, itself excluded."""
    names = set(known)
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(_known_prefix(alias.name, names) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module or "", node.level, package)
            for alias in node.names:
                candidate = f"{base}.{alias.name}" if base else alias.name
                found.add(candidate if candidate in names else _known_prefix(base, names))
    found.discard("")
    found.discard(module)
    return found


def _absolute(name: str, level: int, package: str) -> str:
    if level == 0:
        return name
    parts = package.split(".")
    base = ".".join(parts[: len(parts) - (level - 1)])
    return f"{base}.{name}" if name else base


def _known_prefix(name: str, names: set[str]) -> str:
    while name and name not in names:
        name = name.rpartition(".")[0]
    return name


def import_graph(package_dir: Path) -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    modules = modules_under(package_dir)
    return {name: imports_of(file.read_text(encoding="utf-8"), name, modules, is_package=file.name == "__init__.py")
            for name, file in modules.items()}


def cycles(graph: Graph) -> list[list[str]]:
    """Every group of modules that import each other, directly or round a loop (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def is_front(module: str) -> bool:
    return module == FRONTS or module.startswith(FRONTS + ".")


def front_violations(graph: Graph) -> list[str]:
    """Imports the layout forbids: a front imported from outside the fronts, or one front importing
    another (only ``common`` and ``console`` are shared between fronts)."""
    problems = []
    for source in sorted(graph):
        for target in sorted(graph[source]):
            if not is_front(target):
                continue
            if not is_front(source):
                problems.append(f"{source} imports the front {target}; fronts call the core, never the reverse")
            elif target not in SHARED_FRONT_MODULES and target != FRONTS:
                problems.append(f"{source} imports the front {target}; move what they share to "
                                f"{FRONTS}.common")
    return problems


def room_of(module: str) -> str:
    """The room a module lives in: its folder under ``docbot`` (``docbot.scan``), or itself when loose."""
    parts = module.split(".")
    return ".".join(parts[:2])


def room_graph(graph: Graph) -> dict[str, set[str]]:
    """The import graph between rooms (folders and loose modules), arrows inside a room left out."""
    rooms: dict[str, set[str]] = {}
    for source, targets in graph.items():
        here = room_of(source)
        rooms.setdefault(here, set()).update(room_of(t) for t in targets if room_of(t) != here)
    return rooms


def starts_git(source: str) -> list[int]:
    """Lines where ``source`` builds a command line that starts with ``"git"`` (``["git", ...]``,
    ``("git", ...)``): the way every subprocess call of git is written."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.List, ast.Tuple)) and node.elts:
            first = node.elts[0]
            if isinstance(first, ast.Constant) and first.value == "git":
                lines.append(node.lineno)
    return lines
