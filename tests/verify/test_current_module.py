"""A page's names relative to its Sphinx current module (``.. currentmodule:: pkg``), in project mode's claims
(docs/design.md#claims): urllib3's advanced-usage.rst writes ``response.HTTPResponse.read()`` under
``.. currentmodule:: urllib3``, which is ``urllib3.response.HTTPResponse.read``."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.verify.project.docs import DocsOptions, verify_here
from docbot.verify.read.autodoc import current_module

RESPONSE = '''\
class HTTPResponse:
    def read(self, amt: int | None = None) -> bytes:
        return b""
'''


def _contradictions(tmp_path: Path, rst: str) -> list[tuple[str, int | None]]:
    files = {"pyproject.toml": '[project]\nname = "toy-web"\nversion = "1"\n',
             "src/toy_web/__init__.py": "", "src/toy_web/response.py": RESPONSE, "docs/usage.rst": rst}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    report = verify_here(tmp_path, [tmp_path / "docs/usage.rst"], DocsOptions(), run_examples=False)
    return [(f.check.value, f.line) for d in report.docs for f in d.findings if f.severity.fatal]


CURRENT = "Usage\n=====\n\n.. currentmodule:: toy_web\n\n"


@pytest.mark.parametrize("rst, expected", [
    pytest.param(CURRENT + "``response.HTTPResponse.read()`` returns a dictionary.\n",
                 [("wrong_return_type", 6)], id="urllib3: a name under the current module, stated false"),
    pytest.param(CURRENT + "``response.HTTPResponse.read()`` returns bytes.\n", [],
                 id="the same name, stated true: silent"),
    pytest.param("Usage\n=====\n\n``response.HTTPResponse.read()`` returns a dictionary.\n", [],
                 id="no current module: `response` may be any value's name, no claim"),
    pytest.param("Usage\n=====\n\n.. currentmodule:: toy_web\n\nText.\n\n.. currentmodule:: other\n\n"
                 "``response.HTTPResponse.read()`` returns a dictionary.\n", [],
                 id="two current modules: which one holds the line is not guessed"),
])
def test_a_name_under_the_current_module_is_that_module_s(tmp_path: Path, rst: str,
                                                          expected: list[tuple[str, int | None]]) -> None:
    assert _contradictions(tmp_path, rst) == expected


@pytest.mark.parametrize("markdown, expected", [
    ("```{currentmodule} click\n```\n", "click"),
    ("```{py:module} pkg.sub\n```\n", "pkg.sub"),
    ("```{currentmodule} a\n```\n\n```{currentmodule} b\n```\n", ""),
    ("```python\nx = 1\n```\n", ""),
])
def test_the_current_module_is_the_one_the_page_sets(markdown: str, expected: str) -> None:
    assert current_module(markdown) == expected
