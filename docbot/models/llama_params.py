"""How docbot loads a GGUF with llama.cpp: extra buffer types off unless a setting turns them on.

llama.cpp's *extra buffer types* repack weights for the CPU's matrix units (AMX, and the
AVX-512/AVX2 repack kernels). llama-cpp-python 0.3.36 built natively on an Intel CPU with AMX
segfaults in ``llama_decode`` on any batch of more than one token when they are on; with them off,
the same build runs (docs/design.md#embedded-model). ``Llama(...)`` has no keyword for the
field, so the one place that builds the model parameters is wrapped while a model loads.
"""

from __future__ import annotations

import importlib.metadata
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

LLAMA_DISTRIBUTION = "llama-cpp-python"
TESTED_VERSION = "0.3.36"  # the version pyproject.toml pins; the recording was made with it
# Flags that build llama.cpp for any x86-64 CPU with AVX2 instead of the build machine's own
# (GGML_NATIVE=ON compiles in whatever matrix-unit kernels the builder has, AMX included).
PORTABLE_CMAKE_ARGS = ("-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON "
                       "-DGGML_BMI2=ON")

_patch_lock = threading.Lock()  # the wrapped function is module state: one load at a time changes it


def llama_cpp_version() -> str:
    """The installed llama-cpp-python version, without importing it (importing loads the library)."""
    try:
        return importlib.metadata.version(LLAMA_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def with_extra_buffers(default_params: Callable[[], Any], extra_buffers: bool) -> Callable[[], Any]:
    """``llama_model_default_params`` with ``use_extra_bufts`` set; unchanged where the field is absent
    (versions before it existed have no extra buffer types to turn off)."""

    def params() -> Any:
        value = default_params()
        if hasattr(value, "use_extra_bufts"):
            value.use_extra_bufts = extra_buffers
        return value

    return params


@contextmanager
def model_params(extra_buffers: bool) -> Iterator[None]:
    """While active, every ``llama_cpp.Llama(...)`` loads with ``use_extra_bufts = extra_buffers``."""
    import llama_cpp.llama_cpp as low_level  # the module whose function Llama.__init__ calls

    with _patch_lock:
        original = low_level.llama_model_default_params
        low_level.llama_model_default_params = with_extra_buffers(original, extra_buffers)
        try:
            yield
        finally:
            low_level.llama_model_default_params = original
