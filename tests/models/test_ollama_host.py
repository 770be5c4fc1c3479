"""``OLLAMA_HOST`` means what it means to Ollama: the ``ollama`` client's own parsing decides the URL.

Each case states the URL Ollama's client reaches and checks docbot against both that figure and the
installed client's ``_parse_host``, so a parser of docbot's own (port 80 for a bare host, as before)
fails here on the first row."""

from __future__ import annotations

from pathlib import Path

import pytest
from ollama._client import _parse_host

from docbot.config.settings import normalise_host
from docbot.config.sources import env_layers, load_settings
from docbot.errors import ConfigError

CASES = [
    ("127.0.0.1", "http://127.0.0.1:11434"),  # a bare host: Ollama's port, not HTTP's 80
    ("localhost", "http://localhost:11434"),
    (":11434", "http://127.0.0.1:11434"),  # a bare port: this machine
    (":8080", "http://127.0.0.1:8080"),
    ("gpu-box:11500", "http://gpu-box:11500"),  # host:port
    ("  gpu-box:11500/ ", "http://gpu-box:11500"),
    ("http://gpu-box", "http://gpu-box:80"),  # an explicit scheme keeps its own default port
    ("https://gpu-box", "https://gpu-box:443"),
    ("http://gpu-box:9000", "http://gpu-box:9000"),
    ("https://proxy.example/ollama/", "https://proxy.example:443/ollama"),
    ("[::1]", "http://[::1]:11434"),  # IPv6
    ("[::1]:9000", "http://[::1]:9000"),
    ("http://[fe80::1]:9000", "http://[fe80::1]:9000"),
]


@pytest.mark.parametrize("host, url", CASES)
def test_docbot_reads_ollama_host_as_the_ollama_client_does(host: str, url: str) -> None:
    assert _parse_host(host.strip()) == url
    assert normalise_host(host) == url


@pytest.mark.parametrize("host, url", CASES[:5])
def test_the_environment_layer_and_the_settings_carry_that_url(host: str, url: str, tmp_path: Path) -> None:
    assert env_layers({"OLLAMA_HOST": host})[0].values == {"base_url": url}
    assert load_settings(tmp_path / "config.json", env={"OLLAMA_HOST": host}).base_url == url


@pytest.mark.parametrize("host", ["gpu-box:port", "gpu-box:99999", "ftp://gpu-box"])
def test_a_host_ollama_cannot_use_is_refused_with_an_example(host: str) -> None:
    with pytest.raises(ConfigError, match=r"OLLAMA_HOST=127\.0\.0\.1:11434"):
        normalise_host(host)
