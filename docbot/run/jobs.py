"""How ``docbot run`` documents several functions at once (docs/design.md#jobs).

A bounded thread pool (``jobs``) runs the documenter; a function holds a slot on every model server
its roles use (``jobs_per_server``, per URL of a role that lists several; one for the in-process
embedded model, which is not thread-safe)
for as long as it is documented, so no server sees more calls at once than it has slots. Results are
collected in plan order, never in completion order, so the files written are the same whatever
finishes first. With ``jobs`` 1 nothing runs in a thread: each function is documented when its turn
comes, exactly as before.

Events from the workers go through one lock, and the rounds of each function are recorded for the
cache (``docbot.run.cache``); two functions with one qualified name never run at once, so a round event,
which names only the qualified name, is never credited to the wrong one.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager

from docbot.events import Event, EventSink, RoundEvent
from docbot.results import TrajectoryEntry
from docbot.results import FunctionResult
from docbot.config.settings import ROLES, Settings

Task = Callable[[], FunctionResult]


class Runner:
    """Starts tasks; ``start`` returns what to call for the result (it waits for a running task)."""

    def __init__(self, jobs: int) -> None:
        self.pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="docbot") if jobs > 1 else None

    def start(self, task: Task) -> Task:
        if self.pool is None:
            return task  # run inline, when the result is asked for: the serial order
        return self.pool.submit(task).result

    def close(self, *, wait: bool = True) -> None:
        """Cancel what has not started; ``wait`` for what has."""
        if self.pool is not None:
            self.pool.shutdown(wait=wait, cancel_futures=True)


def server_of(settings: Settings, role: str) -> str:
    """The role's server (its URLs, when it lists several: a pool of them, ``docbot.models.pool``)."""
    backend = settings.backend_for(role)
    return backend if backend in ("embedded", "replay") else f"{backend} {' '.join(settings.base_urls_for(role))}"


def server_limit(settings: Settings, role: str) -> int:
    """Functions at once on the role's server: one for the in-process embedded model; ``jobs_per_server``
    for each URL of a pool, whose own ``ServerLoad`` keeps every URL to its limit, call by call."""
    if settings.backend_for(role) == "embedded":
        return 1
    return settings.jobs_per_server * max(1, len(settings.base_urls_for(role)))


class Slots:
    """A semaphore per model server; a function holds one on each server its roles use, and one lock
    per qualified name (see the module's docstring)."""

    def __init__(self, settings: Settings) -> None:
        limits = {server_of(settings, role): server_limit(settings, role) for role in ROLES}
        self.servers = sorted(limits)  # one order: no deadlock
        self.limits = {s: threading.BoundedSemaphore(limits[s]) for s in self.servers}
        self.names: defaultdict[str, threading.Lock] = defaultdict(threading.Lock)
        self.guard = threading.Lock()

    @contextmanager
    def held(self, qualname: str) -> Iterator[None]:
        with self.guard:
            name = self.names[qualname]
        with ExitStack() as stack:
            stack.enter_context(name)
            for server in self.servers:
                stack.enter_context(self.limits[server])
            yield


class Rounds:
    """A sink in front of the real one: serialises events and keeps each function's round entries."""

    def __init__(self, emit: EventSink) -> None:
        self.emit = emit
        self.lock = threading.RLock()
        self.entries: defaultdict[str, list[TrajectoryEntry]] = defaultdict(list)

    def __call__(self, event: Event) -> None:
        with self.lock:
            if isinstance(event, RoundEvent):
                self.entries[event.qualname].append(event.entry)
            self.emit(event)

    def take(self, qualname: str) -> list[TrajectoryEntry]:
        with self.lock:
            return self.entries.pop(qualname, [])
