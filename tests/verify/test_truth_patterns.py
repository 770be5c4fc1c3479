"""Each pattern of false and missed findings seen on real docs (issue: truth checks on docs nobody here
wrote), reproduced with a small doc, plus the comparison bugs mutation testing let through."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from docbot.verify.checks.examples import ExampleContext
from docbot.verify.checks.page import check_doc
from docbot.verify.checks.source_doc import verify_source_doc
from docbot.verify.findings import Finding, Severity
from docbot.verify.read.sections import find_section
from docbot.verify.checks.examples import check_examples
from docbot.verify.checks.source_doc import DOC_EXAMPLES

FENCE = "```"
GEO = '''
import socket
import uuid

HOST = socket.gethostname()  # some libraries read it on import


def scale(value: float, factor: float = 2.0, *, threshold: float = 0.75, **options) -> float:
    """Scale a non-negative value."""
    if value < 0:
        raise ValueError("value must be non-negative")
    if factor <= 0:
        raise ValueError("factor must be positive")
    result = value * factor
    return min(result, options.get("limit", result)) if options.get("clip") else result


def token() -> str:
    return uuid.uuid4().hex


def table() -> str:
    return "name   qty\\napple  3"


def is_positive(value: float) -> bool:
    return value > 0


def config() -> dict:
    return {"a": 1, "b": 2}


def label(value: float) -> str:
    return f"{value:.2f} x 10⁰"


def around() -> float:
    return 110.00000000000001
'''
SLUG = '''
def slug(text: str) -> str:
    return "-".join(text.lower().split())
'''
SCALE = textwrap.dedent(GEO).split("def scale", 1)[1].split("\n\n\n")[0]
SCALE_SOURCE = "def scale" + SCALE


def block(body: str, lang: str = "python") -> str:
    return f"{FENCE}{lang}\n{textwrap.dedent(body).strip()}\n{FENCE}\n"


@pytest.fixture
def package(tmp_path: Path) -> Path:
    (tmp_path / "shapes").mkdir()
    (tmp_path / "shapes" / "__init__.py").write_text("")
    (tmp_path / "shapes" / "geo.py").write_text(textwrap.dedent(GEO))
    (tmp_path / "slug.py").write_text(textwrap.dedent(SLUG))
    return tmp_path


def run(package: Path, markdown: str, module: str = "shapes.geo", name: str = "scale") -> list[Finding]:
    return check_examples(markdown, name, ExampleContext(module, (str(package),)))


def static(doc: str) -> list[Finding]:
    return check_doc(textwrap.dedent(doc), SCALE_SOURCE, "scale")


def severities(found: list[Finding]) -> list[tuple[str, Severity]]:
    return [(f.check, f.severity) for f in found]


# -- 1. omissions are gaps, never fatal ------------------------------------------------------------------

def test_omissions_are_gaps_not_contradictions() -> None:
    found = static("## scale\n\nScales `value`.\n\n**Parameters**\n\n- `value`: the value.\n")
    assert found and all(f.severity is Severity.GAP for f in found)
    assert {f.check for f in found} == {"missing_parameter", "missing_exception", "missing_return"}


def test_a_parameter_passed_by_keyword_in_an_example_is_documented() -> None:
    doc = ("## scale\n\n**Parameters**\n\n- `value`: the value.\n\n"
           + block(">>> scale(2, factor=3, threshold=0.5, clip=False)\n6"))
    missing = {f.message for f in static(doc) if f.check == "missing_parameter"}
    assert not any(name in m for m in missing for name in ("`factor`", "`threshold`"))
    assert any("`**options`" in m for m in missing)  # passing `clip=` does not say what **options carries


def test_kwargs_is_documented_by_the_keywords_it_carries() -> None:
    params = "- `value`: v.\n- `factor`: f.\n- `threshold`: t.\n"
    with_keywords = static(f"## scale\n\n**Parameters**\n\n{params}- `clip`: cap it.\n- `limit`: the cap.\n")
    without = static(f"## scale\n\n**Parameters**\n\n{params}")
    assert "missing_parameter" not in {f.check for f in with_keywords}
    assert not any(f.fatal for f in with_keywords)  # the keywords are not "invented": **options takes them
    assert [f.check for f in without if f.check == "missing_parameter"] == ["missing_parameter"]


# -- 2. structure -----------------------------------------------------------------------------------------

H3_DOC = """# shapes.geo

## scale

Scales a value.

## Parameters

### `value: float`
The value.

### `threshold: float = 0.5`
Cut-off.

## Raises

### `ValueError`
When `value` is negative.

## Examples

```python
scale(2)  # -> 4.0
```

## token

Another function.
"""


def test_an_h3_per_parameter_stays_in_the_section_and_is_read() -> None:
    section = find_section(H3_DOC, "scale") or ""
    assert "scale(2)  # -> 4.0" in section and "## token" not in section
    wrong = [f for f in check_doc(section, SCALE_SOURCE, "scale") if f.fatal]
    assert [f.check for f in wrong] == ["wrong_default"] and "0.5" in wrong[0].message


def test_an_h3_per_exception_stays_in_the_section_and_is_read() -> None:
    section = find_section(H3_DOC.replace("### `ValueError`", "### `TypeError`"), "scale") or ""
    assert "## Examples" in section
    assert "wrong_exception_type" in {f.check for f in check_doc(section, SCALE_SOURCE, "scale") if f.fatal}


def test_a_one_word_heading_does_not_end_the_section() -> None:
    doc = "## scale\n\nScales.\n\n### Thresholds\n\nAbove 0.75 it clips.\n\n" + block("scale(-1)") + "\n## token\n"
    section = find_section(doc, "scale", frozenset({"scale", "token"})) or ""
    assert "scale(-1)" in section and "token" not in section


def test_name_equals_default_bullets_are_read() -> None:
    doc = "## scale\n\n**Parameters**\n\n- `value`: the value.\n- `factor=3.0`: the factor.\n"
    assert [f.check for f in static(doc) if f.fatal] == ["wrong_default"]


def test_a_signature_over_several_lines_is_read() -> None:
    doc = "## scale\n\n" + block("def scale(\n    value: float,\n    factor: float = 3.0,\n) -> float")
    assert [f.check for f in static(doc) if f.fatal] == ["wrong_default"]


@pytest.mark.parametrize("code, kinds", [
    pytest.param("def scale(value, factor=3.0):\n    \"\"\"Scale it.\"\"\"", ["wrong_default"], id="a stub documents"),
    pytest.param("def scale(value, factor=3.0):\n    ...", ["wrong_default"], id="... so does `...`"),
    pytest.param("def scale(value, factor=3.0):\n    pass", [], id="`pass` is a body, however empty: the doc's own"),
    pytest.param("@app.command()\ndef scale(value, factor=3.0):\n    \"\"\"Doc.\"\"\"\n    print(value * factor)", [],
                 id="click's docs: the doc's own command named like a package function"),
    pytest.param("class Backend:\n    def scale(self, value, factor=3.0):\n        return value", [],
                 id="keyring's README: a method of the doc's own class"),
    pytest.param('class Backend:\n    """Doc."""\n\n    def scale(self, value, factor=3.0):\n        """Doc."""', [],
                 id="... however its body reads"),
])
def test_a_function_the_doc_defines_for_itself_is_no_signature(code: str, kinds: list[str]) -> None:
    doc = "## scale\n\n" + block(code)
    assert [f.check for f in static(doc) if f.fatal] == kinds


@pytest.mark.parametrize("line, kinds", [
    pytest.param(" |  scale(value, factor=3.0)", ["wrong_default"], id="pydoc signature line"),
    pytest.param(" |      scale(value, factor=3.0)", [], id="pydoc docstring line is not a signature"),
    pytest.param("scale(value, factor=3.0)", [], id="a plain call is not a signature"),
])
def test_a_pydoc_signature_is_read(line: str, kinds: list[str]) -> None:
    doc = "## scale\n\n" + block("class Scaler\n |  Methods defined here:\n |\n" + line, lang="")
    assert [f.check for f in static(doc) if f.fatal] == kinds


def test_fences_lists_and_tables_are_read_by_a_markdown_parser() -> None:
    unclosed = ("## scale\n\n| Name | Default |\n|---|---|\n| `factor` | `int \\| float` |\n\n"
                "```python\n## not a heading\n")
    section = find_section(unclosed + "scale(1)\n", "scale") or ""
    assert "## not a heading" in section and "scale(1)" in section  # an unclosed fence runs to the end


# -- 3. examples run as the reader runs them ------------------------------------------------------------

def test_module_dot_function_and_package_paths_work_in_examples(package: Path) -> None:
    assert run(package, block(">>> geo.scale(2)\n4.0\n>>> shapes.geo.scale(1)\n2.0\n>>> table()[:4]\n'name'")) == []


def test_an_example_defining_a_dataclass_runs(package: Path) -> None:
    doc = block("from dataclasses import dataclass\n\n@dataclass\nclass Point:\n    x: int\n\n"
                "Point(1)  # -> Point(x=1)")
    assert run(package, doc) == []


def test_gethostname_at_import_is_not_network_access(package: Path) -> None:
    assert run(package, block(">>> isinstance(HOST, str)\nTrue")) == []


def test_a_readme_that_is_one_long_doctest_runs_every_example(package: Path) -> None:
    readme = "# shapes\n\nUsage:\n\n" + block(
        ">>> from shapes.geo import scale\n>>> x = scale(1)\n>>> x\n2.0\n>>>print(x * 2)\n4.0\n"
        ">>> scale(x, factor=3)\n6.0\n>>> is_positive(x)\nTrue\n>>> scale(x) + 1\n99.0", lang="pycon")
    report = verify_source_doc(textwrap.dedent(GEO), readme, "shapes.geo", (str(package),))
    example = [f for item in report for f in item.findings if f.check.startswith("example")]
    assert [f.check for f in example] == ["example_mismatch"] and "99.0" in example[0].message


def test_examples_continue_one_session_across_sections(package: Path) -> None:
    doc = ("## scale\n\n" + block("size = scale(3)  # -> 6.0") + "\n## table\n\nUses the size from above.\n\n"
           + block(">>> size + 1\n7.0"))
    report = verify_source_doc(textwrap.dedent(GEO), doc, "shapes.geo", (str(package),), function=["scale", "table"])
    assert {r.qualname: [f.check for f in r.findings if f.fatal] for r in report} == {"scale": [], "table": []}


def test_a_usage_guides_examples_are_checked_when_a_function_is_named(package: Path) -> None:
    # A README usage guide has no section per function; naming the function must not silence its examples.
    guide = "## Usage\n\n" + block(">>> scale(3)\n7.0")
    report = verify_source_doc(textwrap.dedent(GEO), guide, "shapes.geo", (str(package),), function=["scale"])
    found = {r.qualname: [f.check for f in r.findings if f.fatal] for r in report}
    assert found == {"scale": [], DOC_EXAMPLES: ["example_mismatch"]}


def test_another_functions_section_is_not_reported_when_a_function_is_named(package: Path) -> None:
    doc = "## scale\n\n" + block(">>> scale(3)\n6.0") + "\n## table\n\n" + block(">>> token()\n'wrong'")
    report = verify_source_doc(textwrap.dedent(GEO), doc, "shapes.geo", (str(package),), function=["scale"])
    assert {r.qualname: [f.check for f in r.findings if f.fatal] for r in report} == {"scale": []}


# -- 4. outputs compared rightly -------------------------------------------------------------------------

def test_numbers_inside_strings_get_no_tolerance(package: Path) -> None:
    found = run(package, block(">>> label(1)\n'1.0 x 10⁰'"))
    assert severities(found) == [("example_mismatch", Severity.CONTRADICTION)]


def test_whitespace_inside_a_multi_line_output_is_kept(package: Path) -> None:
    assert run(package, block("print(table())") + "\n" + block("name   qty\napple  3", "text")) == []
    found = run(package, block("print(table())") + "\n" + block("name qty\napple 3", "text"))
    assert [f.check for f in found] == ["example_mismatch"]


def test_comment_words_true_and_none_are_values(package: Path) -> None:
    words = block("is_positive(2)  # returns true\nconfig().clear()  # -> None\nis_positive(-1)  # -> false")
    assert run(package, words) == []
    assert [f.check for f in run(package, block("is_positive(2)  # returns false"))] == ["example_mismatch"]


def test_a_multi_line_output_comment_after_print_is_compared(package: Path) -> None:
    right = block("print(config())\n# Output: {\n#   'a': 1,\n#   'b': 2\n# }")
    assert run(package, right) == []
    assert [f.check for f in run(package, right.replace("'b': 2", "'b': 3"))] == ["example_mismatch"]


def test_a_random_output_is_nondeterministic_not_a_contradiction(package: Path) -> None:
    found = run(package, block(">>> token()\n'3f2a9c01b7de4d0b9a3c6f1e2d4b5a69'"))
    assert severities(found) == [("example_nondeterministic", Severity.NONDETERMINISTIC)]


# -- 5. real errors are contradictions ------------------------------------------------------------------

def test_a_failing_assert_is_a_contradiction(package: Path) -> None:
    found = run(package, block("assert scale(2) == 5"))
    assert severities(found) == [("example_assert_failed", Severity.CONTRADICTION)]


def test_an_example_presented_as_working_that_raises_is_a_contradiction(package: Path) -> None:
    found = run(package, "Scaling is simple:\n\n" + block("result = scale(-1)"))
    assert severities(found) == [("example_raises", Severity.CONTRADICTION)]


def test_a_wrong_exception_type_stated_in_prose_is_a_contradiction() -> None:
    doc = ("## scale\n\nA negative value raises a `TypeError` (\"value must be non-negative\").\n\n"
           "**Raises**\n\n- `ValueError`: `factor must be positive` when the factor is not.\n")
    assert "wrong_exception_type" in {f.check for f in static(doc) if f.fatal}


# -- 6. sections ----------------------------------------------------------------------------------------

def verify_cli(package: Path, doc: str, source: str, *extra: str) -> subprocess.CompletedProcess[str]:
    (package / "doc.md").write_text(doc)
    return subprocess.run([sys.executable, "-m", "docbot.fronts.cli", "verify", str(package / source),
                           str(package / "doc.md"), "--no-examples", *extra],
                          capture_output=True, text=True, timeout=120)


def test_a_doc_without_a_section_for_a_public_function_fails(package: Path) -> None:
    doc = "# shapes.geo\n\n## scale\n\nScales `value` by `factor`, `threshold` and `options`; returns it.\n"
    done = verify_cli(package, doc, "shapes/geo.py")
    assert done.returncode == 1 and "token: no section found in the doc" in done.stdout
    assert verify_cli(package, doc, "shapes/geo.py", "--function", "scale").returncode == 0


def test_strict_fails_on_gaps_only_with_the_flag(package: Path) -> None:
    doc = "## scale\n\n**Parameters**\n\n- `value`: the value.\n"
    assert verify_cli(package, doc, "shapes/geo.py", "--function", "scale").returncode == 0
    done = verify_cli(package, doc, "shapes/geo.py", "--function", "scale", "--strict")
    assert done.returncode == 1 and "gap [missing_parameter]" in done.stdout


def test_sections_are_found_by_docbot_markers() -> None:
    doc = ("# shapes.geo\n\n<!-- docbot:section scale hash=abc -->\n## Scaling values\n\nBody of scale.\n\n"
           "<!-- docbot:section token hash=def -->\n## token\n\nBody of token.\n")
    assert find_section(doc, "scale") == "<!-- docbot:section scale hash=abc -->\n## Scaling values\n\nBody of scale.\n"


def test_a_module_and_a_function_with_the_same_name_are_not_confused(package: Path) -> None:
    doc = "# slug\n\nMakes slugs.\n\n## slug(text)\n\nLower-cases and joins.\n\n" + block(">>> slug('A B')\n'a-b'")
    section = find_section(doc, "slug") or ""
    assert section.startswith("## slug(text)")
    assert run(package, doc, module="slug", name="slug") == []


# -- comparison bugs found by mutation testing: one test each -----------------------------------------

def test_a_doctest_value_is_compared_as_a_value_not_as_text(package: Path) -> None:
    assert run(package, block(">>> frozenset({3, 1})\nfrozenset({3, 1})")) == []


def test_a_different_exception_type_than_stated_is_a_contradiction(package: Path) -> None:
    stated = ">>> scale(-1)\nTraceback (most recent call last):\nTypeError: value must be non-negative"
    found = run(package, block(stated))
    assert severities(found) == [("example_wrong_exception", Severity.CONTRADICTION)]


def test_a_wrong_exception_message_is_a_contradiction(package: Path) -> None:
    found = run(package, block(">>> scale(-1)\nTraceback (most recent call last):\nValueError: value must be positive"))
    assert severities(found) == [("example_wrong_exception", Severity.CONTRADICTION)]


def test_an_integer_claim_is_exact(package: Path) -> None:
    assert [f.check for f in run(package, block(">>> around()\n110"))] == ["example_mismatch"]
    assert [f.check for f in run(package, block("print(around())  # Output: 110"))] == ["example_mismatch"]


def test_doctest_directives_skip_and_normalize_whitespace_are_honoured(package: Path) -> None:
    doc = block(">>> token()  # doctest: +SKIP\n'abc'\n>>> config()  # doctest: +NORMALIZE_WHITESPACE\n"
                "{'a': 1,\n 'b':   2}\n>>> table()  # doctest: +NORMALIZE_WHITESPACE\n'name qty\\napple 3'")
    assert run(package, doc) == []
    assert [f.check for f in run(package, block(">>> table()\n'name qty\\napple 3'"))] == ["example_mismatch"]


@pytest.mark.parametrize("heading, kinds", [
    pytest.param("Why does scale() return None for a big value?", [], id="chardet's FAQ: a question states nothing"),
    pytest.param("scale() returns None for a big value.", ["wrong_return"], id="... a statement does"),
])
def test_a_question_makes_no_return_claim(heading: str, kinds: list[str]) -> None:
    doc = f"## scale\n\n{heading}\n\n**Parameters**\n\n- `value`: the value.\n"
    assert [f.check for f in static(doc) if f.check in ("wrong_return", "invented_return")] == kinds
