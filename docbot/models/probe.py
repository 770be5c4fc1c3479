"""Try the embedded model in a child process before this process loads it.

A native crash in llama.cpp (a segfault on some CPUs, an illegal instruction on a build made for
another CPU) kills the whole process with no Python error to catch. So preflight loads the GGUF and
evaluates a prompt of several tokens (the crash seen on AMX CPUs needs a batch of more than one) in
a child first: about a second for SmolLM2. If the child dies by a signal, the user gets a message
that names the cause and the fix, and exit 3, instead of ``Segmentation fault``.

Run as ``python -m docbot.models.probe MODEL N_CTX EXTRA_BUFFERS BINDING`` it is that child.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from functools import lru_cache

from docbot.models.bindings import Binding, ChatRequest, binding_version, default_binding, load_model
from docbot.models.llama_params import PORTABLE_CMAKE_ARGS

PROBE_PROMPT = "Hello world, this is a test. " * 4  # several tokens: one batch of more than one
PROBE_TIMEOUT_S = 180.0  # a first load from a cold disk on a busy machine, not a normal run


def probe_embedded(model_path: str, n_ctx: int, extra_buffers: bool, binding: Binding | None = None) -> str | None:
    """None when the model loads and generates in a child process; else the problem and its fix."""
    chosen = binding or default_binding()
    if chosen is None:
        return "no llama.cpp binding is installed: run `pip install -e .[embedded]`."
    return _probe(model_path, n_ctx, extra_buffers, chosen)


@lru_cache(maxsize=8)
def _probe(model_path: str, n_ctx: int, extra_buffers: bool, binding: Binding) -> str | None:
    command = [sys.executable, "-m", "docbot.models.probe", model_path, str(n_ctx), str(int(extra_buffers)),
               binding.value]
    try:
        child = subprocess.run(command, capture_output=True, text=True, timeout=PROBE_TIMEOUT_S,
                               stdin=subprocess.DEVNULL, check=False)
    except subprocess.TimeoutExpired:
        return (f"the embedded model {model_path} did not answer a 4-token test within {PROBE_TIMEOUT_S:.0f} s "
                "in a child process; is the machine overloaded, or the file not a chat GGUF?")
    if child.returncode < 0:
        return crash_message(-child.returncode, model_path, extra_buffers, binding)
    if child.returncode != 0:
        tail = (child.stderr.strip().splitlines() or ["(no output)"])[-1]
        return f"the embedded model {model_path} could not be loaded and run in a child process: {tail}"
    return None


def crash_message(signum: int, model_path: str, extra_buffers: bool,
                  binding: Binding = Binding.XLLAMACPP) -> str:
    """What a user reads when llama.cpp killed the probe: the cause, the binding and version, the fixes."""
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    version = binding_version(binding)
    fixes = ['set "embedded_extra_buffers": false in config.json (weight repacking for the CPU\'s matrix '
             'units crashes some AMX CPUs)'] if extra_buffers else []
    if binding is Binding.LLAMA_CPP_PYTHON:
        fixes.append(f'rebuild llama.cpp for any x86-64 CPU: CMAKE_ARGS="{PORTABLE_CMAKE_ARGS}" pip install '
                     f'--force-reinstall --no-cache-dir "llama-cpp-python=={version}"')
    else:  # a prebuilt wheel: nothing to rebuild, but the other binding compiles for this very CPU
        fixes.append("try the compiled binding instead: pip uninstall xllamacpp && "
                     'pip install -e ".[llama-cpp-python]"')
    fixes.append("or use a model server instead: --backend ollama (or openai)")
    steps = "; ".join(f"({i}) {fix}" for i, fix in enumerate(fixes, 1))
    return (f"llama.cpp crashed on this CPU ({name}) while loading and running {model_path} in a test child, "
            f"with {binding.value} {version}. Nothing was sent to a model and nothing was written. "
            f"Try: {steps}.")


def main(argv: list[str]) -> int:
    """The child: load the model as the embedded backend does, and generate a few tokens."""
    model_path, n_ctx, extra_buffers = argv[0], int(argv[1]), argv[2] == "1"
    binding = Binding(argv[3]) if len(argv) > 3 else default_binding() or Binding.XLLAMACPP
    model = load_model(binding, model_path, n_ctx, extra_buffers)
    model.chat(ChatRequest(messages=[{"role": "user", "content": PROBE_PROMPT}], temperature=0.0, seed=0,
                           repeat_penalty=1.0, max_tokens=4, stop=[], response_format=None))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
