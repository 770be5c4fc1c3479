"""TEST SUPPORT: a small HTTP server that speaks Ollama's API and answers with real llama.cpp inference.

No Ollama can be installed where docbot's tests run, so this stands in for it on loopback:
``POST /api/chat`` (streaming NDJSON and not; ``format`` as a JSON schema or "json"; ``options``
temperature/seed/num_predict/num_ctx/stop; ``keep_alive``; ``think``), ``GET /api/tags``,
``POST /api/show``, ``GET /api/version``, and Ollama's errors (404 ``model 'x' not found``, 400
``"x" does not support thinking``). Every model name is served by a GGUF file through llama-cpp-python
(its streaming and context token count; the embedded backend's default binding is tested on its own),
so the real ChatOllama client gets real tokens, real durations (nanoseconds) and real token counts.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from docbot.models.bindings import Binding
from docbot.models.embedded import SharedLlama, load_llama, response_format_for
from docbot.models.checks import ollama_name
from tests.support.loopback import LoopbackServer

VERSION = "0.32.15"  # the Ollama release whose API this mimics
DEFAULT_NUM_PREDICT = 128  # Ollama's default is unlimited; a test never wants that


def _now() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


class OllamaFake:
    """Serves ``models`` (Ollama name -> GGUF path) on 127.0.0.1 at an ephemeral port, in a thread."""

    def __init__(self, models: Mapping[str, Path], n_ctx: int = 2048) -> None:
        self.models = {ollama_name(name): Path(path) for name, path in models.items()}
        self.n_ctx = n_ctx
        self.requests: list[dict[str, Any]] = []  # every request: {"path", "body"}, for assertions
        self._server = LoopbackServer(_handler_for(self))

    @property
    def base_url(self) -> str:
        return self._server.base_url

    def start(self) -> str:
        return self._server.start()

    def stop(self) -> None:
        self._server.stop()

    def add(self, name: str, path: Path) -> None:
        """``ollama pull``: serve one more model name."""
        self.models[ollama_name(name)] = Path(path)

    def remove(self, name: str) -> None:
        """``ollama rm``: later requests for the model get 404, as after an unload mid-run."""
        self.models.pop(ollama_name(name), None)

    def chats(self) -> list[dict[str, Any]]:
        return [r["body"] for r in self.requests if r["path"] == "/api/chat"]

    def llama_for(self, name: str, num_ctx: int | None) -> SharedLlama | None:
        """The loaded model; like Ollama, another ``num_ctx`` means another load (cached per size)."""
        path = self.models.get(ollama_name(name))
        return None if path is None else load_llama(str(path), num_ctx or self.n_ctx,
                                                      binding=Binding.LLAMA_CPP_PYTHON)

    def tags(self) -> dict[str, Any]:
        return {"models": [_model_entry(name, path) for name, path in self.models.items()]}


def _model_entry(name: str, path: Path) -> dict[str, Any]:
    return {"name": name, "model": name, "modified_at": _now(), "size": path.stat().st_size,
            "digest": hashlib.sha256(name.encode()).hexdigest(),
            "details": {"format": "gguf", "family": "llama", "parameter_size": "135M",
                        "quantization_level": "Q4_1"}}


def _show(name: str) -> dict[str, Any]:
    return {"modelfile": f"FROM {name}\n", "parameters": "", "template": "{{ .Prompt }}",
            "details": {"format": "gguf", "family": "llama", "parameter_size": "135M"},
            "model_info": {"general.architecture": "llama", "llama.context_length": 8192},
            "capabilities": ["completion"]}


def _handler_for(fake: OllamaFake) -> type[BaseHTTPRequestHandler]:
    class Handler(_OllamaHandler):
        server_fake = fake

    return Handler


class _OllamaHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive and chunked streaming, like the real server
    server_fake: OllamaFake

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: pytest shows failures, not access logs

    def do_GET(self) -> None:
        self._record(None)
        if self.path == "/api/tags":
            self._send_json(200, self.server_fake.tags())
        elif self.path == "/api/version":
            self._send_json(200, {"version": VERSION})
        else:
            self._send_json(404, {"error": "404 page not found"})

    def do_POST(self) -> None:
        body = self._read_json()
        self._record(body)
        if body is None:
            self._send_json(400, {"error": "invalid JSON body"})
        elif self.path == "/api/show":
            name = str(body.get("model") or body.get("name") or "")
            if ollama_name(name) not in self.server_fake.models:
                self._send_json(404, {"error": f"model '{name}' not found"})
            else:
                self._send_json(200, _show(ollama_name(name)))
        elif self.path == "/api/chat":
            self._chat(body)
        else:
            self._send_json(404, {"error": "404 page not found"})

    def _chat(self, body: dict[str, Any]) -> None:
        name = str(body.get("model", ""))
        shared = self.server_fake.llama_for(name, (body.get("options") or {}).get("num_ctx"))
        if shared is None:
            self._send_json(404, {"error": f"model '{name}' not found"})
            return
        if body.get("think"):
            self._send_json(400, {"error": f'"{name}" does not support thinking'})
            return
        request = _llama_request(body)
        started = time.perf_counter_ns()
        if body.get("stream", True):
            self._stream_chat(name, shared, request, started)
        else:
            with shared.lock:
                reply = shared.llama.native.create_chat_completion(**request)
            choice, usage = reply["choices"][0], reply["usage"]
            self._send_json(200, _final(name, choice["message"].get("content") or "", choice["finish_reason"],
                                        usage["prompt_tokens"], usage["completion_tokens"], started))

    def _stream_chat(self, name: str, shared: SharedLlama, request: dict[str, Any], started: int) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        with shared.lock:
            pieces, finish = 0, "stop"
            for delta, finish_reason in _deltas(shared.llama.native.create_chat_completion(stream=True, **request)):
                finish = finish_reason or finish
                if delta:
                    pieces += 1
                    self._write_chunk({"model": name, "created_at": _now(),
                                       "message": {"role": "assistant", "content": delta}, "done": False})
            # llama.cpp keeps prompt + answer minus the last sampled token in its context.
            prompt_tokens = max(shared.llama.native.n_tokens - pieces + 1, 0)
        self._write_chunk(_final(name, "", finish, prompt_tokens, pieces, started))
        self.wfile.write(b"0\r\n\r\n")

    def _write_chunk(self, line: dict[str, Any]) -> None:
        data = (json.dumps(line) + "\n").encode()
        self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _read_json(self) -> dict[str, Any] | None:
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except json.JSONDecodeError:
            return None
        return body if isinstance(body, dict) else None

    def _record(self, body: dict[str, Any] | None) -> None:
        self.server_fake.requests.append({"path": self.path, "body": body})

    def _send_json(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def _llama_request(body: dict[str, Any]) -> dict[str, Any]:
    """An Ollama chat body as llama-cpp-python ``create_chat_completion`` arguments."""
    options = body.get("options") or {}
    num_predict = options.get("num_predict", DEFAULT_NUM_PREDICT)
    stop = options.get("stop") or []
    return {
        "messages": [{"role": m.get("role", "user"), "content": m.get("content", "")}
                     for m in body.get("messages", [])],
        "temperature": options.get("temperature", 0.8),  # Ollama's defaults, not llama.cpp's
        "repeat_penalty": options.get("repeat_penalty", 1.1),
        "seed": options.get("seed"),
        "max_tokens": None if num_predict is None or num_predict < 0 else num_predict,
        "stop": [stop] if isinstance(stop, str) else stop,
        "response_format": response_format_for(body.get("format")),
    }


def _deltas(chunks: Iterator[dict[str, Any]]) -> Iterator[tuple[str, str | None]]:
    for chunk in chunks:
        choice = chunk["choices"][0]
        yield choice["delta"].get("content") or "", choice.get("finish_reason")


def _final(name: str, content: str, finish: str | None, prompt_tokens: int, eval_tokens: int,
           started: int) -> dict[str, Any]:
    """The last object of an answer (the only one when not streaming); durations in nanoseconds."""
    total = time.perf_counter_ns() - started
    return {"model": name, "created_at": _now(), "message": {"role": "assistant", "content": content},
            "done": True, "done_reason": "length" if finish == "length" else "stop",
            "total_duration": total, "load_duration": 0, "prompt_eval_count": prompt_tokens,
            # llama-cpp-python does not time the two phases apart; a rough split keeps the fields real numbers.
            "prompt_eval_duration": total // 4, "eval_count": eval_tokens, "eval_duration": total - total // 4}
