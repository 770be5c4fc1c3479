"""Pure text hygiene for model output: what the models add around the Markdown, removed.

The rules are those of docs/design.md#cleanup. The score arithmetic and the feedback
guard live in ``docbot.loop.scoring``.
"""

from __future__ import annotations

import re

from docbot.docmodel import DocModel, strip_think

_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
_STRUCTURAL = re.compile(r"^\s*(#{1,6}\s|\||[-*+]\s|>|```|~~~|\d+[.)]\s)")
_SIGN_OFF = re.compile(
    r"^(note:|notes:|i hope|hope this|let me know|feel free|if you (have|need|want)|please let|"
    r"thanks|thank you|happy coding|cheers|best regards|is there anything|"
    r"no (errors|contradictions|issues|changes)\b|"
    r"(this|the) (documentation|doc|revised documentation|final documentation) (is|has been|now|should)|"
    r"i (have|'ve) |i made|i removed|i updated|i fixed|here is|here's|overall,|in summary|"
    r"(final )?(verdict|score)\s*:|all (checks|statements) )", re.IGNORECASE)
_EMPHASIS = re.compile(r"^[*_\s]+|[*_]+(?=:)")
_OUTER_FENCE = re.compile(r"^\s*```(?:markdown|md)?\s*\n(.*)\n```\s*$", re.DOTALL | re.IGNORECASE)


def _is_sign_off(line: str) -> bool:
    if _STRUCTURAL.match(line):
        return False  # never remove a heading, table row, list item, quote, fence or numbered line
    return bool(_SIGN_OFF.match(_EMPHASIS.sub("", line.strip())))


def drop_preamble(lines: list[str], limit: int = 200) -> list[str]:
    """Drop a short conversational lead-in before the first heading ("Sure! Here is ...")."""
    for index, line in enumerate(lines):
        if _HEADING.match(line):
            before = "\n".join(lines[:index]).strip()
            return lines[index:] if before and len(before) < limit else lines
    return lines


def drop_sign_offs(lines: list[str]) -> list[str]:
    """Sweep bottom-up: blank lines and sign-offs go, several in one pass, until real content."""
    end = len(lines)
    while end > 0 and (not lines[end - 1].strip() or _is_sign_off(lines[end - 1])):
        end -= 1
    return lines[:end]


def clean_markdown(text: str) -> str:
    """Model output -> the Markdown docbot writes. Idempotent."""
    text = strip_think(text).replace("\r\n", "\n")
    fenced = _OUTER_FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    lines = [line.rstrip() for line in text.split("\n")]
    lines = drop_sign_offs(drop_preamble(lines))
    while lines and not lines[0].strip():
        lines.pop(0)
    return "\n".join(lines) + "\n" if lines else ""


def tidy_model(model: DocModel) -> DocModel:
    """The chatter a writer adds at the end of its description ("I hope this helps!") taken out.

    Only the description: a notes field that starts with "Note:" is the notes, not a sign-off.
    """
    description = clean_markdown(model.description).strip()
    return model if description == model.description else model.model_copy(update={"description": description})
