"""`docbot verify` applies the loop's echo rule (issue 21) to the text a model wrote: a section under docbot's marker
that repeats docbot's prompt or holds a template placeholder is a contradiction, through the CLI's main, with the
prompts read from the loop's own templates. A person's section is never held to it (issue 28): the same words under
a person's heading are no finding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docbot.fronts import cli
from docbot.loop.prompts import ECHO_SENTENCES, TEMPLATES
from docbot.verify.checks.text_rules import docbot_prompts

SOURCE = '''def close(reason: str) -> None:
    """Close the account."""
    if not reason:
        raise ValueError("a reason is needed")
    print(reason)
'''


def doc(summary: str, marked: bool = True) -> str:
    marker = "<!-- docbot:section close -->\n" if marked else ""
    return f"""# bank

{marker}## close(reason)

{summary}

| Parameter | Meaning |
|---|---|
| `reason` | why it is closed |

**Raises** `ValueError`: `a reason is needed`.
"""


# (the doc's summary, the fatal finding kinds, the exit code)
CASES = [
    ("Close the account for good.", [], 0),
    ("Your previous documentation of `close` scored 0/100; the bar is 95/100.", ["echoed_prompt"], 1),
    ("Answer with the corrected JSON object only, every field filled.", ["echoed_prompt"], 1),
    ("Every statement must be true of the source code you are given.", ["echoed_prompt"], 1),
    # the docstring seed block
    ("Keep every statement in it that is still true of the code above: it closes.", ["echoed_prompt"], 1),
    ("Shows {message} to the user.", ["template_placeholder"], 1),
    ("Formats `{message}` in code.", [], 0),  # braces in code are code
    ("The source code is read once.", [], 0),  # a short run of a prompt's words is prose
    ("The balance is $P(1 + r/n)^{nt}$, compounded.", [], 0),  # a formula's braces are math
    ("The balance is P(1 + r/n)^{nt}, compounded.", [], 0),
]


@pytest.mark.parametrize(("summary", "kinds", "exit_code"), CASES)
@pytest.mark.parametrize("marked", [True, False], ids=["docbot's section", "a person's section"])
def test_verify_reports_echoed_prompts_and_placeholders(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        summary: str, kinds: list[str], exit_code: int,
                                                        marked: bool) -> None:
    if not marked:
        kinds, exit_code = [], 0  # a person's text: neither rule reads it
    (tmp_path / "bank.py").write_text(SOURCE, encoding="utf-8")
    (tmp_path / "bank.md").write_text(doc(summary, marked), encoding="utf-8")
    code = cli.main(["verify", str(tmp_path / "bank.py"), str(tmp_path / "bank.md"), "--no-examples", "--json"])
    [function] = json.loads(capsys.readouterr().out)["functions"]
    assert function["section_found"]
    fatal = [f["kind"] for f in function["findings"] if f["severity"] == "contradiction"]
    assert (fatal, code) == (kinds, exit_code)


def test_verify_reads_the_same_prompt_sentences_the_loop_uses() -> None:
    """One source: the patterns verify reads from the loop's file are the loop's own, template by template."""
    assert [p.pattern for p in docbot_prompts()] == [p.pattern for p in ECHO_SENTENCES]
    assert len(TEMPLATES) >= 12 and len(docbot_prompts()) > len(TEMPLATES)
