"""The Action's entry on a real PR repository against the loopback GitHub fake: annotations on the
changed lines, the apply path (patch artifact and inline diff), the old doc's diff, the last
trajectory of current docs, check mode's list, and the docstring review that replaces itself.
"""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from docbot.docmodel import DocModel, ParameterDoc
from docbot.apidocs.pages import marker_line, source_hash
from docbot.fronts.action import run_action
from docbot.github.review import REVIEW_MARKER
from docbot.results import FunctionResult, RunReport, SectionStatus
from tests.support.action_env import PR, FakeRun, act, git, outputs, pr_event, runner_env, write
from tests.support.fake_github import FakeGitHub

pytest_plugins = ["tests.support.action_fixtures"]  # the gh fixture

AREA_BASE = "def area(w, h):\n    return w * h\n"
AREA_HEAD = "def area(w, h):\n    return abs(w * h)\n"
FILLER = "".join(f"X{i} = {i}\n" for i in range(12))
FAR = "\n\ndef far(x):\n    return x\n"
OLD_DOC = "## `area`\n\nThe area of a rectangle (old)."
MODEL = DocModel(summary="The area of a w by h rectangle.",
                 parameters=(ParameterDoc(name="w", description="width"), ParameterDoc(name="h", description="height")),
                 returns="the area, never negative")


def doc_file(qualname: str, source: str, body: str, state: str = "") -> str:
    marker = marker_line(qualname, source_hash(source))
    if state:
        marker = marker.replace(" -->", f" {state} -->")
    return f"# pkg.geometry\n\n{marker}\n{body}\n<!-- docbot:end {qualname} -->\n"


@pytest.fixture
def repo(tmp_path: Path) -> dict[str, Any]:
    """The runner's workspace: base (area, far, and a current doc of far), head changes area."""
    work = tmp_path / "work"
    work.mkdir()
    git(work, "init", "-q")
    write(work / "pkg" / "__init__.py", "")
    write(work / "pkg" / "geometry.py", AREA_BASE + FILLER + FAR)
    write(work / "docs" / "api" / "pkg.geometry.md",
          doc_file("far", FAR.strip() + "\n", "## `far`\n\nReturns x.", "status=approved score=97")
          .replace("# pkg.geometry\n\n", "# pkg.geometry\n\n" + marker_line("area", source_hash(AREA_BASE))
                   + f"\n{OLD_DOC}\n<!-- docbot:end area -->\n\n"))
    write(work / "config.json", json.dumps({"write_docstrings": True}))
    git(work, "add", "-A"), git(work, "commit", "-qm", "base")
    base = git(work, "rev-parse", "HEAD")
    write(work / "pkg" / "geometry.py", AREA_HEAD + FILLER + FAR)
    git(work, "commit", "-qam", "head")
    return {"work": work, "base": base, "head": git(work, "rev-parse", "HEAD")}


def area(**fields: Any) -> FunctionResult:
    from docbot.facts.function import extract_facts
    from docbot.apidocs.render import render_section

    markdown = render_section(MODEL, extract_facts(AREA_HEAD, "area"), "pkg.geometry")
    return FunctionResult(**{"module": "pkg.geometry", "qualname": "area", "status": "updated",
                             "path": "pkg/geometry.py", "doc_path": "docs/api/pkg.geometry.md", "markdown": markdown,
                             "scores": [70, 97], "rounds": 2, "exit_reason": "approved", "doc_model": MODEL,
                             "approval": SectionStatus.APPROVED, **fields})


def far(**fields: Any) -> FunctionResult:
    return FunctionResult(**{"module": "pkg.geometry", "qualname": "far", "status": "unchanged",
                             "path": "pkg/geometry.py", "doc_path": "docs/api/pkg.geometry.md", **fields})


def run(tmp_path: Path, gh: FakeGitHub, repo: dict[str, Any], report: RunReport, **inputs: str) -> tuple[int, str]:
    env = runner_env(tmp_path, gh, event=pr_event(repo["base"], repo["head"]), **inputs)
    report.base, report.head = repo["base"], repo["head"]
    return act(env, FakeRun(report))


def commands(log: str, name: str = "error") -> list[str]:
    return [line for line in log.splitlines() if line.startswith(f"::{name} file=")]


def test_unapproved_and_failed_functions_are_annotated_on_their_changed_lines(
        tmp_path: Path, gh: FakeGitHub, repo: dict[str, Any]) -> None:
    report = RunReport(results=[area(approval=SectionStatus.UNAPPROVED, scores=[60, 62], exit_reason="attempts"),
                                far(status="failed", reason="model server timed out")])
    code, log = run(tmp_path, gh, repo, report)
    assert code == 0
    assert commands(log) == [
        "::error file=pkg/geometry.py,line=2,endLine=2,title=docbot%3A pkg.geometry.area::pkg.geometry.area: not "
        "approved: the reviewer never passed a draft (best score 62, bar 95). Run "
        f"`docbot run --base {repo['base']}` on the PR branch and commit docs/api.",
        "::error file=pkg/geometry.py,line=17,endLine=17,title=docbot%3A pkg.geometry.far::pkg.geometry.far: model "
        f"server timed out. Run `docbot run --base {repo['base']}` on the PR branch and commit docs/api.",
    ]
    values = outputs(str(tmp_path / "output.txt"))
    assert (values["approved"], values["unapproved"], values["failed"], values["outcome"]) == ("0", "1", "1", "failed")


def test_comment_mode_offers_the_command_and_the_patch(tmp_path: Path, gh: FakeGitHub, repo: dict[str, Any]) -> None:
    work = repo["work"]
    new_doc = doc_file("area", AREA_HEAD, area().markdown.strip(), "status=approved score=97")
    (work / "docs" / "api" / "pkg.geometry.md").write_text(new_doc, encoding="utf-8")  # what the run wrote
    code, _ = run(tmp_path, gh, repo, RunReport(results=[area()], written=["docs/api/pkg.geometry.md"]),
                  DOCBOT_CONFIG="")
    assert code == 0
    comment = gh.comments[PR][0]["body"]
    assert f"on the PR branch run <code>docbot run --base {repo['base']}</code> and commit the docs" in comment
    assert "<code>git apply docbot-docs.patch</code>" in comment
    patch = Path(outputs(str(tmp_path / "output.txt"))["patch"])
    assert patch == tmp_path / "temp" / "docbot-docs.patch"
    patch_text = patch.read_text(encoding="utf-8")
    assert patch_text in comment.replace("\n````\n", "\n").replace("\n```\n", "\n")  # the same patch inline
    # The patch applies to a clean checkout of the PR head and gives exactly the docs the run wrote.
    git(work, "checkout", "-q", "--", "docs")
    subprocess.run(["git", "apply", str(patch)], cwd=work, check=True)
    assert (work / "docs" / "api" / "pkg.geometry.md").read_text(encoding="utf-8") == new_doc


def test_no_patch_when_the_run_wrote_nothing(tmp_path: Path, gh: FakeGitHub, repo: dict[str, Any]) -> None:
    write(tmp_path / "temp" / "docbot-docs.patch", "an earlier run's patch")
    run(tmp_path, gh, repo, RunReport(results=[far()]))
    assert not (tmp_path / "temp" / "docbot-docs.patch").exists()
    assert outputs(str(tmp_path / "output.txt"))["patch"] == ""
    assert "Apply these docs" not in gh.comments[PR][0]["body"]


def test_the_comment_diffs_the_new_doc_against_the_one_it_replaces(tmp_path: Path, gh: FakeGitHub,
                                                                   repo: dict[str, Any]) -> None:
    run(tmp_path, gh, repo, RunReport(results=[area()]))
    comment = gh.comments[PR][0]["body"]
    assert "-The area of a rectangle (old).\n" in comment
    assert "+The area of a w by h rectangle.\n" in comment


def test_a_current_doc_shows_its_last_trajectory_not_unchanged(tmp_path: Path, gh: FakeGitHub,
                                                                repo: dict[str, Any]) -> None:
    run(tmp_path, gh, repo, RunReport(results=[far(), far(qualname="X0")]))
    comment = gh.comments[PR][0]["body"]
    assert "| ➖ | [<code>pkg.geometry.far</code>](" in comment
    assert "| 97 vs 95 (approved), last run | — | doc current (code unchanged) |" in comment  # from the marker
    run(tmp_path, gh, repo, RunReport(results=[far(scores=[81, 90, 97])]))
    assert "| 81 → 90 → 97 vs 95 (approved), last run |" in gh.comments[PR][0]["body"]  # the report's curve


def test_the_review_suggests_the_docstring_on_the_def_line_and_replaces_itself(
        tmp_path: Path, gh: FakeGitHub, repo: dict[str, Any]) -> None:
    someone = gh.add_review_comment(PR, f"{REVIEW_MARKER} a person quoting docbot")
    code, log = run(tmp_path, gh, repo, RunReport(results=[area()]))
    assert code == 0, log
    [review] = gh.reviews[PR]
    assert review["commit_id"] == repo["head"]
    [comment] = [c for c in gh.review_comments[PR] if c["id"] != someone]
    assert (comment["path"], comment["line"], comment["side"]) == ("pkg/geometry.py", 1, "RIGHT")
    assert "start_line" not in comment
    assert ('```suggestion\ndef area(w, h):\n    """The area of a w by h rectangle.\n\n    Args:\n'
            "        w: width\n") in comment["body"]
    run(tmp_path, gh, repo, RunReport(results=[area()]))  # the next push
    assert len(gh.reviews[PR]) == 2
    left = [c["id"] for c in gh.review_comments[PR]]
    assert someone in left and comment["id"] not in left and len(left) == 2  # replaced, not stacked
    deletes = [r.path for r in gh.calls("DELETE")]
    assert deletes == [f"/repos/octo/project/pulls/comments/{comment['id']}"]


def test_a_function_outside_the_diff_falls_back_to_the_sticky_comment(tmp_path: Path, gh: FakeGitHub,
                                                                      repo: dict[str, Any]) -> None:
    outside = area(qualname="far", markdown="## `far`\n\nReturns x.", doc_model=DocModel(summary="Return x."))
    run(tmp_path, gh, repo, RunReport(results=[outside]))
    assert gh.review_comments.get(PR, []) == []
    comment = gh.comments[PR][0]["body"]
    assert "**Docstrings the review could not carry**" in comment
    assert '<details><summary><code>pkg.geometry.far</code>: docstring</summary>\n\n```python\n"""Return x.' in comment


def test_no_review_without_write_docstrings(tmp_path: Path, gh: FakeGitHub, repo: dict[str, Any]) -> None:
    git(repo["work"], "checkout", "-q", repo["base"])
    write(repo["work"] / "config.json", json.dumps({"write_docstrings": False}))
    git(repo["work"], "commit", "-qam", "docstrings off")
    repo["base"] = git(repo["work"], "rev-parse", "HEAD")
    run(tmp_path, gh, repo, RunReport(results=[area()]))
    assert gh.reviews == {} and gh.calls("DELETE") == []


def test_check_mode_lists_what_is_missing_and_counts_current_functions(tmp_path: Path, gh: FakeGitHub,
                                                                       repo: dict[str, Any]) -> None:
    work = repo["work"]
    near = "def near(x):\n    return x\n"
    write(work / "pkg" / "geometry.py", AREA_HEAD + FILLER + FAR + "\n\n" + near + "\n\ndef mid(y):\n    return y\n")
    doc = (work / "docs" / "api" / "pkg.geometry.md").read_text(encoding="utf-8")
    write(work / "docs" / "api" / "pkg.geometry.md", doc + "\n" + doc_file("near", near, "## `near`\n\nX.")
          .removeprefix("# pkg.geometry\n\n"))
    git(work, "commit", "-qam", "add near (documented) and mid (not)")
    repo["head"] = git(work, "rev-parse", "HEAD")
    env = runner_env(tmp_path, gh, event=pr_event(repo["base"], repo["head"]), DOCBOT_MODE="check",
                     GITHUB_WORKSPACE=str(work))
    out = io.StringIO()
    code = run_action(env, [], out=out)  # the real check, no model
    comment = gh.comments[PR][0]["body"]
    assert code == 1, out.getvalue()
    assert "**3 functions checked**: ✅ 1 current · ❌ 2 to write or update" in comment
    assert ("- ❌ <code>pkg.geometry.area</code> (<code>pkg/geometry.py:1</code>): doc is stale: the code changed "
            "since\n- ❌ <code>pkg.geometry.mid</code> (<code>pkg/geometry.py:25</code>): no doc section yet\n"
            ) in comment
    assert ("**Fix:** on the PR branch run <code>docbot run --base " + repo["base"]) in comment
    assert "—" not in comment


def test_the_two_steps_carry_the_verdict_repairs_doc_model_and_the_docstring_option(
        tmp_path: Path, gh: FakeGitHub, repo: dict[str, Any]) -> None:
    """The run step (no token) writes the report; the publish step reads it back typed, and posts the
    review because the base's config turned docstrings on."""
    env = runner_env(tmp_path, gh, event=pr_event(repo["base"], repo["head"]))
    stage_file = str(tmp_path / "temp" / "run.json")
    report = RunReport(results=[area(approval=SectionStatus.UNAPPROVED, repairs=("dropped parameter `q`",))],
                       base=repo["base"], head=repo["head"])
    assert run_action({**env, "DOCBOT_TOKEN": ""}, ["run", "--report", stage_file], run_pr=FakeRun(report),
                      out=io.StringIO()) == 0
    assert gh.requests == []
    out = io.StringIO()
    assert run_action(env, ["publish", "--report", stage_file], out=out) == 0, out.getvalue()

    comment = gh.comments[PR][0]["body"]
    # 97 passed the bar; what stopped it was a contradiction (repaired): the comment says that, not the score.
    assert "final doc (unapproved, contradicted the code)" in comment and "- dropped parameter &#96;q&#96;" in comment
    assert "## `area`" in comment.split("<details>")[1]  # shown rendered: the doc model came back typed
    assert len(gh.reviews[PR]) == 1 and "```suggestion\ndef area(w, h):" in gh.review_comments[PR][0]["body"]
    assert outputs(env["GITHUB_OUTPUT"])["unapproved"] == "1"


def test_a_refused_review_falls_back_to_the_comment(tmp_path: Path, gh: FakeGitHub, repo: dict[str, Any]) -> None:
    gh.fail("POST", 422)  # the review; the sticky comment's POST comes after it
    code, log = run(tmp_path, gh, repo, RunReport(results=[area()]))
    assert code == 0
    assert "::warning title=docbot::docbot could not post the docstring review: GitHub refused POST" in log
    comment = gh.comments[PR][0]["body"]
    assert "**Docstrings the review could not carry**" in comment and 'def area(w, h):\n    """The area' in comment


def test_hostile_names_and_reasons_cannot_add_workflow_commands_to_the_log(tmp_path: Path, gh: FakeGitHub,
                                                                          repo: dict[str, Any]) -> None:
    hostile = FunctionResult("pkg.x", "f,line=1::\n::add-mask::ghp_abcdefgh12345678", "failed",
                             reason="boom\n::set-output name=outcome::approved\r::stop-commands::t",
                             path="pkg/a,title=owned::x.py")
    code, log = run(tmp_path, gh, repo, RunReport(results=[hostile]))
    commands_seen = [line for line in log.splitlines() if line.lstrip().startswith("::")]
    assert [line.split(" ", 1)[0] for line in commands_seen] == ["::group::docbot", "::endgroup::", "::error"]
    assert commands_seen[2].startswith("::error file=pkg/a%2Ctitle=owned%3A%3Ax.py,title=docbot%3A pkg.x.f%2Cline=1")
    assert "\r" not in log and "ghp_abcdefgh12345678" not in log
    assert outputs(str(tmp_path / "output.txt"))["outcome"] == "failed"
