"""Shapes behind the false contradictions of bench/published's held-out list (README.md, "Held-out published
docs"), each beside a real error of the same shape that must still be caught."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from docbot.fronts.cli import main
from docbot.verify.project.docs import verify_project
from docbot.verify.project.package import find_package
from tests.verify.test_reading_claims import CONTRADICTION, _project, block, claims

MISMATCH = [(CONTRADICTION, "example_mismatch")]


@pytest.mark.parametrize("body, expected", [
    pytest.param('show()  # prints lib', [("stdout", "lib", "show()")], id="prints on a call: what it prints"),
    pytest.param('show()  # Output: lib', [("stdout", "lib", "show()")], id="output on a call: what it prints"),
    pytest.param('show()  # -> lib', [("value", "lib", "show()")], id="an arrow on a call is still its value"),
    pytest.param('show()  # returns lib', [("value", "lib", "show()")], id="returns is still its value"),
    pytest.param('print(show())  # prints lib', [("stdout", "lib", "print(show())")], id="print keeps stdout"),
])
def test_an_output_word_on_a_call_states_what_the_console_shows(body: str,
                                                                 expected: list[tuple[str, str, str]]) -> None:
    assert claims(block(body)) == expected


@pytest.mark.parametrize("body, expected", [
    pytest.param('feed(["lib"], print)  # prints lib', [], id="a call that prints what the remark says"),
    pytest.param('feed(["lib"], print)  # prints other', MISMATCH, id="a call that prints something else"),
    pytest.param('feed(["a", "b"], print)\n# Output:\n# a\n# b', [], id="a multi-line output under the call"),
    pytest.param('total(1, 2)  # Output: 3', [], id="a value the console echoes"),
    pytest.param('total(1, 2)  # Output: 3.0', [], id="an echoed value is compared as a value"),
    pytest.param('total(1, 2)  # prints 4', MISMATCH, id="a wrong echoed value is caught"),
    pytest.param('total(1, 2)  # -> 4', MISMATCH, id="a wrong stated value is caught"),
])
def test_a_prints_remark_on_a_call_that_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str,
                                               expected: list[tuple[str, str]]) -> None:
    readme = "## Usage\n\n" + block("from toy_pkg import feed, total\n" + body)
    assert _project(tmp_path, readme, capsys) == expected


def test_a_stub_only_distribution_is_said_to_be_one(tmp_path: Path) -> None:
    """pandas-stubs ships pandas-stubs/*.pyi: no code to verify against, said so (still exit 2)."""
    from docbot.errors import ConfigError

    (tmp_path / "pyproject.toml").write_text('[project]\nname = "acme-stubs"\n', encoding="utf-8")
    (tmp_path / "acme-stubs" / "core").mkdir(parents=True)
    (tmp_path / "acme-stubs" / "core" / "frame.pyi").write_text("def f() -> int: ...\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="acme-stubs holds type stubs only"):
        find_package(tmp_path)


@pytest.mark.parametrize("files, found", [
    pytest.param({"PKG-INFO": "Name: acme-cloud-dlp\n", "acme/cloud/dlp/__init__.py": "def f():\n    return 1\n"},
                 "acme.cloud.dlp", id="a package inside namespace folders (google-cloud-dlp)"),
    pytest.param({"PKG-INFO": "Name: acme-dlp\n", "acme_dlp/__init__.py": "", "acme/dlp/__init__.py": ""},
                 "acme_dlp", id="the distribution's own folder comes first"),
    pytest.param({"PKG-INFO": "Name: acme-dlp\n", "acme/__init__.py": "", "acme/dlp/__init__.py": ""},
                 "acme", id="a regular package with a subpackage is the one package, as before"),
    # setup.py-only sdists of the published list (issue 28: each was exit 2, "no package found")
    pytest.param({"PKG-INFO": "Name: acme-cloud-os-login\n", "acme/cloud/oslogin/__init__.py": "",
                  "acme/cloud/oslogin_v1/__init__.py": ""},
                 "acme.cloud.oslogin", id="namespace words joined, an API version beside it (google-cloud-os-login)"),
    pytest.param({"PKG-INFO": "Name: acme-ads\n", "acme/ads/acmeads/__init__.py": "",
                  "acme/ads/acmeads/v24/__init__.py": ""},
                 "acme.ads.acmeads", id="a package named apart from the words (google-ads)"),
    pytest.param({"PKG-INFO": "Name: acme-cloud-orchestration-airflow\n",
                  "acme/cloud/orchestration/airflow/service/__init__.py": "",
                  "acme/cloud/orchestration/airflow/service_v1/__init__.py": "",
                  "acme/cloud/orchestration/airflow/service_v1beta1/__init__.py": ""},
                 "acme.cloud.orchestration.airflow.service", id="the plain one among API versions, deeper"),
    pytest.param({"PKG-INFO": "Name: acme-cloud-dataproc-metastore\n", "acme/cloud/metastore/__init__.py": "",
                  "acme/cloud/dataproc/__init__.py": "", "acme/cloud/metastore_v1/__init__.py": ""},
                 "acme.cloud.metastore", id="several plain ones: the path most like the name"),
])
def test_the_package_of_a_namespace_distribution(tmp_path: Path, files: dict[str, str], found: str) -> None:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert find_package(tmp_path).name == found


@pytest.mark.parametrize("stated, expected", [("1", 0), ("2", 1)])
def test_a_namespace_package_s_examples_are_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   stated: str, expected: int) -> None:
    files = {"PKG-INFO": "Name: acme-cloud-dlp\n", "acme/cloud/dlp/__init__.py": "def f():\n    return 1\n",
             "README.md": "## Usage\n\n" + block(f"from acme.cloud.dlp import f\nprint(f())  # => {stated}"),
             "config.json": json.dumps({"example_sandbox": "allow-guard"})}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert main(["verify", "--json"]) == expected
    finally:
        os.chdir(cwd)
    capsys.readouterr()


AIO = "def stream(x):\n    return list(x)\n"


@pytest.mark.parametrize("body, kinds", [
    pytest.param("something = stream(...)\nfirst = something[0]", ["not_runnable_as_printed"],
                 id="a sketch's ... argument (aioitertools)"),
    pytest.param("something = stream(None)", [CONTRADICTION], id="a real TypeError without a placeholder"),
    pytest.param("stream(None)\nstream(...)", [CONTRADICTION], id="a real TypeError before a placeholder"),
])
def test_an_ellipsis_placeholder_is_a_sketch(tmp_path: Path, body: str, kinds: list[str]) -> None:
    files = {"pyproject.toml": '[project]\nname = "aio"\nversion = "1"\n', "aio/__init__.py": AIO,
             "README.md": "## Usage\n\n" + block("from aio import stream\n" + body),
             "config.json": json.dumps({"example_sandbox": "allow-guard"})}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    report = verify_project(tmp_path, find_package(tmp_path), [tmp_path / "README.md"])
    assert [f.severity.value for d in report.docs for f in d.findings if f.severity.value != "gap"] == kinds
