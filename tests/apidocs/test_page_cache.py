"""Issue 32: where a private module's page is, remembered by the files griffe reads (docbot.apidocs.page_cache):
a warm run asks griffe nothing, and any change to the package's files (an edit, a new file, a stub) asks again."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from docbot.apidocs import homes
from docbot.apidocs.page_cache import PageCache, fingerprint
from tests.support.git_repo import GitRepo

INIT = "from pkg._funcs import asdict\nfrom pkg.api import *\n"
API = "from pkg._impl import evolve\n__all__ = ['evolve']\n"
FUNCS = "def asdict(x):\n    return x\n"
IMPL = "def evolve(x):\n    return x\n\n\ndef other(x):\n    return x\n"


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return (GitRepo(tmp_path).write("pkg/__init__.py", INIT).write("pkg/api.py", API).write("pkg/_funcs.py", FUNCS)
            .write("pkg/_impl.py", IMPL).commit("pkg"))


def pages_of(root: Path, cache: bool = True) -> tuple[str, str]:
    names = homes.PageNames(root, cache)
    found = names.page("pkg._funcs"), names.page("pkg._impl")
    names.save()
    return found


def griffe_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = homes.reexported
    monkeypatch.setattr(homes, "reexported", lambda root, package: calls.append(package) or real(root, package))
    return calls


def test_a_warm_run_asks_griffe_nothing(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = griffe_calls(monkeypatch)
    assert pages_of(repo.root) == ("pkg", "pkg.api") and calls == ["pkg"]
    assert pages_of(repo.root) == ("pkg", "pkg.api") and calls == ["pkg"]  # the second run: from the cache
    assert (repo.root / ".docbot/cache/pages.json").is_file()


@pytest.mark.parametrize("change", [
    lambda root: (root / "pkg/__init__.py").write_text("from pkg.api import *\nfrom pkg._funcs import asdict as a\n"),
    lambda root: (root / "pkg/extra.py").write_text("from pkg._funcs import asdict\n"),  # a new file
    lambda root: (root / "pkg/_funcs.pyi").write_text("def asdict(x: int) -> int: ...\n"),  # a stub griffe merges
    lambda root: (root / "pkg/api.py").unlink(),
])
def test_any_change_to_the_packages_files_asks_again(repo: GitRepo, monkeypatch: pytest.MonkeyPatch,
                                                     change: object) -> None:
    calls = griffe_calls(monkeypatch)
    pages_of(repo.root)
    before = fingerprint(repo.root, "pkg")
    change(repo.root)  # type: ignore[operator]
    assert fingerprint(repo.root, "pkg") != before
    pages_of(repo.root)
    assert calls == ["pkg", "pkg"]


def test_a_same_size_edit_changes_the_fingerprint(repo: GitRepo) -> None:
    before = fingerprint(repo.root, "pkg")
    path = repo.root / "pkg/_impl.py"
    info = path.stat()
    path.write_text(IMPL.replace("other", "elsee"), encoding="utf-8")  # same length, new text
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 1))
    assert path.stat().st_size == info.st_size and fingerprint(repo.root, "pkg") != before


def test_the_answer_is_the_one_griffe_gives(repo: GitRepo) -> None:
    assert pages_of(repo.root, cache=False) == pages_of(repo.root) == pages_of(repo.root)
    assert not (repo.root / ".docbot").exists() or (repo.root / ".docbot/cache/pages.json").is_file()


def test_no_cache_writes_nothing(repo: GitRepo) -> None:
    pages_of(repo.root, cache=False)
    assert not (repo.root / ".docbot").exists()


def test_a_tracked_cache_is_refused(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    # A forged pages.json committed with the checkout would choose pages for the gate: never read.
    forged = PageCache(repo.root / ".docbot/cache/pages.json")
    forged.put("pkg", fingerprint(repo.root, "pkg"), {"pkg._funcs": "pkg.api", "pkg._impl": "pkg"})
    forged.save()
    repo.stage(".docbot/cache/pages.json")
    calls = griffe_calls(monkeypatch)
    assert pages_of(repo.root) == ("pkg", "pkg.api") and calls == ["pkg"]


def test_a_damaged_cache_is_an_empty_one(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    pages_of(repo.root)
    path = repo.root / ".docbot/cache/pages.json"
    for damage in ("{", "[]", '{"version": "x", "packages": {}}', path.read_text().replace('"pkg.api"', "7")):
        path.write_text(damage, encoding="utf-8")
        calls = griffe_calls(monkeypatch)
        assert pages_of(repo.root) == ("pkg", "pkg.api") and calls == ["pkg"], damage
        monkeypatch.undo()


WARM = """
import sys
from docbot.fronts import cli
code = cli.main(["check", "--all", "-q"])
print(code, "griffe" in sys.modules)
"""


def test_a_warm_check_all_never_imports_griffe(repo: GitRepo) -> None:
    runs = [subprocess.run([sys.executable, "-c", WARM], cwd=repo.root, capture_output=True, text=True, timeout=120)
            for _ in range(2)]
    said = [run.stdout.split()[-2:] for run in runs]
    assert said == [["1", "True"], ["1", "False"]], [run.stderr for run in runs]  # 1: no docs yet
