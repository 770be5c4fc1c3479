"""Several servers for one role: each call goes to the least busy of them (docs/design.md#servers).

``ServerLoad`` counts the calls in flight on every server URL of one run; it is shared by all the
roles, so a URL that serves two roles is counted once, and no URL ever has more than
``jobs_per_server`` calls at once (a call waits when all of its role's servers are full). A tie goes to
the server listed first, so with one function at a time every call goes to the first server.

Which server answers never changes what is asked, so the files written are the same whichever
answered (the servers are meant to serve the same model).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from pydantic import ConfigDict, Field

from docbot.models.structured import JsonSchemaStructuredMixin


class ServerLoad:
    """Calls in flight per server URL, at most ``limit`` on each."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.busy: Counter[str] = Counter()
        self.changed = threading.Condition()

    def least_busy(self, servers: Sequence[str]) -> str | None:
        """The server with the fewest calls in flight, the first listed on a tie; None when all are full."""
        free = [s for s in servers if self.busy[s] < self.limit]
        return min(free, key=lambda s: self.busy[s]) if free else None  # min keeps the first of equals

    @contextmanager
    def claim(self, servers: Sequence[str]) -> Iterator[str]:
        """Hold a place on the least busy of ``servers`` (waiting for one) for as long as a call lasts."""
        with self.changed:
            self.changed.wait_for(lambda: self.least_busy(servers) is not None)
            server = self.least_busy(servers)
            assert server is not None  # wait_for returned: one is free, and the lock is still held
            self.busy[server] += 1
        try:
            yield server
        finally:
            with self.changed:
                self.busy[server] -= 1
                self.changed.notify_all()


class PooledChatModel(JsonSchemaStructuredMixin, BaseChatModel):
    """One role's model on several servers (``members``: URL -> that server's model, in the listed order)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    members: dict[str, BaseChatModel] = Field(exclude=True)
    load: ServerLoad = Field(exclude=True)
    role: str
    model_name: str

    @property
    def _llm_type(self) -> str:
        return "docbot-pooled"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"role": self.role, "model_name": self.model_name, "servers": list(self.members)}

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        # The member's own _generate: one call stays one LangChain run (callbacks and recordings see it once).
        with self.load.claim(list(self.members)) as server:
            return self.members[server]._generate(messages, stop=stop, run_manager=run_manager, **kwargs)
