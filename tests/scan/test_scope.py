"""What is the project's API by default: the package pyproject.toml declares, never its task runners or
tooling files; ``scan_outside_package`` widens the scan to the whole repository again."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.config.choices import DEFAULT_EXCLUDE
from docbot.config.pyproject import parse_pyproject
from docbot.scan.repo import DiffSpec, scan
from docbot.scan.scope import in_scope, package_scope
from tests.support.git_repo import GitRepo

FUNC = "def f(x):\n    return x\n"
TREE = ["pkg/__init__.py", "src/lib/__init__.py", "src/other/__init__.py", "single.py", "tools/__init__.py"]


@pytest.mark.parametrize(("pyproject", "expected"), [
    ("", ()),  # nothing declared: nothing narrowed
    ('[project]\nname = "pkg"\n', ("pkg",)),  # the name as a folder at the root
    ('[project]\nname = "lib"\n', ("src/lib",)),  # ... or under src/
    ('[project]\nname = "single"\n', ("single.py",)),  # a one-module project
    ('[project]\nname = "nothing-here"\n', ()),  # a name with no folder: nothing narrowed
    ('[project]\nname = "pkg"\n[tool.setuptools]\npackages = ["tools", "tools.sub"]\n', ("tools",)),
    ('[tool.setuptools]\npackage-dir = {"" = "src"}\npackages = ["lib"]\n', ("src/lib",)),
    ('[tool.setuptools.packages.find]\nwhere = ["src"]\ninclude = ["li*"]\n', ("src/lib",)),
    ('[tool.setuptools.packages.find]\nwhere = ["src"]\nexclude = ["other"]\n', ("src/lib",)),
    ('[tool.setuptools.packages.find]\ninclude = ["pkg*", "tools"]\n', ("pkg", "tools")),
    ('[tool.hatch.build.targets.wheel]\npackages = ["src/lib"]\n', ("src/lib",)),
    ('[tool.poetry]\npackages = [{include = "lib", from = "src"}, {include = "pkg"}]\n', ("pkg", "src/lib")),
    ('[tool.flit.module]\nname = "single"\n', ("single.py",)),
    ('[tool.hatch.build.targets.wheel]\npackages = ["gone"]\n', ()),  # a declared folder that is not there
    ("not toml [", ()),
])
def test_package_scope(tmp_path: Path, pyproject: str, expected: tuple[str, ...]) -> None:
    for path in TREE:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("")
    assert package_scope(tmp_path, parse_pyproject(pyproject)) == expected


@pytest.mark.parametrize(("path", "scope", "inside"), [
    ("pkg/a.py", ("pkg",), True),
    ("pkg2/a.py", ("pkg",), False),  # a prefix of a name is not the folder
    ("single.py", ("single.py",), True),
    ("scripts/x.py", ("pkg", "src/lib"), False),
    ("anything.py", (), True),
])
def test_in_scope(path: str, scope: tuple[str, ...], inside: bool) -> None:
    assert in_scope(path, scope) is inside


def _project(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path).write("pyproject.toml", '[project]\nname = "pkg"\n')
    for path in ("pkg/__init__.py", "pkg/core.py", "noxfile.py", "tasks.py", "fabfile.py", "docs/conf.py",
                 "doc/conf.py", "scripts/release.py", "bench/run.py"):
        repo.write(path, "" if path.endswith("__init__.py") else FUNC)
    return repo.commit("a project with tooling around its package")


def _scanned(repo: GitRepo, **options: object) -> list[str]:
    return sorted({t.path for t in scan(repo.root, DiffSpec(all=True), exclude=DEFAULT_EXCLUDE,
                                        **options).targets})  # type: ignore[arg-type]


def test_by_default_only_the_declared_package_is_the_api(tmp_path: Path) -> None:
    assert _scanned(_project(tmp_path)) == ["pkg/core.py"]


def test_the_setting_widens_the_scan_and_the_tooling_globs_still_hold(tmp_path: Path) -> None:
    assert _scanned(_project(tmp_path), outside_package=True) == ["bench/run.py", "pkg/core.py", "scripts/release.py"]


def test_the_setting_reaches_the_scan_from_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    from docbot.fronts.cli import main

    repo = _project(tmp_path)
    monkeypatch.chdir(repo.root)
    assert main(["targets", "--all"]) == 0
    assert "scripts/release.py" not in capsys.readouterr().out
    repo.write("config.json", '{"scan_outside_package": true}')
    assert main(["targets", "--all"]) == 0
    assert "scripts/release.py" in capsys.readouterr().out
