"""``docbot pages`` on a real sdist: pyrsistent 0.20.0 (``pip download --no-deps --no-binary :all:
pyrsistent==0.20.0``, kept in tests/apidocs/data). Its package re-exports everything from private modules
(``pyrsistent._pmap.pmap`` is imported as ``pyrsistent.pmap``) and its types live only in
``__init__.pyi``, so public paths, stub types and cross-references each have something to get wrong."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zlib
from pathlib import Path

import pytest

from docbot.apidocs.publish import repository_url
from docbot.config.pyproject import parse_pyproject
from docbot.apidocs.reference import docstring
from tests.support.git_repo import GitRepo

SDIST = Path(__file__).parent / "data" / "pyrsistent-0.20.0.tar.gz"
REPO_URL = "https://github.com/tobgu/pyrsistent"
MKDOCS = ("site_name: t\ndocs_dir: docs\nvalidation:\n  anchors: warn\n  omitted_files: warn\n"
          "  absolute_links: warn\n  unrecognized_links: warn\n")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[GitRepo, subprocess.CompletedProcess[str]]:
    root = tmp_path_factory.mktemp("pyrsistent")
    with tarfile.open(SDIST) as sdist:
        sdist.extractall(root, filter="data")
    repo = GitRepo(root / "pyrsistent-0.20.0")
    repo.write("config.json", f'{{"repo_url": "{REPO_URL}"}}\n').commit("the sdist")
    done = subprocess.run([sys.executable, "-m", "docbot.fronts.cli", "pages", "--package", "pyrsistent",
                           "--out", "docs/api"], cwd=repo.root, capture_output=True, text=True, timeout=300)
    return repo, done


def test_one_page_per_public_module_path(built: tuple[GitRepo, subprocess.CompletedProcess[str]]) -> None:
    repo, done = built
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (repo.root / "docs/api").iterdir()) == [
        "index.md", "objects.inv", "pyrsistent.md", "pyrsistent.typing.md"]  # no pyrsistent._pmap.md
    page = repo.read("docs/api/pyrsistent.md")
    assert '<a id="pyrsistent.pmap"></a>\n\n## `pmap`' in page  # where users import it
    assert 'id="pyrsistent._pmap' not in page
    assert page.index("## `PMap`") < page.index("### `PMap.set`") < page.index("## `pvector`")  # under its class
    assert '<a id="pyrsistent.PBag.__add__"></a>' in page  # a documented special method, as mkdocstrings shows
    assert 'id="pyrsistent.PMap.__getitem__"' not in page and ".__init__" not in page  # undocumented; the signature
    assert repo.read("docs/api/pyrsistent.typing.md").startswith(
        '<a id="pyrsistent.typing"></a>\n\n# `pyrsistent.typing`\n\nHelpers for use with type annotation.')


def test_types_come_from_the_stub(built: tuple[GitRepo, subprocess.CompletedProcess[str]]) -> None:
    repo, _ = built
    assert "def pmap(initial={}, pre_size=0):" in repo.read("pyrsistent/_pmap.py")  # the source has none
    assert ("def pmap(initial: Union[Mapping[KT, VT], Iterable[Tuple[KT, VT]]] = {}, pre_size: int = 0) "
            "-> PMap[KT, VT]") in repo.read("docs/api/pyrsistent.md")


def test_cross_references_and_pinned_source_links(built: tuple[GitRepo, subprocess.CompletedProcess[str]]) -> None:
    repo, _ = built
    page = repo.read("docs/api/pyrsistent.md")
    pmap = page[page.index('<a id="pyrsistent.pmap">'):page.index('<a id="pyrsistent.m">')]
    assert "**See also:** [`PMap`](pyrsistent.typing.md#pyrsistent.typing.PMap)" in pmap  # its return type
    sha = repo.sha()
    assert f"[source]({REPO_URL}/blob/{sha}/pyrsistent/_pmap.py#L560-L573)" in pmap
    klass = page[page.index('<a id="pyrsistent.PMap">'):page.index("### `PMap.")]
    assert "[`m`](#pyrsistent.m)" in klass and "[`pmap`](#pyrsistent.pmap)" in klass  # its docstring names them
    assert "```pycon\n>>> m1 = m(a=1, b=3)" in klass  # the doctest session as a code block
    # the bases, as the stub writes them (mkdocstrings shows them; a reader learns what is inherited)
    plist = page[page.index('<a id="pyrsistent.PList">'):page.index('<a id="pyrsistent.pdeque">')]
    assert "**Bases:** <code>Generic&#91;T&#95;co&#93;</code>, <code>&#95;PListBase</code>" in plist
    assert "**Bases:**" not in pmap  # a function has none


def inventory_lines(data: bytes) -> tuple[list[str], list[str]]:
    header = data.split(b"\n", 4)
    return [line.decode() for line in header[:4]], zlib.decompress(header[4]).decode().splitlines()


def test_objects_inv_and_mkdocs_strict(built: tuple[GitRepo, subprocess.CompletedProcess[str]]) -> None:
    repo, _ = built
    header, lines = inventory_lines((repo.root / "docs/api/objects.inv").read_bytes())
    assert header[0] == "# Sphinx inventory version 2" and header[3].endswith("compressed using zlib.")
    assert {"pyrsistent py:module 1 pyrsistent/#$ -", "pyrsistent.pmap py:function 1 pyrsistent/#$ -",
            "pyrsistent.PMap py:class 1 pyrsistent/#$ -",
            "pyrsistent.PMap.set py:method 1 pyrsistent/#$ -",
            # a nested class's method, rendered under it, is a target too (pdoc showed it, docbot's inventory did not)
            "pyrsistent.CheckedPMap.Evolver.set py:method 1 pyrsistent/#$ -"} <= set(lines)

    repo.write("mkdocs.yml", MKDOCS).write("docs/index.md", "# Home\n\nSee the [API](api/index.md).\n")
    site = repo.root.parent / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)], cwd=repo.root,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "WARNING" not in done.stderr, done.stderr
    for line in lines:  # every inventory entry lands on a page that carries its anchor
        name, _, _, uri, _ = line.split(" ")
        page, anchor = uri.replace("$", name).split("#")
        assert f'id="{anchor}"' in (site / "api" / page / "index.html").read_text(encoding="utf-8"), line


def test_beside_sphinx_docs_the_api_folder_builds_on_its_own(
        built: tuple[GitRepo, subprocess.CompletedProcess[str]]) -> None:
    repo, _ = built
    repo.write("docs/conf.py", "project = 'x'\n").write("docs/usage.md", "See :func:`pyrsistent.pmap` [x](x.rst)\n")
    repo.write("mkdocs.yml", MKDOCS).write("mkdocs-api.yml", MKDOCS.replace("docs_dir: docs\n", "docs_dir: docs/api\n"))
    whole = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(repo.root / "s1")],
                           cwd=repo.root, capture_output=True, text=True, timeout=300)
    assert whole.returncode != 0  # the Sphinx side's link breaks --strict: the failure the README's note avoids
    alone = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", "mkdocs-api.yml", "-d",
                            str(repo.root / "s2")], cwd=repo.root, capture_output=True, text=True, timeout=300)
    assert alone.returncode == 0 and "WARNING" not in alone.stderr, alone.stderr
    assert (repo.root / "s2" / "pyrsistent" / "index.html").is_file()


@pytest.mark.parametrize("text, url", [
    ('[project.urls]\nSource = "https://github.com/o/r"\n', "https://github.com/o/r"),
    ('[project.urls]\nHomepage = "https://o.dev"\nRepository = "https://github.com/o/r.git"\n', "https://github.com/o/r"),
    ('[project.urls]\nDocumentation = "https://github.com/o/r/wiki"\n', ""),  # not the code's home
    ('[project.urls]\nHomepage = "https://o.dev"\n', ""),  # no code host: no link
    ("[project\n", ""),
    # issue 30: the text of [project.urls] is never copied into a link; docbot builds the address itself
    ('[project.urls]\nSource = "javascript:alert(1)//github.com/o/r"\n', ""),
    ('[project.urls]\nSource = "https://github.com/o/r)](javascript:alert(1)"\n', ""),
    ('[project.urls]\nSource = "https://github.com/o/r?x=1#frag"\n', "https://github.com/o/r"),
    ('[project.urls]\nSource = "https://evil.example/github.com/o/r"\n', ""),
    ('[project.urls]\nSource = "https://user:pw@github.com/o/r"\n', ""),
    ('[project.urls]\nSource = "HTTPS://GitHub.com/o/r.git/"\n', "https://github.com/o/r"),
])
def test_the_repository_url_comes_from_project_urls(text: str, url: str) -> None:
    full = "[project]\nname = 'x'\n" + text if text.startswith("[project.") else text
    assert repository_url(parse_pyproject(full)) == url


@pytest.mark.parametrize("text, markdown", [
    ("Plain.", "Plain."),
    ("Make one.\n\n>>> f(1)\n2\n\nDone.", "Make one.\n\n```pycon\n>>> f(1)\n2\n```\n\nDone."),
    ("# not a heading", "&#35; not a heading"),
    ("Returns coll[i0][i1].", "Returns coll[i0]&#91;i1]."),  # not a reference link (autorefs warns on one)
])
def test_docstrings_keep_their_text_and_fence_sessions(text: str, markdown: str) -> None:
    assert docstring(text) == markdown


def test_a_package_without_all_shows_its_own_and_its_private_re_exports(tmp_path: Path) -> None:
    from docbot.apidocs.api_model import load_api

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/__init__.py").write_text('"""The package."""\nimport os\nfrom pkg._impl import f\n'
                                              "from pkg.other import g\n\n\ndef here():\n    pass\n")
    (tmp_path / "pkg/_impl.py").write_text("def f():\n    pass\n")
    (tmp_path / "pkg/other.py").write_text("def g(a, /, b, *, c: int = 1, **kw) -> None:\n    pass\n")
    modules = {m.path: m for m in load_api(tmp_path, "pkg")}
    assert sorted(modules) == ["pkg", "pkg.other"]  # pkg._impl has no page
    assert [o.path for o in modules["pkg"].members] == ["pkg.f", "pkg.here"]  # not os, not pkg.other's g
    assert [o.signature for o in modules["pkg.other"].members] == ["def g(a, /, b, *, c: int = 1, **kw) -> None"]
    assert modules["pkg"].docstring == "The package."


def test_an_object_docbot_documented_links_to_its_checked_section(tmp_path: Path) -> None:
    from docbot.apidocs.publish import publish

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/__init__.py").write_text("from pkg._impl import f\n")
    (tmp_path / "pkg/_impl.py").write_text("def f():\n    pass\n\n\ndef g():\n    pass\n")
    docs = tmp_path / "docs/api"
    docs.mkdir(parents=True)
    (docs / "pkg._impl.md").write_text('# `pkg._impl`\n\n<!-- docbot:section f hash=ab status=approved -->\n'
                                       '<a id="pkg._impl.f"></a>\n\n## `f`\n\nMakes nothing.\n'
                                       "<!-- /docbot:section -->\n")
    (docs / "notes.md").write_text('<a id="pkg._impl.f"></a>\n')  # a person's page (sorted first): not docbot's
    publish(tmp_path, "pkg", docs / "reference", docs_dir=docs)
    page = (docs / "reference" / "pkg.md").read_text()
    assert "docbot's checked documentation: [f](../pkg._impl.md#pkg._impl.f)" in page
    assert "notes.md" not in page


@pytest.mark.parametrize("repo_url", ["javascript:alert(1)", "https://github.com/o/r)x", "data:text/html,x"])
def test_a_repo_url_setting_docbot_cannot_link_is_a_config_error(tmp_path: Path, repo_url: str) -> None:
    from docbot.apidocs.publish import pages
    from docbot.errors import ConfigError

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/__init__.py").write_text("def f():\n    pass\n")
    with pytest.raises(ConfigError, match="no repository address docbot can link"):
        pages(tmp_path, "docs/api", package="pkg", repo_url=repo_url, commit="abc")


def test_a_file_path_cannot_end_the_source_link(tmp_path: Path) -> None:
    from docbot.apidocs.api_model import ApiObject
    from docbot.apidocs.reference import source_url

    obj = ApiObject("function", "f", "pkg.f", "pkg.f", "def f()", "", "", "pkg/a) [x](javascript:y.py", 3, 4)
    url = source_url("https://github.com/o/r", "abc)", obj)
    assert ")" not in url and " " not in url and url.startswith("https://github.com/o/r/blob/abc%29/pkg/a%29")
