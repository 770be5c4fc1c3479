"""TEST SUPPORT: llama-cpp-python's own OpenAI-compatible server, loading models the way docbot does.

``python -m llama_cpp.server`` has no option for llama.cpp's extra buffer types, which crash llama.cpp
on AMX CPUs (docs/design.md#embedded-model). This runs the same server with them off; it takes
the same arguments. Its first log line says so, for the fixture's test to read.
"""

from __future__ import annotations

import sys

from docbot.models.llama_params import model_params

STARTED_LINE = "docbot test server: llama.cpp extra buffer types off"


def main() -> None:
    from llama_cpp.server.__main__ import main as serve

    print(STARTED_LINE, file=sys.stderr, flush=True)
    with model_params(extra_buffers=False):  # held for the server's life: every load in it is covered
        serve()


if __name__ == "__main__":
    main()
