"""``docbot merge`` through the real CLI on real shard reports (docs/design.md#shards): it exits as the
shards' results imply, says so in its JSON, and refuses what is not every shard of one run exactly once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docbot.fronts.cli import main
from docbot.fronts.common import json_document
from docbot.results import FunctionResult, Outcome, Target
from docbot.run.pipeline import run_docs
from docbot.run.shards import Shard
from docbot.scan.repo import DiffSpec
from docbot.config.settings import Settings
from tests.support.events import CollectingSink
from tests.support.git_repo import GitRepo


def repo_at(path: Path) -> GitRepo:
    repo = GitRepo(path).write("pkg/__init__.py", "")
    for name in "abcdef":
        repo.write(f"pkg/{name}.py", f"def {name}1(x):\n    return x\n")
    return repo.commit("modules")


def documenter(unapproved: str = "", failing: str = ""):  # type: ignore[no-untyped-def]
    """Approves every function but ``unapproved`` (written unapproved) and ``failing`` (failed)."""
    def document(target: Target, current: str = "") -> FunctionResult:
        if target.qualname == failing:
            return FunctionResult(target.module, target.qualname, "failed", reason="scripted failure")
        outcome = Outcome.UNAPPROVED if target.qualname == unapproved else Outcome.APPROVED
        return FunctionResult(target.module, target.qualname, "updated", scores=[97], rounds=1,
                              exit_reason="approved", outcome=outcome,
                              markdown=f"## `{target.qualname}`\n\nThe doc of {target.key}.")
    return document


def shard_files(tmp_path: Path, count: int, unapproved: str = "", failing: str = "") -> list[str]:
    """Each shard's report exactly as `docbot run --shard I/N --json` prints it."""
    repo = repo_at(tmp_path / "repo")
    files = []
    for index in range(1, count + 1):
        report = run_docs(Settings(), repo.root, DiffSpec(all=True), (), CollectingSink(),
                          documenter_factory=lambda: documenter(unapproved, failing), shard=Shard(index, count))
        path = tmp_path / f"shard{index}.json"
        path.write_text(json_document("run", **report.to_json(), exit_code=int(report.exit_code())))
        files.append(str(path))
    return files


@pytest.mark.parametrize("unapproved, failing, code", [
    ("", "", 0),
    ("c1", "", 6),  # a shard wrote an unapproved section, none failed
    ("", "e1", 1),  # a shard failed
    ("c1", "e1", 1),  # a failure outranks an unapproved section, in whichever shards they are
])
def test_merge_exits_as_the_shards_results_imply(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  unapproved: str, failing: str, code: int) -> None:
    files = shard_files(tmp_path, 3, unapproved, failing)
    shard_codes = [json.loads(Path(f).read_text())["exit_code"] for f in files]
    assert max(shard_codes, key=lambda c: (c == 1, c)) == code  # the shards alone say the same
    assert main(["merge", *files]) == code
    merged = json.loads(capsys.readouterr().out)
    assert merged["exit_code"] == code and len(merged["results"]) == 6
    outcomes = {r["qualname"]: r["outcome"] for r in merged["results"]}
    assert outcomes.get(unapproved or "c1") == ("unapproved" if unapproved else "approved")
    assert [r["qualname"] for r in merged["results"] if r["status"] == "failed"] == ([failing] if failing else [])


def test_each_shard_report_names_its_shard(tmp_path: Path) -> None:
    files = shard_files(tmp_path, 2)
    assert [json.loads(Path(f).read_text())["shard"] for f in files] == [{"index": 1, "count": 2},
                                                                          {"index": 2, "count": 2}]


@pytest.mark.parametrize("pick, message", [
    (lambda f: [f[0], f[0], f[1], f[2]], "shard 1/3 given more than once"),
    (lambda f: [f[0], f[2]], "shard 2/3 missing"),
    (lambda f: [f[1]], "shard 1/3, 3/3 missing"),
])
def test_merge_refuses_duplicate_and_missing_shards(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     pick, message: str) -> None:  # type: ignore[no-untyped-def]
    files = shard_files(tmp_path, 3)
    assert main(["merge", *pick(files)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err


def _edit(path: str, change) -> str:  # type: ignore[no-untyped-def]
    data = json.loads(Path(path).read_text())
    change(data)
    Path(path).write_text(json.dumps(data))
    return path


def test_merge_refuses_overlapping_shards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The same module in two reports: a report of shard 2 that also holds shard 1's first module.
    files = shard_files(tmp_path, 2)
    first = json.loads(Path(files[0]).read_text())["results"][0]
    _edit(files[1], lambda data: data["results"].append(first))
    assert main(["merge", *files]) == 2
    assert f"module {first['module']} is in reports 1 and 2" in capsys.readouterr().err


@pytest.mark.parametrize("change, message", [
    (lambda data: data.pop("shard"), "has no `shard` key"),
    (lambda data: data.update(shard={"index": 2, "count": 4}), "split the run differently"),
])
def test_merge_refuses_reports_that_are_not_one_matrix(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       change, message: str) -> None:  # type: ignore[no-untyped-def]
    files = shard_files(tmp_path, 2)
    _edit(files[1], change)
    assert main(["merge", *files]) == 2
    assert message in capsys.readouterr().err


def test_an_older_report_says_removed_in_its_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = shard_files(tmp_path, 1)
    gone = {**FunctionResult.removed_section("pkg.gone", "g").to_json()}
    del gone["outcome"]  # as a report written before ``outcome`` was a key
    _edit(files[0], lambda data: data["results"].append(gone))
    assert main(["merge", *files]) == 0
    merged = json.loads(capsys.readouterr().out)
    assert [r["outcome"] for r in merged["results"] if r["module"] == "pkg.gone"] == ["removed"]
