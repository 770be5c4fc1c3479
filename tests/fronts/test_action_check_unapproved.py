"""The Action's check mode lists the current sections the gate never passed (issue 24, item 7): a notice
on each in the job log and the section marked unapproved in the report; approved ones are not listed,
and neither kind fails the check."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from pathlib import Path

from docbot.config.settings import Settings
from docbot.fronts.action import CURRENT_UNAPPROVED, default_run_pr
from docbot.run.pipeline import run_docs
from docbot.scan.repo import DiffSpec
from tests.support.events import CollectingSink
from tests.support.git_repo import GitRepo
from tests.support.samples import GEO
from tests.support.scripted import Scripted


def _documented(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").commit("start")
    repo.write("pkg/geo.py", GEO).commit("geo")  # --all documents the committed tree
    run_docs(Settings(), repo.root, DiffSpec(all=True), (), CollectingSink(),
             documenter_factory=Scripted({"perimeter": 62}).factory)
    return repo.commit("its docs")


def test_check_mode_lists_unapproved_sections(tmp_path: Path) -> None:
    repo = _documented(tmp_path)
    base = repo.sha()  # the docs and their verdicts are the base's: merged by the maintainers
    # trailing blanks: every function is touched (in scope), none changed (every section current)
    repo.write("pkg/geo.py", "".join(line + "  \n" for line in GEO.split("\n"))).commit("blanks")
    log = io.StringIO()
    with redirect_stdout(log):
        report = default_run_pr(Settings(), repo.root, base, repo.sha(), "check")
    notices = [line for line in log.getvalue().splitlines() if line.startswith("::notice")]
    assert notices == ["::notice file=pkg/geo.py,line=6,title=docbot%3A unapproved section::pkg/geo.py:6: "
                       "pkg.geo.perimeter: doc is current but unapproved (score 62); review it in "
                       "docs/api/pkg.geo.md, or change the function and run `docbot run` again"]
    reasons = {r.qualname: (r.status, r.reason) for r in report.results}
    assert reasons == {"area": ("unchanged", "doc current"), "perimeter": ("unchanged", CURRENT_UNAPPROVED),
                       "Shape.scale": ("unchanged", "doc current")}


def test_an_approval_the_pr_wrote_is_re_derived_not_read(tmp_path: Path) -> None:
    """Issue 30: a PR's own `status=approved score=100 body=<digest>` (every field a public digest) passed. A
    verdict the base does not show is not taken: the sections are listed unapproved, with why."""
    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").commit("start")
    base = repo.sha()
    repo.write("pkg/geo.py", GEO).commit("geo")
    run_docs(Settings(), repo.root, DiffSpec(all=True), (), CollectingSink(),
             documenter_factory=Scripted({"perimeter": 62}).factory)
    repo.commit("its docs, in the PR")
    log = io.StringIO()
    with redirect_stdout(log):
        report = default_run_pr(Settings(), repo.root, base, repo.sha(), "check")
    notices = [line for line in log.getvalue().splitlines() if line.startswith("::notice")]
    assert len(notices) == 3 and sum("status= was written in this diff" in n for n in notices) == 2
    assert {r.qualname: r.reason for r in report.results} == {q: CURRENT_UNAPPROVED
                                                              for q in ("area", "perimeter", "Shape.scale")}
