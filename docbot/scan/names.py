"""A Python file's module name, and whether ``import`` can reach it (pure: paths in, names out)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["importable", "importable_as", "module_name"]


def importable(path: str) -> bool:
    """Whether ``path`` names a module ``import`` can reach: every part of its dotted name an identifier
    (Unicode ones included: ``ünï.py``) and no keyword. ``spa ce.py``, ``-rf.py`` and ``class.py`` are
    not: nothing can import their functions, so they are not API (docs/design.md#scanner)."""
    import keyword

    name = module_name(path)
    return bool(name) and all(part.isidentifier() and not keyword.iskeyword(part) for part in name.split("."))


def importable_as(source: Path) -> tuple[str, tuple[str, ...]]:
    """The dotted module and import path of a file: from its package root, so relative imports work."""
    root = source.parent
    while (root / "__init__.py").exists():
        root = root.parent
    if (root / "src").is_dir() and root.name != "src" and source.is_relative_to(root / "src"):
        root = root / "src"
    return module_name(source.relative_to(root).as_posix()), (str(root),)


def module_name(path: str) -> str:
    """``src/pkg/sub/mod.py`` -> ``pkg.sub.mod``; ``pkg/__init__.py`` -> ``pkg``."""
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
    if parts and parts[0] == "src":
        parts = parts[1:]
    if parts and parts[-1].endswith(".py"):
        parts[-1] = parts[-1][: -len(".py")]
    if len(parts) > 1 and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)
