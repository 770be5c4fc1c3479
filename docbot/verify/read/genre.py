"""What kind of text a doc is, so that a finding is read the way its reader reads the doc (docs/design.md#genre).

A history page (a changelog, release notes, HISTORY, NEWS, an upgrading or migration guide) tells what earlier
versions had: a name it mentions is not claimed to exist today, and its examples are not presented as working code
of the current version. A page is history by its file name or folder (``CHANGELOG.md``, ``docs/history.rst``,
``docs/v2-migration-guide.rst``, ``docs/whatsnew/1.2.rst``), a stretch of a page by its heading (``## Changelog``,
``Release notes``, ``1.3.1 (2024-02-26)``, ``[Unreleased]``), to the next heading of the same or a higher level.
A guide to migrate from *another* library (``Migrating from requests``) is today's API, not history.

Elsewhere, a sentence that says a name was removed or renamed ("`pkg.old` was removed in 2.0; use `pkg.new`
instead") names the old one as history, while the one it points the reader to is claimed to exist. A *deprecated*
name is not gone: a sentence saying it is deprecated still says it exists.

A design page (an analysis, a proposal, an RFC, a roadmap: ``docs/dev/analysis/features/font-color.rst``,
``docs/roadmap.rst``) weighs what an API could be, often quoting another product's object model: what it names
or shows is not claimed of today's code either, so it is read the way history is.

A stretch that tells what Python 2 does (under a heading that names Python 2 alone, "Obsolete Python 2 builtins";
a block whose introducing sentence does, "(The output showing is from Py2)::") is read for Python 2: what it
states of names and outputs holds there, not on this Python. "Python 2 and 3", "2.x and 3.x", or a sentence that
also names Python 3 is held to Python 3.

``docbot.verify.checks.genre.as_genre`` reads the findings that way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from docbot.verify.read.markdown import code_blocks, code_line_flags, headings

_HISTORY_WORDS = {"changelog", "changelogs", "history", "news", "whatsnew", "releasenotes"}
_HISTORY_PAIRS = {("release", "notes"), ("release", "history"), ("whats", "new"), ("change", "log")}
_ALONE_WORDS = {"changes", "releases"}  # history only as the whole name (``CHANGES.rst``, ``changes-2.0.md``)
_PLAIN_WORDS = {"breaking", "api", "notes", "log", "file", "all"}
# a design page's file or folder: python-docx 1.2.0's docs/dev/analysis/, future 1.0.0's docs/roadmap.rst
# ("rfcs/0001-streams.md"; not joserfc 1.8.0's docs/rfc/7515.rst, how it implements RFC 7515 today)
_DESIGN_WORDS = {"analysis", "proposal", "proposals", "rfcs", "roadmap", "enhancements", "adr", "adrs"}
# a design page's title; not "refactoring(s)", which names what a refactoring tool does (rope's docs), nor "RFC",
# which names the standard a library implements (joserfc 1.8.0's README, "JOSE RFC")
_DESIGN_TITLE_WORDS = {"refactor", "proposal", "proposals", "roadmap"}
_MOVE_WORDS = {"upgrading", "upgrade", "migration", "migrating", "migrate"}
# after "from"/"to" in a guide's name: a version, not another library (``migrating from 1.x``, ``to v2``)
_VERSION_WORD = re.compile(r"^(?:v?\d[\w.]*|version|versions|older|earlier|newer|previous|latest|new|old|the|x)$")

_HISTORY_HEADING = re.compile(
    r"^(?:change ?log|changes|change history|history|release history|release notes?|releases|news|"
    r"what'?s new\b.*|version history|(?:backwards?[- ])?incompatible changes|breaking changes|"
    r"(?:deprecations and )?removals(?:\s+(?:for|in)\s+(?:version\s+)?v?\d[\w.]*)?|deprecation\s+time-?line|"
    r"unreleased|(?:upgrad(?:e|ing)|migrat(?:e|ion|ing))\b.*)$",
    re.IGNORECASE)
_DATE = r"(?:\d{4}-\d{2}-\d{2}|\d{1,2}\s+\w+\s+\d{4}|\w+\s+\d{1,2},?\s+\d{4}|unreleased|tbd|tba)"
_RELEASE_HEADING = re.compile(
    rf"^\[?(?:(?:version|release)\s+)?v?\d+(?:\.\d+)+(?:[.-]?(?:a|b|rc|post|dev)\d*)?\]?"
    rf"(?:\s*[(\[:–—-]\s*.*)?$|^[\w .-]*?\bv?\d+(?:\.\d+)+\w*\s*[(\[:–—-]?\s*{_DATE}\)?\]?\s*$",
    re.IGNORECASE)

# "deprecated" is not among them: a deprecated name still exists, and a sentence saying so claims it does (jeepney
# 0.9.0's docs/api/index.rst says "there is also a deprecated ``jeepney.io.tornado``", which 0.8 removed: stale)
_REMOVED = re.compile(
    r"\b(?:removed|renamed|deleted|no longer (?:exists?|available|exported|provided|part of|present)|"
    r"(?:was|were|has been|have been|is|are) (?:dropped|gone|moved|replaced|retired|eliminated))\b", re.IGNORECASE)
# in a removal sentence, what follows these is the name the reader should use now; what follows "instead of" is not
_TODAY = re.compile(r"\b(?:renamed to|replaced (?:by|with)|in favou?r of|use|moved to|superseded by|now (?:lives|is)"
                    r" (?:in|at)|alias(?:ed)? (?:of|for|to)|see|call)\b|(?P<old>\binstead of\b)", re.IGNORECASE)
# Python 2 named alone; "Python 2 and 3", "2.x and 3.x" and any Python 3 name hold the text to Python 3 too
_PY2 = re.compile(r"\bPy(?:thon)?\s?2(?:\.\d+|\.x)?\b", re.IGNORECASE)
_PY3 = re.compile(r"\bPy(?:thon)?\s?3|\b2(?:\.\d+|\.x)?\s*(?:and|or|/|,|-)\s*(?:Py(?:thon)?\s?)?3\b", re.IGNORECASE)
_NOT_PROSE = re.compile(r"^\s*(?:```|~~~|#|>>>|[=\-~^*]{3,}\s*$)")
_SPAN = re.compile(r"`+~?([A-Za-z_][\w.]*)(?:\(\))?`+")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[A-Z`*])")


@dataclass(frozen=True)
class Genre:
    """How to read a doc: history by its name (``whole``) or under a history heading (``history``, spans of
    0-based Markdown lines), and the names removal prose says are gone (by the lines of their paragraph)."""

    whole: str = ""  # why the whole doc is history; "" when it is not
    history: tuple[tuple[int, int, str], ...] = ()  # (first line, end line, the heading)
    gone: tuple[tuple[int, int, frozenset[str]], ...] = ()  # (first line, end line, names said to be gone)
    python2: tuple[tuple[int, int, str], ...] = ()  # (first line, end line, why it tells what Python 2 does)

    def history_at(self, line: int | None) -> str:
        """Why ``line`` is history: the page's name or a heading's; "" when it is today's text."""
        if self.whole:
            return self.whole
        return next((f"under the heading {heading!r}" for start, end, heading in self.history
                     if line is not None and start <= line < end), "")

    def python2_at(self, line: int | None) -> str:
        """Why ``line`` tells what Python 2 does (a heading's or an introducing sentence's words); "" otherwise."""
        return next((why for start, end, why in self.python2 if line is not None and start <= line < end), "")

    def names_what_was(self, line: int | None, dotted: str) -> bool:
        """Whether ``dotted`` named at ``line`` is history's name: on a history page or stretch, or said gone."""
        return bool(self.history_at(line)) or self.said_gone(line, dotted)

    def said_gone(self, line: int | None, dotted: str) -> bool:
        """Whether the paragraph at ``line`` says ``dotted`` was removed or renamed."""
        return line is not None and any(start <= line < end and _names(dotted, names)
                                        for start, end, names in self.gone)


def read_genre(path: str, markdown: str, package: str = "") -> Genre:
    """The genre of the doc at ``path`` (repo-relative) whose text (as Markdown) is ``markdown``."""
    whole = HISTORY_PAGE if is_history_path(path, package) else DESIGN_PAGE if is_design_path(path) else \
        DESIGN_TITLE if is_design_title(markdown) else ""
    return Genre(whole, () if whole else history_spans(markdown, package), gone_names(markdown),
                 python2_spans(markdown))


HISTORY_PAGE = "a history page by its name"
DESIGN_PAGE = "a design page by its name"
DESIGN_TITLE = "a design page by its title"


def is_design_path(path: str) -> bool:
    """An analysis, a proposal, an RFC or a roadmap, by a folder's or the file's name (``docs/dev/analysis/``,
    ``docs/roadmap.rst``, ``rfcs/0001-x.md``); not ``docs/design.md``, which tells how today's code works."""
    words = {w for part in path.lower().replace("\\", "/").split("/") for w in re.split(r"[^a-z0-9]+", part) if w}
    return bool(words & _DESIGN_WORDS)


def is_design_title(markdown: str) -> bool:
    """A page whose title (its first heading) names a refactor, a proposal or a roadmap: celery 5.7.0's
    docs/internals/app-overview.rst, '"The Big Instance" Refactor', shows the API a branch was to have."""
    marks = headings(markdown)
    words = set(re.split(r"[^a-z0-9]+", _plain(marks[0].text).lower())) if marks else set()
    return bool(words & _DESIGN_TITLE_WORDS)


def is_history_path(path: str, package: str = "") -> bool:
    """A changelog, release notes, HISTORY, NEWS, what's new, an upgrading or migration guide, by its file name or
    a folder of them (``docs/changelog/``, ``docs/whatsnew/``); not ``release-process.rst``."""
    parts = [p.lower() for p in path.replace("\\", "/").split("/")]
    folders, stem = parts[:-1], parts[-1].rsplit(".", 1)[0] if "." in parts[-1] else parts[-1]
    return any(_history_words(folder, package) for folder in folders) or _history_words(stem, package)


def _history_words(name: str, package: str) -> bool:
    words = [w for w in re.split(r"[^a-z0-9]+", name.replace("'", "")) if w]
    if set(words) & _MOVE_WORDS:
        return not _names_another(words, package)
    alone = bool(set(words) & _ALONE_WORDS) and all(
        w in _ALONE_WORDS | _PLAIN_WORDS or _VERSION_WORD.match(w) for w in words)
    return alone or bool(set(words) & _HISTORY_WORDS or set(zip(words, words[1:])) & _HISTORY_PAIRS)


def _names_another(words: Sequence[str], package: str) -> bool:
    """Whether a guide's name says it moves from or to something other than a version: another library."""
    for word, following in zip(words, words[1:]):
        if word in ("from", "to") and not _VERSION_WORD.match(following) and following != package.lower():
            return True
    return False


def history_spans(markdown: str, package: str = "") -> tuple[tuple[int, int, str], ...]:
    """(first line, end line, heading) of each stretch under a history heading, to the next heading of the same or
    a higher level; nested history headings are inside their parent's stretch."""
    marks = headings(markdown)
    total = len(markdown.splitlines())
    spans: list[tuple[int, int, str]] = []
    for index, heading in enumerate(marks):
        if spans and heading.line < spans[-1][1]:
            continue  # inside a history stretch already
        if is_history_heading(heading.text, package):
            end = next((h.line for h in marks[index + 1:] if h.level <= heading.level), total)
            spans.append((heading.line, end, _plain(heading.text)))
    return tuple(spans)


def is_history_heading(text: str, package: str = "") -> bool:
    """``Changelog``, ``Release notes``, ``What's new in 2.0``, ``Upgrading to 3.0``, ``1.3.1 (2024-02-26)``,
    ``[Unreleased]``; not ``Migrating from requests`` (another library: today's API)."""
    plain = re.sub(r"^\d+(?:\.\d+)*\.\s+", "", _plain(text))  # "2. Changelog"; not "2.0.1"
    if package and plain.lower().startswith(f"{package.lower()} "):
        plain = plain[len(package) + 1:]  # "Celery Deprecation Time-line"
    if _RELEASE_HEADING.match(plain):
        return True
    if not _HISTORY_HEADING.match(plain.strip("[]")):
        return False
    words = [w for w in re.split(r"[^a-z0-9.]+", plain.lower().replace("'", "")) if w]
    return not (set(words) & _MOVE_WORDS) or not _names_another(words, package)


def python2_spans(markdown: str) -> tuple[tuple[int, int, str], ...]:
    """What tells Python 2's behaviour: the stretch under a heading naming Python 2 alone (to the next heading of
    its level), and each block whose introducing sentence names it alone (future 1.0.0's docs/isinstance.rst:
    "(The output showing is from Py2)::" above ``type(a)`` shown as ``future.types.newint.newint``)."""
    marks = headings(markdown)
    lines = markdown.splitlines()
    spans = [(mark.line, next((h.line for h in marks[index + 1:] if h.level <= mark.level), len(lines)),
              f"under the heading {_plain(mark.text)!r}")
             for index, mark in enumerate(marks) if python2_alone(mark.text)]
    said: dict[int, str] = {}  # each block's end line -> the sentence that introduces it
    for block in code_blocks(markdown):
        begin, sentence = _introducing(lines, block.start)
        # "then the fifth test fails too::" goes on with the sentence the block above it cut ("And if this import
        # is in effect on Python 2::", future's isinstance.rst): it is introduced by both
        above = begin - 1
        while above > 0 and not lines[above].strip():
            above -= 1
        if sentence[:1].islower() and above in said:
            sentence = f"{said[above]} {sentence}"
        said[block.end] = sentence
        if python2_alone(sentence):
            spans.append((block.start, block.end + 1, f"introduced by {sentence!r}"))
    return tuple(spans)


def python2_alone(text: str) -> bool:
    """Whether ``text`` names Python 2 and no Python 3 ("On Py2"; not "Python 2.x and 3.x")."""
    return _PY2.search(text) is not None and _PY3.search(text) is None


def _introducing(lines: Sequence[str], start: int) -> tuple[int, str]:
    """The first line of the prose paragraph right above line ``start`` and its last sentence ("" when a block or a
    heading is right above). A sentence is split off only before a capital, so one that opens in lower case opens
    its paragraph."""
    end = start
    while end > 0 and not lines[end - 1].strip():
        end -= 1
    begin = end
    while begin > 0 and lines[begin - 1].strip() and not _NOT_PROSE.match(lines[begin - 1]):
        begin -= 1
    paragraph = " ".join(line.strip() for line in lines[begin:end])
    return begin, _SENTENCE_END.split(paragraph)[-1] if paragraph else ""


def _plain(text: str) -> str:
    return re.sub(r"[`*_]", "", text).strip().strip("#").strip()


def gone_names(markdown: str) -> tuple[tuple[int, int, frozenset[str]], ...]:
    """For each prose paragraph with a removal sentence: its lines and the names it says are gone, with the block
    it introduces (it ends with a colon: celery 5.7.0's "The ``celery.task`` module is no longer available. Use
    the methods on the app instance, not the module based API:" above ``from celery.task import Task  # << OLD``)."""
    lines = markdown.splitlines()
    flags = code_line_flags(markdown)
    found: list[tuple[int, int, frozenset[str]]] = []
    start = None
    for index in range(len(lines) + 1):
        prose = index < len(lines) and not flags[index] and bool(lines[index].strip())
        if prose and start is None:
            start = index
        elif not prose and start is not None:
            names = removed_in(" ".join(lines[start:index]))
            if names:
                found.append((start, _introduced_end(lines, flags, index), names))
            start = None
    return tuple(found)


def _introduced_end(lines: Sequence[str], flags: Sequence[bool], end: int) -> int:
    """The end of the block a paragraph ending at ``end`` introduces (its last line ends with a colon); else
    ``end``."""
    if not lines[end - 1].rstrip().endswith(":"):
        return end
    after = end
    while after < len(lines) and not lines[after].strip():
        after += 1
    while after < len(lines) and flags[after]:
        after += 1
    return after


def removed_in(paragraph: str) -> frozenset[str]:
    """The code-marked names a paragraph's removal sentences say are gone: "`a` was renamed to `b`" -> {a}; "use
    `b` instead of `a`, which was removed" -> {a}."""
    gone: set[str] = set()
    for sentence in _SENTENCE_END.split(paragraph):
        if not _REMOVED.search(sentence):
            continue
        cues = [(m.start(), m.group("old") is None) for m in _TODAY.finditer(sentence)]
        for span in _SPAN.finditer(sentence):
            today = next((is_today for at, is_today in reversed(cues) if at < span.start()), False)
            if not today:
                gone.add(span.group(1))
    return frozenset(gone)


def _names(dotted: str, names: frozenset[str]) -> bool:
    """Whether ``dotted`` is one of ``names``, or inside one (what a removed module held is gone with it)."""
    return any(dotted == name or dotted.endswith(f".{name}") or dotted.startswith(f"{name}.") for name in names)
