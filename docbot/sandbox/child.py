"""The sandboxed side of example execution: runs in its own process, never imported by docbot itself.

It reads a plan (JSON on stdin), tightens its own limits, installs an audit hook that refuses network,
processes and writes outside its working folder, imports the documented object, runs each step and
writes one result line per step to its own pipe (prefixed with a nonce, so an example's own prints
cannot pass for results). Best effort by design: an audit hook cannot stop C code that makes raw
syscalls; the OS boundary around this process (docbot/sandbox/boundary.py) is what holds.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import importlib
import json
import linecache
import os
import resource
import sys
import types
from _socket import AF_UNIX  # the constant alone: the socket module's enums cost every child ~3 ms of CPU

from docbot.sandbox.judge import COMPOUND
from docbot.sandbox.judge import after_exception as _after_exception
from docbot.sandbox.judge import judge as _judge
from docbot.sandbox.judge import last_line as _last_line
from docbot.sandbox.judge import repr_of as _repr
from docbot.sandbox.judge import same_message as _same_message  # noqa: F401 - the rule's tests read it here
from docbot.sandbox.script import run_code, run_script, show_root
from docbot.sandbox.streams import Capture
from docbot.sandbox.witness import Witness, install, missing_paths

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of CPU per child); mypy reads it as True
if TYPE_CHECKING:
    from typing import Any, Callable, TextIO

_REFUSED = {"os.system", "os.exec", "os.fork", "os.forkpty", "os.posix_spawn", "os.spawn", "subprocess.Popen",
            "os.kill", "os.killpg", "os.startfile", "resource.setrlimit", "resource.prlimit", "pty.spawn"}
_PATH_EVENTS = {"os.remove": (0,), "os.rename": (0, 1), "os.replace": (0, 1), "os.rmdir": (0,), "os.mkdir": (0,),
                "os.chmod": (0,), "os.chown": (0,), "os.symlink": (1,), "os.link": (1,), "os.truncate": (0,),
                "os.utime": (0,), "shutil.rmtree": (0,), "os.chflags": (0,), "os.mkfifo": (0,)}
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC


def main() -> None:
    plan = json.loads(sys.stdin.read())
    results = _result_channel(plan["result_fd"], plan["parent_pid"])
    # Before any of the module's code: the parent knows the boundary held up to here, so a run that
    # never says this failed to start (bwrap could not be set up) and can be retried without risk.
    _emit(results, plan["nonce"], {"started": True})
    _limit(plan["memory_mb"], plan["cpu_s"], plan["nproc"])
    sys.path[:0] = plan["sys_path"]
    if plan.get("root"):
        show_root(plan["root"])  # the project's files, read-only, as a reader at its root sees them
    witness = Witness()
    _install_guard(os.getcwd(), witness)
    install(witness)
    capture = Capture()
    capture.install()  # before the module's import: a logging handler made then keeps its stream
    if plan.get("script") is not None:  # a witness: the doc's lines as one plain script (docbot.sandbox.script)
        _emit(results, plan["nonce"], {"ready": True})
        _emit(results, plan["nonce"], {"index": 0, **run_script(plan["script"], capture, witness)})
        return
    try:
        module = importlib.import_module(plan["module"])
        namespace = _namespace(module, plan["module"], plan["name"])
    except BaseException as error:  # noqa: BLE001 - whatever the module does on import, report it
        _emit(results, plan["nonce"], {"import_error": _last_line(error)})
        return
    _emit(results, plan["nonce"], {"ready": True})
    documented = namespace[plan["name"]]
    def started(statement: int) -> None:  # which statement of a step runs: a step killed in it ends only there
        _emit(results, plan["nonce"], {"progress": statement})

    for index, step in enumerate(plan["steps"]):
        witness.start_step()
        result = _run_step(step, namespace, f"<doc example {index}>", capture, started)
        result.update(witness.seen())
        if _rebound(plan["name"], documented, namespace, module):
            # Whatever it prints now, it is not the documented object's: report it, trust nothing after.
            _emit(results, plan["nonce"], {"index": index, "status": "rebound"})
            return
        _emit(results, plan["nonce"], {"index": index, **result})


def _result_channel(fd: int, parent_pid: int | None) -> TextIO:
    """Results go to their own pipe, not stdout: an example's prints and writes to fd 1 or 2 cannot pass
    for them (the parent also checks each line's nonce and order). Not inherited by anything started."""
    if parent_pid is not None:  # no OS boundary (whose bwrap dies with docbot): die with docbot ourselves
        _die_with(parent_pid)
    os.set_inheritable(fd, False)
    return os.fdopen(fd, "w", encoding="utf-8")


def _die_with(parent_pid: int) -> None:
    with contextlib.suppress(OSError, AttributeError):
        import ctypes  # only here: the guard-only mode is the rare one

        ctypes.CDLL(None, use_errno=True).prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL (Linux)
    if os.getppid() != parent_pid:
        os._exit(1)  # docbot already died before the request took effect


def _rebound(name: str, documented: Any, namespace: dict[str, Any], module: Any) -> bool:
    """Did the example rebind the documented name (``add = lambda a, b: 999``), here or in its module?"""
    return namespace.get(name) is not documented or getattr(module, name, None) is not documented


def _namespace(module: Any, dotted: str, name: str) -> dict[str, Any]:
    """Where the examples run: as the doc's reader runs them, with the module's names at hand.

    A copy of the module's namespace (as doctest gives a docstring's examples), plus the module under
    its own name and its top package (``mod.f(...)``, ``pkg.mod.f(...)``), unless the module defines
    that name itself (``slugify.slugify`` stays the function).
    """
    main = types.ModuleType("__main__")  # a reader's snippet runs as a script: pickle, typing and pydantic find
    namespace = main.__dict__  # its classes through sys.modules["__main__"], which must hold them
    namespace.update(vars(module))
    namespace["__name__"] = "__main__"
    namespace[name] = getattr(module, name)
    namespace.setdefault(dotted.rsplit(".", 1)[-1], module)
    namespace.setdefault(dotted.split(".")[0], sys.modules[dotted.split(".")[0]])
    sys.modules["__main__"] = main
    return namespace


def _limit(memory_mb: int, cpu_s: int, nproc: int | None) -> None:
    memory = memory_mb * 1024 * 1024
    for limit, value in ((resource.RLIMIT_AS, memory), (resource.RLIMIT_CPU, cpu_s),
                         (resource.RLIMIT_FSIZE, 64 * 1024 * 1024), (resource.RLIMIT_CORE, 0)):
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(limit, (value, value))
    if nproc is not None:  # not enforced for root; the audit hook refuses fork/exec in any case
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))


def _install_guard(folder: str, witness: Witness) -> None:
    root = os.path.realpath(folder)

    def inside(path: Any) -> bool:
        if isinstance(path, int):
            return True  # an already open descriptor
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        real = os.path.realpath(os.path.abspath(str(path)))
        return real == root or real.startswith(root + os.sep) or real == os.devnull

    def guard(event: str, args: tuple[Any, ...]) -> None:
        if event == "open":
            path, mode, flags = args
            writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or bool((flags or 0) & _WRITE_FLAGS)
            if writes and path is not None and not inside(path):
                raise witness.refusal(f"writing {path!r}",
                                      f"the docbot sandbox refuses writing {path!r} outside the example folder")
        elif event in _PATH_EVENTS:
            if not all(inside(args[i]) for i in _PATH_EVENTS[event] if i < len(args)):
                raise witness.refusal(event, f"the docbot sandbox refuses {event} outside the example folder")
        elif event.startswith("socket."):
            if event == "socket.gethostname":
                return  # reads the local name (libraries call it on import); no network involved
            if event == "socket.__new__" and len(args) > 1 and args[1] == AF_UNIX:
                return  # socketpair() for asyncio's own wake-up pipe, not network
            raise witness.refusal(f"network access ({event})", f"the docbot sandbox refuses network access ({event})")
        elif event in _REFUSED:
            raise witness.refusal(event, f"the docbot sandbox refuses {event} in examples")

    sys.addaudithook(guard)


def _run_step(step: dict[str, Any], namespace: dict[str, Any], filename: str, capture: Capture,
              started: Callable[[int], None] | None = None) -> dict[str, Any]:
    echoed: list[tuple[Any, int]] = []  # (value, length of the printed text before its echo)
    # The step's source under its own name in linecache (as doctest registers `<doctest ...>`): tracebacks,
    # inspect.getsource and stack_data then show the example's lines, as they would from a reader's file.
    linecache.cache[filename] = (len(step["code"]), None, step["code"].splitlines(keepends=True), filename)
    capture.start()
    try:
        value = _execute(step, namespace, echoed, filename, capture, started)
    except BaseException as error:  # noqa: BLE001 - SystemExit etc. from an example are results too
        capture.stop()
        result = _after_exception(step, error)
        paths = missing_paths(step["code"], error) if result["status"] == "raised" else []
        return {**result, "missing_paths": paths} if paths else result
    capture.stop()
    return _judge(step, value, capture.printed(), echoed, namespace,
                  capture.shown() if capture.stderr_written else None)


def _execute(step: dict[str, Any], namespace: dict[str, Any], echoed: list[tuple[Any, int]], filename: str,
             capture: Capture, started: Callable[[int], None] | None) -> Any:
    code = step["code"]
    if step["expect"] == "value" and not step["target"]:
        return run_code(compile(code.strip(), filename, "eval", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT,
                                dont_inherit=True), namespace)
    tree = ast.parse(code, mode="exec")
    # Like the interactive prompt, doctests echo a bare expression's value (None is not echoed); a block
    # followed by an output block may echo its last expression, as a notebook cell would.
    echo_all = step["expect"] in ("output", "raises")
    for index, node in enumerate(tree.body):
        if started is not None and len(tree.body) > 1:
            started(index)
        last = step["echo_last"] and index == len(tree.body) - 1
        # a compound statement as the console runs it: every expression in it echoes (`try: ... except E as e:
        # e.messages` then `# => {...}`, marshmallow's docs), asked for only where the doc states its output
        echo = isinstance(node, ast.Expr) and (echo_all or last) or last and isinstance(node, COMPOUND)
        source: Any = ast.Interactive([node]) if echo else ast.Module([node], [])
        # dont_inherit: this file's `from __future__ import annotations` must not reach the example
        compiled = compile(source, filename, "single" if echo else "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT,
                           dont_inherit=True)
        run_code(compiled, namespace, (lambda value: _echo(value, echoed, capture)) if echo else None)
    return namespace.get(step["target"]) if step["target"] else None


def _echo(value: Any, echoed: list[tuple[Any, int]], capture: Capture) -> None:
    if value is not None:
        echoed.append((value, len(capture.printed())))
        builtins._ = value  # type: ignore[attr-defined]  # as the console's displayhook: the next line may read the last value as `_`
        print(_repr(value))


def _emit(stream: TextIO, nonce: str, result: dict[str, Any]) -> None:
    stream.write(nonce + json.dumps(result) + "\n")
    stream.flush()


if __name__ == "__main__":
    main()
