"""``docbot run`` on real temporary git repositories, with a scripted documenter instead of the loop."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from docbot import events
from docbot.apidocs.pages import parse_doc_file, source_hash
from docbot.errors import ConfigError, ModelServerError
from docbot.events import EventKind
from docbot.scan.repo import DiffSpec
from docbot.results import FunctionResult, RunReport, SectionStatus, Target
from docbot.run.pipeline import run_docs
from docbot.config.settings import Settings
from tests.support.events import CollectingSink
from tests.support.git_repo import GitRepo
from tests.support.samples import GEO as SHAPES

GEO = SHAPES + "\n\ndef _helper():\n    return 0\n"  # plus a private function
DOC = "docs/api/pkg.geo.md"
INDEX = "docs/api/index.md"  # rewritten whenever the sections it lists change
ALL = DiffSpec(all=True)
LAST_COMMIT = DiffSpec(base="HEAD~1")


class FakeDocumenter:
    """Documents each target with a body naming its call number; can fail chosen functions."""

    def __init__(self, fail: dict[str, Exception | str] | None = None,
                 on_call: Callable[[], None] | None = None) -> None:
        self.calls: list[Target] = []
        self.currents: list[str] = []  # the section body each call started from
        self.builds = 0
        self.fail = fail or {}
        self.on_call = on_call

    def factory(self) -> Callable[[Target, str], FunctionResult]:
        self.builds += 1
        return self.document

    def document(self, target: Target, current: str) -> FunctionResult:
        self.calls.append(target)
        self.currents.append(current)
        if self.on_call:
            self.on_call()
        problem = self.fail.get(target.qualname)
        if isinstance(problem, Exception):
            raise problem
        if problem:
            return FunctionResult(target.module, target.qualname, "failed", reason=problem)
        return FunctionResult(target.module, target.qualname, "updated", scores=[90, 96], rounds=2,
                              exit_reason="approved",
                              markdown=f"## `{target.qualname}`\n\nDoc #{len(self.calls)}.  \n\n\n")

    @property
    def documented(self) -> list[str]:
        return [t.qualname for t in self.calls]


def _never() -> Callable[[Target, str], FunctionResult]:
    raise AssertionError("the documenter must not be built when nothing needs a doc")


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/geo.py", GEO).commit("geo")


def _run(repo: GitRepo, spec: DiffSpec, fake: FakeDocumenter | None = None, settings: Settings | None = None,
         paths: tuple[str, ...] = (), sink: CollectingSink | None = None, **kwargs: object) -> RunReport:
    factory = fake.factory if fake else _never
    return run_docs(settings or Settings(), repo.root, spec, paths, sink or CollectingSink(),
                    documenter_factory=factory, **kwargs)  # type: ignore[arg-type]


def _statuses(report: RunReport) -> dict[str, tuple[str, str]]:
    return {r.qualname: (r.status, r.reason) for r in report.results}


def _sections(repo: GitRepo, path: str = DOC) -> dict[str, str]:
    return {q: s.body for q, s in parse_doc_file(repo.read(path)).sections.items()}


def test_first_run_writes_sections_in_source_order_with_source_hashes(repo: GitRepo) -> None:
    fake, sink = FakeDocumenter(), CollectingSink()
    report = _run(repo, ALL, fake, sink=sink)
    assert fake.builds == 1 and fake.documented == ["area", "perimeter", "Shape.scale"]
    assert report.written == [DOC, INDEX]
    assert _statuses(report) == {q: ("updated", "") for q in ("area", "perimeter", "Shape.scale")}
    assert all(r.doc_path == DOC and r.path == "pkg/geo.py" for r in report.results)
    assert report.results[0].scores == [90, 96]  # the documenter's own fields travel through
    text = repo.read(DOC)
    assert text.startswith("# pkg.geo\n\n<!-- docbot:section area hash=")
    assert text.endswith("Doc #3.\n\n<!-- docbot:end Shape.scale -->\n")
    hashes = {q: s.hash for q, s in parse_doc_file(text).sections.items()}
    assert hashes == {t.qualname: source_hash(t.source) for t in fake.calls}
    assert [e.to_json()["index"] for e in sink.of_kind(EventKind.PROGRESS)] == [1, 2, 3]
    assert [e.to_json()["status"] for e in sink.of_kind(EventKind.RESULT)] == ["updated"] * 3
    assert sink.of_kind(EventKind.RESULT)[0].message == "pkg.geo.area: updated"
    assert report.base and report.head == "WORKTREE"


def test_second_run_on_unchanged_code_changes_nothing_and_builds_no_documenter(repo: GitRepo) -> None:
    _run(repo, ALL, FakeDocumenter())
    before = (repo.root / DOC).read_bytes()
    report = _run(repo, ALL)  # _never: building the documenter would fail the test
    assert report.written == [] and (repo.root / DOC).read_bytes() == before
    assert _statuses(report) == {q: ("unchanged", "") for q in ("area", "perimeter", "Shape.scale")}
    assert all(r.doc_path == DOC for r in report.results)


def test_body_edit_redocuments_only_that_function(repo: GitRepo) -> None:
    _run(repo, ALL, FakeDocumenter())
    before = _sections(repo)
    repo.write("pkg/geo.py", GEO.replace("6 * r", "2 * 3 * r")).commit("perimeter")
    fake = FakeDocumenter()
    report = _run(repo, LAST_COMMIT, fake)
    assert fake.documented == ["perimeter"]
    assert _statuses(report) == {"perimeter": ("updated", "")} and report.written == [DOC]
    after = _sections(repo)
    assert list(after) == ["area", "perimeter", "Shape.scale"]
    assert after["area"] == before["area"] and after["Shape.scale"] == before["Shape.scale"]
    assert after["perimeter"] != before["perimeter"]
    # And the whole tree agrees that everything is current now.
    assert _run(repo, ALL).written == []


def test_staged_change_is_documented_once(repo: GitRepo) -> None:
    _run(repo, ALL, FakeDocumenter())
    repo.write("pkg/geo.py", GEO + "\n\ndef volume(r):\n    return r ** 3\n").stage("pkg/geo.py")
    fake = FakeDocumenter()
    report = _run(repo, DiffSpec(staged=True), fake)
    assert fake.documented == ["volume"] and report.head == "INDEX"
    assert list(_sections(repo)) == ["area", "perimeter", "Shape.scale", "volume"]
    assert _run(repo, DiffSpec(staged=True)).written == []  # the hook's second run: nothing to do


def test_deleted_function_loses_its_section_without_a_model(repo: GitRepo) -> None:
    _run(repo, ALL, FakeDocumenter())
    repo.write("pkg/geo.py", GEO.replace("def perimeter(r):\n    return 6 * r\n\n\n", "")).commit("drop")
    report = _run(repo, LAST_COMMIT)
    assert _statuses(report) == {"perimeter": ("updated", "removed")} and report.results[0].removed
    assert report.results[0].doc_path == "" and report.written == [DOC, INDEX]
    assert list(_sections(repo)) == ["area", "Shape.scale"]


def test_deleting_the_module_removes_its_doc_file(repo: GitRepo) -> None:
    _run(repo, ALL, FakeDocumenter())
    repo.delete("pkg/geo.py").commit("gone")
    report = _run(repo, LAST_COMMIT)
    assert {q: s for q, (s, _) in _statuses(report).items()} == dict.fromkeys(
        ["area", "perimeter", "Shape.scale"], "updated")
    assert report.written == [DOC, INDEX] and not (repo.root / DOC).exists() and not (repo.root / INDEX).exists()


def test_renamed_module_moves_its_docs(repo: GitRepo) -> None:
    _run(repo, ALL, FakeDocumenter())
    repo.move("pkg/geo.py", "pkg/shapes.py").commit("rename")
    fake = FakeDocumenter()
    report = _run(repo, LAST_COMMIT, fake)
    assert fake.documented == ["area", "perimeter", "Shape.scale"]
    assert sorted(report.written) == [INDEX, DOC, "docs/api/pkg.shapes.md"]
    assert not (repo.root / DOC).exists()
    assert list(_sections(repo, "docs/api/pkg.shapes.md")) == ["area", "perimeter", "Shape.scale"]


def test_failing_function_keeps_its_old_section_and_the_others_continue(repo: GitRepo) -> None:
    _run(repo, ALL, FakeDocumenter())
    before = repo.read(DOC)
    edited = GEO.replace("3 * r * r", "3.14 * r * r").replace("6 * r", "6.28 * r").replace("return k", "return 2 * k")
    repo.write("pkg/geo.py", edited).commit("all three")
    fake = FakeDocumenter(fail={"area": ModelServerError("model llama3:8b was unloaded; run `ollama pull`"),
                                "Shape.scale": "the critic's answer could not be parsed"})
    report = _run(repo, LAST_COMMIT, fake)
    assert fake.documented == ["area", "perimeter", "Shape.scale"]
    assert _statuses(report) == {
        "area": ("failed", "ModelServerError: model llama3:8b was unloaded; run `ollama pull`"),
        "perimeter": ("updated", ""),
        "Shape.scale": ("failed", "the critic's answer could not be parsed")}
    old, new = parse_doc_file(before).sections, parse_doc_file(repo.read(DOC)).sections
    assert new["area"] == old["area"] and new["Shape.scale"] == old["Shape.scale"]  # old hash: still stale
    assert new["perimeter"] != old["perimeter"]
    assert all(r.doc_path == DOC for r in report.results)
    assert report.summary_line() == "docbot: 3 functions: 1 updated, 0 unchanged, 0 skipped, 2 failed"


def test_an_empty_document_counts_as_a_failure(repo: GitRepo) -> None:
    class Blank(FakeDocumenter):
        def document(self, target: Target, current: str = "") -> FunctionResult:
            return FunctionResult(target.module, target.qualname, "updated", markdown="  \n\n")

    report = _run(repo, ALL, Blank())
    assert {s for s, _ in _statuses(report).values()} == {"failed"} and report.written == []


def test_time_budget_skips_the_rest(repo: GitRepo) -> None:
    now = [100.0]

    def tick() -> None:
        now[0] += 6.0  # each function "takes" six seconds

    fake = FakeDocumenter(on_call=tick)
    report = _run(repo, ALL, fake, settings=Settings(time_budget_s=10), clock=lambda: now[0])
    # 0s elapsed -> documented, 6s -> documented, 12s > 10s -> skipped.
    assert fake.documented == ["area", "perimeter"]
    assert _statuses(report)["Shape.scale"] == ("skipped", "time budget of 10s reached; left to CI")
    assert list(_sections(repo)) == ["area", "perimeter"]
    assert report.results[2].doc_path == ""


def test_model_server_error_while_building_writes_nothing(repo: GitRepo) -> None:
    def unreachable() -> Callable[[Target], FunctionResult]:
        raise ModelServerError("Ollama is not reachable at http://127.0.0.1:11434; start it with `ollama serve`.")

    with pytest.raises(ModelServerError, match="ollama serve"):
        run_docs(Settings(), repo.root, ALL, (), CollectingSink(), documenter_factory=unreachable)
    assert not (repo.root / "docs").exists()


def test_a_commit_touching_no_public_function_never_builds_the_documenter(repo: GitRepo) -> None:
    repo.write("pkg/geo.py", GEO.replace("return 0", "return 1") + "\nCONSTANT = 3\n").commit("private")
    repo.write("README.md", "hello\n").commit("readme")
    assert _run(repo, DiffSpec(base="HEAD~2")).results == []
    assert not (repo.root / "docs").exists()


def test_whole_tree_run_removes_docs_of_vanished_modules_but_not_hand_written_files(repo: GitRepo) -> None:
    _run(repo, ALL, FakeDocumenter())
    repo.write("docs/api/old.module.md", "# old.module\n\n<!-- docbot:section f hash=abc -->\n## f\n")
    repo.write("docs/api/README.md", "# API\n\nWritten by a person.\n")
    report = _run(repo, ALL)
    assert report.written == ["docs/api/old.module.md"]
    assert ("old.module", "f", "updated", "removed", True) in [(r.module, r.qualname, r.status, r.reason, r.removed)
                                                               for r in report.results]
    assert not (repo.root / "docs/api/old.module.md").exists()
    assert repo.read("docs/api/README.md") == "# API\n\nWritten by a person.\n"


def test_a_file_that_does_not_parse_keeps_its_docs_and_the_others_continue(repo: GitRepo) -> None:
    _run(repo, ALL, FakeDocumenter())
    before = repo.read(DOC)
    repo.write("pkg/geo.py", GEO + "\ndef broken(:\n").write("pkg/extra.py", "def extra():\n    return 1\n")
    repo.stage("pkg/extra.py")  # an untracked file is in no diff
    fake = FakeDocumenter()
    report = _run(repo, DiffSpec(), fake)  # the working tree against HEAD
    assert fake.documented == ["extra"] and report.written == ["docs/api/pkg.extra.md", INDEX]
    assert report.scan_errors and report.scan_errors[0].path == "pkg/geo.py"
    assert str(report.scan_errors[0]).startswith("pkg/geo.py: cannot parse")
    assert report.to_json()["scan_errors"] == [str(report.scan_errors[0])]
    assert repo.read(DOC) == before
    repo.stage().commit("wip")
    assert _run(repo, ALL).written == []  # a whole-tree run leaves the broken module's docs alone too


def test_paths_limit_the_run(repo: GitRepo) -> None:
    repo.write("other/tool.py", "def tool():\n    return 1\n").commit("tool")
    fake = FakeDocumenter()
    report = _run(repo, ALL, fake, paths=("other",))
    assert fake.documented == ["tool"] and report.written == ["docs/api/other.tool.md", INDEX]


def test_docs_dir_is_configurable_and_bad_flags_surface(repo: GitRepo) -> None:
    report = _run(repo, ALL, FakeDocumenter(), settings=Settings(docs_dir="reference"))
    assert report.written == ["reference/pkg.geo.md", "reference/index.md"]
    assert report.results[0].doc_path == "reference/pkg.geo.md"
    with pytest.raises(ConfigError):
        _run(repo, DiffSpec(all=True, staged=True))


def test_with_the_real_loop_and_scripted_models(tmp_path: Path) -> None:
    from docbot.loop.graph import build_graph
    from docbot.loop.runner import document_target
    from tests.support.fakes import critique, doc, scripted_models

    repo = GitRepo(tmp_path / "repo").write("meta.py", "def version():\n    return '1.0'\n\n\n"
                                                       "def name():\n    return 'docbot'\n").commit("meta")
    settings = Settings(run_examples=False, adjudicate="always")  # the adjudicator's answers are what ship

    def full(name: str, what: str) -> str:  # complete enough for the code's truth checks
        return doc(name, what, returns=f"the {name}")

    models = scripted_models([full("version", "Draft."), full("name", "Draft.")], [critique(96, 96)] * 2,
                             [full("version", "The version."), full("name", "The name.")])
    sink = CollectingSink()

    def factory() -> Callable[[Target, str], FunctionResult]:
        graph = build_graph(models, settings)
        return lambda target, current: document_target(graph, target, settings, sink, current=current)[0]

    report = run_docs(settings, repo.root, ALL, (), sink, documenter_factory=factory)
    assert [(r.qualname, r.status, r.exit_reason, r.scores, r.approval) for r in report.results] == [
        ("version", "updated", "approved", [96], SectionStatus.APPROVED),
        ("name", "updated", "approved", [96], SectionStatus.APPROVED)]
    sections = parse_doc_file(repo.read("docs/api/meta.md")).sections
    assert "The version." in sections["version"].body and "the version" in sections["version"].body
    assert (sections["version"].status, sections["version"].score) == (SectionStatus.APPROVED, 96)
    assert report.results[0].doc_model is not None and report.results[0].doc_model.summary == "The version."
    assert _run(repo, ALL).written == []


def test_a_hand_edited_section_reaches_the_writers_prompt(tmp_path: Path) -> None:
    """Update, do not rewrite: a changed function's writer starts from its section as a person left it."""
    from docbot.loop.graph import build_graph
    from docbot.loop.runner import document_target
    from tests.support.fakes import critique, doc, scripted_models

    repo = GitRepo(tmp_path / "repo").write("meta.py", "def version():\n    return '1.0'\n").commit("meta")
    settings = Settings(run_examples=False)
    models = scripted_models([doc("version", "First."), doc("version", "Second.")], [critique(96, 96)] * 2,
                             [doc("version", "First."), doc("version", "Second.")])

    def factory() -> Callable[[Target, str], FunctionResult]:
        graph = build_graph(models, settings)
        return lambda target, current: document_target(graph, target, settings, events.discard,
                                                        current=current)[0]

    run_docs(settings, repo.root, ALL, (), events.discard, documenter_factory=factory)
    assert "as it stands now" not in models.generator.seen[0][-1].content  # no section yet
    text = repo.read("docs/api/meta.md").replace("First.", "First. Mind the leap years (a person wrote this).")
    repo.write("docs/api/meta.md", text).write("meta.py", "def version():\n    return '2.0'\n").commit("2.0")
    run_docs(settings, repo.root, LAST_COMMIT, (), events.discard, documenter_factory=factory)
    prompt = models.generator.seen[1][-1].content
    assert "Mind the leap years (a person wrote this)." in prompt and "keep every" in prompt


def test_the_documenter_gets_each_targets_current_section(repo: GitRepo) -> None:
    _run(repo, ALL, FakeDocumenter())
    fake = FakeDocumenter()
    _run(repo, ALL, fake)  # nothing changed: no call
    assert fake.currents == []
    before = _sections(repo)["perimeter"]
    repo.write("pkg/geo.py", GEO.replace("6 * r", "2 * 3 * r")).commit("perimeter")
    _run(repo, LAST_COMMIT, fake)
    assert fake.documented == ["perimeter"] and fake.currents == [before]
    assert "Doc #2." in fake.currents[0]  # the body the first run wrote for it
    repo.write("pkg/geo.py", GEO + "\n\ndef volume(r):\n    return r ** 3\n").commit("volume")
    _run(repo, LAST_COMMIT, fake)
    assert fake.currents[-1] == ""  # a new function has no section to start from


LAZY_SCRIPT = """
import sys
from pathlib import Path
from docbot.events import discard
from docbot.scan.repo import DiffSpec
from docbot.run.pipeline import run_docs
from docbot.config.settings import Settings
report = run_docs(Settings(base_url="http://127.0.0.1:9"), Path(sys.argv[1]), DiffSpec(base="HEAD~1"), (), discard)
assert report.results == [], report
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("langgraph", "langchain_core", "langchain_ollama")
               or m.startswith("docbot.loop") or m.startswith("docbot.models"))
print(heavy)
"""


def test_no_public_change_imports_no_model_code(repo: GitRepo) -> None:
    import subprocess
    import sys

    repo.write("pkg/geo.py", GEO.replace("return 0", "return 1")).commit("private only")
    done = subprocess.run([sys.executable, "-c", LAZY_SCRIPT, str(repo.root)], capture_output=True, text=True,
                          cwd=Path(__file__).parents[2], check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"  # neither the loop nor any model client was even imported
