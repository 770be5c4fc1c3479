"""What a published package's code really is, read by importing and inspecting it (not by docbot): the facts a
planted edit is made false against (bench/claims/README.md).

    python -m bench.claims.probe ROOT PACKAGE DOC...   # prints JSON: the callables each doc uses, with their facts

Run in a child process with ``ROOT`` (or ``ROOT/src``) first on ``sys.path``. A callable counts when a doc writes it
as a call (``name(`` or ``alias.name(`` in its text) and it is defined in the package. For each: its signature
(name, kind, default as ``repr`` when it is a plain literal, annotation when it is a builtin type), its return
annotation, where it is defined, and the names of the attributes it and its class have.
"""

from __future__ import annotations

import builtins
import importlib
import inspect
import json
import re
import sys
import typing
from pathlib import Path
from typing import Any

_LITERALS = (int, float, str, bool, bytes)
_BUILTIN_TYPES = {int: "int", float: "float", str: "str", bool: "bool", bytes: "bytes", list: "list", dict: "dict",
                  tuple: "tuple", set: "set", type(None): "none"}


def _type_words(annotation: Any) -> list[str] | None:
    """The builtin types an annotation allows (``Optional[int]`` -> [int, none]); None when another class is in it."""
    if annotation in _BUILTIN_TYPES:
        return [_BUILTIN_TYPES[annotation]]
    origin = typing.get_origin(annotation)
    if origin in _BUILTIN_TYPES:
        return [_BUILTIN_TYPES[origin]]
    if origin is typing.Union or type(annotation).__name__ == "UnionType":
        parts = [_type_words(a) for a in typing.get_args(annotation)]
        return None if any(p is None for p in parts) else sorted({w for p in parts if p for w in p})
    return None


def _hints(obj: Any) -> dict[str, Any]:
    try:
        return typing.get_type_hints(obj)
    except Exception:  # a hint naming what cannot be imported here: none known
        return {}


def _parameters(obj: Any) -> list[dict[str, Any]] | None:
    target = obj.__init__ if inspect.isclass(obj) else obj
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        return None
    hints = _hints(target)
    found = []
    for name, param in signature.parameters.items():
        if name in ("self", "cls"):
            continue
        default = param.default
        literal = default is not inspect.Parameter.empty and type(default) in _LITERALS
        found.append({"name": name, "kind": param.kind.name, "has_default": default is not inspect.Parameter.empty,
                      "default": repr(default) if literal else None, "types": _type_words(hints.get(name))})
    return found


def _defined_in(obj: Any, package: str) -> str | None:
    module = getattr(obj, "__module__", "") or ""
    return module if module == package or module.startswith(package + ".") else None


def probe(package: str, docs: list[str]) -> dict[str, Any]:
    top = importlib.import_module(package)
    found: dict[str, Any] = {}
    for doc in docs:
        text = Path(doc).read_text(encoding="utf-8", errors="replace")
        for match in re.finditer(r"(?<![\w.])((?:[A-Za-z_]\w*\.)*)([A-Za-z_]\w*)\(", text):
            prefix, name = match.group(1).rstrip("."), match.group(2)
            written = f"{prefix}.{name}" if prefix else name
            if written in found or name.startswith("_") or hasattr(builtins, name):
                continue
            obj = _lookup(top, package, prefix, name)
            if obj is None or not callable(obj) or _defined_in(obj, package) is None:
                continue
            params = _parameters(obj)
            if params is None:
                continue
            target = obj.__init__ if inspect.isclass(obj) else obj
            source = inspect.getsourcefile(inspect.unwrap(obj)) or ""  # `@contextmanager`'s: the function's file
            found[written] = {"written": written, "name": name, "module": _defined_in(obj, package),
                              "qualname": getattr(obj, "__qualname__", name), "is_class": inspect.isclass(obj),
                              "parameters": params, "returns": None if inspect.isclass(obj) else _type_words(
                                  _hints(target).get("return", inspect.Parameter.empty)),
                              "source_file": source, "attributes": sorted(dir(obj)), "doc": doc}
    return {"package": package, "callables": found,
            "package_attributes": sorted(dir(top)), "version": getattr(top, "__version__", "")}


def _lookup(top: Any, package: str, prefix: str, name: str) -> Any:
    """The object ``prefix.name`` names: under the package (``pkg.f``, ``pkg.sub.f``), or a top-level name."""
    parts = prefix.split(".") if prefix else []
    if parts and parts[0] == package:
        parts = parts[1:]
    current: Any = top
    for part in parts:
        current = getattr(current, part, None)
        if current is None:
            try:
                current = importlib.import_module(f"{package}.{'.'.join(parts[: parts.index(part) + 1])}")
            except Exception:
                return None
    return getattr(current, name, None)


def main(argv: list[str]) -> int:
    root, package = Path(argv[0]), argv[1]
    docs = [d for d in argv[2:] if not d.startswith("+")]
    sys.path[:0] = [str(w) for w in (root / "src", root) if w.is_dir()]
    sys.path += [d[1:] for d in argv[2:] if d.startswith("+")]  # "+PATH": another corpus package, a dependency
    try:
        result = probe(package, [str(root / d) for d in docs])
    except Exception as error:  # the package does not import here (a missing dependency): nothing to plant
        result = {"package": package, "error": f"{type(error).__name__}: {error}"[:300], "callables": {}}
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
