"""docbot reads and writes only inside the repository, never through a symlink (issue 12, item 4).

Attacks, each on a real git repository: a committed symlink to a secret outside the checkout, a
``docs_dir`` that climbs out or is absolute, a symlinked docs folder. Each must end with exit 2 naming
the path, the secret never copied, and nothing written outside the checkout.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from docbot import paths
from docbot.check import check_docs
from docbot.errors import ConfigError
from docbot.paths import inside_repo, read_bytes_no_follow
from docbot.scan.repo import DiffSpec
from docbot.results import FunctionResult, Target
from docbot.run.pipeline import run_docs
from docbot.config.settings import Settings
from tests.support.git_repo import GitRepo
from tests.support.samples import GEO

DOC = "docs/api/pkg.geo.md"
SECRET = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA not a real key\n"
DOCBOT = Path(sys.executable).with_name("docbot")


def document(target: Target, current: str) -> FunctionResult:
    return FunctionResult(target.module, target.qualname, "updated", markdown=f"## {target.qualname}\n\nDoc.")


def run(repo: GitRepo, spec: DiffSpec, settings: Settings | None = None) -> None:
    run_docs(settings or Settings(), repo.root, spec, (), lambda event: None, documenter_factory=lambda: document)


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/geo.py", GEO).commit("geo")


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    key = tmp_path / "home" / ".ssh" / "id_rsa"
    key.parent.mkdir(parents=True)
    key.write_text(SECRET)
    return key


def files_holding(root: Path, text: str) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and not p.is_symlink() and ".git" not in p.parts
            and text in p.read_text(errors="replace")]


@pytest.mark.parametrize("spec", [DiffSpec(all=True), DiffSpec(base="HEAD~1")], ids=["all", "base"])
def test_a_committed_symlink_to_a_secret_is_never_read_or_written_through(
        repo: GitRepo, secret: Path, spec: DiffSpec) -> None:
    (repo.root / "docs/api").mkdir(parents=True)
    os.symlink(secret, repo.root / DOC)
    repo.write("pkg/geo.py", GEO + "\n\ndef volume(r):\n    return r\n").commit("a link to the key, a new function")
    with pytest.raises(ConfigError, match=rf"^{DOC}: refusing to read or write through a symlink") as raised:
        run(repo, spec)
    assert "git rm" in str(raised.value) and str(secret) in str(raised.value)
    assert (repo.root / DOC).is_symlink() and secret.read_text() == SECRET
    assert files_holding(repo.root, "OPENSSH") == []
    with pytest.raises(ConfigError, match=DOC):
        check_docs(Settings(), repo.root, spec)


def test_a_symlink_the_run_has_no_business_with_is_left_alone(repo: GitRepo, secret: Path) -> None:
    (repo.root / "docs/api").mkdir(parents=True)
    os.symlink(secret, repo.root / "docs/api/old.module.md")  # no module of that name: not read, not touched
    run(repo, DiffSpec(all=True))
    assert "## area" in (repo.root / DOC).read_text() and secret.read_text() == SECRET
    assert files_holding(repo.root, "OPENSSH") == []


@pytest.mark.parametrize("docs_dir", ["../outside", "docs/../../outside", "ABSOLUTE", "ABSOLUTE/"])
def test_a_docs_dir_outside_the_repository_is_refused(repo: GitRepo, tmp_path: Path, docs_dir: str) -> None:
    outside = tmp_path / "outside"
    docs_dir = docs_dir.replace("ABSOLUTE", str(outside))
    repo.write("pkg/geo.py", GEO + "\n\ndef volume(r):\n    return r\n").commit("a new function")
    for spec in (DiffSpec(all=True), DiffSpec(base="HEAD~1")):
        with pytest.raises(ConfigError, match="outside the repository") as raised:
            run(repo, spec, Settings(docs_dir=docs_dir))
        assert str(raised.value).startswith(f"{docs_dir}") and "docs_dir" in str(raised.value)
    assert not outside.exists()


@pytest.mark.parametrize("where", ["outside", "inside"])
def test_a_symlinked_docs_folder_is_refused(repo: GitRepo, tmp_path: Path, where: str) -> None:
    target = tmp_path / "elsewhere" if where == "outside" else repo.root / "site"
    target.mkdir()
    (repo.root / "docs").mkdir()
    os.symlink(target, repo.root / "docs/api")
    repo.write("pkg/geo.py", GEO + "\n\ndef volume(r):\n    return r\n").commit("a new function")
    for spec in (DiffSpec(all=True), DiffSpec(base="HEAD~1")):
        with pytest.raises(ConfigError, match=rf"^docs/api(/pkg.geo.md)?: refusing to read or write through a "
                                              rf"symlink: docs/api -> {target}\."):
            run(repo, spec)
    assert list(target.iterdir()) == []


def test_the_command_line_exits_2_naming_the_path(repo: GitRepo, tmp_path: Path) -> None:
    os.symlink(tmp_path, repo.root / "docs")
    env = {**os.environ, "OLLAMA_HOST": "127.0.0.1:9"}  # port 9: a model call would fail with exit 3
    for command in (["run", "--all"], ["check", "--all"]):
        done = subprocess.run([str(DOCBOT), *command], cwd=repo.root, env=env, capture_output=True, text=True)
        assert done.returncode == 2, done.stdout + done.stderr
        assert f"docbot: docs/api: refusing to read or write through a symlink: docs -> {tmp_path}" in done.stderr
        assert "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["repo"]


# (repo-relative path, the refusal it gets, or "" for a path that is fine)
PATH_CASES = [
    ("docs/api/m.md", ""),
    ("docs/./api/m.md", ""),
    ("new/folder/m.md", ""),
    (".", ""),
    ("../m.md", "outside the repository"),
    ("docs/../../m.md", "outside the repository"),
    ("/etc/passwd", "outside the repository"),
    ("link/m.md", "through a symlink: link -> "),
    ("docs/link.md", "through a symlink: docs/link.md -> "),
    ("docs/dangling.md", "through a symlink: docs/dangling.md -> "),
]


@pytest.mark.parametrize("rel,refusal", PATH_CASES, ids=[c[0] for c in PATH_CASES])
def test_inside_repo(tmp_path: Path, rel: str, refusal: str) -> None:
    root = tmp_path / "root"
    (root / "docs/api").mkdir(parents=True)
    os.symlink(root / "docs", root / "link")
    os.symlink(root / "docs/api", root / "docs/link.md")
    os.symlink(tmp_path / "missing", root / "docs/dangling.md")
    if refusal:
        with pytest.raises(ConfigError, match=rf"^{rel}: .*{refusal}"):
            inside_repo(root, rel)
    else:
        assert inside_repo(root, rel) == (root / rel).resolve() if rel == "." else root.joinpath(
            *Path(rel).parts).absolute()


def test_a_symlink_swapped_in_after_the_check_is_still_not_read(tmp_path: Path, secret: Path) -> None:
    link = tmp_path / "m.md"
    os.symlink(secret, link)
    with pytest.raises(ConfigError, match="^docs/api/m.md: refusing to read or write through a symlink"):
        read_bytes_no_follow(link, "docs/api/m.md")
    assert read_bytes_no_follow(tmp_path / "absent.md", "absent.md") is None
    assert read_bytes_no_follow(secret, "id_rsa") == SECRET.encode()


def test_write_atomic_creates_replaces_and_removes(tmp_path: Path) -> None:
    target = tmp_path / "docs" / "api" / "m.md"
    paths.write_atomic(target, "# m\n")
    assert target.read_bytes() == b"# m\n"
    assert oct(target.stat().st_mode & 0o777) == oct(0o644)
    paths.write_atomic(target, "# m\n\nnew – ünïcode\n")
    assert target.read_bytes() == "# m\n\nnew – ünïcode\n".encode()
    paths.write_atomic(target, None)
    assert not target.exists()
    paths.write_atomic(target, None)  # removing an absent file is fine
    assert sorted(p.name for p in target.parent.iterdir()) == []


def test_write_atomic_crash_mid_write_leaves_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "m.md"
    target.write_bytes(b"# m\n\nold\n")
    seen_temp: list[str] = []

    def crash(src: str, dst: object) -> None:
        # The new text is complete in the temp file at this point; the rename never happens.
        seen_temp.append(src)
        assert Path(src).read_bytes() == b"# m\n\nnew\n" and Path(src).parent == tmp_path
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="No space left"):
        paths.write_atomic(target, "# m\n\nnew\n")
    assert len(seen_temp) == 1
    assert target.read_bytes() == b"# m\n\nold\n"
    assert [p.name for p in tmp_path.iterdir()] == ["m.md"]


def test_write_atomic_crash_while_writing_leaves_no_partial_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "m.md"
    target.write_bytes(b"old\n")

    def crash(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", crash)
    with pytest.raises(OSError, match="Input/output"):
        paths.write_atomic(target, "new\n")
    assert target.read_bytes() == b"old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["m.md"]


@pytest.mark.parametrize("text", ["# m\n\nnew\n", None], ids=["replace", "remove"])
def test_write_atomic_writes_nothing_when_the_file_changed_meanwhile(tmp_path: Path, text: str | None) -> None:
    target = tmp_path / "m.md"
    target.write_bytes(b"# m\n\nedited by a person\n")
    asked: list[bool] = []

    def unchanged() -> bool:
        asked.append(True)
        return False

    assert paths.write_atomic(target, text, unchanged=unchanged) is False
    assert asked == [True] and target.read_bytes() == b"# m\n\nedited by a person\n"
    assert [p.name for p in tmp_path.iterdir()] == ["m.md"]  # no temp file left
    assert paths.write_atomic(target, text, unchanged=lambda: True) is True
    assert (target.read_text() if text else None) == text
