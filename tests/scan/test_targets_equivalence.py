"""Property: the ``ast`` finder and the libcst finder give identical targets and hashes.

The material is code we did not write: the running interpreter's standard library. A deterministic
sample of about 150 files keeps this test short; ``python -m bench.bench_targets`` runs all of them.
"""

from __future__ import annotations

import sysconfig
import tokenize
from pathlib import Path

import pytest

from docbot.apidocs.pages import source_hash
from docbot.results import Target
from docbot.scan.targets import Parser, SourceParseError, public_functions

SAMPLE_SIZE = 150


def stdlib_files() -> list[Path]:
    """Every ``.py`` file of the stdlib outside site-packages, sorted (so every sample is the same)."""
    root = Path(sysconfig.get_paths()["stdlib"])
    return sorted(p for p in root.rglob("*.py") if "site-packages" not in p.relative_to(root).parts)


def sample(files: list[Path], size: int) -> list[Path]:
    step = max(1, len(files) // size)
    return files[::step][:size]


def read(path: Path) -> str | None:
    try:
        with tokenize.open(path) as handle:  # coding cookie or UTF-8, as Python reads it
            return handle.read()
    except (SyntaxError, UnicodeDecodeError):
        return None


def reading(text: str, path: str, include_dunder: bool, parser: Parser) -> list[Target] | None:
    try:
        return public_functions(text, "m", path, include_dunder=include_dunder, parser=parser)
    except SourceParseError:
        return None


@pytest.mark.slow  # the whole stdlib sample: `pytest -m "not slow"` for a quick run; the README's command runs it
def test_both_finders_agree_on_a_stdlib_sample() -> None:
    files = stdlib_files()
    assert len(files) > 1000, "the stdlib is the test material; where did it go?"
    root = Path(sysconfig.get_paths()["stdlib"])
    compared = targets = 0
    disagreements = []
    for index, file in enumerate(sample(files, SAMPLE_SIZE)):
        text = read(file)
        if text is None:
            continue
        rel = file.relative_to(root).as_posix()
        include_dunder = index % 2 == 1  # both settings, on different files
        fast = reading(text, rel, include_dunder, Parser.AST)
        if fast is None:  # neither can parse it (test data with broken syntax): nothing to compare
            continue
        lossless = reading(text, rel, include_dunder, Parser.LIBCST)
        if lossless is None:  # libcst's own limits (pydoc_data/topics.py exceeds its recursion)
            continue
        compared += 1
        targets += len(fast)
        hashes = ([source_hash(t.source) for t in fast], [source_hash(t.source) for t in lossless])
        if fast != lossless or hashes[0] != hashes[1]:
            disagreements.append(rel)
    assert disagreements == []
    assert compared >= SAMPLE_SIZE * 9 // 10
    assert targets > 1000  # the sample really holds functions


@pytest.mark.parametrize("size", [1, 7, 150])
def test_sample_is_deterministic_and_spread(size: int) -> None:
    files = [Path(f"f{i:04}.py") for i in range(1000)]
    picked = sample(files, size)
    assert picked == sample(list(files), size)
    assert len(picked) == size
    assert picked[0] == files[0] and (size == 1 or picked[-1] > files[len(files) // 2])
