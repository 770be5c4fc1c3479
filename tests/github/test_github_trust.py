"""Issue 12 items 7 and 20 against the GitHub fake on loopback: the sticky comment is only ever the
token's own, and GitHub's rate limits are waited out within a bound (a fake clock: no real waiting)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from docbot.errors import GitHubError
from docbot.github.client import GitHubClient
from docbot.github.ratelimit import MAX_WAIT_S, rate_limit_wait
from docbot.github.report import MARKER
from tests.support.fake_github import FakeGitHub

TOKEN = "ghs_trustT0kenValue7"
REPO = "octo/project"
PR = 3
NOW = 1_700_000_000.0


@pytest.fixture
def gh() -> Iterator[FakeGitHub]:
    with FakeGitHub(token=TOKEN, repo=REPO) as fake:
        yield fake


class Clock:
    """time.time and time.sleep, faked: sleeping moves the clock and is recorded."""

    def __init__(self) -> None:
        self.now, self.slept = NOW, []  # type: ignore[var-annotated]

    def time(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def client(gh: FakeGitHub, clock: Clock | None = None) -> GitHubClient:
    clock = clock or Clock()
    return GitHubClient(gh.api_url, TOKEN, REPO, timeout=5, backoff_s=0.01, sleep=clock.sleep, clock=clock.time)


# --- item 7: whose comment it is ---

def test_a_humans_comment_starting_with_the_marker_is_never_patched(gh: FakeGitHub) -> None:
    human = gh.add_comment(PR, f"{MARKER}\nI wrote this by hand")
    with client(gh) as github:
        assert github.upsert_sticky_comment(PR, f"{MARKER}\nresults") == "created"
    assert gh.calls("PATCH") == []
    bodies = {c["id"]: (c["body"], c["user"]["login"]) for c in gh.comments[PR]}
    assert bodies[human] == (f"{MARKER}\nI wrote this by hand", "someone")
    assert [b for i, b in bodies.items() if i != human] == [(f"{MARKER}\nresults", "github-actions[bot]")]


def test_the_workflow_token_updates_the_comment_github_actions_wrote(gh: FakeGitHub) -> None:
    gh.add_comment(PR, f"{MARKER}\nhand-made", user_type="User")
    ours = gh.add_comment(PR, f"{MARKER}\nold", user_type="Bot")
    with client(gh) as github:
        assert github.upsert_sticky_comment(PR, f"{MARKER}\nnew") == "updated"
    assert [r.path for r in gh.calls("PATCH")] == [f"/repos/{REPO}/issues/comments/{ours}"]
    assert gh.calls("GET")[-1].path == "/user"  # asked, refused (403): an installation token


def test_a_users_token_updates_only_that_users_comment(gh: FakeGitHub) -> None:
    gh.login = "alice"
    gh.add_comment(PR, f"{MARKER}\nthe bot's, not alice's", user_type="Bot")
    with client(gh) as github:
        assert github.upsert_sticky_comment(PR, f"{MARKER}\nfirst") == "created"
        assert github.upsert_sticky_comment(PR, f"{MARKER}\nsecond") == "updated"
    assert [(c["user"]["login"], c["body"]) for c in gh.comments[PR]] == [
        ("github-actions[bot]", f"{MARKER}\nthe bot's, not alice's"), ("alice", f"{MARKER}\nsecond")]
    assert len([r for r in gh.calls("GET") if r.path == "/user"]) == 1  # asked once per client


# --- item 20: rate limits ---

@pytest.mark.parametrize("status, headers, expected", [
    (429, {"retry-after": "7"}, 7.0),
    (403, {"retry-after": "3"}, 3.0),
    (403, {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(int(NOW) + 20)}, 21.0),
    (429, {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(int(NOW) - 5)}, 1.0),  # already reset
    (429, {"retry-after": "2", "x-ratelimit-remaining": "0", "x-ratelimit-reset": str(int(NOW) + 50)}, 2.0),
    (429, {"retry-after": str(int(MAX_WAIT_S))}, MAX_WAIT_S),  # the cap itself is waited
    (429, {"retry-after": str(int(MAX_WAIT_S) + 1)}, None),  # past the cap: give up, say so
    (403, {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(int(NOW) + 3600)}, None),
    (403, {"x-ratelimit-remaining": "1", "x-ratelimit-reset": str(int(NOW) + 20)}, None),  # not a limit
    (403, {}, None),  # a plain 403: no write access, not retried
    (429, {}, None),
    (429, {"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, None),
    (429, {"retry-after": "-3"}, None),
    (500, {"retry-after": "1"}, None),
    (200, {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(int(NOW) + 5)}, None),
])
def test_rate_limit_wait(status: int, headers: dict[str, str], expected: float | None) -> None:
    assert rate_limit_wait(status, headers, NOW) == expected


def test_a_429_on_the_post_is_retried_after_retry_after(gh: FakeGitHub) -> None:
    gh.fail("POST", 429, headers={"Retry-After": "9"})
    clock = Clock()
    with client(gh, clock) as github:
        assert github.upsert_sticky_comment(PR, f"{MARKER}\nresults") == "created"
    assert clock.slept == [9.0]
    assert len(gh.calls("POST")) == 2 and len(gh.comments[PR]) == 1


def test_an_exhausted_rate_limit_is_waited_until_its_reset(gh: FakeGitHub) -> None:
    gh.fail("GET", 403, headers={"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(int(NOW) + 30)})
    clock = Clock()
    with client(gh, clock) as github:
        assert github.upsert_sticky_comment(PR, f"{MARKER}\nresults") == "created"
    assert clock.slept == [31.0]


def test_a_reset_beyond_the_cap_fails_clearly_without_waiting(gh: FakeGitHub) -> None:
    gh.fail("POST", 429, headers={"Retry-After": "3600"})
    clock = Clock()
    with client(gh, clock) as github, pytest.raises(GitHubError, match=r"rate limit hit \(429") as caught:
        github.upsert_sticky_comment(PR, f"{MARKER}\nresults")
    assert clock.slept == [] and caught.value.exit_code == 5 and len(gh.calls("POST")) == 1


def test_rate_limit_retries_are_bounded(gh: FakeGitHub) -> None:
    gh.fail("GET", 429, times=10, headers={"Retry-After": "5"})
    clock = Clock()
    with client(gh, clock) as github, pytest.raises(GitHubError, match="rate limit"):
        github.upsert_sticky_comment(PR, f"{MARKER}\nresults")
    assert clock.slept == [5.0, 5.0]  # retries=2
