"""Wiring the nodes into a LangGraph ``StateGraph``. Nothing is built at import time.

    draft -> truth_check -> critic -> router -(revise)-> revise -> truth_check -> ...
                                            \\-(adjudicate)-> adjudicate -> END
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph

from docbot.loop.nodes import Checker, Nodes
from docbot.loop.state import LoopState
from docbot.models import RoleModels
from docbot.settings import Settings


def default_checker() -> Checker:
    from docbot.verify.check import check_doc  # the truth checks live apart from the loop

    return check_doc


def build_graph(models: RoleModels, settings: Settings, checker: Checker | None = None) -> Any:
    """Compile the loop for these models and settings; returns a compiled LangGraph graph."""
    nodes = Nodes(models=models, settings=settings, checker=checker or default_checker())
    graph = StateGraph(LoopState)
    graph.add_node("draft", nodes.draft)
    graph.add_node("truth_check", nodes.truth_check)
    graph.add_node("critic", nodes.critic)
    graph.add_node("router", nodes.router)
    graph.add_node("revise", nodes.revise)
    graph.add_node("adjudicate", nodes.adjudicate)
    graph.add_edge(START, "draft")
    graph.add_edge("draft", "truth_check")
    graph.add_edge("truth_check", "critic")
    graph.add_edge("critic", "router")
    graph.add_conditional_edges("router", lambda state: state["route"],
                                {"revise": "revise", "adjudicate": "adjudicate"})
    graph.add_edge("revise", "truth_check")
    graph.add_edge("adjudicate", END)
    return graph.compile()


def recursion_limit(settings: Settings) -> int:
    """A step limit that no allowed run reaches; the router, not this limit, bounds the loop.

    A round runs four nodes (revise, truth_check, critic, router) and the ends add draft and
    adjudicate; 6 steps per round, for every allowed round plus two, leaves room to spare.
    """
    return 6 * (settings.max_attempts + 2) + 10
