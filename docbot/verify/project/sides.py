"""The two sides the drift gate compares, read from git: what the base says the package is, which of its
definitions the diff changed, and the base's tree (docs/design.md#drift-gate).

Every identity comes from the base commit (docs/design.md#trust): the package the docs are judged against is
the one the base's ``pyproject.toml`` (or ``PKG-INFO``, or its one package folder) names, found in the checkout
at the base's path, so a pull request that renames ``[project].name`` to a decoy package it adds, or hides
the package, cannot choose what its docs are checked against: a package the base names and the checkout lacks
stops the gate (exit 2), it is never skipped.
"""

from __future__ import annotations

import ast
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from docbot.errors import ConfigError, RepoError
from docbot.git.blobs import BlobReader
from docbot.git.repo import decode, read_worktree
from docbot.git.runner import run_git
from docbot.scan.old_side import old_function
from docbot.verify.project.package import CODE_BASES, Package, find_package
from docbot.verify.project.api_index import parsed
from docbot.verify.project.reach import DATA, ModuleDefs, split_parsed

_SKELETON_DEPTH = 4  # namespace packages: google/cloud/dlp/__init__.py
_TOP_LEVEL = re.compile(r"(?:src/)?[^/]+\.egg-info/top_level\.txt")  # what an sdist says it installs


@dataclass(frozen=True)
class Change:
    """What a diff changed: the base commit (None: no commit yet), the package's changed definitions
    (``module.qualname``), and every path the diff touched."""

    base: str | None
    names: frozenset[str]
    edited: frozenset[str]


def package_at(root: Path, rev: str | None, reader: BlobReader) -> Package:
    """The package as commit ``rev`` names it, located in the checkout at ``root``. Without ``rev``, or where
    ``rev`` has no package yet (a project's first one), the checkout's own. ``reader``: the caller's blob
    reader, for the few files of ``rev`` read whole."""
    if rev is None:
        return find_package(root)
    with tempfile.TemporaryDirectory(prefix="docbot-identity-") as folder:
        skeleton = _skeleton(root, rev, Path(folder), reader)
        try:
            found = find_package(skeleton)
        except ConfigError:
            return find_package(root)  # nothing to be mistaken for: the base had no package
        rel_path, rel_base = found.path.relative_to(skeleton), found.base.relative_to(skeleton)
    here = Package(found.name, root / rel_path, root / rel_base)
    if not (here.path / "__init__.py").is_file() and not here.path.is_file():
        raise ConfigError(f"the base commit {rev[:12]} documents the package `{found.name}` at {rel_path.as_posix()}, "
                          "which this checkout does not have: the drift gate judges the docs against the base's "
                          "package and cannot run. Restore it, or change the package on the base branch first.")
    return here


def _skeleton(root: Path, rev: str, into: Path, reader: BlobReader) -> Path:
    """The files of ``rev`` that ``find_package`` reads: the project files' text, the package files empty."""
    listing = run_git(root, "ls-tree", "-r", "--name-only", "-z", rev).decode("utf-8", "replace").split("\0")
    for path in listing:
        parts = path.split("/")
        # a flat module at the root or in a base folder, a package's __init__.py, the files that name the project
        shallow = len(parts) == 1 or (len(parts) == 2 and parts[0] in CODE_BASES) or \
            (parts[-1] == "__init__.py" and len(parts) <= _SKELETON_DEPTH + 1)
        wanted = path in ("pyproject.toml", "PKG-INFO") or (path.endswith(".py") and shallow) or \
            _TOP_LEVEL.fullmatch(path) is not None
        if not wanted or ".." in parts:
            continue
        target = into / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(b"" if path.endswith(".py") else _blob(reader, f"{rev}:{path}"))
    return into


def _blob(reader: BlobReader, name: str) -> bytes:
    try:
        return reader.read(name)
    except RepoError:  # a submodule's entry, or gone: as an empty file
        return b""


def changed_in(root: Path, package: Package, diff: object, reader: BlobReader,
               parse: Callable[[str], ast.Module | None] = parsed) -> Change:
    """The definitions of ``package`` that ``diff`` (a ``docbot.scan.diff_read.DiffRead``) changed, its blobs
    read through ``reader``; ``parse``: as ``changed_names``'s (the drift gate shares it with its reading of the
    package)."""
    from docbot.scan.diff_read import DiffRead

    assert isinstance(diff, DiffRead)
    plan = diff.plan
    paths = frozenset(diff.edited(root))
    names: set[str] = set()
    for change in diff.changes:
        module = _module_of(root, package, change.new_path or change.old_path or "")
        if module is None:
            continue
        old = None if plan.old_rev is None else _text(diff, reader, plan.old_rev, change.old_path, root)
        new = _text(diff, reader, plan.new_rev, change.new_path, root)
        names |= changed_names(old, new, module, Path(change.path).name == "__init__.py", parse)
    names |= {f"{package.name}.{DATA}" for p in paths if not p.endswith(".py") and _inside(root, package, p)}
    return Change(plan.old_rev, frozenset(names), paths)


def _text(diff: object, reader: BlobReader, rev: str | None, path: str | None, root: Path) -> str | None:
    """``path`` at ``rev`` ("": the index, None: the working tree); None when there is no such file."""
    if path is None:
        return None
    try:
        if rev is None:
            return read_worktree(root, path)
        return decode(diff.blob(reader, f"{rev}:{path}"), path)  # type: ignore[attr-defined]
    except (RepoError, OSError, ValueError):
        return None  # gone on that side, or unreadable: every definition of the other side changed


def _inside(root: Path, package: Package, rel: str) -> bool:
    return (root / rel).resolve().is_relative_to(package.path.resolve()) if package.path.is_dir() else False


def _module_of(root: Path, package: Package, rel: str) -> str | None:
    """The dotted module of repo-relative ``rel`` when it is one of the package's, else None."""
    path = (root / rel).resolve()
    if package.path.is_file():
        return package.name if path == package.path.resolve() else None
    if not path.is_relative_to(package.path.resolve()) or path.suffix != ".py":
        return None
    parts = path.relative_to(package.base.resolve()).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def checkout(root: Path, rev: str, into: Path) -> Path:
    """The tree of ``rev`` written under ``into`` (``git archive``: no worktree to register or clean up)."""
    import io
    import tarfile  # only here: the base is checked out only to judge a contradiction, which most commits lack

    data = run_git(root, "archive", "--format=tar", rev)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def changed_names(old: str | None, new: str | None, module: str, is_package: bool,
                  parse: Callable[[str], ast.Module | None] = parsed) -> set[str]:
    """The definitions of ``module`` whose code differs between ``old`` and ``new`` (None: no such side),
    as ``module.qualname``; ``parse``: ``api_index.parsed``, or a run's memo of it."""
    inside = _inside_one_function(old, new, parse) if old is not None and new is not None else None
    if inside is not None:
        qualname, same = inside
        return set() if same else {f"{module}.{qualname}"}
    before = split_parsed(parse(old), old, module, is_package, True) if old is not None else ModuleDefs()
    after = split_parsed(parse(new), new, module, is_package, True) if new is not None else ModuleDefs()
    # the same lines are the same code; where they differ, the trees are compared (a comment or a line break
    # changes no definition): dumping every definition's tree was most of this (issue 32)
    return {f"{module}.{name}" for name in before.shapes.keys() | after.shapes.keys()
            if before.shapes.get(name) != after.shapes.get(name) and _dumped(before, name) != _dumped(after, name)}


def _inside_one_function(old: str, new: str, parse: Callable[[str], ast.Module | None]) -> tuple[str, bool] | None:
    """(qualname, unchanged) when every line that differs lies inside one function from its ``def`` line on, on
    both sides: the rest of the module is byte for byte the same, so that function alone can differ, and only
    its old text is parsed (a one-line edit in a 3,000-line module, issue 32); as the scan's
    ``old_side.old_touched`` reasons. None: the old side is parsed whole."""
    old_lines, new_lines = old.split("\n"), new.split("\n")
    tree = parse(new)
    if tree is None or old_lines == new_lines:
        return None
    limit = min(len(old_lines), len(new_lines))
    head = next((i for i in range(limit) if old_lines[i] != new_lines[i]), limit)
    tail = next((i for i in range(limit - head) if old_lines[-1 - i] != new_lines[-1 - i]), limit - head)
    first, last = head + 1, len(new_lines) - tail  # the new side's lines that differ (last < first: only removed)
    found = _holding(tree.body, "", first, max(first, last))
    if found is None:
        return None
    qualname, node = found
    start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    assert node.end_lineno is not None
    before = old_function(old_lines, (start, node.end_lineno + len(old_lines) - len(new_lines)), node.name)
    return None if before is None else (qualname, ast.dump(before) == ast.dump(node))


def _holding(body: list[ast.stmt], prefix: str, first: int, last: int
             ) -> tuple[str, ast.FunctionDef | ast.AsyncFunctionDef] | None:
    """The function (a top-level one, or a class's member at any depth: the reach graph's definitions) whose
    lines from its ``def`` line on hold ``first`` to ``last`` (its decorators are the same on both sides)."""
    for node in body:
        if node.lineno <= first and last <= (node.end_lineno or 0):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return prefix + node.name, node
            if isinstance(node, ast.ClassDef):
                return _holding(node.body, f"{prefix}{node.name}.", first, last)
            return None
    return None


def _dumped(defs: ModuleDefs, name: str) -> str | None:
    code = defs.nodes.get(name)
    return None if code is None else "\n".join(n if isinstance(n, str) else ast.dump(n) for n in code)
