"""The content-keyed cache (docs/design.md#cache): what the key ignores and what it does not, the entries
on disk, and ``docbot run`` with 0 documenter calls after a rerun, a real ``ruff format`` and a move."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from docbot.run import cache as cache_module
from docbot.run.cache import ResultCache, cache_key, decode, encode, facts_of, function_shape, moved
from docbot.apidocs.pages import parse_doc_file, source_hash
from docbot.scan.repo import DiffSpec
from docbot.docmodel import DocModel, Example, ParameterDoc
from docbot.results import FunctionResult, RunReport, SectionStatus, Target
from docbot.run.pipeline import run_docs
from docbot.config.settings import Settings
from tests.support.events import CollectingSink
from tests.support.git_repo import GitRepo
from tests.run.test_run import GEO, FakeDocumenter

BASE = 'def f(a, b=1):\n    """Adds."""\n    return a + b  # sum\n'


@pytest.mark.parametrize("other, same", [
    ('def f(a, b=1):\n    """Adds."""\n    return a + b\n', True),  # a comment
    ("def f(a, b = 1):\n    '''Adds.'''\n    return (a +\n            b)\n", True),  # layout, quotes
    ('def f(a, b=1):\n    """Adds two numbers, documented better."""\n    return a + b\n', True),  # docstring
    ("def f(a, b=1):\n    return a + b\n", True),  # no docstring at all
    ('def f(a, b=2):\n    """Adds."""\n    return a + b\n', False),  # a default
    ('def f(a, c=1):\n    """Adds."""\n    return a + c\n', False),  # a parameter's name
    ('def f(a, b=1):\n    """Adds."""\n    return a - b\n', False),  # the body
    ('async def f(a, b=1):\n    """Adds."""\n    return a + b\n', False),  # async
    ('@cache\ndef f(a, b=1):\n    """Adds."""\n    return a + b\n', False),  # a decorator
    ('def f(a, b=1):\n    """Adds."""\n    "not a docstring"\n    return a + b\n', False),  # a second string
])
def test_the_shape_ignores_formatting_comments_and_the_docstring_only(other: str, same: bool) -> None:
    assert (function_shape(other) == function_shape(BASE)) is same


def test_a_function_the_running_ast_cannot_read_has_no_shape() -> None:
    assert function_shape("def f(:\n    pass\n") is None


def target(source: str = BASE, module: str = "pkg.m", qualname: str = "f") -> Target:
    return Target(module, qualname, module.replace(".", "/") + ".py", 1, 3, "modified", source)


@pytest.mark.parametrize("change, same", [
    ({"base_url": "http://elsewhere:1"}, True),
    ({"request_timeout_s": 9.0, "call_retries": 0, "jobs": 4, "docs_dir": "ref"}, True),
    ({"model_registry": {"GENERATOR": {"model": "qwen3.5:9b", "base_url": "http://gpu:1"},
                         "CRITIC": "deepseek-coder:6.7b", "ADJUDICATOR": "llama3:8b"}}, True),
    ({"model_registry": {"GENERATOR": "other:1b", "CRITIC": "deepseek-coder:6.7b", "ADJUDICATOR": "llama3:8b"}},
     False),
    ({"temperatures": {"GENERATOR": 0.1}}, False),
    ({"quality_score_bar": 90}, False),
    ({"max_attempts": 2}, False),
    ({"seed": 7}, False),
])
def test_the_key_holds_the_settings_that_shape_a_doc(change: dict[str, object], same: bool) -> None:
    plain = cache_key(target(), Settings(), facts_of(target()))
    changed = cache_key(target(), Settings.model_validate(change), facts_of(target()))
    assert plain is not None and (changed == plain) is same


def test_the_key_holds_the_qualname_the_facts_and_the_prompts(monkeypatch: pytest.MonkeyPatch,
                                                             tmp_path: Path) -> None:
    plain = cache_key(target(), Settings(), facts_of(target()))
    assert cache_key(target(module="other.place"), Settings(), facts_of(target())) == plain  # not the place
    assert cache_key(target(qualname="C.f"), Settings(), facts_of(target())) != plain
    assert cache_key(target(), Settings(), facts_of(target()) + "\nRaises: ValueError") != plain
    prompts = tmp_path / "prompts.py"
    prompts.write_text("DRAFT = 'another prompt'\n")
    monkeypatch.setattr(cache_module, "_PROMPTS", prompts)
    assert cache_key(target(), Settings(), facts_of(target())) != plain


def test_facts_do_not_see_the_quote_style() -> None:
    single = "def f(a='x'):\n    return a\n"
    assert facts_of(target(single)) == facts_of(target(single.replace("'x'", '"x"'))) != ""


@pytest.mark.parametrize("code, old, new, expected", [
    ("from pkg.geo import area\npkg.geo.area(1)", "pkg.geo", "pkg.shapes",
     "from pkg.shapes import area\npkg.shapes.area(1)"),
    ("import pkg.geo as g\ng.area(1)", "pkg.geo", "pkg.shapes", "import pkg.shapes as g\ng.area(1)"),
    ("pkg.geometry.x; xpkg.geo.y", "pkg.geo", "pkg.shapes", "pkg.geometry.x; xpkg.geo.y"),  # other names
    # The issue-22 case: a module ``a`` moved to ``b``; the parameter ``a`` is not the module.
    ("from a import add\nprint(add(a=1, b=2))  # sum of a and b", "a", "b",
     "from b import add\nprint(add(a=1, b=2))  # sum of a and b"),
    ("import a\na.add(1, 2)", "a", "b", "import b\nb.add(1, 2)"),
])
def test_a_move_rewrites_only_the_uses_of_the_module(code: str, old: str, new: str, expected: str) -> None:
    assert moved(code, old, new) == expected


def test_a_moved_hit_keeps_its_prose_and_parameters(tmp_path: Path) -> None:
    model = DocModel(summary="The sum of a and b.", parameters=(ParameterDoc(name="a", description="a number"),),
                     examples=(Example(code="from a import add\nadd(a=1, b=2)", output="3"),))
    store = ResultCache(tmp_path)
    store.put("aa" * 32, replace(FULL, module="a", qualname="add", doc_model=model), [])
    hit = store.get("aa" * 32, Target("b", "add", "b.py", 1, 2, "added", "def add(a, b):\n    return a + b\n"))
    assert hit is not None and hit.result.doc_model is not None
    assert hit.result.doc_model.summary == "The sum of a and b." and hit.result.doc_model.parameters[0].name == "a"
    assert hit.result.doc_model.examples[0].code == "from b import add\nadd(a=1, b=2)"
    assert hit.result.markdown == ""  # raw Markdown from a cache never ships: ``checked`` renders it again


FULL = FunctionResult("pkg.m", "f", "updated", reason="", path="pkg/m.py", doc_path="docs/api/pkg.m.md",
                      markdown="## `f`\n\nAdds.", scores=[80, 96], rounds=2, exit_reason="approved",
                      fatal_issues=["x"], bar=90, tokens={"GENERATOR": {"in": 10, "out": 5, "seconds": 1.5,
                                                                        "calls": 2}},
                      approval=SectionStatus.UNAPPROVED, repairs=("removed example 1",),
                      doc_model=DocModel(summary="Adds.", examples=(Example(code="from pkg.m import f\nf(1)",
                                                                            output="2"),)))


def test_every_field_of_a_result_reads_back() -> None:
    assert decode(FunctionResult, json.loads(json.dumps(encode(FULL)))) == FULL


def test_a_moved_hit_names_the_new_module_in_its_typed_doc_too(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path)
    cache.put("k" * 64, FULL, [])
    hit = cache.get("k" * 64, Target("pkg.n", "f", "pkg/n.py", 1, 2, "added", "def f(x):\n    return x\n"))
    assert hit is not None and hit.result.doc_model is not None
    assert hit.result.doc_model.examples[0].code == "from pkg.n import f\nf(1)"
    assert hit.result.approval is SectionStatus.UNAPPROVED and hit.result.repairs == ("removed example 1",)


def test_an_entry_is_reused_where_the_function_is_now(tmp_path: Path) -> None:
    store = ResultCache(tmp_path / ".docbot" / "cache")
    trajectory = [{"round": 1, "score": 96}]
    store.put("ab" * 32, FULL, trajectory)  # type: ignore[list-item]
    hit = store.get("ab" * 32, target(module="lib.m2"))
    assert hit is not None and hit.trajectory == trajectory
    assert (hit.result.module, hit.result.path, hit.result.tokens, hit.result.reason) == ("lib.m2", "lib/m2.py",
                                                                                        {}, "cached")
    assert (hit.result.scores, hit.result.exit_reason, hit.result.markdown) == ([80, 96], "approved", "")
    assert store.get("cd" * 32, target()) is None


@pytest.mark.parametrize("damage", ["{not json", '{"format": 999}', '{"format": 1, "key": "other"}',
                                    '{"format": 1, "key": "KEY", "result": {"status": "exploded"}}'])
def test_a_damaged_entry_is_a_miss(tmp_path: Path, damage: str) -> None:
    store = ResultCache(tmp_path)
    key = "ef" * 32
    store.put(key, FULL, [])
    path = next((tmp_path / "results").rglob("*.json"))
    path.write_text(damage.replace("KEY", key))
    assert store.get(key, target()) is None


def test_concurrent_writers_leave_one_whole_entry(tmp_path: Path) -> None:
    store = ResultCache(tmp_path)
    key = "12" * 32
    threads = [threading.Thread(target=lambda i=i: [store.put(key, FULL, [{"round": i}]) for _ in range(20)])
               for i in range(4)]  # type: ignore[misc]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert store.get(key, target()) is not None
    assert [p.name for p in (tmp_path / "results").rglob("*")] == [key[:2], f"{key}.json"]  # no temp file left


# --- docbot run ---------------------------------------------------------------------------------

ALL = DiffSpec(all=True)
DOC = "docs/api/pkg.geo.md"


class ModelFake(FakeDocumenter):
    """A documenter that, like the loop, returns a doc model and the section rendered from it."""

    def document(self, target: Target, current: str) -> FunctionResult:
        from docbot.apidocs.render import render_section
        from docbot.facts.function import extract_facts

        result = super().document(target, current)
        if result.status != "updated":
            return result
        model = DocModel(summary=f"Doc #{len(self.calls)}.")
        return replace(result, doc_model=model,
                       markdown=render_section(model, extract_facts(target.source, target.qualname), target.module))


def run(repo: GitRepo, fake: FakeDocumenter, spec: DiffSpec = ALL) -> RunReport:
    return run_docs(Settings(), repo.root, spec, (), CollectingSink(), documenter_factory=fake.factory,
                    use_cache=True)


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/geo.py", GEO).commit("geo")


def test_a_rerun_without_the_docs_costs_no_call(repo: GitRepo) -> None:
    first = ModelFake()
    run(repo, first)
    written = repo.read(DOC)
    (repo.root / DOC).unlink()
    again = ModelFake()
    report = run(repo, again)
    assert again.documented == [] and repo.read(DOC) == written
    assert {r.reason for r in report.results} == {"cached"}
    assert repo.git("status", "--porcelain", "--ignored", ".docbot") == "!! .docbot/\n"  # ignored by git


UNFORMATTED = GEO.replace("return 3 * r * r", "return (3*r *  r)  # pi is 3").replace("def perimeter(r):",
                                                                                     "def perimeter( r ) :")


def test_a_formatter_pass_costs_no_call(repo: GitRepo) -> None:
    repo.write("pkg/geo.py", UNFORMATTED).commit("unformatted")
    run(repo, ModelFake())
    before = parse_doc_file(repo.read(DOC)).sections
    done = subprocess.run([sys.executable, "-m", "ruff", "format", "--no-cache", "--isolated", "pkg/geo.py"],
                          cwd=repo.root, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    formatted = repo.read("pkg/geo.py")
    assert "return 3 * r * r  # pi is 3" in formatted and "def perimeter(r):" in formatted  # ruff reflowed it
    fake = ModelFake()
    report = run(repo, fake)
    after = parse_doc_file(repo.read(DOC)).sections
    assert fake.documented == [] and report.count("updated") == 2  # area, perimeter: their text moved
    assert {q: s.body for q, s in after.items()} == {q: s.body for q, s in before.items()}
    assert after["area"].hash != before["area"].hash  # the marker names the formatted source
    assert after["area"].hash == source_hash(formatted.split("\n\n\n")[0] + "\n")


def test_a_move_to_another_module_costs_no_call(repo: GitRepo) -> None:
    run(repo, ModelFake())
    repo.move("pkg/geo.py", "pkg/shapes.py").commit("move")
    fake = ModelFake()
    report = run(repo, fake, DiffSpec(base="HEAD~1"))
    assert fake.documented == []
    assert {r.key: r.status for r in report.results if not r.removed} == {
        "pkg.shapes.area": "updated", "pkg.shapes.perimeter": "updated", "pkg.shapes.Shape.scale": "updated"}
    assert list(parse_doc_file(repo.read("docs/api/pkg.shapes.md")).sections) == ["area", "perimeter", "Shape.scale"]


def test_a_real_edit_is_documented_again(repo: GitRepo) -> None:
    run(repo, ModelFake())
    repo.write("pkg/geo.py", GEO.replace("return 6 * r", "return 2 * 3.14 * r")).commit("edit")
    fake = ModelFake()
    run(repo, fake)
    assert fake.documented == ["perimeter"]


def test_a_failed_function_is_not_cached(repo: GitRepo) -> None:
    run(repo, ModelFake(fail={"area": "the loop gave up"}))
    fake = ModelFake()
    run(repo, fake)
    assert fake.documented == ["area"]
