"""docbot documents itself: the repository carries docbot's own reference pages, built by `docbot pages`, and
they are current (as `docbot check` holds docs/api current): a docstring or signature changed without
`docbot pages` run again fails here, naming the pages and the command."""

from __future__ import annotations

import filecmp
from pathlib import Path

from docbot.apidocs.publish import publish

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "docs" / "api" / "reference"


def test_docbots_own_reference_pages_are_current(tmp_path: Path) -> None:
    # No source links: docbot's pyproject.toml names no repository, so the pages do not change with each commit.
    publish(ROOT, "docbot", tmp_path, docs_dir=ROOT / "docs" / "api")
    built = sorted(p.name for p in tmp_path.iterdir())
    carried = sorted(p.name for p in PAGES.iterdir()) if PAGES.is_dir() else []
    stale = [name for name in built if name not in carried or not filecmp.cmp(tmp_path / name, PAGES / name,
                                                                              shallow=False)]
    gone = [name for name in carried if name not in built]
    assert not stale and not gone, (f"docs/api/reference is not what `docbot pages` writes now: stale or missing "
                                    f"{stale[:10]}, no longer written {gone[:10]}; run `docbot pages` and commit "
                                    "docs/api/reference (delete the pages it no longer writes).")


def test_the_coverage_is_docbots_declared_api(tmp_path: Path) -> None:
    """docbot's interface is its command line; `__all__` says its modules are no import API, so `docbot verify`
    lists no internal function as undocumented (it listed 944)."""
    import docbot
    from docbot.verify.project.package import find_package, public_api

    package = find_package(ROOT)
    assert docbot.__all__ == ["__version__"] and public_api(package, package.index()) == []
