"""Every ``docs/design.md#anchor`` the code, tests, benchmarks and README cite exists: the code carries its
design in the repository and cites it, so a cited anchor that went away is a broken promise."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CITED = re.compile(r"design\.md#([A-Za-z0-9_.<>-]+)")


def anchors() -> set[str]:
    text = (ROOT / "docs/design.md").read_text(encoding="utf-8")
    ids = set(re.findall(r'<a id="([^"]+)"', text))
    headings = {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-")
                for h in re.findall(r"^#+ (.+)$", text, flags=re.M)}
    return ids | headings


def citations() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    files = [*ROOT.glob("docbot/**/*.py"), *ROOT.glob("tests/**/*.py"), *ROOT.glob("bench/**/*.py"),
             ROOT / "README.md", ROOT / "docs/design.md"]
    for path in files:
        if path == Path(__file__).resolve():
            continue  # its docstring's example
        for anchor in CITED.findall(path.read_text(encoding="utf-8")):
            found.setdefault(anchor.rstrip("."), set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_cited_design_anchor_exists() -> None:
    known, cited = anchors(), citations()
    assert len(cited) > 20, "the code cites its design doc; where did the citations go?"
    missing = {anchor: sorted(paths) for anchor, paths in cited.items() if anchor not in known}
    assert missing == {}


def test_the_check_sees_a_missing_anchor() -> None:
    assert "no-such-section" not in anchors() and "sandbox" in anchors() and "trust-model" in anchors()
