"""``objects.inv``: the Sphinx inventory (format version 2) of the reference pages, so a Sphinx site
(intersphinx) or an mkdocs site (mkdocstrings' ``import``) links to docbot's pages by object name.

The format: four plain header lines, then zlib-compressed lines ``name domain:role priority uri
dispname``, where a ``uri`` ending in ``$`` stands for the name and a ``dispname`` of ``-`` for the
name too. URIs are relative to where the inventory is served.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable

from docbot.apidocs.api_model import ApiModule

HEADER = "# Sphinx inventory version 2\n# Project: {project}\n# Version: {version}\n" \
         "# The remainder of this file is compressed using zlib.\n"


def mkdocs_url(module: str) -> str:
    """Where mkdocs (``use_directory_urls``, its default) serves ``<module>.md``, beside objects.inv."""
    return f"{module}/"


def inventory_lines(modules: Iterable[ApiModule], page_url: Callable[[str], str] = mkdocs_url) -> list[str]:
    lines = []
    for module in modules:
        url = page_url(module.path)
        lines.append(f"{module.path} py:module 1 {url}#$ -")
        lines += [f"{obj.path} py:{obj.kind.value} 1 {url}#$ -" for obj in module.walk()]
    return sorted(set(lines))


def inventory(modules: Iterable[ApiModule], project: str, version: str,
              page_url: Callable[[str], str] = mkdocs_url) -> bytes:
    body = "".join(line + "\n" for line in inventory_lines(modules, page_url))
    return HEADER.format(project=project, version=version).encode() + zlib.compress(body.encode())
