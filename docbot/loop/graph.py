"""Wiring the nodes into a LangGraph ``StateGraph``. Nothing is built at import time.

    draft -> truth_check -> critic -> router -(revise)-> revise -> truth_check -> ...
                                            |-(adjudicate)-> adjudicate -> finish -> END
                                            \\-(finish: adjudicate when_needed, nothing to do)-> finish
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph

from docbot.loop.nodes import Nodes
from docbot.loop.state import LoopState
from docbot.loop.truth import ModelChecker, check_with_sandbox
from docbot.models import RoleModels
from docbot.config.settings import Settings


def build_graph(models: RoleModels, settings: Settings, checker: ModelChecker | None = None) -> Any:
    """Compile the loop for these models and settings; returns a compiled LangGraph graph."""
    nodes = Nodes(models=models, settings=settings, checker=checker or check_with_sandbox)
    graph = StateGraph(LoopState)
    for name in ("draft", "truth_check", "critic", "router", "revise", "adjudicate", "finish"):
        graph.add_node(name, getattr(nodes, name))
    graph.add_edge(START, "draft")
    graph.add_edge("draft", "truth_check")
    graph.add_edge("truth_check", "critic")
    graph.add_edge("critic", "router")
    graph.add_conditional_edges("router", lambda state: state["route"],
                                {"revise": "revise", "adjudicate": "adjudicate", "finish": "finish"})
    graph.add_edge("revise", "truth_check")
    graph.add_edge("adjudicate", "finish")
    graph.add_edge("finish", END)
    return graph.compile()


def recursion_limit(settings: Settings) -> int:
    """A step limit that no allowed run reaches; the router, not this limit, bounds the loop.

    A round runs four nodes (revise, truth_check, critic, router) and the ends add draft, adjudicate
    and finish; 6 steps per round, for every allowed round plus two, leaves room to spare.
    """
    return 6 * (settings.max_attempts + 2) + 10
