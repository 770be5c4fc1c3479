"""Failures that are the sandbox's or this machine's, not the doc's: why, in words a reader can act on.

The child reports, with each step's result, what the sandbox refused during it, which imports found no installed
module, and which path literals of the example its error is about that do not exist here
(docbot/sandbox/witness.py). A failure that follows one of those, or a MemoryError under the sandbox's memory
cap, is a note with the reason, never a contradiction; so is a later step that fails reading a name such a step
was to bind (``sl *= 10_000_000`` ran out of memory, so ``sl.count('c')`` counts the list that failed to grow).
A failure with none of those signals is still the doc's (docs/design.md#truth-checks).
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import functools
import os
import platform
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docbot.sandbox.step import Step

_IMPORT_ERRORS = ("ModuleNotFoundError", "ImportError")
_NO_MODULE = re.compile(r"No module named '([\w.]+)'")
_ASKS_INSTALL = re.compile(r"\binstall", re.IGNORECASE)
_UNDEFINED = re.compile(r"NameError: name '(\w+)' is not defined")
_SHOWS = "the output shows this machine's "
# A read of the environment (not a write: `os.environ["X"] = ...` sets what it reads)
_ENV_READ = re.compile(r"""(?:os\.environ\.get\s*\(|os\.getenv\s*\()\s*['"](\w+)['"]|"""
                       r"""os\.environ\s*\[\s*['"](\w+)['"]\s*\](?!\s*=[^=])""")
# An error that says what the machine lacks: a variable a reader's session sets (secretstorage's "Environment
# variable DBUS_SESSION_BUS_ADDRESS is unset"), an account's credentials (databricks-sdk's "cannot configure default
# credentials"), a device (click.getchar's /dev/tty: ENXIO, ENODEV, ENOTTY)
_LACKS = (
    (re.compile(r"\benvironment variable `?([A-Z][A-Z0-9_]{2,})`? (?:is )?(?:unset|not set|missing|undefined)\b|"
                r"\b([A-Z][A-Z0-9]*_[A-Z0-9_]+) (?:environment variable )?(?:is )?(?:unset|not set)\b"),
     "it needs an environment variable a reader's session sets ({}), which the sandbox does not"),
    (re.compile(r"\b(?:cannot|could not|can't|unable to|failed to) (?:configure|find|load|locate|determine) "
                r"(?:the |any )?(?:default |valid )?credentials\b|\bno (?:valid )?credentials (?:found|provided)",
                re.IGNORECASE), "it needs an account's credentials, which a reader has and the sandbox does not{}"),
    (re.compile(r"^(?:OSError|FileNotFoundError): \[Errno (?:6|19|25)\]"),
     "it needs a device the sandbox does not give (a terminal){}"),
)
# A path on the doc author's machine: under a home folder, or a shared library's file
_AUTHORS_PATH = re.compile(r"(?:/home/|/Users/|[A-Z]:\\\\?Users\\)[\w.-]+[/\\][^\s'\",)\]]*|"
                           r"/[\w.+-]+(?:/[\w.+-]+)+\.(?:so(?:\.\d+)*|dylib|dll)\b")
_AUTHORS = "the doc shows its author's machine: "
FAILED_STATUSES = ("mismatch", "raised", "no_exception", "wrong_exception")  # a step result that failed


@dataclass
class Environment:
    """What one session of steps has shown so far about the machine it runs on."""

    memory_mb: int
    missing: list[str] = field(default_factory=list)  # imports that found no module, in this session so far
    spoiled: dict[str, str] = field(default_factory=dict)  # a name a failed step bound or showed -> why it failed

    def reason(self, step: Step, result: dict[str, Any]) -> str | None:
        """Why this step's failure is the machine's, or None when it is the doc's to answer for."""
        self.missing += [name for name in result.get("missing", []) if name not in self.missing]
        if result.get("status") not in FAILED_STATUSES:
            return None
        own = self._own_reason(step, result)
        name = None if own is not None else self._spoiled_use(step, result)
        root = own if own is not None else self.spoiled.get(name or "")
        if root is None:
            return None
        made = bound_names(head(step.code, result.get("line")))  # the lines before the failing one did bind
        self.spoiled.update(dict.fromkeys(bound_names(step.code) - made, root))
        if own is not None and own.startswith((_SHOWS, _AUTHORS)):
            # What it printed was made of the names it read: they hold this machine's state too (tzlocal's `tz`,
            # then every datetime made with it).
            self.spoiled.update({read: own for read in loaded_names(step.code) if read not in self.spoiled})
        return own if own is not None else \
            f"it uses `{name}`, which an earlier step could not make or showed to be this machine's " \
            f"({root.removeprefix('it ')})"

    def _own_reason(self, step: Step, result: dict[str, Any]) -> str | None:
        if result.get("refused"):
            return "it needs what the sandbox refused: " + ", ".join(result["refused"])
        if result["status"] == "mismatch" and (shown := _machine_value(result.get("got", ""), step.want)):
            return f"{_SHOWS}{shown}, which no doc can state"
        if result["status"] == "mismatch" and (path := _authors_path(step.want, result.get("got", ""))):
            return f"{_AUTHORS}{path}, which this one does not have"
        if result["status"] not in ("raised", "wrong_exception"):  # a doc's stated failure, met by another error
            return None
        error = result.get("error", "")
        if error.startswith("MemoryError"):
            return f"it needs more memory than the sandbox's {self.memory_mb} MB"
        for pattern, reason in _LACKS:
            if (lacked := pattern.search(error)) is not None:
                return reason.format(next((g for g in lacked.groups() if g), ""))
        if "unsupported locale setting" in error:
            return "it needs a locale this machine does not have (a reader's machine has it installed)"
        if (variable := _ENV_READ.search(step.code)) is not None:
            return f"it reads the environment variable {variable.group(1) or variable.group(2)}, which a reader " \
                "sets and the sandbox does not"
        if result.get("missing_paths"):
            return "it needs a file the doc presumes, which the sandbox does not have: " + \
                ", ".join(result["missing_paths"])
        if error.startswith(_IMPORT_ERRORS):
            found = _NO_MODULE.search(error)
            return "it needs a library that is not installed here" + (f": {found.group(1)}" if found else "")
        # A package that caught the ImportError and raised its own error: that error names the module or asks
        # for an install (bs4's FeatureNotFound: "Do you need to install a parser library?").
        named = [name for name in self.missing if _names(error, name.split(".")[0])]
        if named or (self.missing and _ASKS_INSTALL.search(error)):
            return "it needs a library that is not installed here (tried and not found: " + \
                ", ".join((named or self.missing)[:5]) + ")"
        return None

    def _spoiled_use(self, step: Step, result: dict[str, Any]) -> str | None:
        """The name this step reads that an earlier failed step was to bind or showed to be the machine's; for a
        NameError, only the name it is about (a name the doc never defines is the doc's setup, not the machine)."""
        undefined = _UNDEFINED.match(result.get("error", ""))
        if undefined is not None:
            return undefined.group(1) if undefined.group(1) in self.spoiled else None
        used = loaded_names(step.code)
        return next((name for name in self.spoiled if name in used), None)


def _machine_value(got: str, want: str) -> str | None:
    """What of this machine's identity the output shows and the doc does not (its paths, OS or time zone)."""
    for what, value in machine_values():
        if re.search(rf"(?<![\w/.-]){re.escape(value)}(?![\w-])", got) and value not in want:
            return f"{what} ({value})"
    return None


def _authors_path(want: str, got: str) -> str | None:
    """A path the stated output shows that the run does not and this machine lacks (threadpoolctl's README:
    ``'filepath': '/home/ogrisel/miniconda3/envs/tmp/lib/libmkl_rt.so'``)."""
    for found in _AUTHORS_PATH.finditer(want):
        if found.group(0) not in got and not os.path.exists(found.group(0)):
            return found.group(0)
    return None


@functools.cache
def machine_values() -> tuple[tuple[str, str], ...]:
    """Values that are this installation's and no reader's: the interpreter's prefix, the kernel's release (a user
    agent string shows it), the OS's name and id (/etc/os-release, bound into the sandbox as is) and the time
    zone's Area/City key (/etc/localtime)."""
    found = [("Python installation", path) for path in dict.fromkeys((sys.prefix, sys.base_prefix)) if len(path) > 1]
    found += [("kernel release", release) for release in (platform.release(),) if re.search(r"\d\.\d", release)]
    with contextlib.suppress(OSError):
        release = dict(line.split("=", 1) for line in Path("/etc/os-release").read_text().splitlines() if "=" in line)
        found += [("operating system", value.strip().strip("\"'")) for key, value in release.items()
                  if key in ("ID", "NAME", "PRETTY_NAME") and len(value.strip().strip("\"'")) > 2]
    with contextlib.suppress(OSError):
        zone = os.readlink("/etc/localtime").partition("zoneinfo/")[2]
        found += [("time zone", zone)] if "/" in zone else []
    return tuple(found)


def _names(error: str, module: str) -> bool:
    return len(module) > 2 and re.search(rf"(?<![\w.]){re.escape(module)}(?!\w)", error) is not None


@functools.lru_cache(maxsize=1024)  # as loaded_names
def bound_names(code: str) -> frozenset[str]:
    """The names a step assigns, imports or defines at any depth (a failed step may have left each unset)."""
    tree = _parse(code)
    names: set[str] = set()
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return frozenset(names)


def surely_bound(code: str) -> set[str]:
    """The names a step binds at its top level whatever its data: not inside a function or class body, a loop,
    a branch or an ``except`` (``for event in ws.events():`` binds ``event`` only when there is an event)."""
    tree = _parse(code)
    names: set[str] = set()
    for node in _unconditional(tree.body if tree is not None else []):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif not isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.If, ast.Try, ast.With, ast.AsyncWith)):
            names |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            names |= {n.id for item in node.items if item.optional_vars is not None
                      for n in ast.walk(item.optional_vars) if isinstance(n, ast.Name)}
    return names


def _unconditional(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements that run whenever ``body`` does: its own, and those of a ``with`` or a ``try`` body."""
    out: list[ast.stmt] = []
    for node in body:
        out.append(node)
        if isinstance(node, (ast.With, ast.AsyncWith, ast.Try)):
            out += _unconditional(node.body)
    return out


def head(code: str, line: int | None) -> str:
    """The lines of ``code`` before the top-level statement that holds ``line`` (the one that failed): what ran."""
    tree = _parse(code)
    if tree is None or line is None:
        return ""
    for node in tree.body:
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
        if first <= line <= (node.end_lineno or node.lineno):
            return "\n".join(code.splitlines()[: first - 1])
    return ""


def handed_names(code: str, line: int | None) -> frozenset[str]:
    """What the top-level statement holding ``line`` may have half filled when it failed: the names it hands to a
    call as an argument (``stream=out``; pg8000's README: ``cur.execute("copy ...", stream=out)`` fails, and
    ``out.getvalue()`` shows nothing), and each attribute or item it sets, as written (``section.start_type``).
    Builtins are not values of the doc's. A read of one of these (``read_paths``) is that failure's echo."""
    tree = _parse(code)
    statement = next((n for n in tree.body if n.lineno <= (line or 0) <= (n.end_lineno or n.lineno)), None) \
        if tree is not None else None
    calls = [n for n in ast.walk(statement) if isinstance(n, ast.Call)] if statement is not None else []
    values = [v for call in calls for v in (*call.args, *(k.value for k in call.keywords))]
    # the attribute itself, not its object: python-docx's sections.rst sets `section.start_type` to an enum the
    # page never imports and then shows it; its `section.orientation`, read before any setter, is still held to
    return frozenset(v.id for v in values if isinstance(v, ast.Name) and not hasattr(builtins, v.id)) \
        | _set_targets(statement) if statement is not None else frozenset()


def set_paths(code: str) -> frozenset[str]:
    """Each attribute or item ``code`` assigns, as written: ``doc.sections[0].width``."""
    return _set_targets(_parse(code))


def _set_targets(tree: ast.AST | None) -> frozenset[str]:
    return frozenset(ast.unparse(t) for n in (ast.walk(tree) if tree is not None else ())
                     if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))
                     for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                     if isinstance(t, (ast.Attribute, ast.Subscript)))


@functools.lru_cache(maxsize=1024)
def read_paths(code: str) -> frozenset[str]:
    """Each name, attribute and item ``code`` reads, as written: ``section.start_type.name`` reads
    ``section.start_type.name``, ``section.start_type`` and ``section``."""
    tree = _parse(code)
    return frozenset(ast.unparse(n) for n in (ast.walk(tree) if tree is not None else ())
                     if isinstance(n, (ast.Name, ast.Attribute, ast.Subscript)) and isinstance(n.ctx, ast.Load))


@functools.lru_cache(maxsize=1024)
def loaded_names(code: str) -> frozenset[str]:
    """The names ``code`` reads. Kept by its text: a doc's witnesses ask it of every step of the doc for each
    claim, which was a third of project mode's own time on a doc of many examples (issue 32)."""
    tree = _parse(code)
    return frozenset(node.id for node in ast.walk(tree) if isinstance(node, ast.Name)
                     and isinstance(node.ctx, ast.Load)) if tree is not None else frozenset()


@functools.lru_cache(maxsize=512)  # a step is read for what it binds and reads once per claim near it
def _parse(code: str) -> ast.Module | None:
    """``code``'s tree, shared by this module's readers: only read, never changed."""
    try:
        return ast.parse(code)
    except (SyntaxError, ValueError):  # ValueError: a NUL byte, on some 3.11 releases
        return None
