"""Pair mode with the source's package (docs/design.md#claims): a name the source only imports (``pkg/__init__.py``)
is found in the module that defines it, and the claims follow the code beyond the file (constants imported from
another module, type aliases there, ``typing`` under another name, the exception reach)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.fronts.cli_files import package_sources
from docbot.verify.checks.source_doc import verify_source_doc

INIT = "from .core import connect, Client\nfrom .sub import deep\n\n__all__ = ['connect', 'Client', 'deep']\n"
CORE = '''\
import typing as T

from .defaults import TIMEOUT
from pkg import kinds


def connect(host: str, retries: int = 3, timeout: float = TIMEOUT) -> str:
    """Connect."""
    return host.strip()


def fetch(url: T.Optional[str] = None, how: kinds.Mode = "r") -> str:
    """Fetch."""
    return url or how


Url = T.Optional[str]


def get(url: Url = None) -> str:
    """Get."""
    return url or ""


class Client:
    def __init__(self, name: str) -> None:
        self.name = name

    def close(self, force: bool = False) -> None:
        """Close."""


class Special(Client):
    pass


Alias = Special
'''
PACKAGE = {"pkg": INIT, "pkg.core": CORE, "pkg.defaults": "TIMEOUT = 30\n", "pkg.kinds": "Mode = str\n",
           "pkg.sub": "from .impl import deep\n",
           "pkg.sub.impl": "def deep(level: int = 1) -> int:\n    \"\"\"Deep.\"\"\"\n    return level\n"}


def fatal(source: str, module: str, doc: str, package: dict[str, str] | None) -> set[str]:
    report = verify_source_doc(source, doc, module, (), run_examples=False, package=package)
    return {f.check.value for entry in report for f in entry.findings if f.fatal}


@pytest.mark.parametrize("module, doc, expected", [
    # the package's __init__ only imports: each name is found where it is defined
    ("pkg", "The `retries` argument of `connect()` defaults to `7`.", {"wrong_default"}),
    ("pkg", "The `retries` argument of `connect()` defaults to `3`.", set()),
    ("pkg", "`pkg.connect()` also accepts a `verbose_output` argument.", {"invented_parameter"}),
    ("pkg", "`Client()` takes a `color` parameter.", {"invented_parameter"}),
    ("pkg", "`connect()` raises `FileNotFoundError` if the file cannot be read.", {"invented_exception"}),
    ("pkg", "The `level` argument of `deep()` defaults to `4`.", {"wrong_default"}),  # re-exported twice
    ("pkg", "The `force` argument of `Client.close()` defaults to `True`.", {"wrong_default"}),  # a method
    # a default imported from another module of the package
    ("pkg.core", "The `timeout` argument of `connect()` defaults to `5`.", {"wrong_default"}),
    ("pkg.core", "The `timeout` argument of `connect()` defaults to `30`.", set()),
    # `typing` under another name; an alias another module defines
    ("pkg.core", "`fetch()` expects `url` to be a list.", {"wrong_parameter_type"}),
    ("pkg.core", "`fetch()` expects `url` to be a string.", set()),
    ("pkg.core", "`fetch()` expects `how` to be a list.", {"wrong_parameter_type"}),
    ("pkg.core", "`get()` expects `url` to be a list.", {"wrong_parameter_type"}),  # an alias of `T.Optional`
    # a class that inherits its __init__, and a module alias of it
    ("pkg.core", "`Special()` takes a `color` parameter.", {"invented_parameter"}),
    ("pkg.core", "`core.Alias()` takes a `color` parameter.", {"invented_parameter"}),
    ("pkg.core", "`Alias()` takes a `name` parameter.", set()),
])
def test_pair_mode_reads_the_package(module: str, doc: str, expected: set[str]) -> None:
    assert fatal(PACKAGE[module], module, doc, PACKAGE) == expected


@pytest.mark.parametrize("module, doc", [
    ("pkg", "The `retries` argument of `connect()` defaults to `7`."),  # the file alone does not define it
    ("pkg.core", "The `timeout` argument of `connect()` defaults to `5`."),  # TIMEOUT's value is elsewhere
])
def test_without_the_package_the_file_alone_says_nothing(module: str, doc: str) -> None:
    assert fatal(PACKAGE[module], module, doc, None) == set()


def test_the_cli_reads_the_package_of_the_source(tmp_path: Path) -> None:
    for name, text in PACKAGE.items():
        parts = name.split(".")
        path = tmp_path.joinpath(*parts[:-1], parts[-1] + ".py") if name not in ("pkg", "pkg.sub") else \
            tmp_path.joinpath(*parts, "__init__.py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert package_sources("pkg.core", (str(tmp_path),)) == PACKAGE
    assert package_sources("loose", (str(tmp_path),)) == {}  # a module outside any package
