"""A persistent cache of documented functions, keyed by content and not by place (docs/design.md#cache).

The key is the function's normalised AST (formatting- and comment-insensitive, its own docstring left
out), its qualified name, the facts read from it, the role models, the prompts' version and every
setting that shapes a doc. A hit hands back the stored result (doc model, score curve, trajectory)
with no model call: after a rerun, after a formatter pass, and after a move to another module (the
examples' imports of the old module are rewritten to the new one).

A cache is never a trust input (docs/design.md#cache): its folder is refused when git tracks it or it
is reached through a symlink (``docbot.scan.cache.cache_folder``), the Action keeps it outside the
workspace, and a hit ships only through ``checked``: its doc model is rendered again and passes the
exact checks, so raw Markdown from a cache is never written. A folder that cannot be used (a file, a
read-only folder) is a warning and a run without the cache.

Entries live in ``.docbot/cache/results/`` as one JSON file each, written atomically (a temporary file
renamed over the name), so concurrent runs never read half an entry; two runs writing one key
both write a valid entry and the last one stays. An entry that does not read back is a miss, never
an error. Results are stored generically: every field of ``FunctionResult`` through its type hints,
so a field added to it is cached without touching this module.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import hashlib
import json
import re
import threading
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Union

from docbot import __version__
from docbot.errors import ConfigError
from docbot.paths import write_atomic
from docbot.results import TrajectoryEntry
from docbot.results import FunctionResult, Target
from docbot.scan.cache import cache_folder

if TYPE_CHECKING:
    from docbot.config.settings import Settings
FORMAT = 1  # of an entry; raised when its layout changes (old entries then miss)
# Settings that change how a doc is fetched or where it goes, never what it says.
NOT_SHAPING = frozenset({"base_url", "api_key", "request_timeout_s", "connect_timeout_s", "call_retries",
                         "keep_alive", "record", "replay", "docs_dir", "include_dunder", "exclude",
                         "time_budget_s", "when_no_server", "jobs", "jobs_per_server", "cache",
                         "embedded_extra_buffers", "example_sandbox", "example_timeout_s", "example_memory_mb",
                         # the docstring phase renders the doc model after the loop: it shapes no doc model, so
                         # turning it on finds the models of the runs before (docbot.run.owed)
                         "write_docstrings", "docstring_style", "max_docstring_chars", "drift_gate",
                         "docs_globs", "docs_setup"})
_PROMPTS = Path(__file__).parent / "loop" / "prompts.py"


def function_shape(source: str) -> str | None:
    """The function's AST without positions, comments, formatting or its own docstring; None when
    the running ``ast`` cannot parse it (newer grammar): such a function is never cached."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    for node in tree.body:  # several pieces share a name: overloads, a property's getter and setter
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _docstring(node.body):
            node.body = node.body[1:] or [ast.Pass()]
    return ast.dump(tree, annotate_fields=False, include_attributes=False)


def _docstring(body: list[ast.stmt]) -> bool:
    first = body[0] if body else None
    return isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)


def prompts_version() -> str:
    """docbot's version and a digest of the prompts' source: a prompt edit invalidates every entry."""
    try:
        text = _PROMPTS.read_bytes()
    except OSError:
        text = b""
    return f"{__version__}:{hashlib.sha256(text).hexdigest()[:16]}"


def shaping_settings(settings: Any) -> dict[str, Any]:
    """The settings that shape a doc (JSON values); a role's server URL does not, its model does."""
    data = {k: v for k, v in settings.model_dump(mode="json").items() if k not in NOT_SHAPING}
    data["model_registry"] = {role: {k: v for k, v in entry.items() if k != "base_url"}
                              for role, entry in data.get("model_registry", {}).items()}
    return data


def cache_key(target: Target, settings: Any, facts: str) -> str | None:
    """The content key of ``target`` under ``settings``; None when its source cannot be normalised."""
    shape = function_shape(target.source)
    if shape is None:
        return None
    material = {"format": FORMAT, "prompts": prompts_version(), "qualname": target.qualname, "shape": shape,
                "facts": facts, "settings": shaping_settings(settings)}
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()


def facts_of(target: Target) -> str:
    """The facts of the normalised function (so a formatter's quote style does not change them)."""
    from docbot.facts.function import extract_facts

    try:
        return extract_facts(ast.unparse(ast.parse(target.source)), target.qualname).to_prompt()
    except (SyntaxError, ValueError):
        return ""


@dataclasses.dataclass(frozen=True)
class Hit:
    result: FunctionResult
    trajectory: list[TrajectoryEntry]


class ResultCache:
    """The results under ``folder`` (``<repo>/.docbot/cache``, or the Action's ``$RUNNER_TEMP/docbot-cache``);
    ``warn`` hears once of a write that failed, after which nothing more is stored."""

    def __init__(self, folder: Path, warn: Callable[[str], None] | None = None) -> None:
        self.folder = folder
        self.warn = warn or (lambda _message: None)
        self.broken = False
        self._lock = threading.Lock()

    def _path(self, key: str) -> Path:
        return self.folder / "results" / key[:2] / f"{key}.json"

    def get(self, key: str, target: Target) -> Hit | None:
        """The stored result for ``key``, placed at ``target`` (its module, path); None on a miss."""
        try:
            entry = json.loads(self._path(key).read_text(encoding="utf-8"))
            if entry.get("format") != FORMAT or entry.get("key") != key:
                return None
            result = decode(FunctionResult, entry["result"])
            trajectory = list(entry.get("trajectory", []))
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return None
        old = entry.get("module", target.module)
        model = result.doc_model
        if model is None:
            return None  # nothing to render again: raw Markdown alone never ships
        if isinstance(old, str) and old != target.module:  # its examples import the module
            model = model.model_copy(update={"examples": tuple(
                example.model_copy(update={"code": moved(example.code, old, target.module)})
                for example in model.examples)})
        return Hit(dataclasses.replace(result, module=target.module, path=target.path, doc_model=model,
                                       markdown="", tokens={}, reason="cached"), trajectory)

    def put(self, key: str, result: FunctionResult, trajectory: list[TrajectoryEntry]) -> None:
        """Store ``result``; one that does not read back equal is not stored (a type this module cannot
        rebuild must cost a miss, not a wrong hit)."""
        encoded = encode(result)
        try:
            if decode(FunctionResult, json.loads(json.dumps(encoded))) != result:
                return
        except (TypeError, ValueError, KeyError, AttributeError):
            return
        entry = {"format": FORMAT, "key": key, "module": result.module, "result": encoded,
                 "trajectory": trajectory}
        if self.broken:
            return
        try:
            write_atomic(self._path(key), json.dumps(entry, sort_keys=True))
        except OSError as err:
            with self._lock:
                if not self.broken:
                    self.broken = True
                    self.warn(f"the cache at {self.folder} cannot be written ({err.strerror or err}); this run "
                              "goes on without storing results. Fix or remove the folder.")


def open_results(repo_root: Path, outside: Path | None, warn: Callable[[str], None]) -> ResultCache | None:
    """The result cache: under ``outside`` when given (the Action's runner temp), else the repository's
    own folder; None, after a warning saying why, when that folder must not or cannot be used."""
    try:
        if outside is not None:
            outside.mkdir(parents=True, exist_ok=True)
            return ResultCache(outside, warn)
        return ResultCache(cache_folder(repo_root), warn)
    except (ConfigError, OSError) as err:
        reason = str(err) if isinstance(err, ConfigError) else (err.strerror or str(err))
        warn(f"docbot's cache is not used: {reason}")
        return None


def checked(hit: Hit, target: Target, settings: Settings, repo_root: Path) -> FunctionResult | None:
    """The hit as it ships: its doc model rendered again for ``target`` and held to the exact checks
    (examples run as in the loop); None when a check fails, so the function is documented afresh."""
    from docbot.apidocs.render import render_section  # the checks pull in the sandbox: only on a hit
    from docbot.facts.function import extract_facts
    from docbot.loop.runner import example_context, module_text
    from docbot.loop.truth import CodeContext, check_with_sandbox

    model = hit.result.doc_model
    if model is None:
        return None
    try:
        facts = extract_facts(target.source, target.qualname)
        code = CodeContext(target.module, target.source, module_text(repo_root, target),
                           example_context(settings, repo_root, target.module))
        findings = check_with_sandbox(model, facts, code)
        markdown = render_section(model, facts, target.module)
    except (SyntaxError, ValueError):
        return None
    if any(finding.fatal for finding in findings):
        return None
    return dataclasses.replace(hit.result, markdown=markdown)


def _hints(cls: type) -> dict[str, Any]:
    """A dataclass's field types. ``results.py`` names ``DocModel`` only for the type checker (pydantic
    stays out of the light paths), so the name is supplied here, where a stored doc is being read."""
    from docbot.docmodel import DocModel

    return typing.get_type_hints(cls, localns={"DocModel": DocModel})



def moved(code: str, old_module: str, new_module: str) -> str:
    """An example's ``code`` with its uses of the dotted ``old_module`` made ``new_module``: ``import old``,
    ``from old import``, ``import x as`` and ``old.name``. A standalone word equal to the module's name
    (a variable ``a`` of a moved module ``a``) is left alone: it is not the module."""
    if old_module == new_module or not old_module:
        return code
    name = re.escape(old_module)
    code = re.sub(rf"(?m)^(\s*(?:from|import)\s+){name}(?![\w.])", rf"\g<1>{new_module}", code)
    return re.sub(rf"(?<![\w.]){name}(?=\.[A-Za-z_])", new_module, code)



# --- generic JSON for dataclasses (and pydantic models) ------------------------------------------


def encode(value: Any) -> Any:
    """A JSON value for a dataclass, a pydantic model, an enum or a container of them."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if hasattr(value, "model_dump") and not isinstance(value, type):
        return value.model_dump(mode="json")
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    return value


def decode(hint: Any, value: Any) -> Any:
    """The inverse of ``encode`` for a value of type ``hint``; TypeError/ValueError when it does not fit."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return value
    if origin in (Union, types.UnionType):
        return _first_fit(args, value)
    if origin is Literal:
        if value not in args:
            raise ValueError(f"{value!r} is not one of {args}")
        return value
    if origin in (list, tuple, dict):
        return _container(origin, args, value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        hints = _hints(hint)
        if not isinstance(value, dict):
            raise TypeError(f"{hint.__name__}: expected an object")
        return hint(**{f.name: decode(hints[f.name], value[f.name])
                       for f in dataclasses.fields(hint) if f.name in value and f.init})
    if isinstance(hint, type) and hasattr(hint, "model_validate"):
        return hint.model_validate(value)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(value)
    if hint is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if isinstance(hint, type) and not isinstance(value, hint):
        raise TypeError(f"expected {hint.__name__}, found {type(value).__name__}")
    return value


def _first_fit(options: tuple[Any, ...], value: Any) -> Any:
    if value is None and type(None) in options:
        return None
    for option in options:
        if option is type(None):
            continue
        try:
            return decode(option, value)
        except (TypeError, ValueError, KeyError):
            continue
    raise TypeError(f"{value!r} fits none of {options}")


def _container(origin: Any, args: tuple[Any, ...], value: Any) -> Any:
    if origin is dict:
        if not isinstance(value, dict):
            raise TypeError("expected an object")
        key_type, item_type = args or (str, Any)
        return {decode(key_type, k): decode(item_type, v) for k, v in value.items()}
    if not isinstance(value, list):
        raise TypeError("expected an array")
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], v) for v in value)
        return tuple(decode(a, v) for a, v in zip(args, value, strict=True))
    return [decode(args[0] if args else Any, v) for v in value]
