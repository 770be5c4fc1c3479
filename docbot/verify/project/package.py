"""A project's package as project-mode ``docbot verify`` sees it: its modules, its public API, its functions' text.

Nothing of the package is imported here: the modules are read as text (the examples, which do run the package's
code, run in the sandbox). The public API follows the package's ``__init__``: its own public functions, what it
re-exports from its submodules, and, where ``__all__`` names submodules, their public functions in turn.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from docbot.config.pyproject import read_pyproject
from docbot.errors import ConfigError
from docbot.scan import targets
from docbot.scan.ast_finder import exported_order
from docbot.scan.targets import SourceParseError
from docbot.verify.project.api_index import ApiIndex, Resolution


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
    """The module's ``__all__`` as the scan reads it (``+=``, ``.extend`` and ``.append`` included), [] without
    a literal one."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    return exported_order(tree, source.split("\n")) or []


def find_package(root: Path) -> Package:
    """The package the docs describe: the project's name (pyproject.toml, else an sdist's PKG-INFO) at the root or
    under ``src/``; else the one package there (``beautifulsoup4`` ships ``bs4``)."""
    name = _project_name(root)
    for base in (root / "src", root):
        named = [base / name] if name and (base / name / "__init__.py").is_file() else []
        single = [base / f"{name}.py"] if name and (base / f"{name}.py").is_file() else []
        if named or single:
            return Package.at((named or single)[0], base)
    namespaced = _namespaced(root, name)
    if namespaced is not None:
        return namespaced
    for base in (root / "src", root):
        found = [p.parent for p in sorted(base.glob("*/__init__.py")) if p.parent.name not in _NOT_THE_PACKAGE]
        if len(found) == 1:
            return Package.at(found[0], base)
    raise ConfigError(f"{root}: no package found (pyproject.toml's [project].name, or one package under src/); "
                      "run docbot verify from the project root, or pass SOURCE DOC")


def _namespaced(root: Path, name: str) -> Package | None:
    """``google-cloud-dlp`` ships ``google/cloud/dlp/``: a package inside namespace folders (no ``__init__.py``
    above it), named by the distribution's words; the docs import it by its dotted name."""
    parts = [p for p in name.split("_") if p]
    for base in (root / "src", root):
        if len(parts) < 2 or (base / parts[0] / "__init__.py").is_file():
            continue  # one word, or a regular package on top: the folders above are no namespace
        folder = base.joinpath(*parts)
        if (folder / "__init__.py").is_file():
            return Package(".".join(parts), folder, base)
    return None


_NOT_THE_PACKAGE = {"tests", "test", "docs", "doc", "examples", "example", "benchmarks", "scripts", "tools"}


def _project_name(root: Path) -> str:
    name = read_pyproject(root).name
    if not name:
        try:  # a built sdist says its name in PKG-INFO, whatever its build tool
            info = (root / "PKG-INFO").read_text(encoding="utf-8", errors="replace")
            name = next((line.split(":", 1)[1].strip() for line in info.splitlines() if line.startswith("Name:")), "")
        except OSError:
            name = ""
    return str(name).replace("-", "_").replace(".", "_").lower()
