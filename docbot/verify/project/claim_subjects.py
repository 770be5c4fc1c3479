"""Project mode's subjects for the claim reader (docs/design.md#claims): which of the package's functions a name a
doc writes is, read from the package's text (nothing imported).

A name the doc imports or qualifies resolves through the API index (``pkg.f``, ``p.Client`` after ``import pkg as
p``, ``f`` after ``from pkg import f``), and through the package's star imports where the index cannot see
(``from ._api import *``: ``httpx.get`` is ``httpx._api.get`` when only that star-imported module has a public
``get``); a bare name resolves when only one public function (or class) of the package has it. Keys are
``module:qualname``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from functools import cached_property

from docbot.facts.module import module_tree
from docbot.sandbox.step import Step
from docbot.verify.checks.claim_subjects import bare, every_function
from docbot.verify.checks.class_bases import inherited, through_bases
from docbot.verify.checks.claims import Code
from docbot.verify.checks.kwargs_reach import carried_keywords
from docbot.verify.checks.reach import CodeBase
from docbot.verify.project.api_index import ApiIndex, Resolution
from docbot.verify.project.package import Package
from docbot.verify.read.references import code_references

__all__ = ["PackageSubjects", "function_of"]


class PackageSubjects:
    """Project mode's subjects: a name the doc imports or qualifies (``pkg.f``, ``p.Client`` after ``import pkg
    as p``, ``f`` after ``from pkg import f``), else a name only one public function (or class) of the package
    has. Keys are ``module:qualname``."""

    def __init__(self, package: Package, index: ApiIndex, steps: Sequence[Step], current: str = "") -> None:
        self.package, self.index = package, index
        self.current = current  # the module the page's names are relative to (``.. currentmodule:: pkg``)
        self._every: dict[str, dict[str, str]] = {}
        self.aliases: dict[str, str] = {package.name: package.name}
        for step in steps:
            code_references(step.code, step.line, package.name, self.aliases)

    @cached_property
    def leaves(self) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for module in self.package.modules:
            for qualname in self.package.functions(module):
                # `f`, `Class` (its __init__), `Class.method`; a bare method name needs its class
                found.setdefault(qualname.removesuffix(".__init__"), []).append(f"{module}:{qualname}")
        return found

    @cached_property
    def base(self) -> CodeBase:
        return CodeBase(tuple((m, self.package.source(m)) for m in sorted(self.package.modules)))

    def functions(self, module: str) -> dict[str, str]:
        """Every function and method of the module a claim may be about (docbot's public ones first)."""
        if module not in self._every:
            self._every[module] = {**every_function(self.package.source(module)), **self.package.functions(module)}
        return self._every[module]

    def subject(self, written: str) -> str | None:
        name = bare(written)
        head, _, rest = name.partition(".")
        if head in self.aliases and (rest or self.aliases[head] != self.package.name):
            return self._dotted(f"{self.aliases[head]}.{rest}" if rest else self.aliases[head])
        if head == self.package.name:
            return None
        keys = set(self.leaves.get(name, []))
        if len(keys) == 1:
            return keys.pop()
        if "." in name and not keys and self.current and (found_there := self._dotted(f"{self.current}.{name}")):
            return found_there  # `response.HTTPResponse.read` under `.. currentmodule:: urllib3`
        if "." in name and not keys:  # `Sub.method` inherited, `Str.__init__` through `Str = String`
            found = {k for m in self.package.modules for k in [self._in_module(m, name)] if k}
            return found.pop() if len(found) == 1 else None
        return None

    def _dotted(self, dotted: str) -> str | None:
        """A qualified name: its longest prefix the index knows, made canonical (where it is defined), then the
        rest of it in that module; else what the package's star imports give."""
        parts = dotted.split(".")
        for cut in range(len(parts), 0, -1):
            prefix = ".".join(parts[:cut])
            canonical = self.index.canonical(prefix) if self.index.resolve(prefix) is Resolution.FOUND else prefix
            if prefix not in self.package.modules and canonical == prefix and cut > 1:
                continue  # `executing.Source.for_frame`: `executing.Source` is where it moves
            whole = canonical.split(".") + parts[cut:]
            for split in range(len(whole) - 1, 0, -1):
                module = ".".join(whole[:split])
                if module in self.package.modules:
                    return self._in_module(module, ".".join(whole[split:])) or self._starred(dotted)
            break
        return self._starred(dotted)

    def _in_module(self, module: str, qualname: str) -> str | None:
        functions = self.functions(module)
        for candidate in (qualname, f"{qualname}.__init__"):
            found = candidate if candidate in functions else through_bases(self.package.source(module), candidate,
                                                                            functions)
            if found:
                return f"{module}:{found}"
        for candidate in (qualname, f"{qualname}.__init__"):  # a base defined in another module of the package
            found = inherited(module, candidate, self.package.modules, self.package.source, self.functions)
            if found:
                return found
        return None

    def missing(self, written: str) -> bool:
        return False  # project mode names what the package lacks through its references (docbot.verify.project.docs)

    def code_of(self, subject: str) -> Code | None:
        module, _, qualname = subject.partition(":")
        source = self.functions(module).get(qualname) if module in self.package.modules else None
        if source is None:
            return None
        module_source = self.package.source(module)
        return Code(module, qualname, source, module_source, self.base, self.package.sys_path,
                    carried_keywords(module_source, source))

    def _starred(self, dotted: str) -> str | None:
        """``pkg.name`` that only one module ``pkg`` star-imports defines (as a public function or class)."""
        parts = dotted.split(".")
        cut = next((i for i in range(len(parts) - 1, 0, -1) if ".".join(parts[:i]) in self.package.modules), 0)
        module, name = ".".join(parts[:cut]), ".".join(parts[cut:])
        if not cut:
            return None
        found = {key for source in _star_sources(self.package.source(module), module, module == self.package.name
                                                  or self.package.modules[module].name == "__init__.py")
                 if source in self.package.modules and _exported(self.package.source(source), name.split(".")[0])
                 for key in [self._in_module(source, name)] if key}
        return found.pop() if len(found) == 1 else None


def _star_sources(source: str, module: str, is_package: bool) -> list[str]:
    """The modules ``source`` star-imports (``from .x import *``), as dotted names."""
    tree = module_tree(source)
    found = []
    for node in tree.body if tree else []:
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            parts = module.split(".")
            base = parts[: len(parts) - node.level + (1 if is_package else 0)] if node.level else []
            found.append(".".join([*base, *([node.module] if node.module else [])]))
    return found


def _exported(source: str, name: str) -> bool:
    """Whether a star import of the module gives ``name``: in its ``__all__`` when it has one, else public."""
    listed = re.search(r"^__all__\s*=\s*[\[(]([^\])]*)[\])]", source, re.MULTILINE)
    if listed:
        return re.search(rf"['\"]{re.escape(name)}['\"]", listed.group(1)) is not None
    return not name.startswith("_")


def function_of(dotted: str, package: Package) -> tuple[str, str] | None:
    """``pkg.core.f`` -> ("pkg.core", "f"); ``pkg.core.Class.m`` -> ("pkg.core", "Class.m"); else None."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:cut])
        if module in package.modules:
            qualname = ".".join(parts[cut:])
            return (module, qualname) if qualname in package.functions(module) else None
    return None
