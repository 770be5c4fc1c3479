"""`docbot targets`, `docbot run --replay` and `docbot check` on a temporary repo, as a new user would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from docbot.scan.repo import DiffSpec
from tests.support.fakes import critique
from tests.support.git_repo import GitRepo
from tests.support.recording import record_answers

GEO_V1 = '''def area(width, height):
    """Area of a rectangle."""
    return width * height


def _private(x):
    return x
'''
GEO_V2 = GEO_V1 + '''

def perimeter(width, height):
    """Perimeter of a rectangle."""
    return 2 * (width + height)


class Shape:
    def scale(self, factor):
        return factor
'''
def section(summary: str, params: list[str], returns: str) -> str:
    """A writer's doc model."""
    return json.dumps({"summary": summary, "parameters": [{"name": n, "description": f"the {n}"} for n in params],
                       "returns": returns})


AREA = section("Area of a rectangle.", ["width", "height"], "the area, `width * height`.")
PERIMETER = section("Perimeter of a rectangle.", ["width", "height"], "the perimeter.")
SCALE = section("Returns the factor.", ["factor"], "the factor.")

def docbot(repo: GitRepo, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "docbot.fronts.cli", *args], cwd=repo.root, capture_output=True,
                          text=True, timeout=300)


def make_repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "project")
    repo.write("geo/shapes.py", GEO_V1).write("geo/__init__.py", "").write("config.json", '{"run_examples": false}')
    repo.commit("first")
    repo.write("geo/shapes.py", GEO_V2).commit("second")
    return repo


def test_targets_lists_exactly_the_changed_public_functions(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    done = docbot(repo, "targets", "--base", "HEAD~1", "--json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert (document["schema_version"], document["command"], document["scope"]) == (1, "targets", "diff")
    listed = document["targets"]
    assert [(t["module"], t["qualname"], t["kind"]) for t in listed] == [
        ("geo.shapes", "perimeter", "added"), ("geo.shapes", "Shape.scale", "added")]
    assert {"path", "lineno", "end_lineno"} <= set(listed[0])


def test_run_replay_then_idempotent_then_check_catches_an_edit(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    recording = tmp_path / "answers.jsonl"
    results = record_answers(repo.root, DiffSpec(all=True), recording, [AREA, PERIMETER, SCALE],
                             [critique(97, 97)] * 3, [AREA, PERIMETER, SCALE])
    assert [r.status for r in results] == ["updated"] * 3

    first = docbot(repo, "run", "--replay", str(recording), "--all")
    assert first.returncode == 0, first.stderr
    doc = repo.read("docs/api/geo.shapes.md")
    assert doc.index("## `area`") < doc.index("## `perimeter`") < doc.index("## `Shape.scale`")  # source order
    assert "_private" not in doc

    second = docbot(repo, "run", "--replay", str(recording), "--all")
    assert second.returncode == 0, second.stderr
    assert "0 updated, 3 unchanged" in second.stdout
    assert repo.read("docs/api/geo.shapes.md") == doc  # byte-identical

    fresh = docbot(repo, "check", "--all")
    assert fresh.returncode == 0, fresh.stdout + fresh.stderr

    repo.write("geo/shapes.py", GEO_V2.replace("return width * height", "return height * width"))
    stale = docbot(repo, "check", "--all")
    assert stale.returncode == 1
    assert "geo.shapes.area: doc is stale" in stale.stdout
    assert "perimeter" not in stale.stdout
