"""``docbot pages``: the reference pages of a package, its ``objects.inv`` and an index, written to a folder.

No model is involved: griffe reads the code (``api_model``), ``reference`` renders one page per public
module path, ``inventory`` lists every object for Sphinx and mkdocstrings sites. Source links point at
the commit the pages were built from, on the repository named by the ``repo_url`` setting or, when that
is unset, by ``pyproject.toml``'s ``[project.urls]``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from docbot.apidocs import inventory, reference
from docbot.apidocs.api_model import ApiModule, load_api
from docbot.config.pyproject import Pyproject, read_pyproject
from docbot.errors import ConfigError
from docbot.paths import write_atomic

# [project.urls] keys that name the code's home, most specific first (PyPI's well-known labels).
URL_KEYS = ("source", "source code", "repository", "code", "github", "homepage", "home")
INDEX = "index.md"
SECTION_MARK = "<!-- docbot:section "  # the marker line above each of docbot's sections (apidocs.pages)
_ANCHOR = re.compile(r'^<a id="([A-Za-z_][\w.]*)"></a>$', re.M)


MKDOCS_CONFIG = "mkdocs.docbot.yml"  # the README's recipe: builds docs_dir alone, beside Sphinx or any other docs
# No ``nav``: mkdocs then lists the pages that exist. A nav naming ``index.md`` fails the build until
# ``docbot run`` writes that file, and ``docbot pages --mkdocs`` comes first in the README's order.
_MKDOCS = """# {config}
site_name: {site}
docs_dir: {docs_dir}
site_dir: site/api
validation:
  omitted_files: info
  absolute_links: warn
  unrecognized_links: warn
  anchors: warn
"""


def mkdocs_config(site_name: str, docs_dir: str) -> str:
    """``mkdocs.docbot.yml``: an mkdocs site of ``docs_dir`` only (``docbot run``'s pages, its index and
    ``docbot pages``' reference), anchors validated, so ``mkdocs build --strict -f`` never reads other docs."""
    return _MKDOCS.format(config=MKDOCS_CONFIG, site=site_name, docs_dir=docs_dir.strip("/") or ".")


@dataclass(frozen=True)
class Published:
    """What ``publish`` wrote (paths relative to the root) and the modules it documented."""

    written: list[str]
    modules: list[ApiModule]


def repository_url(pyproject: Pyproject) -> str:
    """The repository ``[project.urls]`` declares (a GitHub or GitLab address), rebuilt by ``repository_home``,
    or ""."""
    by_key = {key.strip().lower(): url for key, url in pyproject.urls.items()}
    for key in URL_KEYS:
        home = repository_home(by_key.get(key, ""), hosts=("github.com", "gitlab.com"))
        if home:
            return home
    return ""


_SEGMENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
_HOST = re.compile(rf"{_LABEL}(?:\.{_LABEL})+(?::\d{{1,5}})?")


def repository_home(url: str, hosts: tuple[str, ...] = ()) -> str:
    """``url`` as a repository address docbot builds itself: ``https://HOST/OWNER/NAME`` from the parts it
    parses (an http(s) scheme, a plain host name, path segments of letters, digits, ``_.-``), or "" when it
    is no such address. Nothing of the text is copied unchecked, so ``javascript:``, a ``)`` that would end the
    Markdown link, or a query cannot reach a page (issue 30). ``hosts``: the only hosts taken, when given."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return ""
    host = (parts.netloc or "").lower().removeprefix("www.")
    segments = [s for s in parts.path.strip("/").removesuffix(".git").split("/") if s]
    if parts.scheme not in ("https", "http") or not _HOST.fullmatch(host) or (hosts and host not in hosts):
        return ""
    if len(segments) < 2 or not all(_SEGMENT.fullmatch(s) for s in segments) or any(s == ".." for s in segments):
        return ""
    return f"{parts.scheme}://{host}/{'/'.join(segments)}"


def render_index(modules: list[ApiModule]) -> str:
    rows = [f"- [`{m.path}`]({reference.page_name(m.path)})" + (f": {_summary(m.docstring)}" if m.docstring else "")
            for m in modules]
    return "# API reference\n\n" + "\n".join(rows) + "\n"


def _summary(docstring: str) -> str:
    return " ".join(docstring.strip().split("\n\n", 1)[0].split())


def docbot_sections(docs_dir: Path, out: Path) -> dict[str, str]:
    """The anchors of docbot's model-written sections (``<a id="pkg._impl.f"></a>``, one per function, in
    ``docs_dir/<module>.md``) -> a link to each from ``out``."""
    found: dict[str, str] = {}
    for page in sorted(docs_dir.glob("*.md")) if docs_dir.is_dir() else ():
        text = page.read_text(encoding="utf-8")
        if SECTION_MARK not in text:  # not docbot's page (a reference page written into the same folder)
            continue
        relative = Path(os.path.relpath(page, out)).as_posix()
        for anchor in _ANCHOR.findall(text):
            found.setdefault(anchor, f"{relative}#{anchor}")
    return found


def publish(root: Path, package: str, out: Path, *, repo_url: str = "", commit: str = "",
            version: str = "", docs_dir: Path | None = None) -> Published:
    """Write ``out/<public.module>.md`` for each public module, ``out/index.md`` and ``out/objects.inv``;
    each object documented by ``docbot run`` in ``docs_dir`` links to its section there."""
    modules = load_api(root, package)
    targets = reference.Targets.of(modules)
    links = reference.Links(repo_url, commit, docbot_sections(docs_dir, out) if docs_dir else {})
    out.mkdir(parents=True, exist_ok=True)
    written: list[str] = []
    for module in modules:
        path = out / reference.page_name(module.path)
        if write_atomic(path, reference.render_page(module, targets, links)):
            written.append(path.as_posix())
    if write_atomic(out / INDEX, render_index(modules)):
        written.append((out / INDEX).as_posix())
    data = inventory.inventory(modules, package, version)
    inv = out / "objects.inv"
    if (not inv.is_file() or inv.read_bytes() != data) and write_atomic(inv, data):
        written.append(inv.as_posix())
    return Published(written, modules)


@dataclass(frozen=True)
class PagesRun:
    """What ``docbot pages`` did: the files written (repository-relative), the modules, and notes for stderr."""

    written: list[str]
    modules: int
    notes: list[str]

    def summary_line(self) -> str:
        return f"docbot pages: {self.modules} module{'' if self.modules == 1 else 's'}, " \
               f"{len(self.written)} files written."


def pages(root: Path, docs_dir: str, *, package: str = "", out: str = "", repo_url: str = "", commit: str = "",
          mkdocs: bool = False) -> PagesRun:
    """``docbot pages``: the reference pages of ``package`` (default: pyproject.toml's project name) into ``out``
    (default ``<docs_dir>/reference``), and with ``mkdocs`` the README's mkdocs recipe unless one is there."""
    pyproject = read_pyproject(root)
    name = package or pyproject.name.replace("-", "_")
    if not name:
        raise ConfigError("no package to document: pass --package NAME (pyproject.toml names no project).")
    if repo_url and not repository_home(repo_url):
        raise ConfigError(f"repo_url {repo_url!r} is no repository address docbot can link: give an http(s) URL "
                          "of the form https://HOST/OWNER/NAME.")
    home = repository_home(repo_url) if repo_url else repository_url(pyproject)
    done = publish(root, name, root / (out or f"{docs_dir}/reference"), repo_url=home, commit=commit,
                   docs_dir=root / docs_dir)
    notes: list[str] = []
    written = list(done.written)
    if mkdocs:
        config = root / MKDOCS_CONFIG
        if config.exists():
            notes.append(f"docbot: {MKDOCS_CONFIG} exists: left as it is")
        elif write_atomic(config, mkdocs_config(f"{name} API", docs_dir)):
            written.append(config.as_posix())
    shown = [Path(p).relative_to(root).as_posix() if Path(p).is_relative_to(root) else p for p in written]
    return PagesRun(shown, len(done.modules), notes)
