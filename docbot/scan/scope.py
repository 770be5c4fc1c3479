"""Where a project's API lives: the package folders ``pyproject.toml`` declares, so a scan leaves out the rest.

A repository holds more Python than its package: task runners (``noxfile.py``), scripts, benchmarks,
examples. None of it is what the project's users import, so none of it is "a public function" to
document. Where ``pyproject.toml`` says what the distribution ships, only that is scanned; where it
says nothing docbot can read, nothing is narrowed (the ``exclude`` globs still apply). The setting
``scan_outside_package`` widens the scan to the whole repository again.

Read from the build tools' own tables, in the order a build would use them: setuptools (``packages``,
``packages.find``, ``package-dir``), hatch (``build.targets.wheel.packages``), poetry (``packages``),
flit (``module.name``), else the project's name as a folder or module at the root or under ``src/``
(what setuptools' and hatch's automatic discovery find). Only folders that exist count.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from docbot.config.pyproject import Pyproject, read_pyproject


def package_scope(root: Path, pyproject: Pyproject | None = None) -> tuple[str, ...]:
    """Root-relative paths (folders, or ``name.py`` modules) of the declared packages; () when none is known."""
    project = pyproject if pyproject is not None else read_pyproject(root)
    for declared in (_setuptools(root, project), _hatch(project), _poetry(project), _flit(root, project),
                     _by_name(root, project)):
        found = tuple(sorted({p for p in declared if (root / p).exists()}))
        if found:
            return found
    return ()


def in_scope(path: str, scope: tuple[str, ...]) -> bool:
    """Whether a root-relative path lies in one of ``scope``'s packages (everything does when it is empty)."""
    return not scope or any(path == p or path.startswith(p.rstrip("/") + "/") for p in scope)


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _setuptools(root: Path, project: Pyproject) -> list[str]:
    table = project.table("tool", "setuptools")
    found = table.get("package-dir")
    dirs: Mapping[str, Any] = found if isinstance(found, Mapping) else {}
    base = str(dirs.get("", "")).strip("/")
    listed = table.get("packages")
    if isinstance(listed, list):  # packages = ["pkg", "pkg.sub"]: the top folders
        return [_join(base, str(dirs.get(name.split(".")[0], name.split(".")[0]))) for name in _strings(listed)]
    find = project.table("tool", "setuptools", "packages", "find")
    if not find:
        return []
    wheres = _strings(find.get("where")) or [base or "."]
    includes = _strings(find.get("include")) or ["*"]
    excludes = _strings(find.get("exclude"))
    return [_join(where, child.name) for where in wheres for child in _folders(root / where)
            if any(fnmatch(child.name, i) for i in includes) and not any(fnmatch(child.name, e) for e in excludes)]


def _hatch(project: Pyproject) -> list[str]:
    return [p.strip("/") for p in _strings(project.table("tool", "hatch", "build", "targets", "wheel").get("packages"))]


def _poetry(project: Pyproject) -> list[str]:
    entries = project.table("tool", "poetry").get("packages")
    return [_join(str(e.get("from", "")), str(e["include"])) for e in entries or []
            if isinstance(e, Mapping) and isinstance(e.get("include"), str) and "*" not in e["include"]] \
        if isinstance(entries, list) else []


def _flit(root: Path, project: Pyproject) -> list[str]:
    name = project.table("tool", "flit", "module").get("name")
    return _candidates(root, name.replace(".", "/")) if isinstance(name, str) and name else []


def _by_name(root: Path, project: Pyproject) -> list[str]:
    name = project.name.replace("-", "_").replace(".", "_").lower()
    return _candidates(root, name) if name else []


def _candidates(root: Path, name: str) -> list[str]:
    return [p for base in ("src", "") for p in (_join(base, name), _join(base, f"{name}.py"))
            if (root / p / "__init__.py").is_file() or (p.endswith(".py") and (root / p).is_file())]


def _folders(path: Path) -> Iterable[Path]:
    try:
        return sorted(p for p in path.iterdir() if p.is_dir() and (p / "__init__.py").is_file())
    except OSError:
        return []


def _join(base: str, name: str) -> str:
    base = base.strip("/").removeprefix("./")
    return f"{base}/{name}" if base and base != "." else name
