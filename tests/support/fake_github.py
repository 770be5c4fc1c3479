"""A small fake of GitHub's issue-comment and pull-request review REST API, in-process or served over
HTTP on 127.0.0.1.

It speaks enough of the real thing for docbot's client: bearer-token auth, ``per_page``/``page``
listing with a ``Link`` header (absolute URLs, as GitHub sends them), create, update, and the 422
GitHub gives for bodies over 65,536 characters; reviews (``POST /pulls/{n}/reviews`` with
``comments[].path/line/side``), and listing and deleting review comments. Every request is recorded.
Faults are queued per method: ``fake.fail("POST", 403)`` makes the next POST fail, ``times=``
repeats it, ``headers=`` goes with it (``Retry-After``...). Comments have authors: ``GET /user``
answers ``login`` for a user's token, and 403 when ``login`` is None, as it does for the workflow's
GITHUB_TOKEN, whose comments are github-actions[bot]'s.

The fake is an httpx handler: ``GitHubClient(fake.api_url, ..., transport=fake.transport)`` talks to
it with no thread and no port. ``with fake:`` also serves it on loopback, for a client that runs in
another process or cannot be handed a transport (the Action's end-to-end tests).
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any, Self
from urllib.parse import parse_qs

import httpx

from tests.support.loopback import LoopbackServer

LIST = re.compile(r"^/repos/(?P<repo>[^/]+/[^/]+)/issues/(?P<number>\d+)/comments$")
ONE = re.compile(r"^/repos/(?P<repo>[^/]+/[^/]+)/issues/comments/(?P<id>\d+)$")
REVIEWS = re.compile(r"^/repos/(?P<repo>[^/]+/[^/]+)/pulls/(?P<number>\d+)/reviews$")
REVIEW_LIST = re.compile(r"^/repos/(?P<repo>[^/]+/[^/]+)/pulls/(?P<number>\d+)/comments$")
REVIEW_ONE = re.compile(r"^/repos/(?P<repo>[^/]+/[^/]+)/pulls/comments/(?P<id>\d+)$")
BODY_LIMIT = 65_536


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any


@dataclass
class FakeGitHub:
    """``GitHubClient(gh.api_url, "t", "o/r", transport=gh.transport)``, or ``with gh:`` on loopback."""

    token: str = "test-token"
    repo: str = "octo/project"
    comments: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # PR number -> comments
    requests: list[Recorded] = field(default_factory=list)
    faults: dict[str, list[int]] = field(default_factory=dict)  # method -> statuses to answer next
    fault_headers: dict[str, list[dict[str, str]]] = field(default_factory=dict)  # method -> their headers
    login: str | None = None  # the token's user; None: an installation token (github-actions[bot])
    reviews: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # PR number -> reviews posted
    review_comments: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # PR -> review comments

    def __post_init__(self) -> None:
        self._next_id = 1000
        self._lock = threading.Lock()  # on loopback, requests arrive on the server's threads
        self._server: LoopbackServer | None = None

    @property
    def api_url(self) -> str:
        return self._server.base_url if self._server else "https://api.github.test"

    @property
    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self)

    def __enter__(self) -> Self:
        self._server = LoopbackServer(_handler_for(self))
        self._server.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        if self._server:
            self._server.stop()

    def __call__(self, request: httpx.Request) -> httpx.Response:
        """Answer one request (the MockTransport handler; the loopback server calls it too)."""
        body = json.loads(request.content) if request.content else None
        headers = {name.lower(): value for name, value in request.headers.items()}
        query = parse_qs(request.url.query.decode())
        status, payload, extra = self.handle(request.method, request.url.path, query, body, headers)
        if payload is None:  # 204 No Content
            return httpx.Response(status, headers=extra)
        return httpx.Response(status, json=payload, headers=extra)

    def add_review_comment(self, pr_number: int, body: str, login: str = "someone") -> int:
        """A review comment already on the PR (a person's, or an earlier docbot review's)."""
        with self._lock:
            self._next_id += 1
            self.review_comments.setdefault(pr_number, []).append(
                {"id": self._next_id, "body": body, "path": "x.py", "line": 1, "user": {"login": login}})
            return self._next_id

    def add_comment(self, pr_number: int, body: str, user_type: str = "User") -> int:
        with self._lock:
            self._next_id += 1
            login = "github-actions[bot]" if user_type == "Bot" else "someone"
            self.comments.setdefault(pr_number, []).append(
                {"id": self._next_id, "body": body, "user": {"login": login, "type": user_type}})
            return self._next_id

    def fail(self, method: str, status: int, times: int = 1, headers: dict[str, str] | None = None) -> None:
        self.faults.setdefault(method, []).extend([status] * times)
        self.fault_headers.setdefault(method, []).extend([headers or {}] * times)

    @property
    def author(self) -> str:
        return self.login or "github-actions[bot]"

    def calls(self, method: str | None = None) -> list[Recorded]:
        return [r for r in self.requests if method is None or r.method == method]

    # --- request handling ---

    def handle(self, method: str, path: str, query: dict[str, list[str]], body: Any,
               headers: dict[str, str]) -> tuple[int, Any, dict[str, str]]:
        with self._lock:
            self.requests.append(Recorded(method, path, query, headers, body))
            if headers.get("authorization") != f"Bearer {self.token}":
                return 401, {"message": "Bad credentials"}, {}
            if self.faults.get(method):
                status = self.faults[method].pop(0)
                extra = self.fault_headers[method].pop(0) if self.fault_headers.get(method) else {}
                return status, {"message": _REASONS.get(status, "fault")}, extra
            if path == "/user" and method == "GET":
                if self.login is None:
                    return 403, {"message": "Resource not accessible by integration"}, {}
                return 200, {"login": self.login, "type": "User"}, {}
            if (match := LIST.match(path)) and match["repo"] == self.repo:
                number = int(match["number"])
                if method == "GET":
                    return self._list(number, query)
                if method == "POST":
                    return self._create(number, body)
            if (match := ONE.match(path)) and match["repo"] == self.repo and method == "PATCH":
                return self._update(int(match["id"]), body)
            return self._handle_review(method, path, query, body)

    def _handle_review(self, method: str, path: str, query: dict[str, list[str]],
                       body: Any) -> tuple[int, Any, dict[str, str]]:
        if (match := REVIEWS.match(path)) and match["repo"] == self.repo and method == "POST":
            return self._review(int(match["number"]), body)
        if (match := REVIEW_LIST.match(path)) and match["repo"] == self.repo and method == "GET":
            return self._list(int(match["number"]), query, self.review_comments, "pulls")
        if (match := REVIEW_ONE.match(path)) and match["repo"] == self.repo and method == "DELETE":
            for thread in self.review_comments.values():
                for comment in thread:
                    if comment["id"] == int(match["id"]):
                        thread.remove(comment)
                        return 204, None, {}
        return 404, {"message": "Not Found"}, {}

    def _review(self, number: int, body: Any) -> tuple[int, Any, dict[str, str]]:
        """A review as GitHub checks it: an event, and comments each with a path, a RIGHT/LEFT side, a
        line, and a start_line (when given) before it."""
        if not isinstance(body, dict) or body.get("event") not in ("COMMENT", "APPROVE", "REQUEST_CHANGES"):
            return 422, {"message": "Validation Failed: event"}, {}
        comments = body.get("comments") or []
        for comment in comments:
            sides = {comment.get("side", "RIGHT"), comment.get("start_side", comment.get("side", "RIGHT"))}
            if not (isinstance(comment.get("path"), str) and isinstance(comment.get("line"), int)
                    and sides <= {"LEFT", "RIGHT"} and isinstance(comment.get("body"), str)
                    and comment.get("start_line", 0) < comment["line"]):
                return 422, {"message": "Validation Failed: comments"}, {}
        self._next_id += 1
        review = {"id": self._next_id, "commit_id": body.get("commit_id"), "body": body.get("body", ""),
                  "user": {"login": self.author}}
        self.reviews.setdefault(number, []).append(review)
        for comment in comments:
            self._next_id += 1
            self.review_comments.setdefault(number, []).append(
                {**comment, "id": self._next_id, "pull_request_review_id": review["id"],
                 "user": {"login": self.author}})
        return 200, review, {}

    def _list(self, number: int, query: dict[str, list[str]], store: dict[int, list[dict[str, Any]]] | None = None,
              kind: str = "issues") -> tuple[int, Any, dict[str, str]]:
        per_page = min(int(query.get("per_page", ["30"])[0]), 100)
        page = int(query.get("page", ["1"])[0])
        everything = (self.comments if store is None else store).get(number, [])
        last = max(1, -(-len(everything) // per_page))
        links = []
        base = f"{self.api_url}/repos/{self.repo}/{kind}/{number}/comments?per_page={per_page}"
        if page < last:
            links += [f'<{base}&page={page + 1}>; rel="next"', f'<{base}&page={last}>; rel="last"']
        if page > 1:
            links += [f'<{base}&page={page - 1}>; rel="prev"', f'<{base}&page=1>; rel="first"']
        headers = {"Link": ", ".join(links)} if links else {}
        return 200, everything[(page - 1) * per_page: page * per_page], headers

    def _create(self, number: int, body: Any) -> tuple[int, Any, dict[str, str]]:
        if (problem := _invalid_body(body)) is not None:
            return problem
        self._next_id += 1
        comment = {"id": self._next_id, "body": body["body"],
                   "user": {"login": self.author, "type": "User" if self.login else "Bot"}}
        self.comments.setdefault(number, []).append(comment)
        return 201, comment, {}

    def _update(self, comment_id: int, body: Any) -> tuple[int, Any, dict[str, str]]:
        if (problem := _invalid_body(body)) is not None:
            return problem
        for comment in (c for thread in self.comments.values() for c in thread):
            if comment["id"] == comment_id:
                comment["body"] = body["body"]
                return 200, comment, {}
        return 404, {"message": "Not Found"}, {}


_REASONS = {403: "Resource not accessible by integration", 404: "Not Found", 500: "Internal Server Error",
            502: "Bad Gateway", 422: "Validation Failed", 429: "API rate limit exceeded"}


def _invalid_body(body: Any) -> tuple[int, Any, dict[str, str]] | None:
    if not isinstance(body, dict) or not isinstance(body.get("body"), str):
        return 422, {"message": "Invalid request: body is required"}, {}
    if len(body["body"]) > BODY_LIMIT:
        return 422, {"message": "Validation Failed", "errors": [{"message": "Body is too long"}]}, {}
    return None


def _handler_for(fake: FakeGitHub) -> type[BaseHTTPRequestHandler]:
    """An HTTP handler that turns each request into an httpx.Request for ``fake`` and writes its answer."""

    class Handler(BaseHTTPRequestHandler):
        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            request = httpx.Request(self.command, fake.api_url + self.path, headers=list(self.headers.items()),
                                    content=self.rfile.read(length) if length else b"")
            response = fake(request)
            self.send_response(response.status_code)
            for name, value in response.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(response.content)

        do_GET = do_POST = do_PATCH = do_DELETE = _serve

        def log_message(self, *_args: Any) -> None:  # keep pytest output clean
            pass

    return Handler
