"""Run a doc's Python blocks in plain Python, outside docbot's sandbox: the evidence a verdict is judged by.

    python -m bench.published.replay --set dev PACKAGE DOC [--upto LINE] [--fresh] [--alone LINE] [--timeout 20]

The blocks are found without docbot's reader (so its mistakes are not repeated): Markdown fences whose info
names Python (or that hold a ``>>>`` session), RST ``code-block``/``code``/``sourcecode`` directives, ``::``
literal blocks and ``>>>`` doctest paragraphs. They run in order, in one namespace, as a reader pasting the page
top to bottom would, with the package's venv python (``bench.published.setups``) at the project root. A
``>>>`` session is run example by example and each output compared the way doctest compares it (ELLIPSIS and
NORMALIZE_WHITESPACE); a script block is run whole. One line per block (and per differing session example).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path

from bench.published.project_run import SETS, entries
from bench.published.setups import repo_of, venv_of

_FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*\{?([\w+-]*)\}?.*$")
_PYTHON_INFO = {"python", "py", "pycon", "python3", "ipython", "pyi", "doctest", "py3", "python-repl"}
_DIRECTIVE = re.compile(r"^(\s*)\.\. (?:code-block|code|sourcecode|ipython|doctest|testcode)::\s*(\w*)")


def blocks(text: str, rst: bool) -> list[tuple[int, str]]:
    """(first line, source) of every Python block, in order."""
    lines = text.splitlines()
    return _rst_blocks(lines) if rst else _md_blocks(lines)


def _md_blocks(lines: list[str]) -> list[tuple[int, str]]:
    found, index = [], 0
    while index < len(lines):
        fence = _FENCE.match(lines[index])
        if not fence:
            index += 1
            continue
        indent, mark, info = fence.group(1), fence.group(2), fence.group(3).lower()
        end = index + 1
        while end < len(lines) and not lines[end].strip().startswith(mark[:3]):
            end += 1
        body = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines[index + 1:end]]
        if info in _PYTHON_INFO or (not info and any(b.lstrip().startswith(">>> ") for b in body)):
            found.append((index + 2, "\n".join(body)))
        index = end + 1
    return found


def _rst_blocks(lines: list[str]) -> list[tuple[int, str]]:
    found, index = [], 0
    while index < len(lines):
        line = lines[index]
        directive = _DIRECTIVE.match(line)
        literal = line.rstrip().endswith("::") and not line.lstrip().startswith("..")
        if line.lstrip().startswith(">>> ") and (index == 0 or not lines[index - 1].strip()):
            end = index
            while end < len(lines) and lines[end].strip():
                end += 1
            found.append((index + 1, "\n".join(x.strip() if x.lstrip().startswith((">>>", "...")) else x.strip()
                                               for x in lines[index:end])))
            index = end
            continue
        if directive and directive.group(2).lower() not in ("", "python", "py", "pycon", "python3", "ipython"):
            index += 1
            continue
        if directive or literal:
            base = len(line) - len(line.lstrip())
            start = index + 1
            while start < len(lines) and (not lines[start].strip() or lines[start].lstrip().startswith(":")
                                          and directive):
                start += 1
            end = start
            while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > base):
                end += 1
            body = lines[start:end]
            if body:
                cut = min(len(b) - len(b.lstrip()) for b in body if b.strip())
                source = "\n".join(b[cut:] for b in body).rstrip()
                if directive or _looks_python(source):
                    found.append((start + 1, source))
            index = max(end, index + 1)
            continue
        index += 1
    return found


def _looks_python(source: str) -> bool:
    if ">>> " in source:
        return True
    try:
        compile(source, "<block>", "exec")
    except SyntaxError:
        return False
    return bool(re.search(r"^\s*(import|from|print|def|class)\b|\w+\(.*\)", source, re.MULTILINE))


_RUNNER = r'''
import contextlib, doctest, io, json, signal, sys, traceback
blocks = json.loads(sys.stdin.read())
fresh, limit = blocks.pop(0)
flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
checker = doctest.OutputChecker()
ns = {"__name__": "__main__"}
def alarm(*_): raise TimeoutError(f"block ran over {limit} s")
signal.signal(signal.SIGALRM, alarm)
def run(code, mode, where):
    out = io.StringIO()
    signal.alarm(limit)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            exec(compile(code, where, mode), ns)
        return out.getvalue(), None
    except BaseException as exc:
        tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
        return out.getvalue(), tb
    finally:
        signal.alarm(0)
for line, source in blocks:
    if fresh:
        ns = {"__name__": "__main__"}
    if ">>>" in source:
        examples = doctest.DocTestParser().get_examples(source)
        bad = 0
        for ex in examples:
            got, err = run(ex.source, "single", f"<doc line {line + ex.lineno}>")
            if err:
                want_exc = ex.exc_msg or ""
                same = bool(want_exc) and (checker.check_output(want_exc, err.split(": ", 1)[-1] + "\n", flags)
                                           or err.startswith(want_exc.split(":")[0].strip()))
                if not same:
                    bad += 1
                    print(f"L{line + ex.lineno} session RAISES {err[:300]!r} (doc wants {ex.want[:120]!r})")
            elif not checker.check_output(ex.want, got, flags):
                bad += 1
                print(f"L{line + ex.lineno} session DIFFERS doc {ex.want[:200]!r} got {got[:200]!r}")
        print(f"L{line} session {len(examples)} examples, {bad} differ")
    else:
        got, err = run(source, "exec", f"<doc line {line}>")
        shown = got.strip().replace(chr(10), " | ")[:200]
        print(f"L{line} script " + (f"RAISES {err[:300]!r}" if err else "ok") + (f" out: {shown}" if shown else ""))
    sys.stdout.flush()
'''


def replay(python: Path, root: Path, doc: str, upto: int | None, fresh: bool, timeout: int,
           alone: int | None = None) -> str:
    text = (root / doc).read_text(encoding="utf-8", errors="replace")
    found = [b for b in blocks(text, doc.endswith((".rst", ".txt")) or "." not in Path(doc).name)
             if (upto is None or b[0] <= upto) and (alone is None or abs(b[0] - alone) <= 2)]
    done = subprocess.run([str(python), "-c", _RUNNER], cwd=root, input=json.dumps([[fresh, timeout], *found]),
                          capture_output=True, text=True, timeout=timeout * (len(found) + 2) + 60, check=False)
    return done.stdout + (f"[runner stderr] {done.stderr[-800:]}" if done.returncode else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=SETS, required=True, dest="which")
    parser.add_argument("package")
    parser.add_argument("doc")
    parser.add_argument("--upto", type=int, help="run only the blocks that start at or before this line")
    parser.add_argument("--fresh", action="store_true", help="each block in a fresh namespace")
    parser.add_argument("--timeout", type=int, default=20, help="seconds per block")
    parser.add_argument("--alone", type=int, metavar="LINE",
                        help="run only the block starting within 2 lines of LINE, in a fresh interpreter")
    args = parser.parse_args(argv)
    entry = next(e for e in entries(args.which) if e.name == args.package)
    python, _ = venv_of(entry)
    print(replay(python, repo_of(entry), args.doc, args.upto, args.fresh, args.timeout, args.alone), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
