"""TEST SUPPORT: a threaded HTTP server on 127.0.0.1 (ephemeral port) that runs in the background."""

from __future__ import annotations

import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class LoopbackServer(ThreadingHTTPServer):
    """Serves ``handler`` in a daemon thread; quiet when a client hangs up on it (tests do that on purpose)."""

    daemon_threads = True

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        super().__init__(("127.0.0.1", 0), handler)
        # A short poll interval: shutdown() waits for it, once per test server.
        self._thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> str:
        self._thread.start()
        return self.base_url

    def stop(self) -> None:
        self.shutdown()
        self.server_close()

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return  # a client that timed out or was told to give up; not a server bug
        super().handle_error(request, client_address)
