"""bench.bench_targets: its own section of bench/RESULTS.md is replaced, every other one kept."""

from __future__ import annotations

from pathlib import Path

from bench.bench_targets import SECTION, report, table
from bench.common import write_section


def test_write_section_replaces_only_its_own_section(tmp_path: Path) -> None:
    results = tmp_path / "RESULTS.md"
    results.write_text(
        f"# Benchmark results\n\n## Hook\n\nhook figures\n\n{SECTION}\n\nold figures\n\n## Memory\n\nmem\n")
    write_section(f"{SECTION}\n\nnew figures\n", results)
    text = results.read_text()
    assert text == f"# Benchmark results\n\n## Hook\n\nhook figures\n\n{SECTION}\n\nnew figures\n\n## Memory\n\nmem\n"
    write_section(f"{SECTION}\n\nnewer\n", results)
    assert "new figures" not in results.read_text() and "## Memory\n\nmem\n" in results.read_text()


def test_write_section_appends_to_a_file_without_it_and_creates_a_missing_file(tmp_path: Path) -> None:
    results = tmp_path / "RESULTS.md"
    write_section(f"{SECTION}\n\nfigures\n", results)
    assert results.read_text() == f"# Benchmark results\n\n{SECTION}\n\nfigures\n"
    results.write_text("# Benchmark results\n\n## Other\n\nx\n")
    write_section(f"{SECTION}\n\nfigures\n", results)
    assert results.read_text() == f"# Benchmark results\n\n## Other\n\nx\n\n{SECTION}\n\nfigures\n"


def test_ratios_are_against_the_floor() -> None:
    rows = table({"floor": 2.0, "ast": 3.0, "libcst": 60.0}, "floor")
    assert rows[2:] == ["| floor | 2.00 | 1.00× |", "| ast | 3.00 | 1.50× |", "| libcst | 60.00 | 30.00× |"]
    text = report(1200, {"ast.parse floor": 1.0}, None)
    assert text.startswith(SECTION) and "1200 files" in text and "Commands on" not in text
