"""The before/after walk-through of docs/walkthrough-rest.md, as a command a reader runs from a docbot checkout:

    .venv/bin/python -m tests.docstrings.walkthrough_rest [FOLDER]

pyrsistent 0.20.0 (MIT; the sdist committed in tests/apidocs/data/) becomes a git repo; a contributor's commit
touches two reST docstrings in ``pyrsistent/_field_common.py``; ``docbot run --base HEAD~1 --write-docstrings``
documents them with docbot's real loop and gate, the models scripted (no server, same answers every run):
``pvector_field``'s writer answers a true doc model and its critic passes it; ``pset_field``'s critic never
does. What it prints is what the doc shows; tests/docstrings/test_walkthrough_rest.py runs the same function
and asserts the properties the doc states.
"""

from __future__ import annotations

import ast
import inspect
import json
import re
import sys
import tarfile
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from docbot.models import RoleModels
from docbot.models.structured import JsonSchemaStructuredMixin
from tests.support.git_repo import GitRepo

SDIST = Path(__file__).parents[1] / "apidocs" / "data" / "pyrsistent-0.20.0.tar.gz"
MODULE = "pyrsistent/_field_common.py"
KEPT, REPLACED = "pset_field", "pvector_field"
# The contributor's commit: a directive in each docstring, and an annotation on pvector_field's ``optional``.
EDITS = [
    ("    :return: A ``field`` containing a ``CheckedPSet`` of the given type.\n    \"\"\"",
     "    :return: A ``field`` containing a ``CheckedPSet`` of the given type.\n\n"
     "    .. versionadded:: 0.20.1\n       The walk-through's example directive.\n    \"\"\""),
    ("def pvector_field(item_type, optional=False,", "def pvector_field(item_type, optional: bool = False,"),
    ("    :return: A ``field`` containing a ``CheckedPVector`` of the given type.\n    \"\"\"",
     "    :return: A ``field`` containing a ``CheckedPVector`` of the given type.\n\n"
     "    .. versionchanged:: 0.20.1\n       ``optional`` is annotated.\n    \"\"\""),
]
TRUE_DOC = {  # what pvector_field's writer answers: every statement true of the code
    "summary": "Create a checked ``PVector`` field for a ``PRecord``.",
    "parameters": [
        {"name": "item_type", "description": "The required type for the items in the vector."},
        {"name": "optional", "description": "If true, ``None`` can be used as a value for this field."},
        {"name": "initial", "description": "Initial value to pass to the factory if no value is given."},
        {"name": "invariant", "description": "An invariant the whole vector must hold."},
        {"name": "item_invariant", "description": "An invariant each item must hold."}],
    "returns": "A ``field`` containing a ``CheckedPVector`` of the given type."}
WEAK_DOC = {"summary": "Create a set field.", "parameters": [{"name": "item_type", "description": "The type."}]}
ANSWERS = {  # role -> function -> answer
    "writer": {REPLACED: json.dumps(TRUE_DOC), KEPT: json.dumps(WEAK_DOC)},
    "critic": {REPLACED: json.dumps({"technical_accuracy": 97, "completeness": 97, "critical_fix": ""}),
               KEPT: json.dumps({"technical_accuracy": 60, "completeness": 55,
                                 "critical_fix": "Document invariant, item_invariant and the return value."})},
    "adjudicator": {REPLACED: json.dumps(TRUE_DOC), KEPT: json.dumps(WEAK_DOC)},
}


class KeyedChatModel(JsonSchemaStructuredMixin, BaseChatModel):
    """Answers by the function the prompt names: the same answer however often, in whatever order."""

    role: str

    @property
    def _llm_type(self) -> str:
        return "walkthrough"

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        named = re.findall(r"`(\w+)`", str(messages[-1].content))
        function = next(name for name in named if name in ANSWERS[self.role])
        reply = ANSWERS[self.role][function]
        usage = {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}
        return ChatResult(generations=[ChatGeneration(message=AIMessage(reply, usage_metadata=usage))])


@dataclass(frozen=True)
class Walkthrough:
    before: dict[str, str]  # qualname -> docstring before the run
    after: dict[str, str]  # qualname -> docstring after it
    page: str  # the docs/api page docbot wrote for the module
    page_path: str
    module_text: str  # the module after the run
    report: dict[str, Any]  # ``docbot run --json``
    exit_code: int


def _docstrings(text: str) -> dict[str, str]:
    return {node.name: ast.get_docstring(node, clean=False) or "" for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.FunctionDef) and node.name in (KEPT, REPLACED)}


def project(folder: Path) -> GitRepo:
    """pyrsistent 0.20.0 as released, then the contributor's commit."""
    with tarfile.open(SDIST) as archive:
        archive.extractall(folder / "sdist", filter="data")
    top = folder / "sdist" / "pyrsistent-0.20.0"
    repo = GitRepo(folder / "repo")
    for path in sorted(top.glob("pyrsistent/*.py")) + [top / "pyproject.toml", top / "LICENSE.mit"]:
        repo.write_bytes(str(path.relative_to(top)), path.read_bytes())
    repo.commit("pyrsistent 0.20.0 as released")
    text = repo.read(MODULE)
    for old, new in EDITS:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return repo.write(MODULE, text).commit("field docs: directives; pvector_field annotates optional")


def run(folder: Path) -> Walkthrough:
    """Build the project, run docbot on the commit with the scripted models, and read what it left."""
    import os

    from docbot.fronts.cli import main
    from docbot.loop.runner import documenter_for
    from docbot.run import pipeline

    repo = project(folder)
    before = _docstrings(repo.read(MODULE))
    models = RoleModels(generator=KeyedChatModel(role="writer"), critic=KeyedChatModel(role="critic"),
                        adjudicator=KeyedChatModel(role="adjudicator"))
    real = pipeline._default_factory
    pipeline._default_factory = lambda settings, root, emit, deadline: (  # type: ignore[assignment]
        lambda: documenter_for(models, settings, root, emit, deadline))
    cwd, out = Path.cwd(), StringIO()
    try:
        os.chdir(repo.root)
        with redirect_stdout(out), redirect_stderr(StringIO()):  # the run's events: --json makes them JSON lines
            code = main(["run", "--base", "HEAD~1", "--write-docstrings", "--json", "--no-examples"])
    finally:
        os.chdir(cwd)
        pipeline._default_factory = real  # type: ignore[assignment]
    report = json.loads(out.getvalue())
    page_path = next(r["doc_path"] for r in report["results"] if r["qualname"] == KEPT)
    after = repo.read(MODULE)
    return Walkthrough(before, _docstrings(after), repo.read(page_path), page_path, after, report, code)


def section(page: str, qualname: str) -> str:
    """One function's section of a docs/api page, marker to end marker."""
    start = page.index(f"<!-- docbot:section {qualname} ")
    end = page.index(f"<!-- docbot:end {qualname} -->", start)
    return page[start:end + len(f"<!-- docbot:end {qualname} -->")]


def show(walk: Walkthrough) -> str:
    results = {r["qualname"]: r for r in walk.report["results"]}
    lines = [f"docbot run exit code: {walk.exit_code}"]
    for name in (KEPT, REPLACED):
        result = results[name]
        lines += [f"{name}: approval={result['approval']} scores={result['scores']} "
                  f"docstring {'unchanged' if walk.before[name] == walk.after[name] else 'replaced'}"]
    docstrings = walk.report.get("docstrings", {})
    lines += [f"docstring files written: {docstrings.get('written', [])}",
              f"docstrings suggested, not written: {[s['qualname'] for s in docstrings.get('suggested', [])]}"]
    for name in (KEPT, REPLACED):
        lines += ["", f"--- {name} docstring before", inspect.cleandoc(walk.before[name]),
                  f"--- {name} docstring after", inspect.cleandoc(walk.after[name])]
    lines += ["", f"--- {walk.page_path}, the {KEPT} section", section(walk.page, KEPT)]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if argv:
        print(show(run(Path(argv[0]))))
        return 0
    with tempfile.TemporaryDirectory(prefix="docbot-walkthrough-") as folder:
        print(show(run(Path(folder))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
