"""The sticky-comment client against a GitHub API fake, in-process through httpx.MockTransport."""

from __future__ import annotations

import traceback

import httpx
import pytest

from docbot.errors import GitHubError
from docbot.github.client import API_VERSION, NO_WRITE_ACCESS, GitHubClient, GitHubServerError
from docbot.github.report import COMMENT_LIMIT, MARKER, render_comment
from docbot.results import FunctionResult, RunReport
from tests.support.fake_github import FakeGitHub

TOKEN = "ghs_s3cr3tT0kenValue42"
REPO = "octo/project"
PR = 7


@pytest.fixture
def gh() -> FakeGitHub:
    return FakeGitHub(token=TOKEN, repo=REPO)


def client(gh: FakeGitHub, **kwargs: object) -> GitHubClient:
    return GitHubClient(gh.api_url, TOKEN, REPO, timeout=5, backoff_s=0.01,  # type: ignore[arg-type]
                        transport=gh.transport, **kwargs)


def markers(gh: FakeGitHub) -> list[dict]:
    return [c for c in gh.comments.get(PR, []) if c["body"].startswith(MARKER)]


def test_first_run_creates_and_second_run_updates_the_same_comment(gh: FakeGitHub) -> None:
    gh.add_comment(PR, "LGTM, but please add docs")
    with client(gh) as github:
        assert github.upsert_sticky_comment(PR, f"{MARKER}\nfirst") == "created"
        assert github.upsert_sticky_comment(PR, f"{MARKER}\nsecond") == "updated"

    assert [c["body"] for c in markers(gh)] == [f"{MARKER}\nsecond"]
    assert len(gh.comments[PR]) == 2  # the human's comment untouched
    assert [(r.method, r.path) for r in gh.requests] == [
        ("GET", f"/repos/{REPO}/issues/{PR}/comments"),
        ("POST", f"/repos/{REPO}/issues/{PR}/comments"),
        ("GET", f"/repos/{REPO}/issues/{PR}/comments"),
        ("GET", "/user"),  # whose comment it is: a marker alone is not enough (issue 12 item 7)
        ("PATCH", f"/repos/{REPO}/issues/comments/{markers(gh)[0]['id']}"),
    ]
    for request in gh.requests:
        assert request.headers["authorization"] == f"Bearer {TOKEN}"
        assert request.headers["accept"] == "application/vnd.github+json"
        assert request.headers["x-github-api-version"] == API_VERSION == "2022-11-28"


def test_marker_is_added_when_the_body_lacks_it(gh: FakeGitHub) -> None:
    with client(gh) as github:
        github.upsert_sticky_comment(PR, "no marker here")
    assert [c["body"] for c in markers(gh)] == [f"{MARKER}\nno marker here"]


def test_finds_the_comment_on_page_two_of_three(gh: FakeGitHub) -> None:
    for i in range(250):
        if i == 150:
            sticky = gh.add_comment(PR, f"{MARKER}\nold results", user_type="Bot")
        else:
            gh.add_comment(PR, f"comment {i}")
    with client(gh) as github:
        assert github.upsert_sticky_comment(PR, f"{MARKER}\nnew results") == "updated"

    gets = [r for r in gh.calls("GET") if r.path != "/user"]
    assert [(r.query.get("per_page"), r.query.get("page")) for r in gets] == [(["100"], None), (["100"], ["2"])]
    assert [r.path for r in gh.calls("PATCH")] == [f"/repos/{REPO}/issues/comments/{sticky}"]
    assert gh.calls("POST") == []


def test_walks_every_page_before_creating(gh: FakeGitHub) -> None:
    for i in range(250):
        gh.add_comment(PR, f"comment {i}")
    gh.add_comment(PR, f"> {MARKER}\n> quoting the bot is not being the bot")
    with client(gh) as github:
        assert github.upsert_sticky_comment(PR, f"{MARKER}\nresults") == "created"
    assert [r.query.get("page") for r in gh.calls("GET")] == [None, ["2"], ["3"]]
    assert len(markers(gh)) == 1


@pytest.mark.parametrize("method, status", [("POST", 403), ("GET", 403), ("GET", 404), ("PATCH", 403)])
def test_read_only_token_gives_a_clear_message(gh: FakeGitHub, method: str, status: int) -> None:
    if method == "PATCH":
        gh.add_comment(PR, f"{MARKER}\nold", user_type="Bot")
    gh.fail(method, status)
    with client(gh) as github, pytest.raises(GitHubError) as caught:
        github.upsert_sticky_comment(PR, f"{MARKER}\nx")
    assert NO_WRITE_ACCESS in str(caught.value)
    assert f"HTTP {status}" in str(caught.value)
    assert caught.value.exit_code == 5


@pytest.mark.parametrize("token, status, expected", [
    ("wrong", None, "the token was rejected (401 Bad credentials); check the `github-token` input."),
    (TOKEN, 422, "GitHub refused POST /repos/octo/project/issues/7/comments: 422 Validation Failed"),
])
def test_other_refusals_say_what_happened(gh: FakeGitHub, token: str, status: int | None,
                                          expected: str) -> None:
    if status:
        gh.fail("POST", status)
    with (GitHubClient(gh.api_url, token, REPO, backoff_s=0.01, transport=gh.transport) as github,
          pytest.raises(GitHubError) as caught):
        github.upsert_sticky_comment(PR, "x")
    assert expected in str(caught.value)


def test_server_errors_are_retried_with_backoff(gh: FakeGitHub) -> None:
    gh.fail("GET", 500, times=2)
    pauses: list[float] = []
    with client(gh, sleep=pauses.append) as github:
        assert github.upsert_sticky_comment(PR, "x") == "created"
    assert len(gh.calls("GET")) == 3
    assert pauses == [0.01, 0.02]  # exponential backoff from backoff_s


def test_unreachable_github_is_retried_and_explained(gh: FakeGitHub) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    pauses: list[float] = []
    with (GitHubClient(gh.api_url, TOKEN, REPO, retries=3, backoff_s=0.5, sleep=pauses.append,
                       transport=httpx.MockTransport(refuse)) as github,
          pytest.raises(GitHubServerError) as caught):
        github.upsert_sticky_comment(PR, "x")
    assert str(caught.value) == (f"cannot reach {gh.api_url} (ConnectError: connection refused); "
                                 "tried 4 times. Re-run the job later.")
    assert pauses == [0.5, 1.0, 2.0]


def test_persistent_server_errors_give_up(gh: FakeGitHub) -> None:
    gh.fail("GET", 502, times=10)
    with client(gh, retries=2) as github, pytest.raises(GitHubServerError, match="502.*tried 3 times"):
        github.upsert_sticky_comment(PR, "x")
    assert len(gh.calls("GET")) == 3


def test_a_failed_post_looks_again_before_posting_twice(gh: FakeGitHub) -> None:
    gh.fail("POST", 500)
    pauses: list[float] = []
    with client(gh, sleep=pauses.append) as github:
        assert github.upsert_sticky_comment(PR, "x") == "created"
    assert [r.method for r in gh.requests] == ["GET", "POST", "GET", "POST"]
    assert len(markers(gh)) == 1
    assert pauses == [0.01]


def test_a_post_that_keeps_failing_gives_up_after_the_retries(gh: FakeGitHub) -> None:
    gh.fail("POST", 502, times=10)
    with client(gh, retries=1) as github, pytest.raises(GitHubServerError, match="502 to POST .*tried 1 times"):
        github.upsert_sticky_comment(PR, "x")
    assert [r.method for r in gh.requests] == ["GET", "POST", "GET", "POST"]


def test_refuses_to_follow_pagination_off_the_api_host(gh: FakeGitHub) -> None:
    for i in range(150):
        gh.add_comment(PR, f"comment {i}")
    elsewhere = "https://api.elsewhere.test"  # the fake's Link header names its own host
    with (GitHubClient(elsewhere, TOKEN, REPO, transport=gh.transport) as github,
          pytest.raises(GitHubError, match="refusing")):
        github.upsert_sticky_comment(PR, "x")


def test_an_oversized_report_is_truncated_and_accepted(gh: FakeGitHub) -> None:
    results = [FunctionResult(module="pkg", qualname=f"f{i}", status="updated", markdown="x" * 20_000,
                              scores=[90, 96], rounds=2, exit_reason="approved") for i in range(30)]
    body = render_comment(RunReport(results=results))
    assert len(body) <= COMMENT_LIMIT
    with client(gh) as github:
        assert github.upsert_sticky_comment(PR, body) == "created"
        assert github.upsert_sticky_comment(PR, body) == "updated"
    assert [c["body"] for c in markers(gh)] == [body]


def test_hostile_text_travels_unchanged(gh: FakeGitHub) -> None:
    body = f"{MARKER}\n| a | <script>alert(1)</script> | ```` `x` ````"
    with client(gh) as github:
        github.upsert_sticky_comment(PR, body)
    assert markers(gh)[0]["body"] == body


def test_bad_inputs_are_refused_before_any_request() -> None:
    with pytest.raises(GitHubError, match="owner/name"):
        GitHubClient("https://api.github.com", TOKEN, "not a repo")
    with pytest.raises(GitHubError, match="github-token"):
        GitHubClient("https://api.github.com", "", REPO)


def test_the_token_never_appears_in_errors_or_output(gh: FakeGitHub, capsys: pytest.CaptureFixture[str]) -> None:
    failures: list[BaseException] = []
    for method, status in [("GET", 403), ("GET", 404), ("POST", 422), ("GET", 500)]:
        gh.fail(method, status, times=3)
        with client(gh) as github:
            try:
                github.upsert_sticky_comment(PR, "x")
            except GitHubError as err:
                failures.append(err)
        gh.faults.clear()
    with GitHubClient(gh.api_url, "wrong-" + TOKEN, REPO, transport=gh.transport) as github:  # 401
        try:
            github.upsert_sticky_comment(PR, "x")
        except GitHubError as err:
            failures.append(err)
    dead = GitHubClient("http://127.0.0.1:9", TOKEN, REPO, timeout=1, retries=0)  # nothing listens on 9
    with pytest.raises(GitHubServerError, match="cannot reach") as caught:
        dead.upsert_sticky_comment(PR, "x")
    failures.append(caught.value)

    assert len(failures) == 6
    texts = ["".join(traceback.format_exception(err)) for err in failures] + [repr(dead)]
    texts.append("".join(capsys.readouterr()))
    assert not [t for t in texts if TOKEN in t]


REVIEW = "<!-- docbot:suggestion -->"
SUGGESTION = {"path": "pkg/a.py", "line": 3, "side": "RIGHT", "body": f"{REVIEW}\n```suggestion\nx\n```"}


def test_replace_review_deletes_only_our_old_suggestions_across_pages(gh: FakeGitHub) -> None:
    ours = [gh.add_review_comment(PR, f"{REVIEW} old {i}", login="github-actions[bot]") for i in range(120)]
    theirs = gh.add_review_comment(PR, f"{REVIEW} a person's, quoting docbot")
    other = gh.add_review_comment(PR, "nit: rename", login="github-actions[bot]")
    with client(gh) as github:
        assert github.replace_review(PR, "c0ffee", "docbot", [SUGGESTION], REVIEW) == 120
    left = {c["id"] for c in gh.review_comments[PR]}
    assert theirs in left and other in left and not left & set(ours) and len(left) == 3
    [review] = gh.reviews[PR]
    assert review["commit_id"] == "c0ffee"
    posted = gh.calls("POST")[0].body
    assert posted["event"] == "COMMENT" and posted["comments"] == [SUGGESTION]


def test_replace_review_with_nothing_to_suggest_only_clears(gh: FakeGitHub) -> None:
    gh.add_review_comment(PR, f"{REVIEW} old", login="github-actions[bot]")
    with client(gh) as github:
        assert github.replace_review(PR, "c0ffee", "docbot", [], REVIEW) == 1
    assert gh.review_comments[PR] == [] and gh.reviews == {}


def test_a_review_post_that_fails_with_5xx_is_not_posted_twice(gh: FakeGitHub) -> None:
    gh.fail("POST", 502)
    with client(gh) as github, pytest.raises(GitHubServerError):
        github.replace_review(PR, "c0ffee", "docbot", [SUGGESTION], REVIEW)
    assert len(gh.calls("POST")) == 1
