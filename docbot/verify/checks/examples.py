"""Run a doc's examples as sessions in the sandbox and judge each step's result (docs/design.md#no-blinding).

A doc's steps run as one session, as a console runs a doctest; a step that ends it (a time limit, ``os._exit``, a
crash, a flood) ends its block only, and the rest runs in a fresh session with what the doc defined before it.
Each result becomes a finding that quotes the real values (docbot.verify.checks.example_findings).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field, replace
from typing import Any

from docbot.config.choices import (DEFAULT_EXAMPLE_MEMORY_MB, DEFAULT_EXAMPLE_SANDBOX, DEFAULT_EXAMPLE_TIMEOUT_S,
                                   ExampleSandbox)
from docbot.sandbox.runner import SandboxRun, run_steps
from docbot.sandbox.step import Step
from docbot.verify.checks.environment import (FAILED_STATUSES, Environment, bound_names, handed_names, head,
                                              read_paths, set_paths)
from docbot.verify.checks.example_findings import finding_for, inline, not_run, rebound, unfinished
from docbot.verify.findings import Check, Finding, Severity, lower
from docbot.verify.read.examples import extract_steps

_UNDEFINED = re.compile(r"NameError: name '(\w+)' is not defined")


@dataclass(frozen=True)
class ExampleContext:
    """How to import the documented module when running a doc's examples.

    The examples run in a copy of the module's namespace, with the module bound to its own name and
    its package importable, in one sandboxed subprocess per doc with ``sys_path`` in front of
    ``sys.path``; ``sandbox`` says whether they may run under the in-process guard alone where no OS
    boundary can be made; ``root`` is the project whose files the examples read, as from its root.
    """

    module: str
    sys_path: tuple[str, ...]
    timeout_s: float = DEFAULT_EXAMPLE_TIMEOUT_S
    memory_mb: int = DEFAULT_EXAMPLE_MEMORY_MB
    sandbox: ExampleSandbox = DEFAULT_EXAMPLE_SANDBOX
    root: str | None = None


@dataclass(frozen=True)
class Unverified:
    """A claim of the doc that no run compared with the code, and why (docs/design.md#no-blinding)."""

    line: int | None  # the doc file's 1-based line of its block
    shown: str
    why: str


@dataclass
class Session:
    """What running a doc's steps found: each finding with the index of the step it is about (None: the whole
    run), each judged step's result, and the claims no run reached."""

    judged: list[tuple[int | None, Finding]] = field(default_factory=list)
    results: dict[int, dict[str, Any]] = field(default_factory=dict)
    not_reached: dict[int, str] = field(default_factory=dict)  # step index -> why no run compared it
    heads: dict[int, str] = field(default_factory=dict)  # a step that ended its session -> what of it had run
    runs: int = 0  # sandboxed children started

    @property
    def findings(self) -> list[Finding]:
        return [finding for _, finding in self.judged]


_SESSIONS = 4  # fresh sessions per doc: the first, and one after each of three blocks that ended theirs


def check_examples(section: str, qualname: str, context: ExampleContext) -> list[Finding]:
    return check_steps(extract_steps(section), qualname.split(".")[0], context)


def check_steps(steps: list[Step], name: str, context: ExampleContext) -> list[Finding]:
    """Run ``steps`` as one session; a mismatch is run a second time to tell a random output apart."""
    return run_session(steps, name, context).findings


def run_session(steps: list[Step], name: str, context: ExampleContext) -> Session:
    """Run ``steps`` in order, and go on past a step that ends its session (a time limit, ``os._exit``, a crash, a
    flood): that step's block ends there, and the rest of the doc runs in a fresh session that first runs again,
    unjudged, every step before it, so it has whatever the doc could define (no blinding)."""
    judge = _Judge(steps, context.timeout_s, context.memory_mb)
    replay: list[Step] = []
    start = 0
    for _ in range(_SESSIONS):
        todo = list(range(start, len(steps)))
        if not todo:
            break
        plan = replay + [steps[i] for i in todo]
        first = _run(plan, name, context, judge.session)
        mine = _own(first, len(replay), todo)
        second = _run(plan, name, context, judge.session) \
            if any(r.get("status") == "mismatch" for r in mine) else None
        killer = judge.take(todo, first, mine, _own(second, len(replay), todo) if second else None, len(replay))
        if killer is None:
            break
        start = _block_end(steps, killer)
        judge.skip(range(killer + 1, start), f"its block was ended by the step at line {steps[killer].line + 1}")
        ran = _head(steps[killer].code, first.progress.get(len(replay) + killer - todo[0]))
        replay += [_unjudged(steps[i].code, steps[i]) for i in todo if i < killer]
        replay += [_unjudged(ran, steps[killer])] if ran else []  # what the killed step did define
        judge.session.heads[killer] = ran
    else:
        judge.skip(range(start, len(steps)), f"docbot ran {_SESSIONS} fresh sessions of this doc and stopped")
    return judge.session


def findings_from_run(steps: list[Step], run: SandboxRun, timeout_s: float,
                      second: SandboxRun | None = None,
                      memory_mb: int = DEFAULT_EXAMPLE_MEMORY_MB) -> list[Finding]:
    """The findings of one run of ``steps`` (and of a second run, which tells a random output apart)."""
    judge = _Judge(steps, timeout_s, memory_mb)
    todo = list(range(len(steps)))
    judge.take(todo, run, _own(run, 0, todo), _own(second, 0, todo) if second else None)
    return judge.session.findings


def _run(plan: list[Step], name: str, context: ExampleContext, session: Session) -> SandboxRun:
    session.runs += 1
    return run_steps(plan, context.module, name, context.sys_path, context.timeout_s, context.memory_mb,
                     context.sandbox, root=context.root)


def _own(run: SandboxRun, replayed: int, todo: list[int]) -> list[dict[str, Any]]:
    """The run's results for the steps it judged, indexed as in the doc (the replayed steps' are dropped)."""
    return [{**r, "index": todo[r["index"] - replayed]} for r in run.results if r["index"] >= replayed]


def _unjudged(code: str, step: Step) -> Step:
    return Step(code, "none", fatal=False, shown=step.shown, line=step.line)


def _head(code: str, statement: int | None) -> str:
    """The lines of ``code`` before its statement number ``statement`` (the one that did not finish): what the
    killed step did define."""
    if not statement:
        return ""
    try:
        body = ast.parse(code).body
    except SyntaxError:
        return ""
    if statement >= len(body):
        return ""
    node = body[statement]
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return "\n".join(code.splitlines()[: first - 1])


def _block_end(steps: list[Step], index: int) -> int:
    """The first step after ``index`` in another block."""
    return next((j for j in range(index + 1, len(steps)) if steps[j].line != steps[index].line), len(steps))


class _Judge:
    """Turns each step's result into its finding, across the sessions of one doc: a NameError about a name a failed
    step was to bind is that failure's echo, not a finding of its own (any other is the doc's), and the machine's
    state an earlier step showed (docbot.verify.checks.environment) holds for the later ones."""

    def __init__(self, steps: list[Step], timeout_s: float, memory_mb: int) -> None:
        self.steps, self.timeout_s = steps, timeout_s
        self.environment = Environment(memory_mb)
        self.unmade: dict[str, int] = {}  # a name a failed step was to bind -> that step's block line
        self.stale: dict[str, int] = {}  # ... a name it was to rebind or was handed, or an attribute or item it was to
        # set (a path, `section.start_type`), its failing line known -> line
        self.session = Session()

    def take(self, todo: list[int], run: SandboxRun, mine: list[dict[str, Any]],
             again: list[dict[str, Any]] | None, replayed: int = 0) -> int | None:
        """Judge one session's results (after ``replayed`` steps it ran unjudged); the index of the step that ended
        it early, else None."""
        if run.untrusted is not None:
            self._whole(todo, Finding(Check.EXAMPLE_UNTRUSTED, f"the examples wrote to docbot's result channel "
                                      f"({run.untrusted}); none of their results is trusted", code_fact=run.untrusted))
            return None
        if run.import_error is not None or not run.ready:
            self._whole(todo, not_run(run))
            return None
        if len(run.results) - len(mine) < replayed:  # it ended while it ran again what had run before
            self.skip(todo, "a fresh session did not get past the doc's earlier steps")
            return None
        others = {r["index"]: r for r in again or []}
        for result in mine:
            if not self._one(result, others.get(result["index"])):
                self.skip([i for i in todo if i > result["index"]], "an earlier step rebound the documented name")
                return None
        if len(mine) == len(todo):
            return None
        killer = todo[len(mine)]
        step = self.steps[killer]
        self.session.judged.append((killer, replace(unfinished(step, run, self.timeout_s), line=step.line)))
        self._unmade(killer, "")
        self.session.not_reached[killer] = "it did not finish"
        return killer

    def _unmade(self, index: int, ran: str) -> None:
        """The names a failed step was to bind and did not (``ran``: its lines before the one that failed)."""
        step = self.steps[index]
        if ran:
            self.session.heads.setdefault(index, ran)
        for name in bound_names(step.code) - bound_names(ran):
            self.unmade.setdefault(name, step.line)

    def _stale_use(self, step: Step, result: dict[str, Any]) -> tuple[str, int] | None:
        """The name this step reads that an earlier step failed to rebind, so that it holds the value from before
        (celery 5.7.0's tasks guide: `@app.task(name=...)` fails on `app`, and `add.name` shows an earlier `add`'s),
        with that step's line; and what this step binds, fails to rebind or hands to the call that failed (it may
        be half filled: ``environment.handed_names``), for the steps after it. Only a failure whose line is known
        counts: what a step that timed out or ended its session had bound is not known."""
        found = next(((n, self.stale[n]) for n in sorted(read_paths(step.code)) if n in self.stale), None)
        if result["status"] in ("raised", "wrong_exception") and result.get("line") is not None:
            line = result.get("line")
            for name in bound_names(step.code) - bound_names(head(step.code, line)) | handed_names(step.code, line):
                self.stale.setdefault(name, step.line)
        elif self.stale and result["status"] not in FAILED_STATUSES:
            # what it rebinds or sets afresh holds today's value again, and so does every part of a rebound name
            made, bound = set_paths(step.code), bound_names(step.code)
            for path in [p for p in self.stale if p in made or re.split(r"[.\[]", p, maxsplit=1)[0] in bound]:
                del self.stale[path]
        return found

    def skip(self, indices: Any, why: str) -> None:
        for index in indices:
            self.session.not_reached.setdefault(index, why)

    def _whole(self, todo: list[int], finding: Finding) -> None:
        self.session.judged.append((None, finding))
        self.skip(todo, finding.message)

    def _one(self, result: dict[str, Any], other: dict[str, Any] | None) -> bool:
        index = result["index"]
        step = self.steps[index]
        self.session.results[index] = result
        if result["status"] == "rebound":
            self.session.judged.append((index, rebound(step)))
            return False
        why = self.environment.reason(step, result)
        finding = finding_for(step, result)
        undefined = _UNDEFINED.match(result.get("error", ""))
        named = undefined.group(1) if undefined is not None and undefined.group(1) in self.unmade else None
        stale = self._stale_use(step, result)
        if result["status"] in ("raised", "wrong_exception"):
            self._unmade(index, head(step.code, result.get("line")))
        if finding is None:
            return True
        if named is not None or (why is None and stale is not None):
            echoed, at = (named, self.unmade[named]) if named is not None else stale or ("", 0)
            self.session.not_reached[index] = f"it reads `{echoed}`, which the step at line {at + 1} failed to make " \
                "or fill"
            return True  # the echo of that failure, not a finding of its own
        if why is not None:
            finding = lower(replace(finding, message=f"{finding.message}; not the doc's fault: {why}"),
                            Severity.NOTE, why)
        elif result["status"] == "mismatch" and other is not None and other.get("got") != result.get("got"):
            finding = Finding(Check.EXAMPLE_NONDETERMINISTIC,
                              f"example `{step.shown or step.code.strip()}` prints "
                              "something different on each run; its stated output cannot be checked",
                              step.want, f"{inline(result.get('got', ''))} / {inline(other.get('got', ''))}")
        self.session.judged.append((index, replace(finding, line=step.line)))
        return True
