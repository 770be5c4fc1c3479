"""What docbot publishes from the Action, made safe: secrets redacted, model text kept from acting as
workflow commands.

The job log, the step summary, the PR comment, the JSON report and the step outputs all carry text
that came from models and from the repository (feedback, findings, example output). Two rules apply to
every one of them (docs/design.md#trust):

- **Redaction.** Known secret shapes (GitHub's token prefixes, ``github_pat_``, ``Bearer ...``) and the
  token's own value are replaced by ``***`` wherever they appear: a finding that read a token from the
  sandbox must not carry it into a comment. The value is also found base64-encoded (at any of the three
  alignments inside longer base64 text, standard or URL-safe alphabet), hex-encoded, percent-encoded,
  split across lines (a newline, an escaped ``\n``, ``%0A`` or ``<br>`` between any two of its
  characters) and with ``_`` written ``&#95;`` (the comment's Markdown escape) or ``%5F``; a token's shape
  (``ghp_…``) is found split across lines too. Redaction runs last, on
  the final text of every channel, so no later escape can hide a token from it.
- **No workflow commands from model text.** The runner treats any log line whose trimmed text starts
  with ``::`` as a command (``::add-mask::``, ``::stop-commands::``, ``::error ...``). Text that is not
  ours is escaped by GitHub's rules (``%``, ``\\r``, ``\\n``) when it goes inside one of our commands,
  and a line of it that would start a command is prefixed so that it is shown, not run.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TextIO

MASK = "***"
# GitHub's token formats: ghp_ (personal), gho_ (OAuth), ghu_ (user-to-server), ghs_ (server-to-server,
# the workflow's GITHUB_TOKEN), ghr_ (refresh); fine-grained personal tokens start with github_pat_.
# A shape starts at a word boundary, or right after a workflow-command escape (``%0A``, ``%3A``...):
# text escaped before it is redacted puts word characters in front of the token.
# A JSON string escape (``\n``, ``\u00a0``) puts one too: the run report keeps text JSON-encoded.
_START = r"(?:(?<![A-Za-z0-9])|(?<=%[0-9A-Fa-f]{2})|(?<=\\[nrtbf])|(?<=\\u[0-9A-Fa-f]{4}))"
_U = "(?:_|&#95;|%5[Ff])"  # an underscore, the comment's Markdown escape of it, or it percent-encoded alone
# A newline (raw, JSON-escaped, workflow-escaped or an HTML break) with the indentation or quote marks around it.
_NEWLINE = r"[ \t]*(?:\r?\n|(?:\\r)?\\n|%0D%0A|%0A|<br\s*/?>)[ \t>|]*"
# A token shape's tail, each character maybe followed by a newline (a wrapped token: issue 30), as long as
# GitHub's longest token and no longer, so a wrapped shape masks little beyond itself.
_TAIL = rf"(?:(?:[A-Za-z0-9]|{_U})(?:{_NEWLINE})?){{7,90}}(?:[A-Za-z0-9]|{_U})"
_W = f"(?:{_NEWLINE})?"  # a newline that may wrap a token's prefix too
SECRET_SHAPES = re.compile(rf"{_START}g{_W}h{_W}[pousr]{_W}{_U}{_W}{_TAIL}|"
                           rf"{_START}{_W.join('github')}{_W}{_U}{_W}p{_W}a{_W}t{_W}{_U}{_W}{_TAIL}|"
                           r"(?<=Bearer )[A-Za-z0-9._~+/=-]{8,}", re.IGNORECASE)
# What may stand between two characters of a secret that was wrapped: a newline, or the spaces a table cell
# turns a newline into.
_BREAK = rf"(?:{_NEWLINE}|[ \t]+)?"  # (a table cell: a space)
_URLSAFE = str.maketrans("+/", "-_")
NEUTRAL_PREFIX = "| "  # shown in front of a line of model text that would otherwise be a command


def escape_data(text: str) -> str:
    """A workflow command's message, escaped by GitHub's rules so that it stays one command (and
    without the old ``##[command]`` syntax, which the runner looks for anywhere in a line)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A").replace("##[", "# #[")


def neutralize(line: str) -> str:
    """One log line that is not docbot's own command: never a command (``::x`` or the old ``##[x]``)."""
    # The runner also ends a line at a lone \r, so each piece between them is judged as a line.
    return "\r".join(NEUTRAL_PREFIX + part if part.lstrip().startswith("::") else part
                     for part in line.replace("##[", "# #[").split("\r"))


@dataclass(frozen=True)
class Redactor:
    """Replaces secrets by ``***``: the known shapes, and the given values (the token's own)."""

    secrets: tuple[str, ...] = ()

    @classmethod
    def of(cls, values: Iterable[str]) -> Redactor:
        # Longest first, so a secret that contains another is masked whole. Very short values are not
        # secrets worth masking, and masking them would mangle ordinary words.
        return cls(tuple(sorted({v for v in values if len(v) >= 6}, key=len, reverse=True)))

    def __call__(self, text: str) -> str:
        for pattern in _patterns(self.secrets):
            text = pattern.sub(MASK, text)
        return SECRET_SHAPES.sub(MASK, text)


def encoded_forms(secret: str) -> list[str]:
    """``secret`` as it may be published: itself, base64 (each alignment's stable core, both alphabets),
    hex (both cases) and percent-encoded (every byte, both cases); the longest first."""
    data = secret.encode("utf-8")
    forms = {secret, data.hex(), data.hex().upper(), "".join(f"%{b:02X}" for b in data),
             "".join(f"%{b:02x}" for b in data)}
    for shift in range(3):  # inside longer text the secret starts at byte offset 0, 1 or 2 of a group
        padded = b"\0" * shift + data
        whole = base64.b64encode(padded[:len(padded) // 3 * 3]).decode("ascii")
        core = whole[4 if shift else 0:]  # the first group also encodes the bytes before the secret
        if len(core) >= 8:
            forms |= {core, core.translate(_URLSAFE)}
    return sorted(forms, key=len, reverse=True)


_COMPILED: dict[tuple[str, ...], list[re.Pattern[str]]] = {}


def _patterns(secrets: tuple[str, ...]) -> list[re.Pattern[str]]:
    """One pattern per form of each secret, matching it whole or broken across lines."""
    if secrets not in _COMPILED:
        _COMPILED[secrets] = [re.compile(_BREAK.join(_U if c == "_" else re.escape(c) for c in form))
                              for secret in secrets for form in encoded_forms(secret)]
    return _COMPILED[secrets]


class SafeLog:
    """A text stream for the job log: every write is redacted; with ``untrusted``, each line is also
    neutralized. Lines are judged whole (a write split mid-line cannot sneak a command through), so
    only complete lines are passed on."""

    def __init__(self, stream: TextIO, redact: Redactor, *, untrusted: bool = False) -> None:
        self._stream, self._redact, self._untrusted = stream, redact, untrusted
        self._partial = ""

    def write(self, text: str) -> int:
        lines = (self._partial + text).split("\n")
        self._partial = lines.pop()
        for line in lines:
            self._stream.write(self._clean(line) + "\n")
        return len(text)

    def flush(self) -> None:
        # An unfinished line stays held: written now, its end could still make its start a command.
        self._stream.flush()

    def isatty(self) -> bool:
        return False

    def _clean(self, line: str) -> str:
        line = self._redact(line)
        return neutralize(line) if self._untrusted else line
