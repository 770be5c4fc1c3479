"""What a reader's terminal shows of an example, seen from inside the child (stdlib only, like the child).

A reader's terminal shows stdout and stderr together: the lines ``logging`` writes to stderr, a warning, a
``print(..., file=sys.stderr)``. A doc that pastes what it saw pastes both. So the child puts two streams in place
of ``sys.stdout`` and ``sys.stderr`` once, before the module is imported (a ``logging.StreamHandler`` keeps the
stream it was made with), and each step reads what was written during it: stdout alone, and the terminal's view
of both in the order written. Outside a step (the module's import) writes go where they went before: the child's
own output, whose tail docbot shows when the child dies.
"""

from __future__ import annotations

import io
import sys


class Capture:
    """The current step's stdout and terminal text; ``start`` begins a step, ``stop`` ends it."""

    def __init__(self) -> None:
        self.stdout = io.StringIO()
        self.terminal = io.StringIO()
        self.active = False
        self.stderr_written = False
        self.out = _Stream(self, "stdout", sys.stdout)
        self.err = _Stream(self, "stderr", sys.stderr)

    def install(self) -> None:
        sys.stdout, sys.stderr = self.out, self.err

    def start(self) -> None:
        self.install()  # an example that replaced sys.stdout for good has it back for the next step
        self.stdout, self.terminal = io.StringIO(), io.StringIO()
        self.active, self.stderr_written = True, False

    def stop(self) -> None:
        self.out.flush()
        self.err.flush()
        self.active = False

    def write(self, name: str, text: str) -> None:
        if name == "stdout":
            self.stdout.write(text)
        elif text:
            self.stderr_written = True
        self.terminal.write(text)

    def printed(self) -> str:
        return self.stdout.getvalue()

    def shown(self) -> str:
        """What the terminal showed: stdout and stderr interleaved as written."""
        return self.terminal.getvalue()


class _Stream(io.TextIOBase):
    """``sys.stdout`` or ``sys.stderr`` for the whole run: the step's capture during a step, else the real one."""

    def __init__(self, capture: Capture, name: str, real: object) -> None:
        super().__init__()
        self._capture, self._name, self._real = capture, name, real
        self.buffer = _Bytes(self)  # a terminal's stdout takes bytes too (click.echo(b"...") writes them there)

    # what a console's sys.stdout has and a type check may ask for (beartype holds a `TextIO` to mode and name)
    mode = "w"
    line_buffering = False

    @property
    def encoding(self) -> str:  # type: ignore[override]  # a property on TextIOBase; a plain value here
        return "utf-8"

    @property
    def name(self) -> str:
        return f"<{self._name}>"

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if self._capture.active:
            self._capture.write(self._name, text)
        else:
            self._real.write(text)  # type: ignore[attr-defined]
        return len(text)

    def flush(self) -> None:
        if not self._capture.active:
            self._real.flush()  # type: ignore[attr-defined]


class _Bytes(io.RawIOBase):
    """The binary side of a ``_Stream``: bytes written are text, decoded as UTF-8 (the terminal's encoding)."""

    def __init__(self, text: _Stream) -> None:
        super().__init__()
        self._text = text

    def writable(self) -> bool:
        return True

    def write(self, data: bytes) -> int:  # type: ignore[override]
        self._text.write(bytes(data).decode("utf-8", "replace"))
        return len(data)
