"""``docbot run``: scan the diff, document what needs it, merge the sections into docs/api.

Cheap decisions come first and need no model: a deleted function loses its section, a function
whose section already carries its source hash is "unchanged". Only when something really needs a
doc is the documenter (models, preflight, graph) built, so a commit touching no public function
never contacts a model server. Each module's file is written as soon as its functions are done,
atomically, so an interrupted run keeps the modules it finished; one failing function keeps its
old section and never costs the others theirs. What is in scope and what each module's doc file
holds comes from ``docbot.plan``, which ``docbot check`` reads too.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from docbot.apidocs import index as api_index
from docbot.apidocs import pages
from docbot.run.cache import ResultCache, cache_key, checked, facts_of, open_results
from docbot.config.deadline import Deadline, DeadlineReached
from docbot.events import EventSink, ProgressEvent, ResultEvent, WarningEvent
from docbot.plan import ModuleDocs, plan_modules
from docbot.scan.repo import DiffSpec, scan
from docbot.results import FunctionResult, RunReport, Status, StatusWord, Target
from docbot.run.jobs import Rounds, Runner, Slots, Task
from docbot.run.writing import write_module
from docbot.config.settings import Settings
from docbot.run.shards import Shard

# (target, its current section body or "" when it has none) -> its result. The current body may hold a
# person's edits: the writer starts from it (docs/design.md#loop, update, do not rewrite).
Documenter = Callable[[Target, str], FunctionResult]


@dataclass
class _Module:
    """One module's plan, and the targets this run sends to the loop."""

    plan: ModuleDocs
    to_document: list[tuple[Target, str]] = field(default_factory=list)  # (target, source hash)
    keys: dict[str, str] = field(default_factory=dict)  # qualname -> cache key, for the queued targets


@dataclass
class _Progress:
    """What every module of one run shares: counters, the documenter, the cache and the worker slots."""

    emit: Rounds
    total: int
    deadline: Deadline | None
    documenter: Documenter | None = None
    cache: ResultCache | None = None
    slots: Slots | None = None
    index: int = 0

    def next(self, target: Target) -> None:
        with self.emit.lock:
            self.index += 1
            self.emit(ProgressEvent(self.index, self.total, target.module, target.qualname))


def run_docs(settings: Settings, repo_root: Path, spec: DiffSpec, paths: Sequence[str], emit: EventSink, *,
             documenter_factory: Callable[[], Documenter] | None = None,
             clock: Callable[[], float] = time.monotonic, use_cache: bool | None = None,
             shard: Shard | None = None, cache_dir: Path | None = None) -> RunReport:
    """Document every target of the scan and write docs/api; returns what happened to each.

    A ``ModelServerError`` while the documenter is built (preflight) ends the run before anything
    is written. ``documenter_factory`` replaces the real loop (tests, replays); ``clock`` the timer
    of the time budget: a deadline, so the function in flight stops at its next model call.
    ``use_cache`` None: the cache (``settings.cache``) serves the real loop only, because its key names
    the settings' models and a replaced documenter is not them. ``shard``: only its modules.
    ``cache_dir``: the result cache's folder outside the repository (the Action's runner temp); None:
    the repository's ``.docbot/cache`` (docbot.run.cache).
    """
    deadline = Deadline(clock(), settings.time_budget_s, clock) if settings.time_budget_s else None
    found = scan(repo_root, spec, paths, include_dunder=settings.include_dunder,
                 exclude=settings.exclude, cache=settings.cache, outside_package=settings.scan_outside_package)
    report = RunReport(scan_errors=list(found.errors), base=found.base, head=found.head,
                       shard=(shard.index, shard.count) if shard else None)  # merge checks none is missing
    for path in found.skipped:  # said once per run, never a failure (docs/design.md#scanner)
        emit(WarningEvent(f"{path}: not an importable module name, so its functions are not API; skipped"))
    modules = [_Module(plan) for plan in plan_modules(found, settings, repo_root, spec, paths)
               if shard is None or shard.holds(plan.home.page if plan.home else plan.name)]  # a page: one shard
    results_by_module = {m.plan.name: _decide_cheap(m) for m in modules}
    rounds = Rounds(emit)
    progress = _Progress(rounds, sum(len(m.plan.targets) for m in modules), deadline, slots=Slots(settings))
    if use_cache is None:
        use_cache = documenter_factory is None and settings.cache
    if use_cache and not settings.record:  # a recording must hold every exchange
        cache = open_results(repo_root, cache_dir, lambda message: emit(WarningEvent(message)))
        progress.cache = cache
        for module in modules:
            if cache is not None:
                _reuse(module, results_by_module[module.plan.name], settings, cache, repo_root)
    # Only now, and only in time: building it contacts the model server.
    if _waiting(modules, results_by_module) and not (deadline and deadline.passed()):
        progress.documenter = (documenter_factory or _default_factory(settings, repo_root, rounds, deadline))()
    runner = Runner(settings.jobs)
    written_now: dict[str, str | None] = {}  # pages this run wrote: several modules share a public page
    try:
        started = [_start_module(m, results_by_module[m.plan.name], progress, runner) for m in modules]
        for module, pending in zip(modules, started):
            _collect_module(module, results_by_module[module.plan.name], pending, progress)
            _finish_module(module, results_by_module[module.plan.name], repo_root, report, rounds, written_now)
    except BaseException:
        runner.close(wait=False)  # Ctrl-C or a bug: do not wait for the calls in flight
        raise
    runner.close()
    if shard is None:  # a shard sees only its modules; the index is written by a whole run (docs/design.md#shards)
        report.written += api_index.write_index(repo_root, settings.docs_dir, emit)  # docs/design.md#api-index
    return report


def _finish_module(module: _Module, results: dict[str, FunctionResult], repo_root: Path, report: RunReport,
                   emit: EventSink, written_now: dict[str, str | None]) -> None:
    """Write the module's doc file and add what happened to ``report``."""
    final, written, notices = write_module(module.plan, module.to_document, results, repo_root, written_now)
    for result in final:
        emit(ResultEvent(result))
    for notice in notices:
        emit(WarningEvent.about(notice))
    report.results += final
    report.written += [path for path in written if path not in report.written]  # a shared page: once
    report.notices += notices


def _waiting(modules: list[_Module], results: dict[str, dict[str, FunctionResult]]) -> bool:
    return any(t.qualname not in results[m.plan.name] for m in modules for t, _ in m.to_document)


def _reuse(module: _Module, results: dict[str, FunctionResult], settings: Settings, cache: ResultCache,
           repo_root: Path) -> None:
    """Results the cache holds for the queued targets (0 model calls); their keys, for the others. A hit
    ships as its doc model rendered again and passing the exact checks (``cache.checked``), never as
    the Markdown it stored."""
    for target, _ in module.to_document:
        key = cache_key(target, settings, facts_of(target))
        if key is None:
            continue
        hit = cache.get(key, target)
        result = checked(hit, target, settings, repo_root) if hit is not None else None
        if result is not None and not _edited_since(module, target.qualname, result.markdown):
            results[target.qualname] = result
        else:
            module.keys[target.qualname] = key


def _edited_since(module: _Module, qualname: str, cached: str) -> bool:
    """The function's section is not what docbot last wrote for it: a person edited it, so the writer
    must start from their text (docs/design.md#loop) rather than the cache bringing the old one back."""
    section = module.plan.existing.sections.get(qualname) if module.plan.existing else None
    return section is not None and pages.normalise_body(section.body) != pages.normalise_body(cached)


def _default_factory(settings: Settings, repo_root: Path, emit: EventSink,
                     deadline: Deadline | None) -> Callable[[], Documenter]:
    def build() -> Documenter:
        # The servers are asked before the loop is imported: langgraph and LangChain take seconds (18 s of a
        # loaded machine's 26), and a commit with no server should hear so at once (issue 32).
        from docbot.models.preflight import preflight

        warnings = preflight(settings)
        from docbot.loop.runner import make_documenter

        return make_documenter(settings, repo_root, emit, deadline, warnings=warnings)

    return build


def _decide_cheap(module: _Module) -> dict[str, FunctionResult]:
    """Results that need no model (removed / unchanged); the rest is queued in ``to_document``."""
    sections = module.plan.existing.sections if module.plan.existing else {}
    still_defined = set(module.plan.order or [])
    results: dict[str, FunctionResult] = {}
    for target in module.plan.targets:
        if target.kind == "deleted":
            if target.qualname in still_defined or target.qualname not in sections:
                reason = "still defined" if target.qualname in still_defined else "deleted; it had no section"
                results[target.qualname] = _result(target, "unchanged", reason)
            else:
                results[target.qualname] = FunctionResult.removed_section(target.module, target.qualname, target.path)
            continue
        hash_ = pages.source_hash(target.source)
        section = sections.get(target.qualname)
        if section is not None and section.hash == hash_:
            results[target.qualname] = _result(target, "unchanged")
        else:
            module.to_document.append((target, hash_))
    return results


def _start_module(module: _Module, results: dict[str, FunctionResult], progress: _Progress,
                  runner: Runner) -> dict[str, Task]:
    """Start the documenter on the module's queued targets (in a worker with ``jobs`` > 1)."""
    queued = {target.qualname for target, _ in module.to_document}
    pending: dict[str, Task] = {}
    for target in module.plan.targets:
        if target.qualname in queued and target.qualname not in results:
            pending[target.qualname] = runner.start(functools.partial(_task, target, module, progress))
    return pending


def _collect_module(module: _Module, results: dict[str, FunctionResult], pending: dict[str, Task],
                    progress: _Progress) -> None:
    """The module's results in plan order, whatever order the workers finished in."""
    for target in module.plan.targets:
        if target.qualname in pending:
            results[target.qualname] = pending[target.qualname]()
        else:
            progress.next(target)


def _task(target: Target, module: _Module, progress: _Progress) -> FunctionResult:
    if progress.deadline is not None and progress.deadline.passed():
        progress.next(target)
        return _result(target, "skipped", progress.deadline.reason())
    assert progress.documenter is not None and progress.slots is not None  # built whenever something waits
    with progress.slots.held(target.qualname):
        progress.next(target)
        section = module.plan.existing.sections.get(target.qualname) if module.plan.existing else None
        result = _document_one(progress.documenter, target, section.body if section else "")
        trajectory = progress.emit.take(target.qualname)
    key = module.keys.get(target.qualname)
    if progress.cache is not None and key and result.status == "updated" and not result.removed:
        progress.cache.put(key, result, trajectory)
    return result


def _document_one(documenter: Documenter, target: Target, current: str = "") -> FunctionResult:
    try:
        result = documenter(target, current)
    except DeadlineReached as stopped:  # in flight when the budget ran out: stopped, not failed
        return _result(target, "skipped", str(stopped))
    except Exception as err:  # noqa: BLE001 -- one function's failure (DocbotError or a bug) must not stop the rest
        return _result(target, "failed", f"{type(err).__name__}: {err}")
    result = replace(result, module=target.module, qualname=target.qualname, path=target.path)
    if result.status == "updated" and not pages.normalise_body(result.markdown):
        return replace(result, status="failed", reason="the loop returned an empty document")
    return result


def _result(target: Target, status: Status | StatusWord, reason: str = "") -> FunctionResult:
    return FunctionResult(target.module, target.qualname, status, reason=reason, path=target.path)
