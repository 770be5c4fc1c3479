"""``docbot-hook --check`` judges what is being committed: the index, not the working tree (issue 12, item 13).

Real git: a function change and its doc update are staged or not, independently of what the working
tree holds, and the verdict must follow the index both ways.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from docbot.check import check_docs
from docbot.apidocs.pages import render_doc_file, source_hash
from docbot.errors import ConfigError
from docbot.scan.repo import DiffSpec
from docbot.config.settings import Settings
from docbot.scan.targets import public_functions
from tests.support.git_repo import GitRepo
from tests.support.samples import GEO

DOC = "docs/api/pkg.geo.md"
GEO_V2 = GEO.replace("3 * r * r", "3.14159 * r * r")
HOOK = Path(sys.executable).with_name("docbot-hook")


def current_doc(source: str) -> str:
    """A doc file that is current for ``source`` (written by hand: the check must not need docbot run)."""
    functions = public_functions(source, "pkg.geo", "pkg/geo.py")
    return render_doc_file("pkg.geo", {f.qualname: (source_hash(f.source), f"## {f.qualname}") for f in functions})


def hook_check(repo: GitRepo) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OLLAMA_HOST": "127.0.0.1:9"}  # the check needs no model: any call would fail
    return subprocess.run([str(HOOK), "--check"], cwd=repo.root, env=env, capture_output=True, text=True)


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/geo.py", GEO)
    return repo.write(DOC, current_doc(GEO)).commit("geo and its docs")


def test_a_staged_doc_update_passes_though_the_working_tree_doc_is_stale(repo: GitRepo) -> None:
    repo.write("pkg/geo.py", GEO_V2).write(DOC, current_doc(GEO_V2)).stage("pkg/geo.py", DOC)
    repo.write(DOC, current_doc(GEO))  # the working tree goes back to the old doc, unstaged
    done = hook_check(repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert check_docs(Settings(), repo.root, DiffSpec(staged=True)) == []


def test_an_unstaged_doc_update_fails_though_the_working_tree_doc_is_current(repo: GitRepo) -> None:
    repo.write("pkg/geo.py", GEO_V2).stage("pkg/geo.py")
    repo.write(DOC, current_doc(GEO_V2))  # updated in the working tree, but not staged
    done = hook_check(repo)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"pkg.geo.area: doc is stale (the code changed since) ({DOC})" in done.stdout
    stale = check_docs(Settings(), repo.root, DiffSpec(staged=True))
    assert [(e.qualname, e.status) for e in stale] == [("area", "stale")]


def test_a_doc_file_that_is_not_staged_at_all_is_missing(repo: GitRepo) -> None:
    repo.write("pkg/extra.py", "def extra():\n    return 1\n").stage("pkg/extra.py")
    functions = public_functions(repo.read("pkg/extra.py"), "pkg.extra", "pkg/extra.py")
    repo.write("docs/api/pkg.extra.md", render_doc_file("pkg.extra", {"extra": (source_hash(functions[0].source),
                                                                                "## extra")}))
    stale = check_docs(Settings(), repo.root, DiffSpec(staged=True))
    assert [(e.qualname, e.status) for e in stale] == [("extra", "missing")]
    repo.stage("docs/api/pkg.extra.md")
    assert check_docs(Settings(), repo.root, DiffSpec(staged=True)) == []


def test_a_doc_staged_as_a_symlink_is_refused(repo: GitRepo, tmp_path: Path) -> None:
    secret = tmp_path / "id_rsa"
    secret.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    (repo.root / DOC).unlink()
    os.symlink(secret, repo.root / DOC)
    repo.write("pkg/geo.py", GEO_V2).stage("pkg/geo.py", DOC)
    (repo.root / DOC).unlink()
    repo.write(DOC, current_doc(GEO_V2))  # a good doc in the working tree does not hide the staged link
    with pytest.raises(ConfigError, match=rf"^{DOC}: staged as a symlink"):
        check_docs(Settings(), repo.root, DiffSpec(staged=True))
    done = hook_check(repo)
    assert done.returncode == 2 and f"{DOC}: " in done.stderr and "OPENSSH" not in done.stdout + done.stderr
