"""A project's package as project-mode ``docbot verify`` sees it: its modules, its public API, its functions' text.

Nothing of the package is imported here: the modules are read as text (the examples, which do run the package's
code, run in the sandbox). The public API follows the package's ``__init__``: its own public functions, what it
re-exports from its submodules, and, where ``__all__`` names submodules, their public functions in turn.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cached_property
from pathlib import Path

from docbot.config.pyproject import read_pyproject
from docbot.errors import ConfigError
from docbot.scan import targets
from docbot.scan.ast_finder import exported_order
from docbot.scan.targets import SourceParseError
from docbot.verify.project.api_index import ApiIndex, ApiName, Resolution


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


def public_api(package: Package, index: ApiIndex) -> list[ApiName]:
    """The package's public functions, classes, constants and type aliases, from its top module down through
    ``__all__``; each named by the path a reader imports it from (``pkg.to_name``, not where it is defined,
    ``pkg._conversion.to_name``), once."""
    seen: dict[str, ApiName] = {}  # by where it is defined: one object re-exported twice is one name
    _public_of(package, package.name, index, seen, set())
    return list(seen.values())


def _public_of(package: Package, module: str, index: ApiIndex, seen: dict[str, ApiName], visited: set[str]) -> None:
    if module in visited or module not in package.modules:
        return
    visited.add(module)
    for qualname in package.functions(module):
        # `Class.__init__` stands for the class: one name with the class a module re-exports
        seen.setdefault(f"{module}.{qualname.removesuffix('.__init__')}",
                        ApiName(f"{module}.{qualname}", "method" if "." in qualname else "function"))
    scope = index.scopes.get(module)
    listed = _all_of(package.source(module))
    for name in listed or (scope.names if scope else {}):
        what = scope.names.get(name, "") if scope else ""
        target = what.partition(":")[2] if what.startswith(("module:", "from:")) else ""
        if target in package.modules:
            if listed or not name.startswith("_"):  # a private submodule's names are ours only re-exported
                _public_of(package, target, index, seen, visited)
        elif target and not name.startswith("_") and index.resolve(target) is Resolution.FOUND:
            if target.rpartition(".")[0] in package.modules:
                defined = index.canonical(target)
                seen.setdefault(defined, ApiName(f"{module}.{name}", _KINDS.get(index.kind(defined), "name")))


_KINDS = {"def": "function", "class": "class", "value": "constant", "alias": "type alias"}


def _all_of(source: str) -> list[str]:
    """The module's ``__all__`` as the scan reads it (``+=``, ``.extend`` and ``.append`` included), [] without
    a literal one."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    return exported_order(tree, source.split("\n")) or []


CODE_BASES = ("src", "lib", "")  # where a project keeps its code: ``src/``, ``lib/``, or the root (flat)


def find_package(root: Path) -> Package:
    """The package the docs describe, under ``src/``, ``lib/`` or at the root: the project's name (pyproject.toml,
    else an sdist's PKG-INFO, with ``python-``/``py`` taken off: ``python-dateutil`` ships ``dateutil``) as a
    package or a single module; else what the sdist says it ships (``*.egg-info/top_level.txt``); else the one
    package there (``beautifulsoup4`` ships ``bs4``); else the one module there, or the module most like the
    project's name among several flat modules (``setup.py``, ``noxfile.py`` and the like are no candidates)."""
    name = _project_name(root)
    bases = [root / b if b else root for b in CODE_BASES]
    found = _named(bases, [*_name_forms(name), *_top_level(root)]) or _namespaced(root, name) \
        or _in_namespace(root, name) or _only_one(bases, name)
    if found is not None:
        return found
    stubs = sorted(p.name for p in root.glob("*-stubs") if p.is_dir() and any(p.rglob("*.pyi")))
    if stubs:  # PEP 561's stub-only distribution: types, no code a doc's examples could run against
        raise ConfigError(f"{root}: {stubs[0]} holds type stubs only (.pyi), no package code to verify docs "
                          "against; run docbot verify in the project whose code the stubs describe.")
    raise ConfigError(f"{root}: no package found (pyproject.toml's [project].name, or one package under src/); "
                      "run docbot verify from the project root, or pass SOURCE DOC")


def _named(bases: list[Path], names: list[str]) -> Package | None:
    """The first of ``names`` that is a package or a module in one of ``bases``."""
    for wanted in names:
        for base in bases:
            if (base / wanted / "__init__.py").is_file():
                return Package.at(base / wanted, base)
            if (base / f"{wanted}.py").is_file():
                return Package.at(base / f"{wanted}.py", base)
    return None


def _only_one(bases: list[Path], name: str) -> Package | None:
    """The one package in a base; else its flat modules' best match for ``name``, where it holds no package."""
    for base in bases:
        packages = [p.parent for p in sorted(base.glob("*/__init__.py")) if p.parent.name not in _NOT_THE_PACKAGE]
        if len(packages) == 1:
            return Package.at(packages[0], base)
    for base in bases:
        modules = [p for p in sorted(base.glob("*.py")) if _may_be_api(p)]
        if modules and not [p for p in base.glob("*/__init__.py") if p.parent.name not in _NOT_THE_PACKAGE]:
            return Package.at(max(modules, key=lambda p: SequenceMatcher(None, p.stem.lower(), name).ratio()), base)
    return None  # several packages and no name to choose by: not ours to guess


def _name_forms(name: str) -> list[str]:
    """The import names a distribution's name may stand for: ``python_dateutil`` -> ``dateutil``, ``pyyaml`` ->
    ``yaml``, ``foo_py`` -> ``foo``."""
    if not name:
        return []
    forms = [name, name.removeprefix("python_"), name.removeprefix("py_"), name.removesuffix("_python"),
             name.removesuffix("_py"), name.removeprefix("py") if len(name) > 4 else name]
    return [f for f in dict.fromkeys(forms) if f.isidentifier()]


def _top_level(root: Path) -> list[str]:
    """The top-level packages and modules an sdist's metadata says it installs (``*.egg-info/top_level.txt``)."""
    names: list[str] = []
    for listing in sorted(root.glob("*.egg-info/top_level.txt")) + sorted(root.glob("src/*.egg-info/top_level.txt")):
        names += [n.strip() for n in listing.read_text(encoding="utf-8", errors="replace").splitlines()]
    return [n for n in dict.fromkeys(names) if n.isidentifier() and n not in _NOT_THE_PACKAGE]


# Files at a project's root that are its tooling, never its API
_TOOLING = {"setup", "conftest", "noxfile", "tasks", "fabfile", "manage", "dodo", "pavement", "fabric", "build",
            "bootstrap", "ez_setup", "distribute_setup", "versioneer", "_version", "version", "runtests", "run_tests"}


def _may_be_api(path: Path) -> bool:
    stem = path.stem
    return stem.isidentifier() and stem not in _TOOLING and not stem.startswith(("test_", "_")) and not \
        stem.endswith("_test")


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


# An API version's package beside the plain one (google/cloud/oslogin_v1 beside google/cloud/oslogin)
_API_VERSION = re.compile(r"_v\d+\w*$")


def _in_namespace(root: Path, name: str) -> Package | None:
    """A package inside namespace folders whose path does not spell the distribution's words
    (``google-cloud-os-login`` ships ``google/cloud/oslogin/``, ``google-ads`` ``google/ads/googleads/``): of
    the first packages under the namespace the name's first word names, the one left once API-version siblings
    of a plain one are set aside; with several, the one whose path spells the name most alike."""
    top = name.split("_")[0]
    for base in (root / "src", root):
        if not top or not (base / top).is_dir() or (base / top / "__init__.py").is_file():
            continue
        found = {p.relative_to(base).as_posix().replace("/", "."): p for p in _first_packages(base / top)}
        plain = [d for d in found if not (_API_VERSION.search(d) and _API_VERSION.sub("", d) in found)]
        if plain:
            spelled = name.replace("_", "")
            best = max(plain, key=lambda d: SequenceMatcher(None, d.replace(".", "").replace("_", ""),
                                                            spelled).ratio())
            return Package(best, found[best], base)
    return None


def _first_packages(folder: Path, depth: int = 4) -> list[Path]:
    """The packages (folders with ``__init__.py``) reached from ``folder`` through namespace folders only."""
    found: list[Path] = []
    for child in sorted(p for p in folder.iterdir() if p.is_dir() and p.name.isidentifier()):
        if child.name in _NOT_THE_PACKAGE:
            continue
        if (child / "__init__.py").is_file():
            found.append(child)
        elif depth > 1:
            found += _first_packages(child, depth - 1)
    return found


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
