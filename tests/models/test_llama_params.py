"""How docbot loads GGUFs: the extra buffer types switch, and the child-process probe's verdicts."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from docbot.models.bindings import MODULES, Binding, binding_version
from docbot.models.llama_params import PORTABLE_CMAKE_ARGS, with_extra_buffers
from docbot.models.probe import crash_message, probe_embedded
from tests.support.smol import N_CTX

pytest_plugins = ["tests.support.fixtures"]

# A stand-in binding that dies the way llama.cpp does on an AMX CPU: by a signal, with no Python error.
CRASHING_LLAMA_CPP = "import os, signal\nos.kill(os.getpid(), signal.{sig})\n"


@pytest.mark.parametrize(("has_field", "extra_buffers", "expected"), [
    (True, False, False),
    (True, True, True),
    (False, False, None),  # an older llama-cpp-python without the field: left alone, no AttributeError
])
def test_with_extra_buffers(has_field: bool, extra_buffers: bool, expected: bool | None) -> None:
    def defaults() -> SimpleNamespace:
        return SimpleNamespace(use_extra_bufts=not extra_buffers) if has_field else SimpleNamespace()

    params = with_extra_buffers(defaults, extra_buffers)()

    assert getattr(params, "use_extra_bufts", None) is expected


@pytest.mark.parametrize(("signum", "extra_buffers", "binding", "says", "never_says"), [
    (signal.SIGSEGV, False, Binding.LLAMA_CPP_PYTHON, ["SIGSEGV", PORTABLE_CMAKE_ARGS, "--backend ollama"],
     ["embedded_extra_buffers", "pip uninstall xllamacpp"]),
    (signal.SIGSEGV, True, Binding.LLAMA_CPP_PYTHON, ['"embedded_extra_buffers": false', PORTABLE_CMAKE_ARGS], []),
    (signal.SIGILL, False, Binding.LLAMA_CPP_PYTHON, ["SIGILL", "rebuild llama.cpp for any x86-64 CPU"], []),
    (200, False, Binding.LLAMA_CPP_PYTHON, ["signal 200"], []),
    # a prebuilt wheel has nothing to rebuild: the way out is the binding that compiles for this CPU
    (signal.SIGILL, False, Binding.XLLAMACPP, ["SIGILL", 'pip install -e ".[llama-cpp-python]"', "--backend ollama"],
     [PORTABLE_CMAKE_ARGS, "embedded_extra_buffers"]),
    (signal.SIGSEGV, True, Binding.XLLAMACPP, ['"embedded_extra_buffers": false', "pip uninstall xllamacpp"], []),
])
def test_crash_message_names_cause_version_and_fix(signum: int, extra_buffers: bool, binding: Binding,
                                                   says: list[str], never_says: list[str]) -> None:
    message = crash_message(signum, "/m/x.gguf", extra_buffers, binding)
    assert message.startswith("llama.cpp crashed on this CPU")
    assert f"{binding.value} {binding_version(binding)}" in message and "/m/x.gguf" in message
    assert all(part in message for part in says)
    assert not any(part in message for part in never_says)


@pytest.fixture
def crashing_llama_cpp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """PYTHONPATH holding both bindings' packages, each killing its process with SIGSEGV on import."""
    for module in MODULES.values():
        package = tmp_path / "stub" / module
        package.mkdir(parents=True)
        (package / "__init__.py").write_text(CRASHING_LLAMA_CPP.format(sig="SIGSEGV"))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path / "stub"), os.getcwd()]))
    model = tmp_path / "model.gguf"
    model.write_bytes(b"GGUF")
    return model


@pytest.mark.parametrize("binding", list(Binding))
def test_probe_reports_a_child_killed_by_a_signal(crashing_llama_cpp: Path, binding: Binding) -> None:
    message = probe_embedded(str(crashing_llama_cpp), 512, False, binding)
    assert message is not None and "crashed on this CPU (SIGSEGV)" in message and binding.value in message


@pytest.mark.parametrize("binding", list(Binding))
def test_probe_passes_the_real_model(smollm_path: Path, binding: Binding) -> None:
    assert probe_embedded(str(smollm_path), N_CTX, False, binding) is None


@pytest.mark.parametrize("binding", list(Binding))
def test_probe_reports_a_child_that_fails_without_a_signal(tmp_path: Path, binding: Binding) -> None:
    not_a_model = tmp_path / "text.gguf"
    not_a_model.write_text("not a GGUF")
    message = probe_embedded(str(not_a_model), 512, False, binding)
    assert message is not None and "could not be loaded and run in a child process" in message


def test_demo_exits_3_with_the_message_and_writes_nothing(crashing_llama_cpp: Path, tmp_path: Path,
                                                          smollm_path: Path) -> None:
    output = tmp_path / "out" / "demo.md"
    docbot = Path(sys.executable).with_name("docbot")

    done = subprocess.run([str(docbot), "demo", "-o", str(output)], capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL, check=False)

    assert done.returncode == 3, done.stderr
    assert "llama.cpp crashed on this CPU (SIGSEGV)" in done.stderr
    assert "Segmentation fault" not in done.stderr
    assert not output.exists() and not output.parent.exists()
