"""``--shard I/N`` and ``docbot merge`` (docs/design.md#shards): whole modules per shard, a stable split,
and shards that together write exactly what one run writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docbot.errors import ConfigError
from docbot.fronts.cli import main
from docbot.scan.repo import DiffSpec
from docbot.results import FunctionResult, Target
from docbot.run.pipeline import run_docs
from docbot.config.settings import Settings
from docbot.run.shards import Shard, merge_reports, parse_shard
from tests.support.events import CollectingSink
from tests.support.git_repo import GitRepo


@pytest.mark.parametrize("text, shard", [("1/1", Shard(1, 1)), ("2/4", Shard(2, 4)), (" 3 / 4 ", Shard(3, 4)),
                                         ("4/4", Shard(4, 4))])
def test_a_shard_is_read(text: str, shard: Shard) -> None:
    assert parse_shard(text) == shard


@pytest.mark.parametrize("text", ["0/4", "5/4", "1/0", "a/b", "", "2", "1/2/3", "-1/2"])
def test_a_shard_outside_one_to_n_is_refused(text: str) -> None:
    with pytest.raises(ConfigError, match="I/N"):
        parse_shard(text)


MODULES = [f"pkg.sub{i}.mod{i % 7}" for i in range(200)]


@pytest.mark.parametrize("count", [1, 2, 3, 5])
def test_every_module_is_in_exactly_one_shard(count: int) -> None:
    for module in MODULES:
        assert sum(Shard(index, count).holds(module) for index in range(1, count + 1)) == 1
    sizes = [sum(Shard(index, count).holds(m) for m in MODULES) for index in range(1, count + 1)]
    assert min(sizes) >= len(MODULES) // count // 2  # no shard starves


def test_the_split_is_the_same_in_every_process() -> None:
    # Pinned: a salted hash() or another digest would move modules between CI jobs from run to run.
    assert [index for index in range(1, 5) if Shard(index, 4).holds("pkg.geo")] == [_pinned("pkg.geo", 4)]
    assert [m for m in ("a", "b", "c", "d", "e", "f") if Shard(1, 2).holds(m)] == ["a", "b", "c", "e", "f"]


def _pinned(module: str, count: int) -> int:
    import hashlib

    return int.from_bytes(hashlib.sha256(module.encode()).digest()[:8], "big") % count + 1


def repo_at(path: Path) -> GitRepo:
    repo = GitRepo(path).write("pkg/__init__.py", "")
    for name in "abcdef":
        repo.write(f"pkg/{name}.py", f"def {name}1(x):\n    return x\n\n\ndef {name}2(x):\n    return -x\n")
    return repo.commit("modules")


def document(target: Target, current: str = "") -> FunctionResult:
    return FunctionResult(target.module, target.qualname, "updated", exit_reason="approved",
                          markdown=f"## `{target.qualname}`\n\nThe doc of {target.key}.")


def run_json(repo: GitRepo, shard: Shard | None) -> dict[str, object]:
    report = run_docs(Settings(), repo.root, DiffSpec(all=True), (), CollectingSink(),
                      documenter_factory=lambda: document, shard=shard)
    return {"schema_version": 1, "command": "run", **report.to_json()}


def docs_of(repo: GitRepo) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted((repo.root / "docs/api").glob("*.md"))}


def test_shards_together_write_what_one_run_writes(tmp_path: Path) -> None:
    whole, sharded = repo_at(tmp_path / "whole"), repo_at(tmp_path / "sharded")
    one = run_json(whole, None)
    parts = [run_json(sharded, Shard(index, 3)) for index in (1, 2, 3)]
    written = [set(part["written"]) for part in parts]  # type: ignore[arg-type]
    assert all(written) and sum(len(w) for w in written) == len(set().union(*written))  # disjoint, none empty
    index = "docs/api/index.md"  # written by a whole run only: each shard sees only its own modules
    assert index in one["written"] and all(index not in w for w in written)  # type: ignore[operator]
    assert {**docs_of(sharded), "index.md": ""} == {**docs_of(whole), "index.md": ""} and len(docs_of(whole)) == 7
    merged = merge_reports(parts)
    assert merged["written"] == sorted(w for w in one["written"] if w != index)  # type: ignore[union-attr]
    assert sorted(r["key"] for r in merged["results"]) == sorted(r["key"] for r in one["results"])  # type: ignore
    assert merged["summary"] == one["summary"] and merged["approved"] == one["approved"]


def test_merge_refuses_what_is_not_one_runs_shards() -> None:
    run = {"command": "run", "results": [], "base": "a", "head": "b"}
    with pytest.raises(ConfigError, match="different revisions"):
        merge_reports([run, {**run, "base": "c"}])
    with pytest.raises(ConfigError, match="docbot run --json"):
        merge_reports([run, {"command": "check", "stale": []}])
    with pytest.raises(ConfigError, match="no report"):
        merge_reports([])


def test_docbot_merge_prints_one_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = repo_at(tmp_path / "repo")
    files = []
    for index in (1, 2):
        path = tmp_path / f"shard{index}.json"
        path.write_text(json.dumps(run_json(repo, Shard(index, 2))))
        files.append(str(path))
    assert main(["merge", *files]) == 0
    out, err = capsys.readouterr()
    merged = json.loads(out)
    assert (merged["schema_version"], merged["command"], len(merged["results"])) == (1, "run", 12)
    assert err.strip() == "docbot: 12 functions: 12 updated, 0 unchanged, 0 skipped, 0 failed"
