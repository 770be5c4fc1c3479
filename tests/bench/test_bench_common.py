"""bench.common: a benchmark replaces only its own section of RESULTS.md; medians and interleaving."""

from __future__ import annotations

from pathlib import Path

from bench.common import Sample, interleaved, median, write_section


def test_a_section_is_replaced_in_place_and_others_kept(tmp_path: Path) -> None:
    results = tmp_path / "RESULTS.md"
    results.write_text("# Benchmark results\n\n## A\n\nold a\n\n## B\n\nb\n")
    write_section("## A\n\nnew a\n", results)
    assert results.read_text() == "# Benchmark results\n\n## A\n\nnew a\n\n## B\n\nb\n"
    write_section("## C\n\nc\n", results)
    assert results.read_text().endswith("## B\n\nb\n\n## C\n\nc\n")
    write_section("## A (longer)\n\nx\n", results)  # another heading that starts alike is another section
    assert "new a" in results.read_text() and results.read_text().endswith("## A (longer)\n\nx\n")


def test_median_and_rotation() -> None:
    assert (median([3.0, 1.0, 2.0]), median([4.0, 1.0, 2.0, 3.0])) == (2.0, 2.5)
    order: list[str] = []

    def action(name: str) -> Sample:
        order.append(name)
        return Sample(0.0, 0.0, 0, "")

    samples = interleaved({"a": lambda: action("a"), "b": lambda: action("b")}, 3)
    assert order == ["a", "b", "b", "a", "a", "b"] and [len(v) for v in samples.values()] == [3, 3]
