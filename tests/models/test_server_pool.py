"""Several base URLs per role (docs/design.md#servers): the least busy server first, at most
``jobs_per_server`` calls on each URL, every URL preflighted, and the files those of one server."""

from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path

import pytest
from pydantic import ValidationError

from bench.slow_ollama import SlowOllama
from docbot.errors import ModelServerError
from docbot.events import discard
from docbot.models.factory import build_models
from docbot.models.pool import PooledChatModel, ServerLoad
from docbot.models.preflight import preflight
from docbot.scan.repo import DiffSpec
from docbot.run.pipeline import run_docs
from docbot.run.jobs import Slots
from docbot.config.settings import ROLES, Settings
from tests.support.git_repo import GitRepo
from tests.support.smol import free_port

NAMES = [f"f{i}" for i in range(6)]
SOURCE = "".join(f"def {name}(x):\n    return x + {i}\n\n\n" for i, name in enumerate(NAMES))
DOC = "docs/api/pkg.m.md"
MODEL = "fake:1b"


def settings(base_url: str | list[str], **extra: object) -> Settings:
    return Settings.model_validate({"model_registry": {role: MODEL for role in ROLES}, "base_url": base_url,
                                    "run_examples": False, "cache": False, **extra})


def repo_at(path: Path) -> GitRepo:
    return GitRepo(path).write("pkg/__init__.py", "").write("pkg/m.py", SOURCE).commit("m")


@pytest.mark.parametrize(("busy", "limit", "chosen"), [
    ({}, 2, "a"),  # a tie goes to the first listed
    ({"a": 1}, 2, "b"),  # the less busy
    ({"a": 1, "b": 1}, 2, "c"),
    ({"a": 1, "b": 1, "c": 1}, 2, "a"),
    ({"a": 2, "b": 1, "c": 2}, 3, "b"),
    ({"b": 1, "c": 0}, 2, "a"),  # a has none in flight
    ({"a": 1, "c": 1}, 2, "b"),
    ({"a": 2, "b": 1, "c": 1}, 2, "b"),  # a is full; b and c tie: b is listed first
    ({"a": 1, "b": 1, "c": 1}, 1, None),  # all full: wait
])
def test_the_least_busy_server_is_chosen(busy: dict[str, int], limit: int, chosen: str | None) -> None:
    load = ServerLoad(limit)
    load.busy.update(busy)
    assert load.least_busy(["a", "b", "c"]) == chosen


def test_a_call_waits_for_a_place_and_gives_it_back() -> None:
    load = ServerLoad(1)
    got: list[str] = []
    with load.claim(["a", "b"]) as first, load.claim(["a", "b"]) as second:
        assert (first, second) == ("a", "b") and load.busy == Counter({"a": 1, "b": 1})
        waiting = threading.Thread(target=lambda: got.append(_claimed(load)))
        waiting.start()
        waiting.join(0.2)
        assert waiting.is_alive() and got == []  # both servers full: the third call waits
    waiting.join(10)
    assert got == ["a"] and load.busy == Counter({"a": 0, "b": 0})


def _claimed(load: ServerLoad) -> str:
    with load.claim(["a", "b"]) as server:
        return server


@pytest.mark.parametrize("base_url", [[], ["http://a:1", "http://a:1"], ["http://a:1", ""]])
def test_a_list_of_servers_names_each_once(base_url: list[str]) -> None:
    with pytest.raises(ValidationError):
        settings(base_url)
    with pytest.raises(ValidationError):
        Settings.model_validate({"model_registry": {"GENERATOR": {"model": "g", "base_url": base_url},
                                                    "CRITIC": "c", "ADJUDICATOR": "j"}})


def test_a_role_lists_its_own_servers() -> None:
    chosen = Settings.model_validate({"base_url": "http://all:1", "model_registry": {
        "GENERATOR": {"model": "g", "base_url": ["http://a:1", "http://b:2"]}, "CRITIC": "c", "ADJUDICATOR": "j"}})
    assert chosen.base_urls_for("GENERATOR") == ("http://a:1", "http://b:2")
    assert chosen.base_urls_for("CRITIC") == ("http://all:1",)
    # A pool of two URLs takes jobs_per_server functions on each.
    assert Slots(chosen.model_copy(update={"jobs_per_server": 3})).limits["ollama http://a:1 http://b:2"]._value == 6


def test_roles_share_one_count_of_calls_in_flight() -> None:
    models = build_models(settings(["http://a:1", "http://b:2"]))
    pools = [models.generator, models.critic, models.adjudicator]
    assert all(isinstance(m, PooledChatModel) for m in pools)
    assert len({id(m.load) for m in pools if isinstance(m, PooledChatModel)}) == 1
    assert list(pools[0].members) == ["http://a:1", "http://b:2"]  # type: ignore[attr-defined]
    assert not isinstance(build_models(settings("http://a:1")).critic, PooledChatModel)


def test_preflight_asks_every_server() -> None:
    dead = f"http://127.0.0.1:{free_port()}"
    with SlowOllama([MODEL], delay_s=0) as good, SlowOllama(["other:1b"], delay_s=0) as lacking:
        preflight(settings([good.base_url]))  # the good one alone passes
        with pytest.raises(ModelServerError) as err:
            preflight(settings([good.base_url, lacking.base_url, dead]))
    message = str(err.value)
    assert f"{MODEL} (GENERATOR, CRITIC, ADJUDICATOR) is not on Ollama at {lacking.base_url}" in message
    assert f"Ollama not reachable at {dead}" in message and good.base_url not in message


def test_two_servers_share_the_calls_and_write_the_one_server_files(tmp_path: Path) -> None:
    with SlowOllama([MODEL], delay_s=0.0) as alone:
        one = repo_at(tmp_path / "one")
        run_docs(settings(alone.base_url), one.root, DiffSpec(all=True), (), discard)
        calls = sum(alone.chats.values())
    with SlowOllama([MODEL], delay_s=0.0) as first, SlowOllama([MODEL], delay_s=0.3) as second:
        # One function at a time: nothing is ever busy, so every call goes to the first listed.
        serial = repo_at(tmp_path / "serial")
        run_docs(settings([first.base_url, second.base_url]), serial.root, DiffSpec(all=True), (), discard)
        assert sum(first.chats.values()) == calls and sum(second.chats.values()) == 0
        first.reset()
        # Two functions at once, two places per server: each call goes to the less busy server, so
        # neither ever has two calls while the other is idle.
        both = repo_at(tmp_path / "both")
        parallel = settings([first.base_url, second.base_url], jobs=2, jobs_per_server=2)
        report = run_docs(parallel, both.root, DiffSpec(all=True), (), discard)
    assert report.count("updated") == len(NAMES)
    assert sum(first.chats.values()) > 0 and sum(second.chats.values()) > 0
    assert sum(first.chats.values()) + sum(second.chats.values()) == calls
    assert first.most_in_flight == 1 and second.most_in_flight == 1
    written = (one.root / DOC).read_bytes()
    assert (serial.root / DOC).read_bytes() == written and (both.root / DOC).read_bytes() == written


def test_each_server_keeps_its_own_limit(tmp_path: Path) -> None:
    with SlowOllama([MODEL], delay_s=0.2) as first, SlowOllama([MODEL], delay_s=0.2) as second:
        repo = repo_at(tmp_path / "repo")
        limited = settings([first.base_url, second.base_url], jobs=4, jobs_per_server=1)
        report = run_docs(limited, repo.root, DiffSpec(all=True), (), discard)
    assert report.count("updated") == len(NAMES)
    assert first.most_in_flight == 1 and second.most_in_flight == 1
    assert sum(first.chats.values()) > 0 and sum(second.chats.values()) > 0
