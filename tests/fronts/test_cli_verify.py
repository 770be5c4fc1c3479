"""`docbot verify` on docs docbot did not write: wrong stated results and raising examples, with real values."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SOURCE = '''from .rates import to_fraction


def compound(principal, rate, years):
    """Balance after `years` of yearly compounding."""
    if principal < 0:
        raise ValueError("principal must be non-negative")
    return round(principal * (1 + to_fraction(rate)) ** years, 2)
'''
RATES = "def to_fraction(percent):\n    return percent / 100\n"


def doc(example: str) -> str:
    return f"""# Finance helpers

## compound(principal, rate, years)

Balance after compounding.

| Parameter | Meaning |
|---|---|
| `principal` | the starting amount |
| `rate` | yearly rate in percent |
| `years` | number of years |

**Returns** the balance, rounded to cents.

**Raises** `ValueError`: `principal must be non-negative`.

```python
{example}
```
"""


def verify(tmp_path: Path, example: str, *extra: str) -> subprocess.CompletedProcess[str]:
    package = tmp_path / "finance"
    package.mkdir(exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / "rates.py").write_text(RATES)
    (package / "money.py").write_text(SOURCE)
    (tmp_path / "money.md").write_text(doc(example))
    return subprocess.run([sys.executable, "-m", "docbot.fronts.cli", "verify", str(package / "money.py"),
                           str(tmp_path / "money.md"), *extra], capture_output=True, text=True, timeout=120)


def test_correct_doc_passes(tmp_path: Path) -> None:
    done = verify(tmp_path, ">>> compound(100, 10, 2)\n121.0")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "compound: 0 findings" in done.stdout


def test_wrong_stated_result_is_fatal_with_the_real_value(tmp_path: Path) -> None:
    done = verify(tmp_path, ">>> compound(100, 10, 2)\n120.0")
    assert done.returncode == 1
    assert "CONTRADICTION [example_mismatch]" in done.stdout and "121.0" in done.stdout and "120.0" in done.stdout


def test_raising_example_is_fatal_quoting_the_traceback(tmp_path: Path) -> None:
    done = verify(tmp_path, ">>> compound(-5, 10, 2)\n0.0", "--json")
    assert done.returncode == 1
    findings = json.loads(done.stdout)["functions"][0]["findings"]
    raised = [f for f in findings if f["kind"] == "example_raises"]
    assert raised and "ValueError: principal must be non-negative" in raised[0]["message"]
