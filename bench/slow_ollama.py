"""BENCH SUPPORT: a loopback server speaking Ollama's API that answers every chat call after a fixed delay.

It stands for a model server whose time is all latency, so what a benchmark measures is how docbot
overlaps calls. Answers are scripted from the request: the critic's structured call (``format`` is a
schema) gets an approving critique, a writer's (the doc model's schema) a correct doc model of the bench's
functions, an unstructured call a short Markdown doc of the function the prompt names. ``chats`` counts
the chat calls per role-like kind ("critique" / "doc").
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.support.loopback import LoopbackServer

CRITIQUE = {"technical_accuracy": 100, "completeness": 100, "issues": [], "fatal_issues": [], "critical_fix": ""}
# A correct doc model of the bench's functions, ``def fN(x): return x + N``: what the writers return.
DOC_MODEL = {"summary": "Returns x plus a constant.", "description": "",
             "parameters": [{"name": "x", "description": "The value to add to."}],
             "returns": "x plus the constant.", "raises": [], "examples": [], "notes": ""}
_NAMED = re.compile(r"`([A-Za-z_][\w.]*)`")


def doc_for(qualname: str) -> str:
    name = qualname.rsplit(".", 1)[-1]
    return (f"## `{qualname}`\n\nReturns `x` plus a constant.\n\n```python\ndef {name}(x)\n```\n\n"
            "**Parameters**\n\n| Name | Type | Default | Description |\n|---|---|---|---|\n"
            "| `x` | int | required | The value to add to. |\n\n**Returns**: `int`, `x` plus the constant.\n\n"
            "**Raises**: nothing.\n")


class SlowOllama:
    """Serves ``models`` on 127.0.0.1; each chat call is answered ``delay_s`` after it arrived."""

    def __init__(self, models: list[str], delay_s: float = 1.0) -> None:
        self.models = models
        self.delay_s = delay_s
        self.chats: Counter[str] = Counter()
        self.lock = threading.Lock()
        self.in_flight = 0
        self.most_in_flight = 0  # the most chat calls answered at once since reset(): did calls overlap?
        self.first_arrival: float | None = None  # time.monotonic() of the first chat call since reset()
        self.last_answer: float | None = None
        self._server = LoopbackServer(_handler_for(self))

    def __enter__(self) -> SlowOllama:
        self._server.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._server.stop()

    @property
    def base_url(self) -> str:
        return self._server.base_url

    def reset(self) -> None:
        with self.lock:
            self.chats.clear()
            self.first_arrival = self.last_answer = None
            self.most_in_flight = 0

    @property
    def busy_s(self) -> float:
        """From the first chat call's arrival to the last answer: the span the functions were documented in."""
        return (self.last_answer - self.first_arrival) if self.first_arrival and self.last_answer else 0.0

    def answer(self, body: dict[str, Any]) -> str:
        with self.lock:
            self.first_arrival = self.first_arrival or time.monotonic()
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
        time.sleep(self.delay_s)
        schema = body.get("format")
        structured = isinstance(schema, (dict, str)) and schema
        writer = isinstance(schema, dict) and "summary" in schema.get("properties", {})
        with self.lock:
            self.in_flight -= 1
            self.chats["doc" if writer or not structured else "critique"] += 1
            self.last_answer = time.monotonic()
        if writer:
            return json.dumps(DOC_MODEL)
        if structured:
            return json.dumps(CRITIQUE)
        prompt = "\n".join(str(m.get("content", "")) for m in body.get("messages", []) if m.get("role") == "user")
        found = _NAMED.search(prompt)
        return doc_for(found.group(1) if found else "f")


def _handler_for(server: SlowOllama) -> type[BaseHTTPRequestHandler]:
    class Handler(_Handler):
        slow = server

    return Handler


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    slow: SlowOllama

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        if self.path == "/api/tags":
            self._send({"models": [{"name": m, "model": m, "size": 1, "digest": "0" * 64, "details": {}}
                                   for m in self.slow.models]})
        elif self.path == "/api/version":
            self._send({"version": "0.32.15"})
        else:
            self._send({"error": "404 page not found"}, 404)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        if self.path == "/api/show":
            self._send({"capabilities": ["completion"], "model_info": {}})
            return
        if self.path != "/api/chat":
            self._send({"error": "404 page not found"}, 404)
            return
        text = self.slow.answer(body)
        final = {"model": body.get("model"), "created_at": "2026-11-30T00:00:00Z", "done": True,
                 "done_reason": "stop", "total_duration": 1_000_000, "load_duration": 0, "prompt_eval_count": 12,
                 "prompt_eval_duration": 400_000, "eval_count": 7, "eval_duration": 600_000}
        if body.get("stream", True):
            lines = [{"model": body.get("model"), "message": {"role": "assistant", "content": text}, "done": False},
                     {**final, "message": {"role": "assistant", "content": ""}}]
            self._raw("".join(json.dumps(line) + "\n" for line in lines), "application/x-ndjson")
        else:
            self._send({**final, "message": {"role": "assistant", "content": text}})

    def _send(self, payload: dict[str, Any], status: int = 200) -> None:
        self._raw(json.dumps(payload), "application/json", status)

    def _raw(self, text: str, content_type: str, status: int = 200) -> None:
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
