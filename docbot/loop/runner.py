"""Running the loop for one target: stream the graph, forward its events, build the result value."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable

from langchain_core.callbacks import BaseCallbackHandler

from docbot import events
from docbot.config.deadline import Deadline, DeadlineReached
from docbot.loop.graph import build_graph, recursion_limit
from docbot.loop.state import LoopState, new_state
from docbot.models import RoleModels
from docbot.results import CallRecord
from docbot.results import ExitReason, FunctionResult, Outcome, SectionStatus, Status, Target
from docbot.config.settings import Settings
from docbot.verify.checks.examples import ExampleContext


class DeadlineCallback(BaseCallbackHandler):
    """Refuses every model call once the deadline has passed."""

    raise_error = True  # LangChain swallows a handler's exception unless told otherwise

    def __init__(self, deadline: Deadline) -> None:
        self.deadline = deadline

    def _check(self) -> None:
        if self.deadline.passed():
            raise DeadlineReached(self.deadline.reason())

    def on_chat_model_start(self, *_: Any, **__: Any) -> None:
        self._check()

    def on_llm_start(self, *_: Any, **__: Any) -> None:
        self._check()


def facts_for(source: str, qualname: str) -> str:
    from docbot.facts.function import extract_facts  # pure, but only needed here

    return extract_facts(source, qualname).to_prompt()


# (target, its current section body or "") -> its result: what ``docbot run`` calls per function.
Documenter = Callable[[Target, str], FunctionResult]


def initial_state(target: Target, examples: ExampleContext | None, current: str = "",
                  module_source: str = "") -> LoopState:
    return new_state(target.qualname, target.module, target.source, facts_for(target.source, target.qualname),
                     asdict(examples) if examples else None, current, module_source)


def module_text(repo_root: Path, target: Target) -> str:
    """The module ``target`` is in, as the checks that need the whole source read it; "" when the file on
    disk is not the one scanned (the hook documents the staged blob: the worktree may differ) or unreadable."""
    try:
        text = (repo_root / target.path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
    return text if target.source and holds(text, target.source) else ""


def holds(text: str, source: str) -> bool:
    """Whether the module ``text`` holds the definition ``source`` as scanned: a method's source is dedented by its
    own first line's indentation (docbot.scan.targets), so it is looked for in the module dedented the same way
    (comparing it with the file as it stands turned off every module check for every method)."""
    if source in text:
        return True
    first = source.split("\n", 1)[0]
    lines = text.splitlines()
    indents = {line[: len(line) - len(line.lstrip(" \t"))] for line in lines if line.lstrip(" \t") == first}
    return any(source in "".join(line.removeprefix(indent) + "\n" for line in lines) for indent in indents if indent)


def stream_loop(graph: Any, state: LoopState, settings: Settings, emit: events.EventSink,
                callbacks: list[Any] | None = None,
                progress: list[LoopState] | None = None) -> tuple[LoopState, list[str]]:
    """Run the graph once; return the final state and the chain of nodes that ran. ``progress``, when
    given, holds the latest state as the loop goes, so a caller still has it if a node raises."""
    config = {"recursion_limit": recursion_limit(settings), "callbacks": callbacks or []}
    final: LoopState = state
    chain: list[str] = []
    for mode, chunk in graph.stream(state, config, stream_mode=["updates", "custom", "values"]):
        if mode == "custom":
            emit(chunk)
        elif mode == "updates":
            chain.extend(chunk.keys())
        else:
            final = chunk
            if progress is not None:
                progress[:] = [chunk]
    return final, chain


def tokens_by_role(calls: list[CallRecord]) -> dict[str, dict[str, float]]:
    totals: dict[str, dict[str, float]] = defaultdict(lambda: {"in": 0, "out": 0, "seconds": 0.0, "calls": 0})
    for call in calls:
        role = totals[call["role"]]
        role["in"] += call["tokens_in"]
        role["out"] += call["tokens_out"]
        role["seconds"] = round(role["seconds"] + call["seconds"], 3)
        role["calls"] += 1
    return dict(totals)


def result_from_state(target: Target, final: LoopState, settings: Settings) -> FunctionResult:
    """The function's result, carrying the finish step's decision (``final["approval"]``, set by
    docbot.loop.finish) as its outcome; ``failed`` when no writer ever answered with a doc model."""
    from docbot.docmodel import DocModel

    trajectory = final["trajectory"]
    model = DocModel.model_validate(final["final_model"]) if final["final_model"] is not None else None
    outcome = Outcome.FAILED if model is None else Outcome(SectionStatus(final["approval"]).value)
    return FunctionResult(
        module=target.module, qualname=target.qualname,
        status=Status.FAILED if model is None else Status.UPDATED,
        reason="" if model is not None else "; ".join(final["final_fatal"]), path=target.path,
        markdown=final["final_markdown"], scores=[t["score"] for t in trajectory],
        rounds=len(trajectory), exit_reason=ExitReason(final["exit_reason"]) if final["exit_reason"] else "",
        fatal_issues=final["final_fatal"], bar=settings.quality_score_bar,
        tokens=tokens_by_role(final["calls"]), outcome=outcome,
        repairs=tuple(final["repairs"]), doc_model=model, warnings=loop_warnings(final))


def loop_warnings(final: LoopState) -> tuple[str, ...]:
    """What went wrong inside the loop, for the log and the JSON report: the nodes' warnings and each
    critique that never parsed (its retries are warning events too, but only the final miss matters)."""
    unparsed = [f"round {t['round']}: the critic's answer could not be parsed" for t in final["trajectory"]
                if not t["parsed"]]
    return tuple(dict.fromkeys([*final["warnings"], *unparsed]))


def document_target(graph: Any, target: Target, settings: Settings, emit: events.EventSink,
                    examples: ExampleContext | None = None, callbacks: list[Any] | None = None,
                    current: str = "", progress: list[LoopState] | None = None,
                    module_source: str = "") -> tuple[FunctionResult, LoopState]:
    """Run the loop for one target; ``current`` is its section as it stands ("" when it has none)."""
    start = initial_state(target, examples, current, module_source)
    final, _ = stream_loop(graph, start, settings, emit, callbacks, progress)
    result = result_from_state(target, final, settings)
    emit(events.SummaryEvent(result))
    return result, final


def example_context(settings: Settings, repo_root: Path, module: str) -> ExampleContext | None:
    """Examples run against the real code unless turned off (off for untrusted CI contexts)."""
    if settings.run_examples is False:
        return None
    paths = [str(repo_root)] + ([str(repo_root / "src")] if (repo_root / "src").is_dir() else [])
    return ExampleContext(module=module, sys_path=tuple(paths), timeout_s=settings.example_timeout_s,
                          memory_mb=settings.example_memory_mb, sandbox=settings.example_sandbox)


def model_callbacks(settings: Settings) -> list[Any]:
    if not settings.record:
        return []
    from docbot.models.replay import Recorder

    return [Recorder(Path(settings.record))]


def make_documenter(settings: Settings, repo_root: Path, emit: events.EventSink,
                    deadline: Deadline | None = None, *, warnings: list[str] | None = None) -> Documenter:
    """Preflight, then build the models and the graph once; preflight failures raise (nothing written).
    ``warnings``: the preflight's, when the caller ran it before importing this module (docbot.run.pipeline)."""
    from docbot.models.factory import build_models
    from docbot.models.preflight import preflight

    for warning in preflight(settings) if warnings is None else warnings:
        emit(events.WarningEvent(warning))
    return documenter_for(build_models(settings), settings, repo_root, emit, deadline)


def documenter_for(models: RoleModels, settings: Settings, repo_root: Path, emit: events.EventSink,
                   deadline: Deadline | None = None) -> Documenter:
    """Document one target per call; a failure inside one function becomes that function's
    ``failed`` result, so the others' work is kept. Past ``deadline`` the next model call raises
    ``DeadlineReached``, which the caller records as skipped."""
    graph = build_graph(models, settings)
    callbacks = model_callbacks(settings) + ([DeadlineCallback(deadline)] if deadline else [])

    def document(target: Target, current: str = "") -> FunctionResult:
        examples = example_context(settings, repo_root, target.module)
        progress: list[LoopState] = []
        try:
            return document_target(graph, target, settings, emit, examples, callbacks, current, progress,
                                   module_text(repo_root, target))[0]
        except DeadlineReached:
            raise
        except Exception as err:  # DocbotError or not: one bad function never loses the others' work
            # The calls its finished steps made were spent all the same: the report counts them.
            spent = tokens_by_role(progress[-1]["calls"]) if progress else {}
            return FunctionResult(module=target.module, qualname=target.qualname, status=Status.FAILED,
                                  reason=str(err) or type(err).__name__, path=target.path,
                                  bar=settings.quality_score_bar, tokens=spent)

    return document
