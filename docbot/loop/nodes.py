"""The loop's nodes: each takes the state and returns a partial update (docs/design.md#loop).

Nodes never print: they emit ``Event`` values on LangGraph's custom stream, and a front decides how
to show them. Every model call carries metadata (role, model, round) so recordings can be replayed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.config import get_stream_writer

from docbot import events
from docbot.loop import cleanup, prompts, scoring
from docbot.loop.router import route_after_critic
from docbot.loop.state import Critique, LoopState
from docbot.models import RoleModels
from docbot.models.replay import MODEL_KEY, ROLE_KEY, ROUND_KEY
from docbot.models.structured import without_reasoning
from docbot.records import CallRecord, TrajectoryEntry
from docbot.settings import Role, Settings
from docbot.verify import ExampleContext, Finding

# (doc, source, qualname, examples) -> findings; the truth checks of docs/design.md#truth-checks.
Checker = Callable[[str, str, str, ExampleContext | None], list[Finding]]


def emit(event: events.Event) -> None:
    get_stream_writer()(event)


def call_model(model: BaseChatModel | Any, messages: list[BaseMessage], role: Role, round_: int,
               settings: Settings) -> tuple[Any, CallRecord]:
    """Invoke a model (or a structured runnable) with replay metadata; return the answer and a call record."""
    config: RunnableConfig = {"metadata": {ROLE_KEY: role, MODEL_KEY: settings.model_for(role),
                                           ROUND_KEY: round_}, "run_name": role.lower()}
    started = time.perf_counter()
    answer = model.invoke(messages, config=config)
    raw = answer["raw"] if isinstance(answer, dict) else answer
    usage = getattr(raw, "usage_metadata", None) or {}
    record = CallRecord(role=role, round=round_, tokens_in=int(usage.get("input_tokens", 0)),
                        tokens_out=int(usage.get("output_tokens", 0)),
                        seconds=round(time.perf_counter() - started, 3))
    return answer, record


def _text(message: Any) -> str:
    content = getattr(message, "content", message)
    return content if isinstance(content, str) else str(content)


def _cut_off(raw: Any) -> bool:
    """The answer hit the token limit (Ollama: done_reason, OpenAI and llama.cpp: finish_reason)."""
    meta = getattr(raw, "response_metadata", None) or {}
    return "length" in (meta.get("done_reason"), meta.get("finish_reason"))


def _unusable(answer: dict[str, Any]) -> str:
    """Why a structured answer cannot be used, or "" when it can.

    A cut-off answer counts as unparsed even when the parser managed to complete its JSON: the
    scores in a truncated critique are whatever the model had written when it was stopped.
    """
    if _cut_off(answer.get("raw")):
        return "the answer was cut off at the token limit; answer with a shorter JSON object"
    if answer.get("parsed") is None:
        return str(answer.get("parsing_error"))[:400]
    return ""


def _conservative(error: str) -> Critique:
    """What a critique that never parsed counts as: the minimum, never a pass."""
    return Critique(technical_accuracy=0, completeness=0, issues=["evaluation could not be parsed"],
                    fatal_issues=[], critical_fix=scoring.GENERIC_FIX, verdict="fail")


def _examples(state: LoopState) -> ExampleContext | None:
    spec = state["examples"]
    return ExampleContext(**{**spec, "sys_path": tuple(spec["sys_path"])}) if spec else None


@dataclass(frozen=True)
class Nodes:
    """The nodes, closed over the models, the settings and the truth checker."""

    models: RoleModels
    settings: Settings
    checker: Checker

    def _write(self, template: str, state: LoopState, round_: int, **extra: Any) -> tuple[str, CallRecord]:
        messages = prompts.writer_messages(template, qualname=state["qualname"], module=state["module"],
                                           source=state["source"], facts=state["facts"] or "(none)",
                                           **extra)
        answer, record = call_model(self.models.generator, messages, Role.GENERATOR, round_, self.settings)
        draft = cleanup.ensure_heading(cleanup.clean_markdown(_text(answer)), state["qualname"])
        return draft, record

    def draft(self, state: LoopState) -> dict[str, Any]:
        draft, record = self._write(prompts.DRAFT, state, 1)
        return {"round": 1, "draft": draft, "calls": [record]}

    def truth_check(self, state: LoopState) -> dict[str, Any]:
        findings = self.checker(state["draft"], state["source"], state["qualname"], _examples(state))
        fatal = [f.message for f in findings if f.fatal]
        if fatal:
            emit(events.InfoEvent(state["qualname"], state["round"], fatal))
        return {"truth_issues": fatal}

    def _critique(self, state: LoopState) -> tuple[Critique, bool, list[CallRecord]]:
        structured = self.models.critic.with_structured_output(Critique, include_raw=True)
        messages: list[BaseMessage] = prompts.critic_messages(
            qualname=state["qualname"], source=state["source"], facts=state["facts"] or "(none)",
            truth=prompts.bullet_list(state["truth_issues"]), draft=state["draft"])
        records: list[CallRecord] = []
        error = ""
        for attempt in range(1, self.settings.parse_attempts + 1):
            answer, record = call_model(structured, messages, Role.CRITIC, state["round"], self.settings)
            answer = without_reasoning(answer, Critique)
            records.append(record)
            error = _unusable(answer)
            if not error:
                return answer["parsed"], True, records
            emit(events.WarningEvent(f"critique {attempt}/{self.settings.parse_attempts} could not be parsed",
                                     round=state["round"], qualname=state["qualname"], error=error))
            messages = [*messages, AIMessage(_text(answer.get("raw"))),
                        HumanMessage(prompts.render(prompts.CRITIQUE_REPAIR, error=error))]
        return _conservative(error), False, records

    def critic(self, state: LoopState) -> dict[str, Any]:
        critique, parsed, records = self._critique(state)
        score = scoring.net_score(critique.technical_accuracy, critique.completeness)
        fatal = [*state["truth_issues"], *critique.fatal_issues]
        fix, replaced = scoring.guard_fix(critique.critical_fix)
        warnings = self._cross_check(critique, score, fatal, state)
        if replaced:
            warnings.append(f"round {state['round']}: degenerate feedback replaced by a generic fix")
        for warning in warnings:
            emit(events.WarningEvent(warning, round=state["round"], qualname=state["qualname"]))
        entry = TrajectoryEntry(round=state["round"], accuracy=critique.technical_accuracy,
                                completeness=critique.completeness, score=score, issues=critique.issues,
                                fatal_issues=fatal, critical_fix=fix, parsed=parsed,
                                draft_chars=len(state["draft"]), draft_head=state["draft"][:80],
                                calls=[c for c in state["calls"] if c["round"] == state["round"]] + records)
        emit(events.RoundEvent(state["qualname"], self.settings.quality_score_bar, entry))
        update: dict[str, Any] = {"accuracy": critique.technical_accuracy, "completeness": critique.completeness,
                                  "score": score, "issues": critique.issues, "critical_fix": fix,
                                  "fatal_issues": fatal, "trajectory": [entry], "calls": records,
                                  "warnings": warnings}
        if score > state["best_score"] and not fatal:
            update.update(best_draft=state["draft"], best_score=score)
        return update

    def _cross_check(self, critique: Critique, score: int, fatal: list[str], state: LoopState) -> list[str]:
        """The model's verdict is only compared with the code's decision, never obeyed."""
        passed = score >= self.settings.quality_score_bar and not fatal
        if critique.verdict is None or (critique.verdict == "pass") == passed:
            return []
        decided = "pass" if passed else "fail"
        return [f"round {state['round']}: the critic's verdict '{critique.verdict}' overruled: score {score} vs "
                f"bar {self.settings.quality_score_bar}, {len(fatal)} fatal issue(s) -> {decided}"]

    def router(self, state: LoopState) -> dict[str, Any]:
        decision, reason = route_after_critic(state, self.settings)
        emit(events.RouteEvent(decision, reason, state["round"], state["qualname"]))
        return {"route": decision, "exit_reason": reason if decision == "adjudicate" else ""}

    def revise(self, state: LoopState) -> dict[str, Any]:
        round_ = state["round"] + 1
        draft, record = self._write(prompts.REVISE, state, round_, score=state["score"],
                                    bar=self.settings.quality_score_bar, fix=state["critical_fix"] or
                                    scoring.GENERIC_FIX, fatal=prompts.bullet_list(state["fatal_issues"]),
                                    draft=state["draft"])
        return {"round": round_, "revise_count": state["revise_count"] + 1, "draft": draft,
                "calls": [record]}

    def adjudicate(self, state: LoopState) -> dict[str, Any]:
        base = state["best_draft"] or state["draft"]
        concern = prompts.bullet_list([c for c in [state["critical_fix"]] if c] + state["fatal_issues"])
        messages = prompts.adjudicator_messages(qualname=state["qualname"], source=state["source"],
                                                concern=concern, draft=base)
        answer, record = call_model(self.models.adjudicator, messages, Role.ADJUDICATOR, state["round"],
                                    self.settings)
        final = cleanup.ensure_heading(cleanup.clean_markdown(_text(answer)), state["qualname"])
        shipped, fatal, warnings = self._pick_final(state, base, final)
        return {"final_markdown": shipped, "final_fatal": fatal, "calls": [record], "warnings": warnings}

    def _pick_final(self, state: LoopState, base: str, adjudicated: str) -> tuple[str, list[str], list[str]]:
        """Ship the adjudicated text unless it broke something the base draft had right.

        See docs/design.md#gate.
        """
        # The best draft is clean by construction; without one the base is the current draft, whose
        # truth and critic issues the state already holds: no need to run the checks on it again.
        base_fatal: list[str] = [] if state["best_draft"] else list(state["truth_issues"])
        if not base.strip():
            base_fatal = base_fatal or ["no draft was produced"]
        critic_fatal = [] if state["best_draft"] else [f for f in state["fatal_issues"] if f not in base_fatal]
        if len(adjudicated.strip().splitlines()) > 1:
            found = [f.message for f in self.checker(adjudicated, state["source"], state["qualname"],
                                                     _examples(state)) if f.fatal]
            introduced = [f for f in found if f not in base_fatal]
            if not introduced:
                return adjudicated, _unique(found + critic_fatal), []
            message = (f"the adjudicator introduced {len(introduced)} fatal issue(s) "
                       f"({introduced[0]}); shipping the best draft instead")
        else:
            message = "the adjudicator returned no usable Markdown; shipping the best draft instead"
        emit(events.WarningEvent(message, qualname=state["qualname"]))
        return base, _unique(base_fatal + critic_fatal), [message]


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))
