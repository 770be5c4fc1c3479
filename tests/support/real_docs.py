"""TEST SUPPORT: doc models written from the real documentation of long stdlib functions, as a writer would.

Each answer documents every parameter with the words CPython's own docstrings give it (``subprocess.Popen``'s
"Arguments:" list, each ``json.dumps`` paragraph that names a parameter, ``argparse.Action``'s "Keyword
Arguments:" for what ``add_argument``'s ``**kwargs`` carries; ``pipesize``, which Popen's docstring leaves out,
from the library reference). A text longer than the schema lets a grammar-bound
writer write is cut at its last sentence within the bound, as that writer would have had to; ``CUT`` counts them.
"""

from __future__ import annotations

import argparse
import inspect
import json
import re
import subprocess
from dataclasses import dataclass
from typing import Any, Callable

from docbot.docmodel import Bounds
from docbot.facts.function import Facts, extract_facts


@dataclass(frozen=True)
class RealFunction:
    qualname: str
    source: str
    entries: dict[str, str]  # parameter (or carried keyword) -> its real text
    summary: str
    paragraphs: list[str]


def _flat(text: str) -> str:
    return " ".join(text.split())


def _listed(doc: str, head: str, entry: str) -> dict[str, str]:
    """The entries of a docstring's ``head`` list: ``name: text`` / ``- name -- text``, a name list
    (``stdin, stdout and stderr``) giving each name the same text."""
    body = doc.split(head, 1)[1].split("\n\n\n")[0]
    found: dict[str, str] = {}
    for match in re.finditer(entry, body, re.MULTILINE | re.DOTALL):
        text = _flat(match["text"])
        for name in re.split(r",\s*|\s+and\s+", match["names"]):
            found.setdefault(name.strip(), text)
    return found


def popen() -> RealFunction:
    doc = inspect.getdoc(subprocess.Popen) or ""
    head = doc.split("\nAttributes:")[0]
    entry = r"^  (?P<names>[a-z_, ]+?(?: and [a-z_]+)?)(?::| \()(?P<text>.*?)(?=\n\n  \S|\Z)"
    entries = _listed(head, "Arguments:", entry)
    # The docstring leaves pipesize out; these are the library reference's words for it.
    entries["pipesize"] = ("pipesize can be used to change the size of the pipe when PIPE is used for stdin, "
                           "stdout or stderr. The size of the pipe is only changed on platforms that support this "
                           "(only Linux at this time of writing). Other platforms will ignore this parameter.")
    return RealFunction("Popen.__init__", inspect.getsource(subprocess.Popen.__init__), entries,
                        _flat(doc.split("\n\n")[0]), [_flat(doc.split("\n\n")[1])])


def dumps() -> RealFunction:
    doc = inspect.getdoc(json.dumps) or ""
    paragraphs = [_flat(p) for p in doc.split("\n\n")]
    entries: dict[str, str] = {"obj": paragraphs[0]}
    for name in inspect.signature(json.dumps).parameters:
        entries.setdefault(name, next((p for p in paragraphs if f"``{name}``" in p or f"*{name}*" in p),
                                      next(p for p in paragraphs if "kwarg" in p)))
    return RealFunction("dumps", inspect.getsource(json.dumps), entries, paragraphs[0], paragraphs[1:])


def add_argument() -> RealFunction:
    method = argparse._ActionsContainer.add_argument
    action = inspect.getdoc(argparse.Action) or ""
    carried = _listed(action, "Keyword Arguments:", r"^    - (?P<names>[a-z_]+) -- (?P<text>.*?)(?=\n\n    - |\Z)")
    carried.pop("option_strings", None)  # add_argument makes it from *args: not a keyword it takes
    usage = _flat(inspect.getdoc(method) or "")
    entries = {"args": usage, "kwargs": _flat(action.split("\n\n")[1]), **carried}
    return RealFunction("_ActionsContainer.add_argument", inspect.getsource(method), entries,
                        _flat(action.split("\n\n")[0]), [usage])


REAL: dict[str, Callable[[], RealFunction]] = {"subprocess.Popen": popen, "json.dumps": dumps,
                                               "argparse.ArgumentParser.add_argument": add_argument}


def within(text: str, limit: int) -> str:
    """``text`` whole when it fits, else up to its last sentence end within ``limit``."""
    if len(text) <= limit:
        return text
    cut = text[:limit]
    end = max(cut.rfind(". "), cut.rfind(".) "))
    return cut[: end + 1] if end > 0 else cut


def answer(real: RealFunction, facts: Facts, bounds: Bounds) -> dict[str, Any]:
    """The doc model a writer answers from the real docs: every documentable parameter, then the carried keywords."""
    names = [p.name for p in facts.documentable_parameters]
    names += [name for name in real.entries if name not in names and name not in {p.name for p in facts.parameters}]
    return {
        "summary": within(real.summary, bounds.summary),
        "description": [within(p, bounds.paragraph) for p in real.paragraphs][: bounds.paragraphs],
        "parameters": [{"name": name, "description": within(real.entries[name], bounds.parameter_description)}
                       for name in names],
        "returns": "", "raises": [], "examples": [], "notes": "",
    }


def cut_count(real: RealFunction, bounds: Bounds) -> int:
    return sum(len(text) > bounds.parameter_description for text in real.entries.values())


def facts_of(real: RealFunction) -> Facts:
    return extract_facts(real.source, real.qualname)
