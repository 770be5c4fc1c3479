"""The no-op paths import nothing heavy (docs/design.md#lazy-imports): each runs in a fresh interpreter
and reports which heavy packages ended up in ``sys.modules``. A positive control shows the probe sees
an import when a path really needs one, so an empty list is never a vacuous pass."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from tests.support.git_repo import GitRepo
from tests.support.loopback import LoopbackServer

HEAVY = ("libcst", "git", "pydantic", "pydantic_core", "rich", "langchain_core", "langchain_ollama",
         "langchain_openai", "langgraph", "httpx", "llama_cpp", "griffe", "docbot.loop", "docbot.models")
PYDANTIC = ("pydantic", "pydantic_core", "docbot.config.settings", "docbot.config.sources")

PROBE = """
import sys
from docbot.fronts import {front} as front
code = front.main({argv!r})
heavy = sorted({{m for m in sys.modules for h in {heavy!r} if m == h or m.startswith(h + ".")}})
import json  # after the count: the probe's own import is not the front's
print(json.dumps([code, sorted({{m.split(".")[0] if not m.startswith("docbot") else ".".join(m.split(".")[:2])
                                 for m in heavy}})]))
"""

BIG = "".join(f"def f{i}(x):\n    # line\n    return x + {i}\n\n\n" for i in range(40))
SOURCE = "def area(w, h):\n    return w * h\n\n\n_LIMIT = 3\n" + BIG


def probe(root: Path, front: str, argv: list[str], heavy: tuple[str, ...] = HEAVY,
          env: dict[str, str] | None = None) -> tuple[int, list[str]]:
    code = PROBE.format(front=front, argv=argv, heavy=heavy)
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(root), "NO_COLOR": "1", **(env or {})})
    assert done.returncode == 0, done.stderr
    exit_code, imported = json.loads(done.stdout.strip().splitlines()[-1])
    return exit_code, imported


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return GitRepo(tmp_path).write("pkg/__init__.py", "").write("pkg/geo.py", SOURCE).commit("first")


@pytest.mark.parametrize("front, argv", [
    ("hook", []),
    ("hook", ["--check"]),
    ("cli", ["check", "--staged"]),
    ("cli", ["targets", "--staged"]),
])
def test_nothing_staged_imports_nothing_heavy(repo: GitRepo, front: str, argv: list[str]) -> None:
    assert probe(repo.root, front, argv) == (0, [])


@pytest.mark.parametrize("front, argv", [
    ("hook", ["pkg/geo.py"]),
    ("hook", ["--check", "pkg/geo.py"]),
    ("cli", ["check", "--staged"]),
    ("cli", ["targets", "--staged"]),
    ("verify_hook", ["pkg/geo.py"]),  # the docbot-verify hook: no public change, no doc staged
])
def test_a_non_public_edit_imports_nothing_heavy(repo: GitRepo, front: str, argv: list[str]) -> None:
    repo.write("pkg/geo.py", SOURCE.replace("_LIMIT = 3", "_LIMIT = 4  # a comment"))
    repo.stage("pkg/geo.py")
    assert probe(repo.root, front, argv) == (0, [])


def test_a_private_only_commit_range_imports_nothing_heavy(repo: GitRepo) -> None:
    repo.write("pkg/geo.py", SOURCE.replace("_LIMIT = 3", "_LIMIT = 5")).commit("private")
    assert probe(repo.root, "cli", ["targets", "--base", "HEAD~1"]) == (0, [])


@pytest.mark.parametrize("argv", [["check", "--all"], ["targets", "--all"]])
def test_whole_tree_commands_import_nothing_heavy(repo: GitRepo, argv: list[str]) -> None:
    exit_code, imported = probe(repo.root, "cli", argv)
    assert imported == [] and exit_code == (1 if argv[0] == "check" else 0)  # check: area has no doc


CONFIG = '{"include_dunder": false, "model_registry": {"GENERATOR": "a", "CRITIC": {"model": "b"}, "ADJUDICATOR": "c"}}'


# Issue 32: every path that runs no model reads its settings without pydantic, config file, flags and all
# (docbot.config.plain); each probe's exit code shows the path really ran.
@pytest.mark.parametrize("front, argv, exit_code", [
    ("hook", ["--check", "pkg/geo.py"], 1),
    ("hook", ["--check", "--base-url", "http://127.0.0.1:9", "pkg/geo.py"], 1),
    ("cli", ["check", "--staged"], 1),
    ("cli", ["check", "--all"], 1),
    ("cli", ["targets", "--staged"], 0),
    ("cli", ["targets", "--all", "--config", "config.json"], 0),
    ("cli", ["verify", "--no-examples", "pkg/geo.py", "geo.md"], 1),  # 1: no section for f0...f39
    ("cli", ["verify", "--no-examples", "README.md"], 0),
])
def test_no_model_paths_load_the_settings_without_pydantic(repo: GitRepo, front: str, argv: list[str],
                                                           exit_code: int) -> None:
    repo.write("config.json", CONFIG).write("geo.md", "# geo\n\n## `area`\n\nThe area.\n")
    repo.write("README.md", "# pkg\n\n```python\nfrom pkg.geo import area\n```\n")
    repo.write("pkg/geo.py", SOURCE.replace("return w * h", "return h * w")).stage("pkg/geo.py")
    assert probe(repo.root, front, argv, PYDANTIC) == (exit_code, [])


@pytest.mark.parametrize("front, argv", [("hook", ["--check", "pkg/geo.py"]), ("cli", ["check", "--staged"])])
def test_control_a_bad_config_file_is_explained_by_the_model(repo: GitRepo, front: str, argv: list[str]) -> None:
    repo.write("config.json", '{"include_dunder": 1}\n')  # the model's own message names it (exit 2)
    repo.write("pkg/geo.py", SOURCE.replace("return w * h", "return h * w")).stage("pkg/geo.py")
    exit_code, imported = probe(repo.root, front, argv)
    assert exit_code == 2 and "pydantic" in imported  # the probe sees imports: the empty lists above are real


# Issue 32: the hook that must document a public edit asks the model server before it imports the loop (langgraph
# and LangChain took 18 of a loaded machine's 26 s before the "no server" message): with none, it exits 3 first.
LOOP = ("langchain_core", "langchain_ollama", "langchain_openai", "langgraph", "llama_cpp", "docbot.loop")


def test_the_hook_without_a_server_says_so_before_importing_the_loop(repo: GitRepo) -> None:
    repo.write("pkg/geo.py", SOURCE.replace("return w * h", "return h * w")).stage("pkg/geo.py")
    assert probe(repo.root, "hook", ["--base-url", "http://127.0.0.1:9", "pkg/geo.py"], LOOP) == (3, [])


class _TagsOnly(BaseHTTPRequestHandler):
    """An Ollama that lists the default models and serves none of them: the preflight passes, every chat fails."""

    def do_GET(self) -> None:  # noqa: N802 -- http.server's name
        from docbot.config.settings import DEFAULT_MODELS

        self._send(200, {"models": [{"name": name, "model": name} for name in DEFAULT_MODELS.values()]})

    def do_POST(self) -> None:  # noqa: N802
        self._send(404, {"error": "model not found"})

    def _send(self, status: int, body: object) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *_args: object) -> None:
        pass


def test_control_the_loop_is_seen_when_a_server_answers(repo: GitRepo) -> None:
    repo.write("pkg/geo.py", SOURCE.replace("return w * h", "return h * w")).stage("pkg/geo.py")
    server = LoopbackServer(_TagsOnly)
    try:
        exit_code, imported = probe(repo.root, "hook", ["--base-url", server.start(), "pkg/geo.py"], LOOP)
    finally:
        server.stop()
    assert "langgraph" in imported and "docbot.loop" in imported, exit_code  # the probe sees the loop's imports


# The hook's public-edit path (issue 20, docs/design.md#lazy-imports): a commit that changes one public function
# in a checkout with no config file and no docs/api yet. It reads the settings' defaults without pydantic, shows
# warnings through a console made at the first one (rich), leaves the event types and the index's renderer (the
# doc model, the truth checks, markdown-it) alone, and opens the checkout once.
NOT_ON_PUBLIC_EDIT = (*HEAVY, "docbot.config.settings", "docbot.docmodel", "docbot.verify", "docbot.apidocs.render",
                      "docbot.events", "markdown_it", "tempfile", "shutil", "hashlib", "json")
GIT_WRAPPER = '#!/bin/sh\necho "$1" >> "{log}"\nexec {git} "$@"\n'
# The top with HEAD (one rev-parse), the diff and the blobs once each: the paths, the screen and the check share
# one reading of the diff (docs/design.md#speed; 11 processes before it). Then the two doc files' entries.
PUBLIC_EDIT_GIT = ["rev-parse", "diff", "cat-file", "ls-files", "ls-files"]


def git_counted(root: Path) -> tuple[dict[str, str], Path]:
    """A PATH whose ``git`` logs each command's name before running the real git, and the log."""
    folder, log = root / ".git" / "wrapped-bin", root / ".git" / "wrapped.log"  # inside .git: no file git sees
    folder.mkdir()
    wrapper = folder / "git"
    wrapper.write_text(GIT_WRAPPER.format(log=log, git=shutil.which("git")), encoding="utf-8")
    wrapper.chmod(0o755)
    return {"PATH": f"{folder}:/usr/bin:/bin"}, log


def test_the_hooks_public_edit_check_imports_only_what_it_uses(repo: GitRepo) -> None:
    repo.write("pkg/geo.py", SOURCE.replace("return w * h", "return h * w")).stage("pkg/geo.py")
    path, log = git_counted(repo.root)
    exit_code, imported = probe(repo.root, "hook", ["--check", "pkg/geo.py"], NOT_ON_PUBLIC_EDIT, path)
    assert (exit_code, imported) == (1, [])  # 1: area has no doc section, so the check really ran
    assert log.read_text(encoding="utf-8").split() == PUBLIC_EDIT_GIT


def test_control_the_git_wrapper_sees_every_process(repo: GitRepo) -> None:
    # The same commit through `docbot check --staged`, which opens the checkout per step: more git, all logged.
    repo.write("pkg/geo.py", SOURCE.replace("return w * h", "return h * w")).stage("pkg/geo.py")
    path, log = git_counted(repo.root)
    assert probe(repo.root, "cli", ["check", "--staged"], (), path)[0] == 1
    assert len(log.read_text(encoding="utf-8").split()) > len(PUBLIC_EDIT_GIT) - 3


# The drift gate on a change that no doc reaches (most commits): it reads the docs' mentions and the package,
# never the verifier (the example checks, the claim readers, markdown-it, docutils, the sandbox): issue 32.
NOT_ON_UNREACHED_DRIFT = (*HEAVY, "docbot.verify.checks", "docbot.verify.read.markdown", "docbot.verify.read.claims",
                          "docbot.sandbox", "markdown_it", "docutils", "pygments")
# The top, then base, HEAD and their merge base once, the diff, the package's files at the base, the files the
# diff names, the old side of the changed module, and the cache folder's trust.
DRIFT_GIT = ["rev-parse", "rev-parse", "rev-parse", "merge-base", "diff", "ls-tree", "diff", "cat-file", "ls-files"]


def test_the_drift_gate_imports_no_verifier_for_a_change_no_doc_reaches(repo: GitRepo) -> None:
    repo.write("README.md", "# pkg\n\n```python\nimport pkg.geo\nprint(pkg.geo.f1(1))\n```\n").commit("doc")
    repo.write("pkg/geo.py", SOURCE.replace("return w * h", "return h * w")).commit("area")
    path, log = git_counted(repo.root)
    exit_code, imported = probe(repo.root, "cli", ["check", "--base", "HEAD~1", "--drift-only"],
                                NOT_ON_UNREACHED_DRIFT, path)
    assert (exit_code, imported) == (0, [])
    assert log.read_text(encoding="utf-8").split() == DRIFT_GIT
    assert (repo.root / ".docbot/cache/package.json").is_file()  # the gate did read the package


def test_control_a_change_the_doc_reaches_imports_the_verifier(repo: GitRepo) -> None:
    repo.write("README.md", "# pkg\n\n```python\nimport pkg.geo\nprint(pkg.geo.area(1, 2))\n```\n").commit("doc")
    repo.write("pkg/geo.py", SOURCE.replace("return w * h", "return h * w")).commit("area")
    exit_code, imported = probe(repo.root, "cli", ["check", "--base", "HEAD~1", "--drift-only"],
                                ("docbot.verify.checks", "markdown_it"))
    assert (exit_code, imported) == (0, ["docbot.verify", "markdown_it"])


def test_the_hooks_defaults_are_the_settings_defaults() -> None:
    # What the hook's check takes without a config file is what loading the settings would give.
    from docbot.config.settings import Settings
    from docbot.plan import PLAN_DEFAULTS

    defaults = Settings()
    assert (PLAN_DEFAULTS.docs_dir, PLAN_DEFAULTS.include_dunder, list(PLAN_DEFAULTS.exclude), PLAN_DEFAULTS.cache,
            PLAN_DEFAULTS.run_examples, PLAN_DEFAULTS.example_timeout_s, PLAN_DEFAULTS.example_sandbox,
            PLAN_DEFAULTS.scan_outside_package) \
        == (defaults.docs_dir, defaults.include_dunder, defaults.exclude, defaults.cache, defaults.run_examples,
            defaults.example_timeout_s, defaults.example_sandbox, defaults.scan_outside_package)


SCREEN = """
import sys
from pathlib import Path
from docbot.scan.repo import DiffSpec, touches_nothing_public
print(touches_nothing_public(Path(sys.argv[1]), DiffSpec(staged=True)), "libcst" in sys.modules)
"""


def test_the_nothing_to_do_screen_never_asks_libcst(repo: GitRepo) -> None:
    # Whether a diff has any target, and which, the ast pass decides alone: libcst is never imported.
    repo.write("pkg/geo.py", SOURCE.replace("return w * h", "return h * w")).stage("pkg/geo.py")
    done = subprocess.run([sys.executable, "-c", SCREEN, str(repo.root)], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["False", "False"], done.stderr


# `docbot verify` pays for what it uses only: the sandbox's nonce is os.urandom, not secrets (hmac and
# OpenSSL's hashlib); under bwrap there is no host folder to make (tempfile); verify emits no events
# (docbot.events is the sinks' and the loop's); doctest is read only for `>>>` examples that will run;
# git's diff reader is a diff's (the scanner names its types for the type checker only).
NOT_ON_VERIFY = ("secrets", "hashlib", "tempfile", "docbot.events", "doctest", "docbot.git.diff")
GEO = 'def area(w, h):\n    """The area."""\n    return w * h\n'
GEO_DOC = "# geo\n\n## `area`\n\nThe area of a `w` by `h` rectangle.\n\n>>> area(2, 3)\n7\n"


@pytest.fixture
def documented(tmp_path: Path) -> Path:
    (tmp_path / "geo.py").write_text(GEO, encoding="utf-8")
    (tmp_path / "geo.md").write_text(GEO_DOC, encoding="utf-8")
    return tmp_path


def test_verify_runs_the_examples_without_secrets_tempfile_or_the_event_types(documented: Path) -> None:
    exit_code, imported = probe(documented, "cli", ["verify", "geo.py", "geo.md"], NOT_ON_VERIFY)
    # 1: the example really ran in the sandbox (area(2, 3) is 6, the doc says 7); doctest read it (the control)
    assert (exit_code, imported) == (1, ["doctest"])


def test_verify_without_examples_never_imports_doctest(documented: Path) -> None:
    exit_code, imported = probe(documented, "cli", ["verify", "--no-examples", "geo.py", "geo.md"], NOT_ON_VERIFY)
    assert (exit_code, imported) == (0, [])  # 0: the only finding left is a gap (no return documented)


def test_the_sandbox_child_starts_without_typing_or_socket() -> None:
    # Every verify starts one child, and its CPU is paid on every doc: annotations need no typing at run
    # time, and the guard needs only the AF_UNIX constant, not the socket module and its enums.
    from docbot.sandbox.runner import _BOOTSTRAP

    setup = _BOOTSTRAP.rsplit("main()", 1)[0]  # the child's own start, up to reading its plan
    show = "import json; print(json.dumps(sorted(m for m in ('typing', 'socket', 'ast') if m in sys.modules)))"
    done = subprocess.run([sys.executable, "-s", "-B", "-P", "-c", setup + show], capture_output=True, text=True,
                          timeout=120, env={"PATH": "/usr/bin:/bin"})
    assert json.loads(done.stdout) == ["ast"], done.stderr  # ast: the probe sees what the child does import
