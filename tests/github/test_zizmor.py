"""Issue 22 item 8: zizmor (offline) finds nothing of medium severity or higher in ``action.yml`` or in the
README's workflow. The audit is first shown to catch what it is for: the unpinned ``@v4`` actions and the
``${{ steps.*.outputs.* }}`` inside ``run:`` that the README used to show.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ZIZMOR = shutil.which("zizmor", path=str(Path(sys.executable).parent)) or shutil.which("zizmor")
SHA = re.compile(r"@[0-9a-f]{40}\s+#\s*v\d")

OLD_WORKFLOW = """name: docbot
on:
  pull_request:
permissions:
  contents: read
jobs:
  docs:
    runs-on: [self-hosted]
    steps:
      - uses: actions/checkout@v4
        with:
          persist-credentials: false
      - uses: your-org/docbot@v1
        id: docbot
      - run: echo "${{ steps.docbot.outputs.approved }} approved"
"""


def readme_workflow() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(# \.github/workflows/docbot\.yml\n.*?)```", text, re.DOTALL)
    assert block, "the README's workflow block is gone"
    return block.group(1)


def findings(path: Path, *extra: str) -> list[dict[str, Any]]:
    """zizmor's findings of medium severity or higher (``extra`` options replace that bound)."""
    assert ZIZMOR, "zizmor is missing: pip install -e '.[dev]' (it is in the dev extra)"
    bound = list(extra) or ["--min-severity", "medium"]
    done = subprocess.run([ZIZMOR, "--offline", "--no-config", "--format", "json", *bound, str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 10, 11, 12, 13, 14), done.stderr  # 10+: findings (by severity)
    return list(json.loads(done.stdout or "[]"))


def as_workflow(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / ".github" / "workflows"
    folder.mkdir(parents=True)
    (folder / "docbot.yml").write_text(text, encoding="utf-8")
    return folder / "docbot.yml"


def test_the_audit_catches_unpinned_actions_and_outputs_in_run(tmp_path: Path) -> None:
    workflow = as_workflow(tmp_path, OLD_WORKFLOW)
    assert "unpinned-uses" in {f["ident"] for f in findings(workflow)}  # high
    # An output inside ``run:`` is reported at a lower severity; the pedantic persona shows it.
    assert "template-injection" in {f["ident"] for f in findings(workflow, "--persona", "pedantic")}


@pytest.mark.parametrize("name", ["action.yml", "README workflow"])
def test_no_finding_of_medium_severity_or_higher(tmp_path: Path, name: str) -> None:
    path = ROOT / "action.yml" if name == "action.yml" else as_workflow(tmp_path, readme_workflow())
    found = findings(path)
    assert found == [], [(f["ident"], f["desc"]) for f in found]


def test_every_action_is_pinned_by_sha_with_its_version_and_one_version_everywhere() -> None:
    uses = re.findall(r"uses:\s*(\S+@\S+.*)", (ROOT / "action.yml").read_text() + readme_workflow())
    assert uses and all(SHA.search("@" + u.split("@", 1)[1]) or u.startswith("your-org/") for u in uses), uses
    pins: dict[str, set[str]] = {}
    for line in uses:
        name, rest = line.split("@", 1)
        pins.setdefault(name, set()).add(rest.split()[0])
    assert all(len(shas) == 1 for shas in pins.values()), pins
