"""The real loop (LangGraph, ChatOllama over HTTP) with ``jobs`` > 1 and the cache, against a loopback
server speaking Ollama's protocol (bench.slow_ollama): calls overlap, files match the serial run's
byte for byte, and a rerun is served by the cache with no call at all."""

from __future__ import annotations

from pathlib import Path

from bench.slow_ollama import SlowOllama
from docbot.events import discard
from docbot.scan.repo import DiffSpec
from docbot.run.pipeline import run_docs
from docbot.config.settings import ROLES, Settings
from tests.support.git_repo import GitRepo

NAMES = [f"f{i}" for i in range(6)]
SOURCE = "".join(f"def {name}(x):\n    return x + {i}\n\n\n" for i, name in enumerate(NAMES))
DOC = "docs/api/pkg.m.md"


def settings(server: SlowOllama, **extra: object) -> Settings:
    return Settings.model_validate({"model_registry": {role: "fake:1b" for role in ROLES},
                                    "base_url": server.base_url, "run_examples": False, **extra})


def repo_at(path: Path) -> GitRepo:
    return GitRepo(path).write("pkg/__init__.py", "").write("pkg/m.py", SOURCE).commit("m")


def test_parallel_functions_write_the_serial_files(tmp_path: Path) -> None:
    with SlowOllama(["fake:1b"], delay_s=0.3) as server:
        serial, parallel = repo_at(tmp_path / "serial"), repo_at(tmp_path / "parallel")
        run_docs(settings(server, cache=False), serial.root, DiffSpec(all=True), (), discard)
        serial_calls = sum(server.chats.values())
        assert server.most_in_flight == 1
        server.reset()
        report = run_docs(settings(server, cache=False, jobs=3), parallel.root, DiffSpec(all=True), (), discard)
        assert report.count("updated") == len(NAMES) and sum(server.chats.values()) == serial_calls
        assert (parallel.root / DOC).read_bytes() == (serial.root / DOC).read_bytes()
        # Three at a time: the calls overlapped (counted by the server, not timed).
        assert server.most_in_flight > 1


def test_a_rerun_is_served_by_the_cache(tmp_path: Path) -> None:
    repo = repo_at(tmp_path / "repo")
    with SlowOllama(["fake:1b"], delay_s=0.0) as server:
        run_docs(settings(server), repo.root, DiffSpec(all=True), (), discard)
        assert sum(server.chats.values()) == 2 * len(NAMES)  # draft + critique: a clean round 1 needs no adjudicator
        written = repo.read(DOC)
        (repo.root / DOC).unlink()
        server.reset()
        report = run_docs(settings(server), repo.root, DiffSpec(all=True), (), discard)
    assert sum(server.chats.values()) == 0 and {r.reason for r in report.results} == {"cached"}
    assert repo.read(DOC) == written
