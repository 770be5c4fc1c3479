"""The loop's nodes: each takes the state and returns a partial update (docs/design.md#loop).

The writers (generator, reviser, adjudicator) fill a ``DocModel``; docbot renders it, and the critic
reads the rendered page. Nodes never print: they emit ``Event`` values on LangGraph's custom stream,
and a front decides how to show them. Every model call carries metadata (role, model, round) so
recordings can be replayed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from langchain_core.messages import BaseMessage

from docbot import events
from docbot.docmodel import DocModel, doc_model_schema, parse_doc_model, writer_json
from docbot.facts.function import Facts, extract_facts
from docbot.loop import cleanup, fit, prompts, scoring
from docbot.loop.bounds import writer_bounds
from docbot.loop.calls import Ask, emit, structured_call
from docbot.loop.finish import base_model, contradictions, final_of, finding_text
from docbot.loop.router import route_after_critic
from docbot.loop.state import Critique, Drafted, LoopState, ModelData
from docbot.loop.truth import CodeContext, ModelChecker
from docbot.models import RoleModels
from docbot.results import CallRecord, TrajectoryEntry
from docbot.apidocs.render import render_section
from docbot.config.settings import Role, Settings
from docbot.verify.checks.examples import ExampleContext
from docbot.loop.quotes import Claim, quoted_claims_hold


@lru_cache(maxsize=64)
def facts_of(source: str, qualname: str) -> Facts:
    return extract_facts(source, qualname)


def _facts(state: LoopState) -> Facts:
    return facts_of(state["source"], state["qualname"])


def _examples(state: LoopState) -> ExampleContext | None:
    spec = state["examples"]
    return ExampleContext(**{**spec, "sys_path": tuple(spec["sys_path"])}) if spec else None


def _code(state: LoopState) -> CodeContext:
    return CodeContext(state["module"], state["source"], state["module_source"], _examples(state))


def _model(data: ModelData | None) -> DocModel | None:
    return DocModel.model_validate(data) if data is not None else None


def _conservative() -> Critique:
    """What a critique that never parsed counts as: the minimum, never a pass."""
    return Critique(technical_accuracy=0, completeness=0, issues=["evaluation could not be parsed"],
                    fatal_issues=[], critical_fix=scoring.GENERIC_FIX, verdict="fail")


def claims_of(critique: Critique) -> list[Claim]:
    """The critic's fatal claims, each with its quote and any text it quotes inside its problem."""
    claims = []
    for item in critique.fatal_issues:
        own = Claim.from_text(item.problem)
        text = f'"{item.quote}": {item.problem}' if item.quote.strip() else item.problem
        claims.append(Claim(text, tuple(q for q in (item.quote, *own.quotes) if q.strip())))
    return claims


def _doc_ask(role: Role, round_: int, schema: dict[str, Any]) -> Ask:
    return Ask(role, round_, DocModel, prompts.doc_reask, schema, parse_doc_model, "doc model")


Build = Callable[[str], list[BaseMessage]]  # the source to show -> the request's messages


@dataclass(frozen=True)
class Nodes:
    """The nodes, closed over the models, the settings and the truth checker."""

    models: RoleModels
    settings: Settings
    checker: ModelChecker

    def _model_of(self, role: Role) -> Any:
        return {Role.GENERATOR: self.models.generator, Role.CRITIC: self.models.critic,
                Role.ADJUDICATOR: self.models.adjudicator}[role]

    def _fit(self, role: Role, state: LoopState, round_: int, what: str, build: Build) -> fit.Fitted:
        """The request, measured against the role's context before it is sent (docbot.loop.fit)."""
        fitted = fit.fitted(build, state["source"], state["qualname"], fit.budget(self.settings, role),
                            fit.counter_for(self._model_of(role), self.settings), what)
        if fitted.warning:
            emit(events.WarningEvent(fitted.warning, round=round_, qualname=state["qualname"]))
        return fitted

    def _fill(self, role: Role, messages: Any, round_: int,
              state: LoopState) -> tuple[ModelData | None, list[CallRecord]]:
        """One doc model from a writer, tidied, as state data; None when no attempt parsed. The schema's
        bounds follow this function and this writer (docbot.loop.bounds)."""
        schema = doc_model_schema(writer_bounds(_facts(state), self.settings, role))
        parsed, records, _ = structured_call(self._model_of(role), messages, _doc_ask(role, round_, schema),
                                             self.settings, state["qualname"])
        if not isinstance(parsed, DocModel):
            return None, records
        return cleanup.tidy_model(parsed).model_dump(mode="json"), records

    def _write(self, template: str, state: LoopState, round_: int, **extra: Any) -> dict[str, Any]:
        def build(source: str) -> list[BaseMessage]:
            return prompts.writer_messages(template, qualname=state["qualname"], module=state["module"],
                                           source=source, facts=state["facts"] or "(none)", **extra)

        fitted = self._fit(Role.GENERATOR, state, round_, "draft" if round_ == 1 else "revision", build)
        data, records = self._fill(Role.GENERATOR, fitted.messages, round_, state)
        model = _model(data)
        page = render_section(model, _facts(state), state["module"]) if model is not None else ""
        return {"round": round_, "model": data, "draft": page, "calls": records,
                "warnings": [fitted.warning] if fitted.warning else []}

    def draft(self, state: LoopState) -> dict[str, Any]:
        return self._write(prompts.DRAFT, state, 1, current=prompts.current_block(state["current"], state["source"]))

    def truth_check(self, state: LoopState) -> dict[str, Any]:
        model = _model(state["model"])
        if model is None:
            fatal, gaps = ["the writer's answer was not a doc model"], []
        else:
            findings = self.checker(model, _facts(state), _code(state))
            fatal, gaps = contradictions(findings), [finding_text(f) for f in findings if not f.fatal]
        if fatal:
            emit(events.InfoEvent(state["qualname"], state["round"], fatal))
        return {"truth_issues": fatal, "gaps": gaps}

    def _critique(self, state: LoopState) -> tuple[Critique, bool, list[CallRecord], str]:
        """The critique, whether it parsed, the calls made, and the fit's warning ("" when none)."""
        if state["model"] is None:
            return _conservative(), False, [], ""  # nothing to read: no call
        def build(source: str) -> list[BaseMessage]:
            return prompts.critic_messages(qualname=state["qualname"], source=source,
                                           facts=state["facts"] or "(none)",
                                           truth=prompts.bullet_list(state["truth_issues"]), draft=state["draft"])

        fitted = self._fit(Role.CRITIC, state, state["round"], "critique", build)
        ask = Ask(Role.CRITIC, state["round"], Critique, prompts.critique_reask, label="critique")
        parsed, records, _ = structured_call(self.models.critic, fitted.messages, ask, self.settings,
                                             state["qualname"])
        if isinstance(parsed, Critique):
            return parsed, True, records, fitted.warning
        return _conservative(), False, records, fitted.warning

    def critic(self, state: LoopState) -> dict[str, Any]:
        critique, parsed, records, reduced = self._critique(state)
        score = scoring.net_score(critique.technical_accuracy, critique.completeness)
        verdict = quoted_claims_hold(claims_of(critique), state["draft"])
        fatal = [*state["truth_issues"], *verdict.fatal]
        issues = [*critique.issues, *verdict.ordinary]
        fix, replaced = scoring.guard_fix(critique.critical_fix)
        warnings = self._cross_check(critique, score, fatal, state)
        if verdict.ordinary:
            warnings.append(f"round {state['round']}: {len(verdict.ordinary)} fatal claim(s) of the critic quote "
                            "nothing on the page; kept as ordinary issues")
        if replaced:
            warnings.append(f"round {state['round']}: degenerate feedback replaced by a generic fix")
        for warning in warnings:
            emit(events.WarningEvent(warning, round=state["round"], qualname=state["qualname"]))
        entry = TrajectoryEntry(round=state["round"], accuracy=critique.technical_accuracy,
                                completeness=critique.completeness, score=score, issues=issues,
                                fatal_issues=fatal, critical_fix=fix, parsed=parsed,
                                draft_chars=len(state["draft"]), draft_head=state["draft"][:80],
                                calls=[c for c in state["calls"] if c["round"] == state["round"]] + records)
        emit(events.RoundEvent(state["qualname"], self.settings.quality_score_bar, entry))
        update: dict[str, Any] = {"accuracy": critique.technical_accuracy, "completeness": critique.completeness,
                                  "score": score, "issues": issues, "critical_fix": fix, "fatal_issues": fatal,
                                  "trajectory": [entry], "calls": records,
                                  "warnings": ([reduced] if reduced else []) + warnings}  # the fit emitted its own
        if score > state["best_score"] and not fatal and state["model"] is not None:
            update.update(best_model=state["model"], best_score=score)
        if state["model"] is not None and score >= state["best_any_score"]:  # a tie: the later, revised draft
            drafted = Drafted(model=state["model"], truth_issues=state["truth_issues"], fatal_issues=fatal)
            update.update(best_any=drafted, best_any_score=score)
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
        return {"route": decision, "exit_reason": "" if decision == "revise" else reason}

    def revise(self, state: LoopState) -> dict[str, Any]:
        previous = writer_json(state["model"]) if state["model"] is not None else "(none)"
        update = self._write(prompts.REVISE, state, state["round"] + 1, score=state["score"],
                             bar=self.settings.quality_score_bar, fix=state["critical_fix"] or scoring.GENERIC_FIX,
                             fatal=prompts.bullet_list(state["fatal_issues"]),
                             gaps=prompts.bullet_list(state["gaps"]), draft=previous)
        return {**update, "revise_count": state["revise_count"] + 1}

    def adjudicate(self, state: LoopState) -> dict[str, Any]:
        base = base_model(state)
        if base is None:
            return {"adjudicated": None}  # nothing to edit: no call
        concern = prompts.bullet_list([c for c in [state["critical_fix"]] if c] + state["fatal_issues"])

        def build(source: str) -> list[BaseMessage]:
            return prompts.adjudicator_messages(qualname=state["qualname"], source=source, concern=concern,
                                                draft=writer_json(base))

        fitted = self._fit(Role.ADJUDICATOR, state, state["round"], "adjudication", build)
        data, records = self._fill(Role.ADJUDICATOR, fitted.messages, state["round"], state)
        return {"adjudicated": data, "calls": records, "warnings": [fitted.warning] if fitted.warning else []}

    def finish(self, state: LoopState) -> dict[str, Any]:
        facts, code = _facts(state), _code(state)
        final = final_of(state, facts, lambda model: self.checker(model, facts, code))
        if final.warning:
            emit(events.WarningEvent(final.warning, qualname=state["qualname"]))
        page = render_section(final.model, facts, state["module"]) if final.model is not None else ""
        return {"final_model": final.model.model_dump(mode="json") if final.model is not None else None,
                "final_markdown": page, "final_fatal": final.fatal, "approval": final.approval.value,
                "repairs": final.repairs, "warnings": [final.warning] if final.warning else []}
