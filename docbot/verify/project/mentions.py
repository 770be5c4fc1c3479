"""Which package names a doc mentions, read by a cheap scan of its text: no docutils, no markdown-it
(docs/design.md#drift-gate).

The drift gate asks this of every hand-written doc on every ``check --base`` and commit, and then verifies
only the few docs whose mentions can reach the change; converting each RST doc with docutils to answer it
was most of the gate's cost (issue 32). So a doc is read here line by line: its code (fenced and indented
blocks, RST literal blocks, ``>>>`` sessions) gives import bindings, dotted names, bare calls (for a star
import) and attribute names (``ctx.ensure_object(...)`` is a mention of every package class method named
``ensure_object``); its prose gives the qualified names it marks as code (`` `pkg.f()` ``, RST roles).
The scan errs towards mentioning too much: a doc it wrongly picks is verified for nothing, one it wrongly
leaves out is a false README that passes.

``DocMentions`` depends on the doc's text alone, so it is remembered by the text's SHA-256 (``MentionCache``,
beside the scan's cache and under its trust rules: a tracked or symlinked ``.docbot`` is never read).
"""

from __future__ import annotations

import keyword
import re
from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path

from docbot.verify.project.api_index import ApiIndex, Resolution
from docbot.verify.project.content_cache import ContentCache

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_PROMPT = re.compile(r"^\s*(?:>>>|\.\.\.)(?: |$)")
_RST_CODE = re.compile(r"^\s*\.\. (?:code-block|code|sourcecode|testcode|testsetup|doctest|ipython|jupyter-execute)"
                       r"::|::\s*$")
_FROM = re.compile(r"\bfrom\s+([A-Za-z_][\w.]*)\s+import\s+(\([^)]*\)|[\w \t,*]+)")
_IMPORTED = r"[\w.]+(?:[ \t]+as[ \t]+\w+)?"
_IMPORT = re.compile(rf"(?:^|[;:])[ \t]*import[ \t]+({_IMPORTED}(?:[ \t]*,[ \t]*{_IMPORTED})*)", re.MULTILINE)
_DOTTED = re.compile(r"(?<![\w.])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)")
_CALL = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*\(")
_ATTRIBUTE = re.compile(r"\.\s*([A-Za-z_]\w*)")
_MD_SPAN = re.compile(r"(`+)(.+?)\1")
_RST_SPAN = re.compile(r"``(.+?)``|:(?:py:)?\w+:`~?([^`<]+?)(?:\s*<[^>]*>)?`")
_VERSION = "1"  # of DocMentions' fields and how they are read; raised when either changes


@dataclass(frozen=True)
class DocMentions:
    """What a doc's text names, before anything is resolved in a package."""

    imports: tuple[tuple[str, str, str], ...] = ()  # (module, name, bound as): ``from m import n as b``
    modules: tuple[tuple[str, str], ...] = ()  # (module, bound as): ``import m`` / ``import m as b``
    stars: tuple[str, ...] = ()  # the modules a ``from m import *`` reads
    dotted: tuple[str, ...] = ()  # ``a.b.c`` in code, or marked as code in prose
    calls: tuple[str, ...] = ()  # bare names called in code (``add(1)``), for a star import
    attributes: tuple[str, ...] = ()  # ``.name`` in code: an instance's method or attribute

    def to_json(self) -> dict[str, object]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, object]) -> DocMentions:
        def items(key: str) -> list[object]:
            value = data.get(key)
            return value if isinstance(value, list) else []
        return cls(tuple(tuple(str(p) for p in i) for i in items("imports") if isinstance(i, list)),  # type: ignore[misc]
                   tuple(tuple(str(p) for p in i) for i in items("modules") if isinstance(i, list)),  # type: ignore[misc]
                   *(tuple(str(i) for i in items(k)) for k in ("stars", "dotted", "calls", "attributes")))


def scan_doc(text: str, is_rst: bool) -> DocMentions:
    """The names a doc mentions: its code lines read for imports and names, its prose for code spans."""
    code, prose = _split(text.splitlines(), is_rst)
    found = _Found()
    found.code("\n".join(_PROMPT.sub("", line, count=1) for line in code))
    span = _RST_SPAN if is_rst else _MD_SPAN
    for line in prose:
        for match in span.finditer(line):
            found.code(next(g for g in match.groups()[::-1] if g), spans_only=True)
    return found.mentions()


@dataclass
class _Found:
    imports: dict[tuple[str, str, str], None] = field(default_factory=dict)
    modules: dict[tuple[str, str], None] = field(default_factory=dict)
    stars: dict[str, None] = field(default_factory=dict)
    dotted: dict[str, None] = field(default_factory=dict)
    calls: dict[str, None] = field(default_factory=dict)
    attributes: dict[str, None] = field(default_factory=dict)

    def code(self, line: str, spans_only: bool = False) -> None:
        """Code (a doc's code lines, or a code span's text): its names; a span's only as dotted names."""
        self.dotted.update(dict.fromkeys(_DOTTED.findall(line)))
        if spans_only:
            return
        for module, names in _FROM.findall(line):
            for item in names.strip("()").split(","):
                name, _, alias = " ".join(item.split()).partition(" as ")
                if name.strip() == "*":
                    self.stars[module] = None
                elif name.strip().isidentifier():
                    self.imports[(module, name.strip(), (alias or name).strip())] = None
        for group in _IMPORT.findall(line):
            for item in group.split(","):
                module, _, alias = item.strip().partition(" as ")
                self.modules[(module.strip(), alias.strip() or module.strip().partition(".")[0])] = None
        self.calls.update(dict.fromkeys(n for n in _CALL.findall(line) if not keyword.iskeyword(n)))
        self.attributes.update(dict.fromkeys(_ATTRIBUTE.findall(line)))

    def mentions(self) -> DocMentions:
        return DocMentions(tuple(self.imports), tuple(self.modules), tuple(self.stars), tuple(self.dotted),
                           tuple(self.calls), tuple(self.attributes))


def _split(lines: list[str], is_rst: bool) -> tuple[list[str], list[str]]:
    """(code lines, prose lines): fenced blocks, ``>>>`` lines and indented blocks are code (in RST, the
    indented body after ``::`` or a code directive)."""
    code: list[str] = []
    prose: list[str] = []
    fence = ""
    literal_from: int | None = None  # RST: the indent a literal block's body must exceed
    for line in lines:
        indent = len(line) - len(line.lstrip())
        opened = _FENCE.match(line)
        if fence:
            closes = opened is not None and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence)
            fence = "" if closes and not line.strip().strip(fence[0]) else fence
            if fence:
                code.append(line)
        elif opened:
            fence = opened.group(1)
        elif _PROMPT.match(line) or (not is_rst and indent >= 4 and line.strip()):
            code.append(line)
        elif is_rst and literal_from is not None and (not line.strip() or indent > literal_from):
            code.append(line)
        else:
            literal_from = None
            prose.append(line)
        if is_rst and not fence and _RST_CODE.search(line):
            literal_from = indent
    return code, prose


class PackageNames:
    """A package's names as the mentions resolve them: its index, and its class members by name."""

    def __init__(self, package: str, index: ApiIndex) -> None:
        self.package = package
        self.index = index

    @cached_property
    def members(self) -> dict[str, tuple[str, ...]]:
        """attribute name -> the package's class members of that name (``ensure_object`` ->
        ``pkg.Context.ensure_object``)."""
        members: dict[str, list[str]] = {}
        classes = {f"{scope}.{name}" for scope, found in self.index.scopes.items()
                   for name, what in found.names.items() if what == "class"}
        for cls in sorted(classes & set(self.index.scopes)):
            for name in self.index.scopes[cls].names:
                members.setdefault(name, []).append(f"{cls}.{name}")
        return {name: tuple(found) for name, found in members.items()}

    def uses(self, mentions: DocMentions) -> set[str]:
        """The package names a doc uses, each where it is defined (``pkg.core.f``); a name the package does
        not have (a deleted function) stays as the doc writes it, so a change that removed it still reaches it."""
        package, index = self.package, self.index
        aliases = {package: package}
        found: set[str] = set()
        for module, name, bound in mentions.imports:
            if _ours(module, package):
                aliases[bound] = f"{module}.{name}"
                found.add(f"{module}.{name}")
        for module, bound in mentions.modules:
            if _ours(module, package):
                aliases[bound] = module if bound != module.partition(".")[0] else bound
                found.add(module)
        for dotted in mentions.dotted:
            head, _, rest = dotted.partition(".")
            if head in aliases:
                found.add(_longest_found(f"{aliases[head]}.{rest}", index))
        stars = [m for m in mentions.stars if _ours(m, package)]
        found |= {f"{m}.{name}" for m in stars for name in mentions.calls
                  if index.resolve(f"{m}.{name}") is Resolution.FOUND}
        if found or stars:  # a doc that uses the package: its instances' methods are the package's too
            found |= {member for name in mentions.attributes for member in self.members.get(name, ())}
        return {index.canonical(name) for name in found}


def _ours(module: str, package: str) -> bool:
    return module == package or module.startswith(f"{package}.")


def _longest_found(dotted: str, index: ApiIndex) -> str:
    """``pkg.f.__doc__`` -> ``pkg.f``: the longest prefix the package has, else the name as written."""
    parts = dotted.split(".")
    for end in range(len(parts), 1, -1):
        if index.resolve(".".join(parts[:end])) is Resolution.FOUND:
            return ".".join(parts[:end])
    return dotted


class MentionCache(ContentCache):
    """``DocMentions`` by the doc text's SHA-256, in ``.docbot/cache/mentions.json``."""

    def __init__(self, path: Path | None) -> None:
        super().__init__(path, _VERSION)

    def mentions(self, text: str, is_rst: bool) -> DocMentions:
        key = self.key(text, str(int(is_rst)))
        entry = self.get(key)
        if isinstance(entry, dict):
            return DocMentions.from_json(entry)
        found = scan_doc(text, is_rst)
        self.put(key, found.to_json())
        return found
