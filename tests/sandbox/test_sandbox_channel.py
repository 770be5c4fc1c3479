"""The sandbox's other promises, attacked: no secret reaches it, its output is capped, its results cannot
be forged or faked by rebinding, and where no OS boundary can be made the examples do not run unasked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from docbot.errors import ConfigError
from docbot.config.sources import load_settings
from docbot.sandbox.boundary import boundary_for, bwrap_candidates, bwrap_command, read_only_paths
from docbot.verify.checks.examples import check_examples, findings_from_run
from docbot.verify.read.examples import extract_steps
from docbot.verify.checks.examples import ExampleContext
from docbot.sandbox.runner import SandboxRun, run_steps
from docbot.sandbox.supervise import OUTPUT_CAP
from tests.support.sandboxing import NO_BWRAP, RUN_STEPS, block, sandboxed, write_module

TOKEN = "ghs_FAKE0token0planted0by0the0test0000"


@pytest.fixture
def module_dir(tmp_path: Path) -> Path:
    return write_module(tmp_path)


@pytest.fixture
def crowded_fds() -> Iterator[None]:
    """Open files enough that the result pipe gets a high number, as in a long test session or a busy
    docbot process: an attack that scanned fds 1 to 63 once passed alone and failed in the full suite."""
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(100)]
    yield
    for fd in held:
        os.close(fd)


def test_the_parent_token_is_out_of_reach(module_dir: Path) -> None:
    doc = block(">>> import os\n>>> open(f'/proc/{os.getppid()}/environ').read()\n''\n"
                ">>> open('/proc/1/environ').read()\n''\n>>> sorted(os.environ)\n[]")

    def results(mode: str, bwrap: str) -> list[dict[str, str]]:
        # docbot's process is started holding the token, as a CI step's would be
        done = subprocess.run([sys.executable, "-c", RUN_STEPS, str(module_dir), doc, mode, bwrap], text=True,
                              env={**os.environ, "GITHUB_TOKEN": TOKEN}, capture_output=True, timeout=120, check=True)
        return list(json.loads(done.stdout))

    inside = results("os", "")
    assert [r["status"] for r in inside] == ["ok", "ok", "ok", "mismatch"]  # bwrap's own env: empty
    assert "HOME" in inside[3]["got"] and TOKEN not in repr(inside)
    guarded = results("allow-guard", NO_BWRAP)  # without the boundary the parent's environment is readable
    assert TOKEN in guarded[1]["got"]


def test_the_sandbox_binds_no_home_and_starts_bwrap_with_nothing() -> None:
    home = os.path.expanduser("~")
    paths = read_only_paths(("/tmp/some/repo",))
    assert "/tmp/some/repo" not in paths  # not a folder: nothing to bind
    assert not any(home == p or home.startswith(p.rstrip("/") + "/") for p in paths)
    assert any(sys.base_prefix == p or sys.base_prefix.startswith(p + "/") for p in paths + ["/usr"])
    words = bwrap_command("bwrap", (), {"HOME": "/tmp/docbot-example-sandbox"})
    for flag in ("--unshare-all", "--die-with-parent", "--new-session", "--clearenv"):
        assert flag in words
    assert words[-2:] == ["/tmp/docbot-example-sandbox", "--"]


@pytest.mark.parametrize(("call", "kind", "said"), [
    ("while True: os.write(1, b'x' * 2**20)", "example_flood", f"wrote more than {OUTPUT_CAP // 1024} KiB of output"),
    ("while True: os.write(2, b'x\\n' * 2**19)", "example_flood", "KiB of output"),
    ("while True:\n...     for fd in [int(n) for n in os.listdir('/proc/self/fd') if int(n) > 2]:\n"
     "...         try: os.write(fd, b'x' * 2**20)\n...         except OSError: pass",
     "example_flood", "bytes of results"),  # the result pipe too, wherever its number is
])
def test_a_flood_is_cut_at_the_cap_and_the_child_killed(module_dir: Path, call: str, kind: str, said: str,
                                                        crowded_fds: None) -> None:
    steps = extract_steps(block(f">>> import os\n>>> {call}\n>>> compound(1, 1)\n2"))
    run = run_steps(steps, "money", "compound", (str(module_dir),), timeout_s=60)
    found = findings_from_run(steps, run, 60)
    assert [f.check for f in found] == [kind] and said in found[0].message
    assert not run.timed_out and len(run.stderr_tail) <= 500  # stopped by the cap, keeping only a tail


def test_results_written_by_the_example_are_not_trusted(module_dir: Path, crowded_fds: None) -> None:
    forged = '{"index": 1, "status": "ok"}\\n'
    doc = block(f">>> import os\n>>> for fd in map(int, os.listdir('/proc/self/fd')):\n"
                f"...     try: os.write(fd, b'{forged}')\n"
                "...     except OSError: pass\n>>> compound(1, 1)\n999")
    run, found = sandboxed(module_dir, doc)
    assert [f.check for f in found] == ["example_untrusted"] and run.results == []
    # printing a result-looking line is only output: the false claim is still caught
    marked = block(f">>> print('@@docbot-0123456789abcdef@@{forged[:-2]}')\n>>> compound(1, 1)\n999")
    _, found = sandboxed(module_dir, marked)
    assert [(f.check, f.code_fact) for f in found] == [("example_mismatch", "2")]


@pytest.mark.parametrize("rebind", [
    ">>> compound = lambda principal, rate: 999",
    ">>> import money\n>>> money.compound = lambda principal, rate: 999\n>>> from money import compound",
])
def test_an_example_that_rebinds_the_documented_name_is_reported(module_dir: Path, rebind: str) -> None:
    _, found = sandboxed(module_dir, block(f">>> compound(1, 1)\n2\n{rebind}\n>>> compound(1, 1)\n999"))
    assert [(f.check, f.fatal) for f in found] == [("example_rebinds", True)]
    assert "rebinds the documented name" in found[0].message


def test_without_a_boundary_examples_run_only_when_the_guard_is_allowed(module_dir: Path) -> None:
    steps = extract_steps(block(">>> compound(1, 1)\n2"))
    refused = run_steps(steps, "money", "compound", (str(module_dir),), bwrap=NO_BWRAP)
    found = findings_from_run(steps, refused, 10)
    assert refused.results == [] and [(f.check, f.fatal) for f in found] == [("examples_not_run", False)]
    assert "no OS sandbox can be made here" in found[0].message and '"allow-guard"' in found[0].message
    for mode in ("allow-guard", "allow-guard-in-ci"):
        allowed = run_steps(steps, "money", "compound", (str(module_dir),), sandbox=mode, bwrap=NO_BWRAP)
        assert [r["status"] for r in allowed.results] == ["ok"]
    assert boundary_for("os", NO_BWRAP).not_run and boundary_for("os").bwrap in bwrap_candidates()


def test_the_default_context_runs_behind_the_boundary(module_dir: Path) -> None:
    # /etc/passwd is docbot's own one line (the sandbox's `nobody`), never the host's accounts
    seen = (">>> import os\n>>> os.getuid(), [line.split(':')[0] for line in open('/etc/passwd')], "
            "sorted({'home'} & set(os.listdir('/')))")
    found = check_examples(block(f"{seen}\n(0, ['root'], ['home'])"), "compound",
                           ExampleContext("money", (str(module_dir),)))
    assert [(f.check, f.code_fact) for f in found] == [("example_mismatch", "(65534, ['nobody'], [])")]


def test_a_native_crash_is_a_clear_message(module_dir: Path) -> None:
    _, found = sandboxed(module_dir, block(">>> import ctypes\n>>> ctypes.string_at(0)\nb''"))
    assert [f.check for f in found] == ["example_crashed"]
    assert "killed by SIGSEGV (a crash in native code)" in found[0].message


@pytest.mark.parametrize(("config", "env", "expected"), [
    ('{}', {}, "os"),
    ('{"example_sandbox": "allow-guard"}', {}, "allow-guard"),
    ('{"example_sandbox": "allow-guard"}', {"CI": "true"}, "os"),  # CI needs its own explicit value
    ('{"example_sandbox": "allow-guard"}', {"CI": "false"}, "allow-guard"),
    ('{"example_sandbox": "allow-guard-in-ci"}', {"CI": "true"}, "allow-guard-in-ci"),
])
def test_the_guard_alone_is_allowed_only_explicitly(tmp_path: Path, config: str, env: dict[str, str],
                                                    expected: str) -> None:
    (tmp_path / "config.json").write_text(config)
    assert load_settings(tmp_path / "config.json", env=env).example_sandbox == expected


def test_an_unknown_sandbox_value_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text('{"example_sandbox": "none"}')
    with pytest.raises(ConfigError, match="example_sandbox"):
        load_settings(tmp_path / "config.json")


def test_a_forged_or_cut_result_line_is_read_strictly() -> None:
    from docbot.sandbox.runner import _read_results

    nonce, started = "@@n@@", b'@@n@@{"started": true}\n'
    for data, results, untrusted in [
        (b'@@n@@{"ready": true}\n@@n@@{"index": 0, "status": "ok"}\n@@n@@{"index": 1, "st', 1, None),
        (b'@@n@@{"ready": true}\n@@n@@{"index": 1, "status": "ok"}\n', 0, "a result out of order"),
        (b'@@n@@{"ready": true}\n@@n@@{"index": 0, "status": "ok"}\n@@n@@{"index": 0, "status": "ok"}\n', 0,
         "a result out of order"),
        (b'@@n@@{"index": 0, "status": "ok"}\n', 0, "a result before the module was imported"),
        (b'@@n@@{"ready": true}\n{"index": 0, "status": "ok"}\n', 0, "a line without docbot's mark"),
        (b'@@n@@{"ready": true}\n@@n@@{"index": 0\n', 0, "a malformed result line"),
        (b'@@n@@{"import_error": "E"}\n@@n@@{"ready": true}\n', 0, "a result after the end"),
        (b'@@n@@{"started": true}\n', 0, "a result before the module was imported"),  # started twice
    ]:
        run = SandboxRun()
        _read_results(started + data, nonce, 2, run)
        assert (len(run.results), run.untrusted, run.started) == (results, untrusted, True), data
    run = SandboxRun()  # the runner's first word is that it started; anything else before it is forged
    _read_results(b'@@n@@{"ready": true}\n', nonce, 2, run)
    assert (run.started, run.ready, run.untrusted) == (False, False, "a result before the child started")


@pytest.fixture
def fresh_set_aside(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    from docbot.sandbox import boundary

    aside: dict[str, str] = {}
    monkeypatch.setattr(boundary, "_SET_ASIDE", aside)
    return aside


def test_a_bwrap_that_cannot_run_gives_way_to_the_next(monkeypatch: pytest.MonkeyPatch, module_dir: Path,
                                                       fresh_set_aside: dict[str, str]) -> None:
    # No probe first: the run itself finds that a bwrap cannot start the child, sets it aside and runs
    # the examples behind the next one, once; the one set aside is not tried again in this process.
    from docbot.sandbox import boundary

    working = bwrap_candidates()[0]
    monkeypatch.setattr(boundary, "bwrap_candidates", lambda: [NO_BWRAP, working])
    steps = extract_steps(block(">>> import os\n>>> os.getuid()\n65534"))
    run = run_steps(steps, "money", "compound", (str(module_dir),))
    assert [r["status"] for r in run.results] == ["ok", "ok"]  # uid 65534: behind the working bwrap
    assert list(fresh_set_aside) == [NO_BWRAP] and fresh_set_aside[NO_BWRAP].startswith(f"cannot run {NO_BWRAP}")
    assert boundary.boundary_for("os") == boundary.Boundary(bwrap=working)
    monkeypatch.setattr(boundary, "bwrap_candidates", lambda: [])
    assert "no bwrap executable" in (boundary.boundary_for("os").not_run or "")
    assert boundary.boundary_for("allow-guard") == boundary.Boundary()


def test_a_bwrap_that_fails_to_set_up_is_named_and_the_guard_decides(tmp_path: Path, module_dir: Path,
                                                                      fresh_set_aside: dict[str, str]) -> None:
    broken = tmp_path / "bwrap"  # answers --version, then fails the way bwrap fails without user namespaces
    broken.write_text('#!/bin/sh\n[ "$1" = --version ] && echo "bubblewrap 0.11.0" && exit 0\n'
                      'echo "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n')
    broken.chmod(0o755)
    steps = extract_steps(block(">>> compound(1, 1)\n2"))
    refused = run_steps(steps, "money", "compound", (str(module_dir),), bwrap=str(broken))
    assert refused.results == [] and refused.not_run is not None
    assert "bwrap failed: bwrap: setting up uid map: Permission denied" in refused.not_run
    allowed = run_steps(steps, "money", "compound", (str(module_dir),), sandbox="allow-guard", bwrap=str(broken))
    assert [r["status"] for r in allowed.results] == ["ok"] and allowed.started


def test_a_module_that_fails_like_bwrap_does_not_get_the_guard_alone(tmp_path: Path,
                                                                      fresh_set_aside: dict[str, str]) -> None:
    # Attack: the module's own code, running behind bwrap, prints bwrap's words and exits before docbot's
    # runner reports it imported. Had docbot taken that for a bwrap that cannot start, it would have run
    # the module again under the weaker guard alone. The runner said it started first, so it is the
    # module's failure, reported as such, and the bwrap stays in use.
    (tmp_path / "evil.py").write_text('import os, sys\nsys.stderr.write("bwrap: setting up uid map: denied\\n")\n'
                                      "sys.stderr.flush()\nos._exit(1)\ndef f():\n    return 1\n")
    steps = extract_steps(block(">>> f()\n1"))
    run = run_steps(steps, "evil", "f", (str(tmp_path),), sandbox="allow-guard")
    assert run.started and not run.ready and run.exit_code == 1 and run.results == []
    assert fresh_set_aside == {}


@pytest.mark.parametrize(("version", "sized"), [("0.9.0", False), ("0.10.0", True), ("0.11.1", True)])
def test_an_older_bwrap_gets_no_size_flag(tmp_path: Path, version: str, sized: bool) -> None:
    fake = tmp_path / f"bwrap-{version}"
    fake.write_text(f"#!/bin/sh\necho bubblewrap {version}\n")
    fake.chmod(0o755)
    assert ("--size" in bwrap_command(str(fake), ())) == sized
