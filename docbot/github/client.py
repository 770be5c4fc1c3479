"""A small GitHub REST client: find docbot's sticky PR comment and create or update it, and replace
docbot's pull-request review of docstring suggestions.

The issue-comment endpoints carry the sticky comment (a PR is an issue for comments); the review
endpoints carry the suggestions. The token goes in
one header and nowhere else: error messages are built from status codes and GitHub's own ``message``
field, scrubbed of the token anyway in case a proxy echoes it back.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from typing import Any, Literal, Self

import httpx
from tenacity import RetryCallState, Retrying, retry_if_exception_type, stop_after_attempt

from docbot.errors import GitHubError
from docbot.github.ratelimit import rate_limit_wait
from docbot.github.report import MARKER

API_VERSION = "2022-11-28"
PER_PAGE = 100  # the maximum GitHub allows, so long PR threads take few requests
MAX_PAGES = 100  # 10,000 comments: a bound so a buggy Link header cannot loop forever

# Who a token that cannot ask GET /user (the workflow's GITHUB_TOKEN, an app installation) comments as.
ACTIONS_BOT = "github-actions[bot]"

NO_WRITE_ACCESS = ("the token cannot write PR comments (fork PR or missing `permissions: "
                   "pull-requests: write`); results are in the job summary")


class GitHubServerError(GitHubError):
    """GitHub answered 5xx or could not be reached, after the retries."""


class _PostFailed(GitHubServerError):
    """A POST that failed with 5xx may still have created the comment: look again before posting again."""


class _RateLimited(Exception):
    """GitHub refused for the rate and said how long to wait (``rate_limit_wait``). Never escapes."""

    def __init__(self, wait_s: float) -> None:
        super().__init__(f"rate limited; waiting {wait_s:.0f} s")
        self.wait_s = wait_s


class _Transient(Exception):
    """One attempt that may pass on the next: 5xx, or no answer (``response`` None). Never escapes."""

    def __init__(self, failure: str, response: httpx.Response | None) -> None:
        super().__init__(failure)
        self.response = response


class GitHubClient:
    """Talks to ``api_url`` (``GITHUB_API_URL``; GitHub Enterprise has its own) for one repository."""

    def __init__(self, api_url: str, token: str, repo: str, timeout: float = 30, *, retries: int = 2,
                 backoff_s: float = 1.0, sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.time, author: str | None = None,
                 transport: httpx.BaseTransport | None = None) -> None:
        if not re.fullmatch(r"[\w.-]+/[\w.-]+", repo):
            raise GitHubError(f"repository {repo!r} is not of the form owner/name; check GITHUB_REPOSITORY.")
        if not token:
            raise GitHubError("no GitHub token: pass the `github-token` input (default: github.token).")
        self.api_url = api_url.rstrip("/")
        self.repo = repo
        self.retries = retries
        self.backoff_s = backoff_s
        self._sleep, self._clock = sleep, clock
        self._author = author  # the login the token comments as; asked of GitHub when None
        self._token = token
        self._http = httpx.Client(base_url=self.api_url, timeout=timeout, transport=transport, headers={
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": API_VERSION,
            "Authorization": f"Bearer {token}",
            "User-Agent": "docbot",
        })

    def __repr__(self) -> str:  # the default repr would not show the token, but be explicit about it
        return f"GitHubClient(api_url={self.api_url!r}, repo={self.repo!r})"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def find_sticky_comment(self, pr_number: int) -> int | None:
        """The id of docbot's comment on the PR (body starts with the marker), following pagination."""
        for comment in self._paged(f"/repos/{self.repo}/issues/{pr_number}/comments?per_page={PER_PAGE}"):
            # Starts with, not contains: a human quoting the comment must not be taken for it; and
            # written by this token's identity: a human's comment that starts with the marker is theirs.
            if self._ours(comment, MARKER):
                return int(comment["id"])
        return None

    def _ours(self, comment: dict[str, Any], marker: str) -> bool:
        return (str(comment.get("body") or "").lstrip().startswith(marker)
                and str((comment.get("user") or {}).get("login") or "") == self.author())

    def _paged(self, first: str) -> Iterator[dict[str, Any]]:
        """Every item of a listing, page by page (at most ``MAX_PAGES``)."""
        url: str | None = first
        for _page in range(MAX_PAGES):
            if url is None:
                return
            response = self._send("GET", url)
            yield from response.json()
            url = self._next_page(response)

    def replace_review(self, pr_number: int, commit: str, body: str, comments: list[dict[str, Any]],
                       marker: str) -> int:
        """Post a review of ``comments`` on ``commit`` after deleting this token's earlier review
        comments that start with ``marker``: each push replaces the suggestions, never stacks them.
        Returns how many old comments were deleted."""
        old = [int(c["id"]) for c in self._paged(f"/repos/{self.repo}/pulls/{pr_number}/comments?per_page={PER_PAGE}")
               if self._ours(c, marker)]
        for comment_id in old:
            self._send("DELETE", f"/repos/{self.repo}/pulls/comments/{comment_id}")
        if comments:
            # Not retried: a POST that failed with 5xx may have created the review all the same.
            self._send("POST", f"/repos/{self.repo}/pulls/{pr_number}/reviews", retry=False,
                       json={"commit_id": commit, "event": "COMMENT", "body": body, "comments": comments})
        return len(old)

    def upsert_sticky_comment(self, pr_number: int, body: str) -> Literal["created", "updated"]:
        """Edit docbot's comment in place, or create it on the first run."""
        if not body.lstrip().startswith(MARKER):
            body = f"{MARKER}\n{body}"
        return self._retrying(self.retries + 1, _PostFailed)(self._upsert_once, pr_number, body)

    def _upsert_once(self, pr_number: int, body: str) -> Literal["created", "updated"]:
        existing = self.find_sticky_comment(pr_number)
        if existing is not None:
            self._send("PATCH", f"/repos/{self.repo}/issues/comments/{existing}", json={"body": body})
            return "updated"
        try:
            # Not retried blindly: a POST that failed with 5xx may still have created the comment,
            # so the whole upsert is retried, which looks again before posting a second one.
            self._send("POST", f"/repos/{self.repo}/issues/{pr_number}/comments", json={"body": body}, retry=False)
        except GitHubServerError as err:
            raise _PostFailed(str(err)) from None
        return "created"

    def author(self) -> str:
        """The login this token's comments carry: GET /user for a user's token; a token that may not
        ask (the workflow's GITHUB_TOKEN, 403) comments as github-actions[bot]."""
        if self._author is None:
            try:
                self._author = str(self._send("GET", "/user").json().get("login") or ACTIONS_BOT)
            except GitHubServerError:
                raise
            except GitHubError:
                self._author = ACTIONS_BOT
        return self._author

    def _send(self, method: str, url: str, *, retry: bool = True, json: Any = None) -> httpx.Response:
        attempts = self.retries + 1 if retry else 1
        # A request GitHub refused for the rate was not processed, so any request (a POST too) may wait
        # and go again, up to ``retries`` times; the last refusal is raised as GitHub's error.
        for limited in range(self.retries + 1):
            try:
                return self._retrying(attempts, _Transient)(self._send_once, method, url, json,
                                                            limited < self.retries)
            except _RateLimited as err:
                self._sleep(err.wait_s)
            except _Transient as err:
                raise GitHubServerError(f"{err}; tried {attempts} times. Re-run the job later.") from None
        raise AssertionError("unreachable")  # pragma: no cover - the last round returns or raises

    def _send_once(self, method: str, url: str, json: Any, may_wait: bool) -> httpx.Response:
        try:
            response = self._http.request(method, url, json=json)
        except httpx.HTTPError as err:
            raise _Transient(f"cannot reach {self.api_url} ({type(err).__name__}: {self._scrub(str(err))})",
                             None) from None
        wait = rate_limit_wait(response.status_code, response.headers, self._clock())
        if wait is not None and may_wait:
            raise _RateLimited(wait)
        if response.status_code >= 500:
            raise _Transient(f"GitHub answered {response.status_code} to {method} {response.url.path}", response)
        self._raise_for_status(response)
        return response

    def _retrying(self, attempts: int, transient: type[Exception]) -> Retrying:
        """Up to ``attempts`` calls, again only after ``transient``, which is re-raised after the last."""
        return Retrying(stop=stop_after_attempt(attempts), retry=retry_if_exception_type(transient),
                        wait=self._wait, sleep=self._sleep, reraise=True)

    def _wait(self, state: RetryCallState) -> float:
        """Seconds before the next attempt: exponential backoff from ``backoff_s`` (a rate limit's own
        wait is ``_RateLimited``, handled in ``_send``)."""
        return self.backoff_s * 2 ** (state.attempt_number - 1)

    def _raise_for_status(self, response: httpx.Response) -> None:
        status = response.status_code
        if status < 400:
            return
        said = self._scrub(_github_message(response))
        if status == 401:
            raise GitHubError(f"the token was rejected (401 {said}); check the `github-token` input.")
        if status == 429 or (status == 403 and ("rate limit" in said.lower()
                                                or response.headers.get("x-ratelimit-remaining") == "0")):
            raise GitHubError(f"GitHub rate limit hit ({status} {said}); re-run the job later.")
        if status in (403, 404):
            raise GitHubError(f"{NO_WRITE_ACCESS} (HTTP {status} from {response.request.method} "
                              f"{response.url.path}).")
        raise GitHubError(f"GitHub refused {response.request.method} {response.url.path}: {status} {said}")

    def _next_page(self, response: httpx.Response) -> str | None:
        url = response.links.get("next", {}).get("url")
        # Never follow a link off the API host: the client would send the token along.
        if url and not url.startswith(self.api_url + "/"):
            raise GitHubError(f"GitHub's pagination pointed outside {self.api_url}; refusing to follow it.")
        return url

    def _scrub(self, text: str) -> str:
        return text.replace(self._token, "***")


def _github_message(response: httpx.Response) -> str:
    try:
        data = response.json()
    except ValueError:
        return response.reason_phrase
    message = data.get("message") if isinstance(data, dict) else None
    return str(message)[:300] if message else response.reason_phrase
