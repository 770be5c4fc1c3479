"""Is each planted statement false? Decided by importing the package and asking the live objects, not docbot.

    python -m bench.claims.oracle ROOT PACKAGE < plants.json   # prints {plant id: [false?, evidence]}

- a default: ``inspect.signature`` has the parameter, with a default unequal to the stated one;
- a parameter: binding it (``signature.bind_partial(name=None)``) raises TypeError: the call would fail;
- a type, a return type or value: ``typing.get_type_hints`` gives only builtin types, none of them the stated one
  (``float`` accepting an ``int``);
- a name: ``getattr`` on the imported module raises AttributeError;
- an exception: no running can show an absence, so this one is read, not run: the exception is an ``OSError``,
  the defining module's source (``inspect.getsource``) and that of every package module it imports, transitively,
  does no I/O (no ``open(``, ``os.``, ``io.``, sockets, subprocesses, paths, ``sys.std*``, package data read
  through ``importlib.resources``) and imports nothing outside the standard library but the package, and no
  ``raise`` of the package names it. The report says so.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import re
import sys
import typing
from pathlib import Path
from typing import Any

from bench.claims.probe import _type_words

_IO = re.compile(r"\bopen\(|\bos\.|\bio\.|socket|subprocess|pathlib|shutil|sys\.std|urllib|\bhttp(?!s?://)|requests|\.read\(|"
                 r"\.write\(|\.connect\(|\.send\(|\.recv\(|tempfile|\bfile\b|importlib\.resources|"
                 r"\.(?:read|write)_(?:bytes|text)\(|pkgutil\.get_data|inspect\.getsource")
_NUMERIC = {"int": {"int", "float"}, "float": {"float"}, "bool": {"bool", "int", "float"}}


def _object(package: str, written: str) -> Any:
    parts = written.split(".")
    if parts[0] == package:
        parts = parts[1:]
    current: Any = importlib.import_module(package)
    for index, part in enumerate(parts):
        nxt = getattr(current, part, None)
        if nxt is None:
            nxt = importlib.import_module(".".join([package, *parts[: index + 1]]))
        current = nxt
    return current


def _target(obj: Any) -> Any:
    return obj.__init__ if inspect.isclass(obj) else obj


def _allowed(words: list[str]) -> set[str]:
    return {w for word in words for w in _NUMERIC.get(word, {word})}


def check(package: str, plant: dict[str, Any]) -> tuple[bool, str]:
    oracle = plant["oracle"]
    kind = oracle["kind"]
    if kind == "name":
        module = importlib.import_module(oracle["module"])
        return (not hasattr(module, oracle["attribute"]),
                f"{oracle['module']} has no attribute {oracle['attribute']}")
    obj = _object(package, plant["written"])
    signature = inspect.signature(_target(obj))
    params = {k: v for k, v in signature.parameters.items() if k not in ("self", "cls")}
    if kind == "default":
        param = params.get(oracle["parameter"])
        if param is None or param.default is inspect.Parameter.empty:
            return False, "no such parameter with a default"
        stated = ast.literal_eval(oracle["value"])
        return (param.default != stated or type(param.default) is not type(stated),
                f"signature default {param.default!r}, stated {stated!r}")
    if kind == "parameter":
        try:
            signature.bind_partial(**{oracle["parameter"]: None})
        except TypeError as error:
            return True, f"TypeError: {error}"
        return False, "the signature binds it"
    hints = typing.get_type_hints(_target(obj))
    if kind == "type":
        words = _type_words(hints.get(oracle["parameter"]))
        return (bool(words) and oracle["value"] not in _allowed(words or []),
                f"annotated {hints.get(oracle['parameter'])!r}, stated {oracle['value']}")
    if kind in ("return_type", "return_value"):
        words = _type_words(hints.get("return"))
        stated = oracle["value"] if kind == "return_type" else ("none" if oracle["value"] == "None" else "?")
        return (bool(words) and stated not in _allowed(words or []),
                f"return annotated {hints.get('return')!r}, stated {oracle['value']}")
    if kind == "exception":
        return _exception(package, obj, oracle["value"])
    return False, f"unknown kind {kind}"


def _exception(package: str, obj: Any, name: str) -> tuple[bool, str]:
    module = inspect.getmodule(obj)
    source = "\n".join(_reached_sources(package, module.__name__)) if module else ""
    imports = {n.split(".")[0] for n in re.findall(r"^\s*(?:from|import)\s+([\w.]+)", source, re.MULTILINE)}
    outside = [i for i in imports if i not in sys.stdlib_module_names and i != package and i != "__future__"]
    raised = _raised_anywhere(package, module, name)
    false = not _IO.search(source) and not outside and not raised
    return false, (f"static: {module.__name__ if module else '?'} and what it imports do no I/O, import only the "
                   f"standard library and the package, and no raise names {name}" if false else
                   f"not shown false: I/O {bool(_IO.search(source))}, imports {outside}, raised {raised}")


def _reached_sources(package: str, start: str) -> list[str]:
    """The defining module's source and those of the package modules it imports, transitively: the code the
    function may reach (chardet's ``detect`` reads its model files in ``chardet.models``)."""
    todo, seen, found = [start], set(), []
    while todo:
        name = todo.pop()
        if name in seen or not (name == package or name.startswith(package + ".")):
            continue
        seen.add(name)
        try:
            module = importlib.import_module(name)
            source = inspect.getsource(module)
        except (ImportError, OSError, TypeError):
            continue  # not a module (`from pkg.mod import name`): its module is on the list too
        found.append(source)
        is_package = hasattr(module, "__path__")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                todo += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                parts = name.split(".")
                up = node.level - (1 if is_package else 0)
                head = ".".join(parts[: len(parts) - up]) if node.level else ""
                base = ".".join(p for p in (head, node.module or "") if p)
                todo += [base, *(f"{base}.{a.name}" for a in node.names)]
    return found


def _raised_anywhere(package: str, module: Any, name: str) -> bool:
    top = Path(inspect.getsourcefile(importlib.import_module(package)) or "").parent
    files = sorted(top.rglob("*.py")) if top.name == package else [Path(inspect.getsourcefile(module) or "")]
    return any(re.search(rf"raise\s+(?:\w+\.)*{name}\b", f.read_text(errors="replace")) for f in files if f.is_file())


def main(argv: list[str]) -> int:
    root, package = Path(argv[0]), argv[1]
    sys.path[:0] = [str(w) for w in (root / "src", root) if w.is_dir()]
    sys.path += argv[2:]  # the corpus's other packages: a dependency one of them provides
    verdicts: dict[str, tuple[bool, str]] = {}
    for plant in json.loads(sys.stdin.read()):
        try:
            verdicts[plant["id"]] = check(package, plant)
        except Exception as error:  # the object or a hint does not import here: not shown false
            verdicts[plant["id"]] = (False, f"{type(error).__name__}: {error}"[:200])
    print(json.dumps(verdicts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
