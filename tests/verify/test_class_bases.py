"""A class whose ``__init__`` is a base's from another module of its package (docs/design.md#claims): slack_sdk's
``WebClient(BaseClient)``, re-exported twice, with ``BaseClient`` imported from ``.base_client``. The held-out
planted-prose run missed all 13 edits about it in both modes. Only what the text shows for certain is followed: a
decorated class, a metaclass, or a base from outside the package gives no subject, so no claim."""

from __future__ import annotations

from pathlib import Path

import pytest

from docbot.verify.checks.class_bases import inherited
from docbot.verify.checks.source_doc import verify_source_doc
from docbot.verify.project.docs import DocsOptions, verify_here

BASE = '''\
class BaseClient:
    def __init__(self, token: str | None = None, base_url: str = "https://example.org/api/") -> None:
        self.token, self.base_url = token, base_url
'''
CLIENT = '''\
import threading
from abc import ABC
from dataclasses import dataclass

from .base_client import BaseClient


class WebClient(BaseClient):
    def api_call(self, method: str) -> dict:
        return {}


@dataclass
class Record(BaseClient):
    url: str = ""


class Pooled(threading.Thread, BaseClient):
    pass


class Registered(BaseClient, metaclass=type):
    pass


class Deeper(WebClient):
    pass


class Typed(BaseClient, ABC):
    pass
'''
PACKAGE = {"toy": "from .web import WebClient\n", "toy.web": "from .client import WebClient, Deeper\n",
           "toy.web.client": CLIENT, "toy.web.base_client": BASE}


def _functions(module: str) -> dict[str, str]:
    return {"toy.web.base_client": {"BaseClient.__init__": ""}, "toy.web.client": {"WebClient.api_call": ""}}.get(
        module, {})


@pytest.mark.parametrize("module, qualname, expected", [
    ("toy.web.client", "WebClient.__init__", "toy.web.base_client:BaseClient.__init__"),
    ("toy.web.client", "Deeper.__init__", "toy.web.base_client:BaseClient.__init__"),  # two bases up
    ("toy", "WebClient.__init__", "toy.web.base_client:BaseClient.__init__"),  # bound by imports, twice
    ("toy.web.client", "WebClient.api_call", "toy.web.client:WebClient.api_call"),  # its own
    ("toy.web.client", "Typed.__init__", "toy.web.base_client:BaseClient.__init__"),  # ABC defines none
    ("toy.web.client", "Record.__init__", None),  # a dataclass makes its __init__
    ("toy.web.client", "Registered.__init__", None),  # a metaclass may make it
    ("toy.web.client", "Pooled.__init__", None),  # threading.Thread's __init__ comes first
    ("toy.web.client", "WebClient.close", None),  # nothing defines it
    ("toy.web.client", "Missing.__init__", None),
])
def test_a_method_is_found_where_a_base_defines_it(module: str, qualname: str, expected: str | None) -> None:
    assert inherited(module, qualname, PACKAGE, PACKAGE.__getitem__, _functions) == expected


def _fatal_pair(module: str, doc: str) -> set[str]:
    report = verify_source_doc(PACKAGE[module], doc, module, (), run_examples=False, package=PACKAGE)
    return {f.check.value for entry in report for f in entry.findings if f.fatal}


@pytest.mark.parametrize("module, doc, expected", [
    ("toy", "The `base_url` argument of `WebClient()` defaults to `'https://example.org/x/'`.", {"wrong_default"}),
    ("toy", "The `base_url` argument of `WebClient()` defaults to `'https://example.org/api/'`.", set()),
    ("toy", "`WebClient()` also accepts a `max_retries` argument.", {"invented_parameter"}),
    ("toy.web.client", "`WebClient()` also accepts a `max_retries` argument.", {"invented_parameter"}),
    ("toy.web.client", "`WebClient()` also accepts a `token` argument.", set()),
    ("toy.web.client", "`Record()` also accepts a `max_retries` argument.", set()),
    ("toy.web.client", "`Pooled()` also accepts a `max_retries` argument.", set()),
])
def test_pair_mode_holds_a_class_to_its_inherited_init(module: str, doc: str, expected: set[str]) -> None:
    assert _fatal_pair(module, doc) == expected


@pytest.mark.parametrize("readme, expected", [
    ("`WebClient()` also accepts a `max_retries` argument.\n", ["invented_parameter"]),
    ("The `token` argument of `WebClient()` must be a list.\n", ["wrong_parameter_type"]),
    ("The `token` argument of `WebClient()` must be a string.\n", []),
    ("`toy.web.client.Record()` also accepts a `max_retries` argument.\n", []),  # a dataclass: no claim
])
def test_project_mode_holds_a_class_to_its_inherited_init(tmp_path: Path, readme: str, expected: list[str]) -> None:
    readme = "# toy\n\n```python\nfrom toy import WebClient\n```\n\n" + readme  # as slack_sdk's README does
    files = {"pyproject.toml": '[project]\nname = "toy"\nversion = "1"\n', "README.md": readme,
             "src/toy/__init__.py": PACKAGE["toy"], "src/toy/web/__init__.py": PACKAGE["toy.web"],
             "src/toy/web/client.py": CLIENT, "src/toy/web/base_client.py": BASE}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    report = verify_here(tmp_path, [tmp_path / "README.md"], DocsOptions(), run_examples=False)
    assert [f.check.value for d in report.docs for f in d.findings if f.severity.fatal] == expected
