"""The README's mkdocs recipe, built by the real ``mkdocs build --strict`` over a docs/api tree that a real
``docbot run`` wrote (scripted documenter, rendered sections, index.md included) and ``docbot pages``'
reference pages beside it, in a project whose own docs are Sphinx (``docs/conf.py``, ``.rst`` pages): the
recipe is its own config file, ``mkdocs.docbot.yml`` with ``docs_dir: docs/api``, so mkdocs never reads them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from docbot.apidocs.publish import publish
from docbot.scan.repo import DiffSpec
from docbot.run.pipeline import run_docs
from docbot.config.settings import Settings
from tests.support.events import CollectingSink
from tests.support.git_repo import GitRepo
from tests.support.samples import GEO
from tests.support.scripted import Scripted

README = Path(__file__).parents[2] / "README.md"
LEDGER = '''\
class Ledger:
    def post(self, amount: float, memo: str = "") -> float:
        if amount == 0:
            raise ValueError("amount must not be zero")
        return amount
'''


def recipe() -> str:
    """The YAML block right after the README's ``<!-- docbot:mkdocs-recipe -->`` line."""
    text = README.read_text(encoding="utf-8")
    found = re.search(r"<!-- docbot:mkdocs-recipe -->\n```yaml\n(.*?)```", text, re.S)
    assert found is not None, "the README lost its mkdocs recipe"
    return found.group(1)


CONFIG = "mkdocs.docbot.yml"  # the file the recipe's first line names
SPHINX = {"docs/conf.py": "project = 'My project'\nextensions = ['sphinx.ext.autodoc']\n",
          "docs/index.rst": "My project\n==========\n\n.. toctree::\n\n   usage\n",
          "docs/usage.rst": "Usage\n=====\n\nSee :func:`pkg.geo.area`.\n"}


def _site(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/geo.py", GEO)
    repo = repo.write("pkg/bank/__init__.py", "").write("pkg/bank/ledger.py", LEDGER)
    for path, text in SPHINX.items():
        repo.write(path, text)
    repo.commit("code and Sphinx docs")
    report = run_docs(Settings(), repo.root, DiffSpec(all=True), (), CollectingSink(),
                      documenter_factory=Scripted({"perimeter": 62}).factory)
    assert sorted(report.written) == ["docs/api/index.md", "docs/api/pkg.bank.ledger.md", "docs/api/pkg.geo.md"]
    publish(repo.root, "pkg", repo.root / "docs/api/reference", docs_dir=repo.root / "docs/api")
    assert recipe().startswith(f"# {CONFIG}\n")
    repo.write(CONFIG, recipe())
    return repo


def _build(repo: GitRepo, config: str = CONFIG) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", config,
                           "-d", str(repo.root / "site")], cwd=repo.root, capture_output=True, text=True, timeout=300)


def test_the_readme_recipe_builds_strict_with_the_index_and_every_anchor(tmp_path: Path) -> None:
    repo = _site(tmp_path)
    done = _build(repo)
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr
    site = repo.root / "site"
    index = (site / "index.html").read_text()
    ledger = (site / "pkg.bank.ledger" / "index.html").read_text()
    geo = (site / "pkg.geo" / "index.html").read_text()
    assert 'href="pkg.bank.ledger/#pkg.bank.ledger.Ledger.post"' in index
    assert 'href="pkg.geo/#pkg.geo.perimeter"' in index and "unapproved" in index
    assert 'id="pkg.bank.ledger.Ledger.post"' in ledger
    assert all(f'id="pkg.geo.{name}"' in geo for name in ("area", "perimeter", "Shape.scale"))
    reference = (site / "reference" / "pkg.geo" / "index.html").read_text()
    assert 'href="../../pkg.geo/#pkg.geo.area"' in reference  # docbot pages links docbot run's section
    assert not list(site.rglob("*.rst")) and not (site / "conf.py").exists()  # the Sphinx docs stay Sphinx's


def test_control_a_recipe_over_the_whole_docs_folder_fails_on_the_sphinx_pages(tmp_path: Path) -> None:
    """Why the recipe is its own file: mkdocs over ``docs/`` meets the Sphinx project's pages and fails."""
    repo = _site(tmp_path)
    repo.write("mkdocs.yml", recipe().replace("docs_dir: docs/api", "docs_dir: docs")
               .replace("validation:", "nav:\n  - API reference: api/index.md\n  - Home: index.md\nvalidation:"))
    done = _build(repo, "mkdocs.yml")
    assert done.returncode != 0 and "index.md" in done.stderr


def test_the_recipe_really_checks_the_anchors(tmp_path: Path) -> None:
    """The control: with the recipe's validation, a link to an anchor docbot did not write fails the build."""
    repo = _site(tmp_path)
    index = repo.read("docs/api/index.md")
    repo.write("docs/api/index.md", index.replace("#pkg.geo.area)", "#pkg.geo.no_such_function)"))
    done = _build(repo)
    assert done.returncode != 0 and "no_such_function" in done.stderr


def test_docbot_pages_mkdocs_writes_the_readme_recipe_and_keeps_a_persons_file(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from docbot.apidocs.publish import mkdocs_config
    from docbot.fronts.cli import main

    assert mkdocs_config("My project API", "docs/api") == recipe()  # the README shows what --mkdocs writes
    repo = _site(tmp_path)
    (repo.root / CONFIG).unlink()
    monkeypatch.chdir(repo.root)
    assert main(["pages", "--package", "pkg", "--mkdocs"]) == 0
    assert repo.read(CONFIG) == mkdocs_config("pkg API", "docs/api")
    assert _build(repo).returncode == 0
    repo.write(CONFIG, "# mine\n")
    assert main(["pages", "--package", "pkg", "--mkdocs"]) == 0
    assert repo.read(CONFIG) == "# mine\n"


def test_the_readme_order_builds_before_any_docbot_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's order on a fresh project: `docbot pages --mkdocs`, then `mkdocs build --strict`, with no
    docs/api/index.md yet (only `docbot run` writes it); then `docbot run`, and the same build again."""
    from docbot.fronts.cli import main

    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/geo.py", GEO)
    for path, text in SPHINX.items():
        repo.write(path, text)
    repo.commit("code and Sphinx docs")
    monkeypatch.chdir(repo.root)
    assert main(["pages", "--package", "pkg", "--mkdocs"]) == 0
    assert not (repo.root / "docs/api/index.md").exists()
    first = _build(repo)
    assert first.returncode == 0 and "WARNING" not in first.stderr, first.stderr
    assert (repo.root / "site" / "reference" / "pkg.geo" / "index.html").is_file()
    run_docs(Settings(), repo.root, DiffSpec(all=True), (), CollectingSink(),
             documenter_factory=Scripted({"perimeter": 62}).factory)
    second = _build(repo)
    assert second.returncode == 0 and "WARNING" not in second.stderr, second.stderr
    assert 'href="pkg.geo/#pkg.geo.area"' in (repo.root / "site" / "index.html").read_text()


def test_control_a_nav_naming_the_index_fails_before_docbot_run(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Why the recipe has no nav: the old one, naming index.md, fails `--strict` until `docbot run`."""
    from docbot.fronts.cli import main

    repo = GitRepo(tmp_path / "repo").write("pkg/__init__.py", "").write("pkg/geo.py", GEO).commit("code")
    monkeypatch.chdir(repo.root)
    assert main(["pages", "--package", "pkg", "--mkdocs"]) == 0
    repo.write(CONFIG, repo.read(CONFIG).replace("validation:", "nav:\n  - API reference: index.md\nvalidation:"))
    done = _build(repo)
    assert done.returncode != 0 and "index.md" in done.stderr
