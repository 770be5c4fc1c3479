"""A perfect writer with planted defects: what the loop's checks let through when the critic passes everything.

    python -m bench.claims.loop             # every function x every defect that applies; writes loop_results.json
    python -m bench.claims.loop --no-write  # prints only
    python -m bench.claims.loop --only difflib --kind raise_entry --results /tmp/l.json   # a part, to look at it

A scripted OpenAI-compatible server on loopback plays all three roles. The writer answers with the function's real
docstring (read into the doc model as docbot reads a docstring: docbot.docstrings.existing.seed_model) plus one
planted defect, in every revision; the critic passes everything (100/100, no issue); the adjudicator hands back the
last draft. So only docbot's code checks stand between the defect and an approved page. The functions: the public
functions and methods of pure-Python standard library modules (``MODULES``, in order, at most ``PER_MODULE``
each), copied into a scratch project under their own names. A defect is planted only where it is false: a
default other than the signature's; ``FileNotFoundError`` in a module that does no I/O (not for a function that
calls a callback it is handed, or a method reaching one its class stored); a return type that
typeshed's stub for the module (mypy's copy) rules out.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import json
import tempfile
import textwrap
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from bench.common import machine, publish

HERE = Path(__file__).resolve().parent
SECTION = "## A perfect writer with planted defects (`python -m bench.claims.loop`)"
MODULES = ("textwrap", "colorsys", "fnmatch", "string", "html", "heapq", "bisect", "statistics", "difflib",
           "shlex", "calendar", "base64")
PER_MODULE = 15
KINDS = ("default_in_description", "default_in_parameter", "raise_in_description", "raise_entry",
         "return_type_in_description", "return_type_in_returns", "invented_parameter")
_NO_IO = ("textwrap", "colorsys", "fnmatch", "string", "html", "heapq", "bisect", "statistics", "difflib")
_WRONG = {"str": "dict", "int": "list", "float": "dict", "bool": "list", "list": "dict", "bytes": "dict",
          "tuple": "dict", "dict": "list"}
_STUB_TYPES = {"str": "str", "int": "int", "float": "float", "bool": "bool", "list": "list", "dict": "dict",
               "tuple": "tuple", "bytes": "bytes", "List": "list", "Dict": "dict", "Tuple": "tuple"}
PASS = json.dumps({"technical_accuracy": 100, "completeness": 100, "issues": [], "fatal_issues": [],
                   "critical_fix": "", "verdict": "pass"})


class Script:
    """What the server answers: the current function's drafts (set before each function is documented)."""

    def __init__(self) -> None:
        self.draft = "{}"
        self.calls: Counter[str] = Counter()

    def answer(self, system: str) -> str:
        role = "writer" if "technical writer" in system else "critic" if "reviewer" in system else "adjudicator"
        self.calls[role] += 1
        return PASS if role == "critic" else self.draft


def _handler(script: Script) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            system = next((m.get("content", "") for m in body.get("messages", []) if m.get("role") == "system"), "")
            text = script.answer(str(system))
            answer = {"id": "x", "object": "chat.completion", "created": 0, "model": body.get("model", "m"),
                      "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                                   "finish_reason": "stop"}],
                      "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
            data = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


def _stub_returns(module: str, qualname: str) -> str | None:
    """The builtin type typeshed's stub says ``qualname`` returns, when it is one plain builtin type."""
    import mypy

    stub = Path(mypy.__file__).parent / "typeshed" / "stdlib" / f"{module}.pyi"
    if not stub.is_file():
        return None
    scope: list[ast.stmt] = ast.parse(stub.read_text(encoding="utf-8")).body
    node: ast.AST | None = None
    for part in qualname.split("."):
        node = next((n for n in scope if isinstance(n, (ast.ClassDef, ast.FunctionDef)) and n.name == part), None)
        if node is None:
            return None
        scope = node.body if isinstance(node, ast.ClassDef) else []
    if not isinstance(node, ast.FunctionDef) or node.returns is None:
        return None
    returns = node.returns.value if isinstance(node.returns, ast.Subscript) else node.returns
    return _STUB_TYPES.get(ast.unparse(returns))


def defects(target: Any, module: str, module_source: str = "") -> dict[str, dict[str, Any]]:
    """kind -> the planted change, for each kind that applies to this function (and is false for it)."""
    from docbot.facts.function import extract_facts

    facts = extract_facts(target.source, target.qualname)
    found: dict[str, dict[str, Any]] = {}
    literal = [p for p in facts.documentable_parameters if p.default not in (None, "None") and _other(p.default)]
    if literal:
        param = literal[0]
        found["default_in_description"] = {"sentence": f" `{param.name}` defaults to `{_other(param.default)}`."}
        found["default_in_parameter"] = {"parameter": param.name, "text": f" (default {_other(param.default)})"}
    if module in _NO_IO and not _calls_its_parameters(target.source, {p.name for p in facts.parameters}) and \
            not _calls_stored_callbacks(module_source, target.qualname):
        found["raise_in_description"] = {"sentence": " Raises `FileNotFoundError` if the file does not exist."}
        found["raise_entry"] = {"type": "FileNotFoundError", "condition": "the file does not exist"}
    returned = _stub_returns(module, target.qualname) if facts.name != "__init__" else None
    if returned in _WRONG:
        word = {"dict": "dictionary", "list": "list"}[_WRONG[returned]]
        found["return_type_in_description"] = {"sentence": f" It returns a {word}."}
        found["return_type_in_returns"] = {"returns": f"A {word} of the results."}
    if not any(p.kind == "var-keyword" for p in facts.parameters):
        found["invented_parameter"] = {"parameter": "verbose_output"}
    return found


def _calls_stored_callbacks(module_source: str, qualname: str) -> bool:
    """Whether a method reaches, through ``self.m()`` calls within its class, a call of a callback the class stored
    from a parameter (difflib's ``self.isjunk``), or hands one to a class that calls it (``SequenceMatcher(
    self.linejunk)``): the caller's callback may raise anything, so "raises FileNotFoundError" is not false for it."""
    cls_name, _, method = qualname.rpartition(".")
    classes = {n.name: n for n in ast.parse(module_source).body if isinstance(n, ast.ClassDef)}
    if cls_name not in classes:
        return False
    methods = _methods(classes[cls_name])
    callbacks = {f"self.{a}" for a in _callback_attributes(classes, cls_name)}
    todo, seen = [method], set()
    while todo:
        name = todo.pop()
        if name in seen or name not in methods:
            continue
        seen.add(name)
        local = {t.id for node in ast.walk(methods[name]) if isinstance(node, ast.Assign)
                 and ast.unparse(node.value) in callbacks for t in node.targets if isinstance(t, ast.Name)}
        for node in (n for n in ast.walk(methods[name]) if isinstance(n, ast.Call)):
            called = ast.unparse(node.func)
            if called in callbacks | local or _hands_callback(node, classes, callbacks | local):
                return True
            if called.startswith("self."):
                todo.append(called.removeprefix("self."))
    return False


def _methods(cls: ast.ClassDef) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    return {n.name: n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}


def _callback_attributes(classes: dict[str, ast.ClassDef], name: str, depth: int = 0) -> set[str]:
    """The attributes of class ``name`` stored from a parameter and then called (directly, through a local, or
    by a class they are handed to)."""
    methods = _methods(classes[name])
    stored = {t.attr: node.value.id for m in methods.values() for node in ast.walk(m) if isinstance(node, ast.Assign)
              and isinstance(node.value, ast.Name) and node.value.id in {a.arg for a in m.args.args[1:]}
              for t in node.targets if isinstance(t, ast.Attribute) and ast.unparse(t.value) == "self"}
    found = set()
    for attr in stored:
        text = f"self.{attr}"
        for m in methods.values():
            local = {t.id for node in ast.walk(m) if isinstance(node, ast.Assign) and ast.unparse(node.value) == text
                     for t in node.targets if isinstance(t, ast.Name)}
            calls = [n for n in ast.walk(m) if isinstance(n, ast.Call)]
            if any(ast.unparse(c.func) in {text} | local for c in calls) or depth < 3 and any(
                    _hands_callback(c, classes, {text} | local, depth + 1) for c in calls):
                found.add(attr)
    return found


def _hands_callback(call: ast.Call, classes: dict[str, ast.ClassDef], values: set[str], depth: int = 0) -> bool:
    """Whether ``call`` builds a class of the module handing one of ``values`` to a callback parameter of it."""
    name = ast.unparse(call.func)
    if name not in classes or "__init__" not in _methods(classes[name]) or depth > 3:
        return False
    init = _methods(classes[name])["__init__"]
    params = [a.arg for a in init.args.args[1:]]
    given = {params[i]: ast.unparse(a) for i, a in enumerate(call.args) if i < len(params)}
    given |= {k.arg: ast.unparse(k.value) for k in call.keywords if k.arg}
    taking = {p for p in params if any(ast.unparse(n.value) == p for n in ast.walk(init) if isinstance(n, ast.Assign)
                                       and any(isinstance(t, ast.Attribute) and t.attr in _callback_attributes(
                                           classes, name, depth + 1) for t in n.targets))}
    return any(given.get(p) in values for p in taking)


def _calls_its_parameters(source: str, params: set[str]) -> bool:
    """Whether the function calls code it is handed (``key(x)``, ``sorted(..., key=key)``, ``map(func, ...)``): a
    callback may raise anything, so "raises FileNotFoundError" is not false for it."""
    tree = ast.parse(textwrap.dedent(source))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id in params:
                return True
            handed = [*node.args, *(k.value for k in node.keywords)]
            if any(isinstance(a, ast.Name) and a.id in params and a.id not in ("self", "cls") and (
                    isinstance(node.func, ast.Name) and node.func.id in ("map", "filter", "sorted", "min", "max")
                    or any(k.arg == "key" and k.value is a for k in node.keywords)) for a in handed):
                return True
    return False


def _other(default: str) -> str | None:
    try:
        value = ast.literal_eval(default)
    except (ValueError, SyntaxError):
        return None
    if isinstance(value, bool):
        return repr(not value)
    if isinstance(value, (int, float)):
        return repr(value * 2 + 7)
    if isinstance(value, str):
        return repr(value + "x")
    return None


def planted(model: Any, kind: str, change: dict[str, Any]) -> Any:
    """The docstring's model with the defect planted."""
    from docbot.docmodel import ParameterDoc, RaisesDoc

    if kind in ("default_in_description", "raise_in_description", "return_type_in_description"):
        # a paragraph of its own: a docstring's description often ends in a doctest
        return model.model_copy(update={"description": (model.description + "\n\n" + change["sentence"]).strip()})
    if kind == "default_in_parameter":
        params = [p for p in model.parameters if p.name != change["parameter"]]
        own = next((p for p in model.parameters if p.name == change["parameter"]),
                   ParameterDoc(name=change["parameter"], description=f"The {change['parameter']}."))
        params.append(own.model_copy(update={"description": own.description + change["text"]}))
        return model.model_copy(update={"parameters": tuple(params)})
    if kind == "raise_entry":
        return model.model_copy(update={"raises": (*model.raises, RaisesDoc(type=change["type"],
                                                                             condition=change["condition"]))})
    if kind == "return_type_in_returns":
        return model.model_copy(update={"returns": change["returns"]})
    return model.model_copy(update={"parameters": (*model.parameters, ParameterDoc(
        name=change["parameter"], description="Print more while it runs."))})


def still_there(model: Any, kind: str, change: dict[str, Any]) -> bool:
    """Whether the shipped model still holds the planted defect."""
    if model is None:
        return False
    if "sentence" in change:
        return change["sentence"].strip() in model.description
    if kind == "default_in_parameter":
        return any(change["text"].strip() in p.description for p in model.parameters)
    if kind == "raise_entry":
        return any(r.type == change["type"] for r in model.raises)
    if kind == "return_type_in_returns":
        return change["returns"] in model.returns
    return any(p.name == change["parameter"] for p in model.parameters)


def targets_of(root: Path, modules: tuple[str, ...] = MODULES, per_module: int = PER_MODULE) -> list[tuple[str, Any]]:
    from docbot.scan.targets import public_functions

    found = []
    for module in modules:
        source = inspect.getsource(importlib.import_module(module))
        (root / f"{module}.py").write_text(source, encoding="utf-8")
        chosen = [t for t in public_functions(source, module, f"{module}.py") if _docstring(t.source)][:per_module]
        found += [(module, t) for t in chosen]
    return found


def _docstring(source: str) -> str | None:
    from docbot.docstrings.existing import existing_docstring

    return existing_docstring(source)


def run(modules: tuple[str, ...] = MODULES, per_module: int = PER_MODULE,
        kinds: tuple[str, ...] = ()) -> dict[str, Any]:
    from docbot.docstrings.existing import seed_model
    from docbot.docmodel import DocModel
    from docbot.loop.runner import documenter_for
    from docbot.models.factory import build_models
    from docbot.config.settings import Settings

    script = Script()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(script))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="docbot-loop-bench-") as scratch:
        root = Path(scratch)
        settings = Settings(backend="openai", base_url=url, max_attempts=2, cache=False, run_examples=True)
        document = documenter_for(build_models(settings), settings, root, lambda event: None)
        for module, target in targets_of(root, modules, per_module):
            seed = seed_model(_docstring(target.source)) or DocModel(summary=target.qualname)
            planted_here = defects(target, module, (root / f"{module}.py").read_text(encoding="utf-8"))
            for kind, change in ((k, c) for k, c in planted_here.items() if not kinds or k in kinds):
                script.draft = json.dumps(planted(seed, kind, change).model_dump())
                result = document(target)
                approved = str(result.outcome) in ("approved", "Outcome.APPROVED")
                kept = still_there(result.doc_model, kind, change)
                rows.append({"module": module, "qualname": target.qualname, "kind": kind,
                             "method": "." in target.qualname, "approved": approved, "defect_shipped": kept,
                             "approved_with_defect": approved and kept, "fatal": list(result.fatal_issues)[:3]})
    server.shutdown()
    return {"rows": rows, "calls": dict(script.calls)}


def section(results: dict[str, Any]) -> str:
    rows = results["rows"]
    lines = [SECTION, "", f"Machine: {machine()}. Modules: {', '.join(MODULES)} (at most {PER_MODULE} documented "
             f"functions each, methods included): {len({(r['module'], r['qualname']) for r in rows})} functions, "
             f"{sum(r['method'] for r in {(r['module'], r['qualname']): r for r in rows}.values())} of them methods; "
             "max_attempts 2, examples run in the sandbox.", "",
             "| defect | planted | approved with the defect | shipped unapproved with it | methods: approved with it |",
             "| --- | --- | --- | --- | --- |"]
    for kind in KINDS:
        mine = [r for r in rows if r["kind"] == kind]
        if not mine:
            continue
        bad = sum(r["approved_with_defect"] for r in mine)
        unapproved = sum(r["defect_shipped"] and not r["approved"] for r in mine)
        methods = [r for r in mine if r["method"]]
        lines.append(f"| {kind} | {len(mine)} | {bad} ({bad / len(mine):.0%}) | {unapproved} | "
                     f"{sum(r['approved_with_defect'] for r in methods)} of {len(methods)} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--results", type=Path)
    parser.add_argument("--only", action="append", help="these modules only (to look at one)")
    parser.add_argument("--per-module", type=int, default=PER_MODULE)
    parser.add_argument("--kind", action="append", help="these defects only (raise_entry, ...)")
    args = parser.parse_args(argv)
    results = run(tuple(args.only or MODULES), args.per_module, tuple(args.kind or ()))
    if not args.no_write and not args.only and not args.kind:
        (HERE / "loop_results.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    if args.results:
        args.results.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    publish(section(results), write=not args.no_write and not args.only and not args.kind)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
