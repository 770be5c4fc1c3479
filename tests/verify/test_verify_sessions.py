"""``docbot verify`` starts one sandbox per document, not one per section (docs/design.md#speed): the
doc's examples run as one session, and every section still gets its own findings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from docbot.verify.checks import examples as example_check
from docbot.verify.checks.source_doc import verify_source_doc

COUNT = 20
SOURCE = "".join(f"def f{i}(x):\n    return x + {i}\n\n\n" for i in range(COUNT))


def doc(wrong: int | None = None) -> str:
    sections = [f"## `f{i}`\n\nAdds {i}.\n\n>>> f{i}(1)\n{i + 1 + (1 if i == wrong else 0)}\n" for i in range(COUNT)]
    return "# mod\n\n" + "\n".join(sections)


@pytest.fixture
def sandboxes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The real sandbox, counted: one entry (the number of steps) per sandbox started."""
    started: list[int] = []
    real = example_check.run_steps

    def counted(steps: list[Any], *args: Any, **kwargs: Any) -> Any:
        started.append(len(steps))
        return real(steps, *args, **kwargs)

    monkeypatch.setattr(example_check, "run_steps", counted)
    return started


def test_twenty_sections_start_one_sandbox(tmp_path: Path, sandboxes: list[int]) -> None:
    (tmp_path / "mod.py").write_text(SOURCE)
    checked = verify_source_doc(SOURCE, doc(), "mod", (str(tmp_path),), sandbox="allow-guard")
    assert sandboxes == [COUNT]  # one session holding every section's example
    assert [c.qualname for c in checked] == [f"f{i}" for i in range(COUNT)]
    assert all(c.section_found and not c.fatal for c in checked), [c.findings for c in checked if c.fatal]


def test_a_wrong_example_is_still_charged_to_its_own_section(tmp_path: Path, sandboxes: list[int]) -> None:
    (tmp_path / "mod.py").write_text(SOURCE)
    checked = verify_source_doc(SOURCE, doc(wrong=13), "mod", (str(tmp_path),), sandbox="allow-guard")
    assert [c.qualname for c in checked if c.fatal] == ["f13"]
    assert sandboxes == [COUNT, COUNT]  # a mismatch is run once more, to tell a random output apart
