"""The scan cache (docs/design.md#cache): a warm whole-tree scan parses only what changed and gives the
targets a cold one gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.scan import repo as repo_module
from docbot.scan import cache as scan_cache
from docbot.scan.repo import SCAN_CACHE, DiffSpec, scan
from docbot.scan.cache import blob_id
from tests.support.git_repo import GitRepo
from tests.support.samples import GEO

ALL = DiffSpec(all=True)
MORE = 'class Box:\n    def __init__(self, w):\n        self.w = w\n\n    def __eq__(self, other):\n        return 0\n'


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return (GitRepo(tmp_path).write("pkg/__init__.py", "").write("pkg/geo.py", GEO).write("pkg/box.py", MORE)
            .write("pkg/bad.py", "def f(:\n").commit("files"))


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths the scan really parsed."""
    seen: list[str] = []
    real = repo_module.public_spans

    def counted(text: str, path: str, **kwargs: bool) -> object:
        seen.append(path)
        return real(text, path, **kwargs)

    monkeypatch.setattr(repo_module, "public_spans", counted)
    return seen


def as_json(root: Path, include_dunder: bool = False, cache: bool = True) -> list[dict[str, object]]:
    found = scan(root, ALL, include_dunder=include_dunder, cache=cache)
    return [t.to_json() for t in found.targets] + [{"error": str(e)} for e in found.errors]


def test_a_warm_scan_parses_nothing_and_finds_the_same(repo: GitRepo, parses: list[str]) -> None:
    cold = as_json(repo.root, cache=False)
    assert as_json(repo.root) == cold and sorted(parses) == ["pkg/__init__.py", "pkg/bad.py", "pkg/box.py",
                                                             "pkg/geo.py"]
    parses.clear()
    assert as_json(repo.root) == cold and parses == ["pkg/bad.py"]  # a file that does not parse is not kept
    assert (repo.root / ".docbot/.gitignore").exists() and repo.git("status", "--porcelain") == ""


def test_an_edited_file_is_parsed_again(repo: GitRepo, parses: list[str]) -> None:
    as_json(repo.root)
    repo.write("pkg/geo.py", GEO + "\n\ndef volume(r):\n    return r\n")
    parses.clear()
    warm = as_json(repo.root)
    assert sorted(parses) == ["pkg/bad.py", "pkg/geo.py"] and warm == as_json(repo.root, cache=False)
    assert "volume" in {t.get("qualname") for t in warm}


def test_dunders_are_kept_apart(repo: GitRepo) -> None:
    as_json(repo.root)
    assert as_json(repo.root, include_dunder=True) == as_json(repo.root, include_dunder=True, cache=False)
    assert "Box.__eq__" in {t.get("qualname") for t in as_json(repo.root, include_dunder=True)}
    assert "Box.__eq__" not in {t.get("qualname") for t in as_json(repo.root)}


def test_another_finder_ignores_the_file(repo: GitRepo, parses: list[str], monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    as_json(repo.root)
    other = tmp_path / "targets.py"
    other.write_text("# public functions by other rules\n")
    monkeypatch.setattr(scan_cache, "_FINDER", [other])
    parses.clear()
    as_json(repo.root)
    assert len(parses) == 4


@pytest.mark.parametrize("damage", ["{", '{"finder": 1}', "[]", '{"finder": "F", "entries": {"X:0": [[1]]}}',
                                    '{"finder": "F", "entries": {"B:0": "area\\t1-"}}',
                                    '{"finder": "F", "entries": {"B:0": "\\t1-2"}}',
                                    '{"finder": "F", "entries": {"B:0": "area\\t"}}',
                                    '{"finder": "F", "entries": {"B:0": "area"}}'])
def test_a_damaged_cache_is_an_empty_one(repo: GitRepo, damage: str) -> None:
    cold = as_json(repo.root, cache=False)
    (repo.root / SCAN_CACHE).parent.mkdir(parents=True, exist_ok=True)
    blob = blob_id((repo.root / "pkg/geo.py").read_bytes())
    (repo.root / SCAN_CACHE).write_text(damage.replace("F", scan_cache.finder_version()).replace("B:0", f"{blob}:0"))
    assert as_json(repo.root) == cold


def test_the_key_is_gits_blob_id(repo: GitRepo) -> None:
    data = (repo.root / "pkg/geo.py").read_bytes()
    assert blob_id(data) == repo.git("hash-object", "pkg/geo.py").strip()
