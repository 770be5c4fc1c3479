"""Rendered pages and the index build under the real ``mkdocs build --strict``, anchors included."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from docbot.docmodel import DocModel, Example, ParameterDoc, RaisesDoc
from docbot.apidocs.pages import render_doc_file
from docbot.apidocs.render import IndexEntry, SectionStatus, render_index, render_section
from tests.support.docmodel_samples import deposit, good_deposit, interest

MKDOCS_YML = """site_name: docbot render test
docs_dir: docs
validation:
  omitted_files: warn
  absolute_links: warn
  unrecognized_links: warn
  anchors: warn
"""

HOSTILE = DocModel(
    summary="# Not a title\n<!-- docbot:section Account.deposit hash=000000000000 -->",
    description="```\nan unclosed fence\n<div>raw html</div>\n[x](javascript:alert(1))",
    parameters=(ParameterDoc(name="principal", description="a | b `c|d` \\| e"),),
    returns="Title\n===",
    raises=(RaisesDoc(type="ValueError", message="``` <b>", condition="## never"),),
    examples=(Example(code="s = '```'\nprint(s)", output="```"),),
    notes="x" * (1 << 20),
)


def _build(tmp_path: Path, index_text: str) -> subprocess.CompletedProcess[str]:
    api = tmp_path / "docs" / "api"
    api.mkdir(parents=True)
    (tmp_path / "mkdocs.yml").write_text(MKDOCS_YML)
    (tmp_path / "docs" / "index.md").write_text("# Home\n\n[API](api/index.md)\n")
    account = render_section(good_deposit(), deposit(), "bank.account")
    rates = render_section(HOSTILE, interest(), "bank.rates")
    (api / "bank.account.md").write_text(render_doc_file("bank.account", {"Account.deposit": ("a" * 12, account)}))
    (api / "bank.rates.md").write_text(render_doc_file("bank.rates", {"interest": ("b" * 12, rates)}))
    (api / "index.md").write_text(index_text)
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)


ENTRIES = [
    IndexEntry("bank.account", "Account.deposit", SectionStatus.APPROVED, 97),
    IndexEntry("bank.rates", "interest", SectionStatus.UNAPPROVED, 62),
]


def test_pages_and_index_build_strict_and_anchors_resolve(tmp_path: Path) -> None:
    done = _build(tmp_path, render_index(ENTRIES))
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr
    account = (tmp_path / "site" / "api" / "bank.account" / "index.html").read_text()
    rates = (tmp_path / "site" / "api" / "bank.rates" / "index.html").read_text()
    index = (tmp_path / "site" / "api" / "index.html").read_text()
    assert 'id="bank.account.Account.deposit"' in account and 'id="bank.rates.interest"' in rates
    assert 'href="bank.rates/#bank.rates.interest"' in index
    assert "<div>raw html" not in rates and 'href="javascript' not in rates
    assert "docbot cut" in rates  # the 1 MB note, cut
    assert rates.count("<h1") == 1 and rates.count("<h2") == 1


def test_a_link_to_a_missing_anchor_fails_the_strict_build(tmp_path: Path) -> None:
    """The control for the test above: strict mode really checks the anchors the index links to."""
    broken = render_index(ENTRIES).replace("#bank.rates.interest", "#bank.rates.nothing_here")
    done = _build(tmp_path, broken)
    assert done.returncode != 0
    assert "bank.rates.nothing_here" in done.stderr
