"""How long a scan takes when one ~3000-line file changed.

    python -m bench.bench_targets

Builds a throwaway git repository in a temporary folder, commits a generated module of about 3000
lines (module functions and classes with methods, decorators, nested functions), edits one function
body, and times ``scan`` for ``--base HEAD~1``, ``--staged`` and ``--all``, plus the libcst pass alone.
"""

from __future__ import annotations

import subprocess
import tempfile
import time
from pathlib import Path

from docbot import targets
from docbot.repo import DiffSpec, scan
from docbot.targets import public_functions


def generated_module(blocks: int) -> str:
    """About 30 lines per block: a decorated function with a nested helper, and a class."""
    parts = ["import functools\n"]
    for i in range(blocks):
        parts.append(f'''

@functools.lru_cache(maxsize={i + 1})
def compute_{i}(values: list[int], scale: float = 1.0) -> float:
    """Sum the values, scaled."""
    def helper(v: int) -> float:
        return v * scale
    total = 0.0
    for value in values:
        total += helper(value)
    return total


class Widget{i}:
    """A widget."""

    def __init__(self, size: int) -> None:
        self.size = size

    @property
    def area(self) -> int:
        return self.size * self.size

    def grow(self, by: int = 1) -> "Widget{i}":
        if by < 0:
            raise ValueError("by must be >= 0")
        return Widget{i}(self.size + by)
''')
    return "".join(parts)


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid", *args],
                   cwd=root, check=True, capture_output=True)


def timed(label: str, action: object, *, cold: bool = True) -> None:
    if cold:  # time the parse, not the small per-process cache of parsed blobs
        targets._definitions.cache_clear()
    start = time.perf_counter()
    result = action()  # type: ignore[operator]
    elapsed = time.perf_counter() - start
    count = len(result.targets) if hasattr(result, "targets") else len(result)
    print(f"{label:34} {elapsed:6.3f} s  ({count} targets)")


def main() -> None:
    source = generated_module(blocks=112)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        git(root, "init", "-q")
        (root / "big.py").write_text(source)
        git(root, "add", "big.py")
        git(root, "commit", "-q", "-m", "big")
        (root / "big.py").write_text(source.replace("total += helper(value)\n", "total += helper(value) + 0\n", 1))
        git(root, "commit", "-q", "-am", "edit one function")
        (root / "big.py").write_text(source.replace("return v * scale", "return v * scale * 1", 1))
        git(root, "add", "big.py")
        print(f"big.py: {source.count(chr(10))} lines")
        timed("public_functions (libcst pass)", lambda: public_functions(source, "big", "big.py"))
        timed("public_functions again (cached)", lambda: public_functions(source, "big", "big.py"), cold=False)
        timed("scan --base HEAD~1 (2 blobs)", lambda: scan(root, DiffSpec(base="HEAD~1")))
        timed("scan --staged (2 blobs)", lambda: scan(root, DiffSpec(staged=True)))
        timed("scan --all (1 file)", lambda: scan(root, DiffSpec(all=True)))


if __name__ == "__main__":
    main()
