"""A project's package as project-mode ``docbot verify`` sees it: its modules, its public API, its functions' text.

Nothing of the package is imported here: the modules are read as text (the examples, which do run the package's
code, run in the sandbox). The public API follows the package's ``__init__``: its own public functions, what it
re-exports from its submodules, and, where ``__all__`` names submodules, their public functions in turn.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from docbot.scan import targets
from docbot.scan.targets import SourceParseError
from docbot.verify.check import check_doc
from docbot.verify.findings import Finding, FindingKind
from docbot.verify.kwargs_reach import carried_keywords
from docbot.verify.markdown import headings
from docbot.verify.passages import ApiIndex, Reference, Resolution
from docbot.verify.return_check import own_return_prose


@dataclass(frozen=True)
class Package:
    name: str
    path: Path  # the package folder, or the one module file
    base: Path  # the folder it is imported from (the sys.path entry)

    @classmethod
    def at(cls, path: Path, base: Path) -> Package:
        return cls(path.stem if path.is_file() else path.name, path, base)

    @property
    def sys_path(self) -> tuple[str, ...]:
        return (str(self.base.resolve()),)

    @cached_property
    def modules(self) -> dict[str, Path]:
        """dotted module -> its file (``pkg/__init__.py`` is ``pkg``)."""
        if self.path.is_file():
            return {self.name: self.path}
        found = {}
        for file in sorted(self.path.rglob("*.py")):
            parts = file.relative_to(self.base).with_suffix("").parts
            if any(not p.isidentifier() for p in parts):
                continue  # tests-data folders, `foo-bar/`: not importable, not API
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = file
        return found

    def source(self, module: str) -> str:
        return self.modules[module].read_text(encoding="utf-8", errors="replace")

    def index(self) -> ApiIndex:
        index = ApiIndex(self.name)
        for module, file in sorted(self.modules.items(), key=lambda item: item[0].count(".")):
            index.add_module(module, self.source(module), file.name == "__init__.py")
        return index

    @cached_property
    def _functions(self) -> dict[str, dict[str, str]]:
        return {}

    def functions(self, module: str) -> dict[str, str]:
        """qualname -> source text of the module's public functions (docbot run's rules), read once."""
        if module not in self._functions:
            try:
                found = {t.qualname: t.source for t in targets.public_functions(self.source(module), module, module)}
            except SourceParseError:
                found = {}
            self._functions[module] = found
        return self._functions[module]


def public_api(package: Package, index: ApiIndex) -> list[str]:
    """Dotted names of the package's public functions, from its top module down through ``__all__``."""
    seen: list[str] = []
    _public_of(package, package.name, index, seen, set())
    return seen


def _public_of(package: Package, module: str, index: ApiIndex, seen: list[str], visited: set[str]) -> None:
    if module in visited or module not in package.modules:
        return
    visited.add(module)
    seen += [f"{module}.{q}" for q in package.functions(module) if f"{module}.{q}" not in seen]
    scope = index.scopes.get(module)
    for name in _all_of(package.source(module)) or (scope.names if scope else {}):
        what = scope.names.get(name, "") if scope else ""
        target = what.partition(":")[2] if what.startswith(("module:", "from:")) else ""
        if target in package.modules:
            _public_of(package, target, index, seen, visited)  # __all__ naming a submodule: its API is ours
        elif target and not name.startswith("_") and index.resolve(target) is Resolution.FOUND:
            if target not in seen and target.rpartition(".")[0] in package.modules:
                seen.append(target)


def _all_of(source: str) -> list[str]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            try:
                return [str(n) for n in ast.literal_eval(node.value)]
            except ValueError:
                return []
    return []


def topic_checks(markdown: str, references: list[Reference], package: Package, index: ApiIndex) -> list[Finding]:
    """The prose checks of each heading's passage that uses exactly one of the package's functions.

    A topic passage is not a reference entry, so it owes nothing: only what it states is checked (its
    contradictions); what it leaves out is not a gap here (coverage is reported for the whole project). Unless
    its heading names the function, its sentences about what other things return are left out first
    (docbot.verify.return_check.own_return_prose).
    """
    found: list[Finding] = []
    for (start, end), qualified in _passages(markdown, references, package, index):
        module, qualname = qualified
        functions = package.functions(module)
        if qualname not in functions:
            continue
        text = "\n".join(markdown.splitlines()[start:end]) + "\n"
        heading = markdown.splitlines()[start] if start < len(markdown.splitlines()) else ""
        if not re.search(rf"\b{re.escape(qualname.rsplit('.', 1)[-1])}\b", heading):
            text = own_return_prose(text, qualname)  # a topic, not the function's entry
        source = package.source(module)
        for finding in check_doc(text, functions[qualname], qualname, carried=carried_keywords(
                source, functions[qualname]), module_source=source, sys_path=package.sys_path):
            if finding.severity is FindingKind.CONTRADICTION:
                found.append(Finding(finding.kind, f"{qualname}: {finding.message}", finding.doc_text,
                                     finding.code_fact, finding.severity, start))
    return found


def _passages(markdown: str, references: list[Reference], package: Package,
              index: ApiIndex) -> list[tuple[tuple[int, int], tuple[str, str]]]:
    """(span, (module, qualname)) for each heading's passage whose references name one function."""
    marks = headings(markdown)
    total = len(markdown.splitlines())
    spans = [(h.line, next((o.line for o in marks[i + 1 :] if o.level <= h.level), total))
             for i, h in enumerate(marks)]
    found = []
    for start, end in spans:
        inner = [s for s in spans if start < s[0] < end]
        own = {q for r in references if start <= r.line < end and not any(a <= r.line < b for a, b in inner)
               if (q := _function_of(index.canonical(r.dotted), package)) is not None}
        if len(own) == 1:
            found.append(((start, end), own.pop()))
    return found


def _function_of(dotted: str, package: Package) -> tuple[str, str] | None:
    """``pkg.core.f`` -> ("pkg.core", "f"); ``pkg.core.Class.m`` -> ("pkg.core", "Class.m"); else None."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:cut])
        if module in package.modules:
            qualname = ".".join(parts[cut:])
            return (module, qualname) if qualname in package.functions(module) else None
    return None
