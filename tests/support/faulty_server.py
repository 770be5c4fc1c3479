"""TEST SUPPORT: loopback servers that fail the way model servers fail, and count what they saw.

One server speaks just enough of both protocols (Ollama ``POST /api/chat``, OpenAI
``POST /v1/chat/completions``) to fail in one chosen way:

* ``drop``: read the request, close the connection without a byte of answer;
* ``error500``: HTTP 500 with Ollama's ``{"error": ...}`` body;
* ``stall``: answer nothing until well past any sane client timeout;
* ``invalid_json``: a well-formed answer whose content is not JSON (for a structured call);
* ``cut``: a well-formed answer stopped at the token limit (``finish_reason``/``done_reason``
  "length"), its JSON unfinished;
* ``missing``: HTTP 404 ``model 'x' not found`` (a model unloaded or removed mid-run);
* ``refuse``: HTTP 400 (a request the server will never accept);
* ``ok``: a well-formed answer.

``fail_first=N`` fails only the first N chat requests and then answers ``ok``: a flaky server that a
retry gets through.
"""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler
from typing import Any, Literal, Self

from tests.support.loopback import LoopbackServer

Fault = Literal["drop", "error500", "stall", "invalid_json", "cut", "missing", "refuse", "ok"]
CHAT_PATHS = ("/api/chat", "/v1/chat/completions")
OK_TEXT = '{"answer": "fine"}'
INVALID_TEXT = "Sure! Here is the critique you asked for: score 80, looks {good"
CUT_TEXT = '{"score": 80, "verdict": "revi'


class FaultyServer:
    """A loopback server failing in one way; ``chat_requests`` counts the chat calls it received."""

    def __init__(self, fault: Fault, *, fail_first: int | None = None, stall_s: float = 30.0) -> None:
        self.fault = fault
        self.fail_first = fail_first
        self.stall_s = stall_s
        self.chat_requests = 0
        self.bodies: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._released = threading.Event()  # set on stop(), so stalled handlers end at once
        self._server = LoopbackServer(_handler_for(self))

    @property
    def base_url(self) -> str:
        return self._server.base_url

    def __enter__(self) -> Self:
        self._server.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._released.set()
        self._server.stop()

    def fault_for_next_chat(self, body: dict[str, Any]) -> Fault:
        with self._lock:
            self.chat_requests += 1
            self.bodies.append(body)
            if self.fail_first is not None and self.chat_requests > self.fail_first:
                return "ok"
            return self.fault

    def stall(self) -> None:
        self._released.wait(self.stall_s)


def _handler_for(server: FaultyServer) -> type[BaseHTTPRequestHandler]:
    class Handler(_FaultyHandler):
        faulty = server

    return Handler


class _FaultyHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    faulty: FaultyServer

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        if self.path not in CHAT_PATHS:
            self._send(404, {"error": "404 page not found"})
            return
        fault = self.faulty.fault_for_next_chat(body)
        model = str(body.get("model", "?"))
        if fault == "drop":
            self.connection.shutdown(socket.SHUT_RDWR)  # no status line, no headers: a crashed server
            self.close_connection = True
        elif fault == "error500":
            self._error(500, "llama runner process has terminated: signal: killed")
        elif fault == "stall":
            self.faulty.stall()  # until the test ends; the client has long given up
            self.close_connection = True
        elif fault == "missing":
            self._error(404, f"model '{model}' not found")
        elif fault == "refuse":
            self._error(400, f'"{model}" does not support thinking')
        elif fault == "cut":
            self._answer(body, model, CUT_TEXT, "length")
        else:
            self._answer(body, model, OK_TEXT if fault == "ok" else INVALID_TEXT)

    def _answer(self, body: dict[str, Any], model: str, text: str, stop: str = "stop") -> None:
        if self.path == "/v1/chat/completions":
            self._send(200, _openai_answer(model, text, stop))
        elif body.get("stream", True):
            lines = [{"model": model, "message": {"role": "assistant", "content": text}, "done": False},
                     _ollama_final(model, "", stop)]
            self._send_raw(200, "".join(json.dumps(line) + "\n" for line in lines), "application/x-ndjson")
        else:
            self._send(200, _ollama_final(model, text, stop))

    def _error(self, status: int, text: str) -> None:
        """An error in the protocol's own shape: Ollama's {"error": "..."}, OpenAI's {"error": {...}}."""
        if self.path == "/v1/chat/completions":
            self._send(status, {"error": {"message": text, "type": "server_error", "code": status}})
        else:
            self._send(status, {"error": text})

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        self._send_raw(status, json.dumps(payload), "application/json")

    def _send_raw(self, status: int, text: str, content_type: str) -> None:
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def _ollama_final(model: str, content: str, stop: str = "stop") -> dict[str, Any]:
    return {"model": model, "created_at": "2026-11-30T00:00:00Z",
            "message": {"role": "assistant", "content": content}, "done": True, "done_reason": stop,
            "total_duration": 1_000_000, "load_duration": 0, "prompt_eval_count": 12,
            "prompt_eval_duration": 400_000, "eval_count": 7, "eval_duration": 600_000}


def _openai_answer(model: str, text: str, stop: str = "stop") -> dict[str, Any]:
    return {"id": "chatcmpl-faulty", "object": "chat.completion", "created": 1796000000, "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                         "finish_reason": stop}],
            "usage": {"prompt_tokens": 12, "completion_tokens": 7, "total_tokens": 19}}
